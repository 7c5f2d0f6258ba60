#!/usr/bin/env bash
# Runs the pinned llvm-mca, e.g. for loop throughput on the board's core model:
#   bazel run //tools/llvm_mca -- -mcpu=cortex-a720 -iterations=100 path/to/loop.s
# Relative paths are taken from the workspace root.
set -euo pipefail
runfiles=${RUNFILES_DIR:-$0.runfiles}
tool=$(cd "$runfiles/llvm_toolchain/bin" && pwd)/llvm-mca
[[ -x $tool ]] || { echo "llvm_mca: pinned llvm-mca not found in runfiles ($runfiles)" >&2; exit 1; }
cd "${BUILD_WORKSPACE_DIRECTORY:-.}"
exec "$tool" "$@"
