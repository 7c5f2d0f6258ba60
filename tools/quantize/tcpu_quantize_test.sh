#!/usr/bin/env bash
# tcpu-quantize end to end on the host: the generated checkpoint quantized to int8 and to int4
# decodes with tcpu-decode to the ids the checkpoint itself gives with the same --weights; the
# directory holds the copied config.json and quantized again gives the same file; loading it with the other --weights is refused
# naming both; bad flags give an error naming them (exit 2), a bad model its problem (exit 1).
set -uo pipefail
quantize="$1" decode="$2" model="$(dirname "$3")"  # $3: the checkpoint's config.json
tmp="${TEST_TMPDIR:-$(mktemp -d)}"
failures=0
check() {  # check NAME CONDITION...
  local name="$1"; shift
  if "$@"; then echo "ok   $name"; else echo "FAIL $name"; failures=$((failures + 1)); fi
}
ids() {  # ids MODEL WEIGHTS: the first line tcpu-decode prints for 12 new ids
  "$decode" --model "$1" --weights "$2" --prompt-ids 1,2,3,4 --max-new-tokens 12 2> /dev/null |
    head -n 1
}

for weights in int8 int4; do
  "$quantize" --model "$model" --weights "$weights" -o "$tmp/$weights" 2> "$tmp/err.txt"
  check "$weights: quantizes (exit 0)" test $? -eq 0
  check "$weights: config.json copied" cmp -s "$model/config.json" "$tmp/$weights/config.json"
  expected="$(ids "$model" "$weights")"
  check "$weights: the checkpoint decodes" test -n "$expected"
  check "$weights: the same ids from the pre-quantized files" \
    test "$(ids "$tmp/$weights" "$weights")" = "$expected"
done

# A pre-quantized model is a model too: quantized again it gives the same bytes.
"$quantize" --model "$tmp/int8" --weights int8 -o "$tmp/int8_again" 2> /dev/null
check "quantizing the int8 files again gives the same file" \
  cmp -s "$tmp/int8/model.safetensors" "$tmp/int8_again/model.safetensors"

"$decode" --model "$tmp/int8" --weights int4 --prompt-ids 1 --max-new-tokens 2 \
  > /dev/null 2> "$tmp/err.txt"
check "int8 files loaded as int4: exit 1" test $? -eq 1
check "... naming both kinds" grep -qF "holds int8 weights pre-quantized" "$tmp/err.txt"

expect_error() {  # expect_error EXIT_CODE MESSAGE ARGS...
  local code="$1" message="$2"; shift 2
  "$quantize" "$@" > /dev/null 2> "$tmp/e.txt"
  local got=$?
  check "exit $code and '$message' for: $*" \
    bash -c "[[ $got -eq $code ]] && grep -qF -- \"\$1\" \"\$2\"" _ "$message" "$tmp/e.txt"
}
expect_error 2 "--model is required" -o "$tmp/x"
expect_error 2 "-o (--out) is required" --model "$model"
expect_error 2 "--weights: 'int5' is not int8 or int4" --model "$model" --weights int5 -o "$tmp/x"
expect_error 2 "unknown flag '--weight'" --model "$model" --weight int8 -o "$tmp/x"
expect_error 1 "is not a checkpoint directory" --model "$tmp/nowhere" -o "$tmp/x"
expect_error 1 "is the model directory itself" --model "$tmp/int8" -o "$tmp/int8/"
expect_error 1 "cannot create" --model "$model" -o "$tmp/no/such/parent"

if [[ $failures -ne 0 ]]; then echo "$failures check(s) failed"; exit 1; fi
echo "all checks passed"
