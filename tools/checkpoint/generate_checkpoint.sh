#!/usr/bin/env bash
# bazel run //tools/checkpoint:generate_checkpoint -- --out DIR [flags]: runs
# generate_checkpoint.py on the pinned CPython (relative --out paths are taken from where
# bazel was run).
set -euo pipefail
here="${BASH_SOURCE[0]}.runfiles/tcpu_sdk"
[[ -d "$here" ]] || here="${RUNFILES_DIR:-$PWD}/tcpu_sdk"
cd "${BUILD_WORKING_DIRECTORY:-$PWD}"
exec "$here/external/python3/bin/python3" -I -S "$here/tools/checkpoint/generate_checkpoint.py" "$@"
