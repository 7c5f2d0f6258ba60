#!/usr/bin/env bash
# Runs llvm-mca on one marked inner loop of a kernel and prints int8 MACs per cycle.
#   mca.sh <llvm-mca> <kernel.s> <loop> <MACs per iteration> <target MACs/cycle> [llvm-mca args]
# The loop is the innermost one whose body holds the marker "tcpu-mca-loop <loop>" (the
# TCPU_MCA_LOOP macro, compiled in with -DTCPU_LLVM_MCA): from its label to the branch back.
# Extra arguments go to llvm-mca (e.g. -timeline, -bottleneck-analysis, -mcpu=neoverse-v2).
set -euo pipefail
mca=$1 asm=$2 loop=$3 macs=$4 target=$5
shift 5

body=$(awk -v name="$loop" '
  /^\.?L[A-Za-z0-9_$.]*:/ { label = $0; sub(/:.*/, "", label); label_line = NR }
  { lines[NR] = $0 }
  !found && index($0, "tcpu-mca-loop " name) > 0 { found = 1; loop_label = label; start = label_line }
  found == 1 && NR > start && $0 ~ /^[ \t]+b/ && $NF == loop_label { stop = NR; found = 2 }
  END {
    if (found != 2) exit 1
    for (i = start + 1; i <= stop; i++) {
      l = lines[i]
      if (l ~ /^[ \t]*\/\// || l ~ /^[ \t]*$/ || l ~ /^\.?L[A-Za-z0-9_$.]*:/ || l ~ /^[ \t]*\./) continue
      sub(/[ \t]*\/\/.*/, "", l)
      print l
    }
  }' "$asm") || { echo "mca: loop '$loop' not found in $asm" >&2; exit 1; }

echo "== $loop: innermost loop of $asm =="
echo "$body"
echo
report=$("$mca" -mtriple=aarch64 -mcpu=cortex-a720 -iterations=1000 "$@" <<<"$body")
echo "$report"
echo
awk -v macs="$macs" -v target="$target" -v loop="$loop" '
  /^Iterations:/ { iterations = $2 }
  /^Total Cycles:/ { cycles = $3 }
  END {
    per_iteration = cycles / iterations
    rate = macs / per_iteration
    verdict = "no target"
    if (target > 0) verdict = (rate >= target) ? "target >= " target " met" : "target >= " target " NOT MET"
    printf "%s: %d int8 MACs / %.2f cycles per iteration = %.1f MACs/cycle (%s)\n",
           loop, macs, per_iteration, rate, verdict
  }' <<<"$report"
