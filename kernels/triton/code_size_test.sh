#!/bin/bash
# The code-size gate of the Triton kernels: every object triton_kernel_library compiled from
# kernels/triton/*.ttir (baseline and per-target variants) against its budget in
# code_size_budgets.tsv, and none over 512 KiB. Object size grows with the straight-line code
# the lowering emits, which is also what tcpu-compile's time grows with (tiles unrolled
# whole once took minutes and megabytes); bytes are exact where a clock is not.
# Usage: code_size_test.sh BUDGETS.tsv OBJECT...
set -euo pipefail
budgets="$1"
shift
readonly cap=$((512 * 1024))
failed=0
declare -A budget
while IFS=$'\t' read -r name bytes; do
  [[ -z "$name" || "$name" == \#* ]] && continue
  budget["$name"]="$bytes"
done <"$budgets"
printf '%-34s %10s %10s\n' object bytes budget
for object in "$@"; do
  name="$(basename "$object")"
  bytes="$(stat -L -c %s "$object")"
  limit="${budget[$name]:-}"
  printf '%-34s %10d %10s\n' "$name" "$bytes" "${limit:--}"
  if [[ -z "$limit" ]]; then
    echo "FAIL: $name has no budget in $(basename "$budgets") (add a line: name<TAB>bytes)"
    failed=1
  elif ((bytes > limit)); then
    echo "FAIL: $name is $bytes bytes, over its budget of $limit"
    failed=1
  elif ((limit > cap)); then
    echo "FAIL: the budget of $name ($limit) is over the 512 KiB cap"
    failed=1
  fi
done
if (($# == 0)); then
  echo "FAIL: no objects given"
  failed=1
fi
exit "$failed"
