#!/usr/bin/env bash
# `bazel run //tests/triton_replay/synthetic:make_corpus [-- --out DIR]`: make_corpus.py on the
# pinned CPython, reading kernels/triton from the workspace and writing good/ and broken/ there.
set -euo pipefail
runfiles=${RUNFILES_DIR:-$0.runfiles}
exec "$runfiles/python3/bin/python3" -I -S "$runfiles/tcpu_sdk/tests/triton_replay/synthetic/make_corpus.py" "$@"
