#!/usr/bin/env bash
# `bazel run //tests/triton_replay:choose_slice -- MANIFEST [options]`: choose_slice.py on the
# pinned CPython, run from the directory `bazel run` was invoked in.
set -euo pipefail
runfiles=${RUNFILES_DIR:-$0.runfiles}
cd "${BUILD_WORKING_DIRECTORY:-.}"
exec "$runfiles/python3/bin/python3" -I -S "$runfiles/tcpu_sdk/tests/triton_replay/choose_slice.py" "$@"
