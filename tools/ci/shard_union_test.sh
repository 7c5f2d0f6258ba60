#!/usr/bin/env bash
# Runs shard_union_test.py with the pinned CPython (see BUILD.bazel); arguments are passed on.
set -euo pipefail
python=$1
shift
exec "$python" -B -I -S tools/ci/shard_union_test.py "$@"
