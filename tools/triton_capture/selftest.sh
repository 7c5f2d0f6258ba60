#!/usr/bin/env bash
# Usage: selftest.sh PYTHON3 — runs selftest.py with the pinned interpreter, isolated from the
# host's site-packages, without the tests that depend on wall-clock time.
set -euo pipefail
exec "$1" -B -E -s tools/triton_capture/selftest.py --no-timing
