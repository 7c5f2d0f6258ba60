#!/usr/bin/env bash
# Runs a Python test with the pinned CPython: run_python.sh PYTHON SCRIPT ARGS...
set -euo pipefail
python=$1
shift
exec "$python" "$@"
