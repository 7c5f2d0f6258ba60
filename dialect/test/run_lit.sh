#!/usr/bin/env bash
# Runs lit tests with the pinned CPython and the given tools.
#
#   run_lit.sh PYTHON3 LIT_PY QEMU|- TOOL_UNDER_TEST... -- HOST_TOOL... -- TEST.mlir...
#
# Every tool is exposed to the tests under its file name (tcpu-opt, tcpu-compile, FileCheck,
# ...) through a wrapper script in one directory, lit's PATH. With QEMU (not "-") the tools
# under test are aarch64 binaries, run under qemu-aarch64 -cpu max.
set -euo pipefail
python3=$1 lit_py=$2 qemu=$3
shift 3
tools="${TEST_TMPDIR:?run_lit.sh runs under bazel test}/tools"
mkdir -p "$tools"
wrap() {  # wrap NAME COMMAND...: a script NAME that runs COMMAND with its arguments.
  local name=$1
  shift
  printf '#!/usr/bin/env bash\nexec %s "$@"\n' "$*" >"$tools/$name"
  chmod +x "$tools/$name"
}
while (($#)) && [[ $1 != -- ]]; do
  if [[ $qemu == - ]]; then
    wrap "${1##*/}" "$PWD/$1"
  else
    # The point of these runs is the cross-built tool: make sure it is an aarch64 ELF
    # (e_machine 183 at offset 18), so a host build can never pass in its place.
    machine=$(od -An -t u2 -j 18 -N 2 "$1" | tr -d ' ')
    if [[ $machine != 183 ]]; then
      echo "run_lit.sh: $1 is not an aarch64 ELF (e_machine $machine)" >&2
      exit 1
    fi
    wrap "${1##*/}" "$PWD/$qemu" -cpu max "$PWD/$1"
  fi
  shift
done
(($#)) && shift || { echo "run_lit.sh: expected -- after the tools under test" >&2; exit 2; }
while (($#)) && [[ $1 != -- ]]; do
  wrap "${1##*/}" "$PWD/$1"
  shift
done
(($#)) && shift || { echo "run_lit.sh: expected -- before the tests" >&2; exit 2; }
(($#)) || { echo "run_lit.sh: no test files given" >&2; exit 2; }

export TCPU_LIT_TOOLS="$tools"
# Isolated mode keeps host site-packages out, and with them the script's own directory: put
# lit's package directory on sys.path explicitly.
lit_dir="$PWD/${lit_py%/*}"
launch='import sys; sys.path.insert(0, sys.argv.pop(1)); from lit.main import main; main()'
exec "$python3" -I -S -c "$launch" "$lit_dir" -v "$@"
