#!/usr/bin/env bash
# Runs e2e_test.py with the pinned CPython (see BUILD.bazel); arguments are passed on.
set -euo pipefail
exec ../python3/bin/python3 -B -I -S tools/deploy/tests/e2e_test.py "$@"
