#!/usr/bin/env bash
# Writes a CMake toolchain for aarch64 with the SDK's pinned clang/lld, sysroot and qemu:
#
#   bazel run //toolchains/cmake:export -- DIR [--variant NAME] [--link]
#
# DIR gets llvm_toolchain/, sysroot_aarch64/ and qemu_user/ (copies of the pinned package
# trees), bin/clang, bin/clang++, bin/llvm-ranlib (launchers) and tcpu-aarch64.cmake, whose
# CMAKE_CROSSCOMPILING_EMULATOR runs qemu-aarch64 with the -cpu of QEMU variant NAME (default
# vl256; the variants of tests/qemu/variants.bzl). --link symlinks the trees instead of
# copying them (for tests: valid while Bazel's output base lives).
set -euo pipefail

usage() {
  echo "usage: bazel run //toolchains/cmake:export -- DIR [--variant NAME] [--link]" >&2
  exit 2
}

runfiles=${RUNFILES_DIR:-${TEST_SRCDIR:-$0.runfiles}}
here=$runfiles/tcpu_sdk/toolchains/cmake
[[ -f $here/tcpu-aarch64.cmake.in ]] || { echo "export: runfiles not found at $runfiles" >&2; exit 2; }

out="" variant=vl256 link=0
while (($#)); do
  case $1 in
    --variant) [[ $# -ge 2 ]] || usage; variant=$2; shift 2 ;;
    --variant=*) variant=${1#--variant=}; shift ;;
    --link) link=1; shift ;;
    -h | --help) usage ;;
    -*) echo "export: unknown option '$1'" >&2; usage ;;
    *) [[ -z $out ]] || usage; out=$1; shift ;;
  esac
done
[[ -n $out ]] || usage
# `bazel run` starts in the runfiles: a relative DIR means the caller's directory.
[[ $out == /* ]] || out=${BUILD_WORKING_DIRECTORY:-$PWD}/$out

cpu=$(awk -v v="$variant" '$1 == v { print $2 }' "$here/qemu_variants.txt")
if [[ -z $cpu ]]; then
  echo "export: unknown QEMU variant '$variant'; one of: $(cut -d' ' -f1 "$here/qemu_variants.txt" | tr '\n' ' ')" >&2
  exit 2
fi

mkdir -p "$out/bin"
for tree in llvm_toolchain sysroot_aarch64 qemu_user; do
  [[ -d $runfiles/$tree ]] || { echo "export: $tree missing from the runfiles" >&2; exit 2; }
  rm -rf "${out:?}/$tree"
  if ((link)); then
    ln -s "$runfiles/$tree" "$out/$tree"
  else
    # Dereference: runfiles are symlinks into Bazel's output base.
    cp -rL "$runfiles/$tree" "$out/$tree"
  fi
done

launcher() {  # launcher NAME COMMAND...: a script in bin/ that runs COMMAND from DIR.
  local name=$1
  shift
  printf '#!/bin/sh\n# Written by //toolchains/cmake:export.\nroot=$(dirname "$(dirname "$(readlink -f "$0")")")\nexec %s "$@"\n' \
      "$*" >"$out/bin/$name"
  chmod +x "$out/bin/$name"
}
launcher clang '"$root/llvm_toolchain/bin/clang"'
launcher clang++ '"$root/llvm_toolchain/bin/clang" --driver-mode=g++'
launcher llvm-ranlib '"$root/llvm_toolchain/bin/llvm-ar" s'

sed -e "s|@QEMU_CPU@|$cpu|g" -e "s|@VARIANT@|$variant|g" "$here/tcpu-aarch64.cmake.in" \
    >"$out/tcpu-aarch64.cmake"
echo "export: wrote $out/tcpu-aarch64.cmake (qemu -cpu $cpu)"
