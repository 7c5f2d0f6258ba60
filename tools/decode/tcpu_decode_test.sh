#!/usr/bin/env bash
# tcpu-decode end to end on the host: the generated checkpoint's ids equal the reference
# decoder's (with int8 and with int4 weights), --dump-logits writes steps x vocab fp32 values,
# the report lines are there; text
# in and out with a real (small byte-level) tokenizer: the same ids as the ids mode, the text
# of those ids streamed, EOS stops, the same seed gives the same text; and bad flags or
# inputs give an error naming them (exit 2) or the failing file (exit 1).
set -uo pipefail
decode="$1" model="$(dirname "$2")" expected_ids="$3"  # $2: the checkpoint's config.json
tokenize="$4" tokenizer_dir="$(dirname "$5")"  # $5: the small tokenizer's tokenizer.json
expected_int4_ids="$6"
tmp="${TEST_TMPDIR:-$(mktemp -d)}"
failures=0
check() {  # check NAME CONDITION...
  local name="$1"; shift
  if "$@"; then echo "ok   $name"; else echo "FAIL $name"; failures=$((failures + 1)); fi
}

"$decode" --model "$model" --prompt-ids 1,2,3,4,5,6,7,8 --max-new-tokens 40 \
  --threads 2 --dump-logits "$tmp/logits.bin" > "$tmp/out.txt" 2> "$tmp/err.txt"
check "decodes (exit 0)" test $? -eq 0
check "ids equal the reference decoder's" test "$(head -n 1 "$tmp/out.txt")" = "$(cat "$expected_ids")"
# 8 prompt steps + 39 decode steps, vocab 1024, 4 bytes each.
check "logits file is steps x vocab fp32" test "$(stat -c %s "$tmp/logits.bin")" -eq $((47 * 1024 * 4))
for line in "^load: " "^prefill: 8 tokens, " "^decode: 39 tokens, " \
    "^weights read per token: 541120 bytes (0.5 MB, int8)" \
    "^kernels: gemv_bf16_w8:ref gemm_i8:ref flash_attn_decode_bf16:ref rms_norm_bf16:ref swiglu_bf16:ref (threads: 2)"; do
  check "prints '$line'" grep -qF -- "${line#^}" "$tmp/out.txt"
done

# --weights int4: the int4 reference decode's ids, 0.5625 bytes per weight, the W4A8 kernels.
"$decode" --model "$model" --prompt-ids 1,2,3,4,5,6,7,8 --max-new-tokens 40 --weights int4 \
  > "$tmp/int4.txt" 2> /dev/null
check "--weights int4 decodes (exit 0)" test $? -eq 0
check "int4 ids equal the int4 reference decoder's" test "$(head -n 1 "$tmp/int4.txt")" = "$(cat "$expected_int4_ids")"
for line in "weights read per token: 297408 bytes (0.3 MB, int4)" \
    "kernels: gemv_w4a8:ref gemm_w4a8:ref flash_attn_decode_bf16:ref"; do
  check "prints '$line'" grep -qF -- "$line" "$tmp/int4.txt"
done

expect_error() {  # expect_error EXIT_CODE MESSAGE ARGS...
  local code="$1" message="$2"; shift 2
  "$decode" "$@" > "$tmp/o.txt" 2> "$tmp/e.txt"
  local got=$?
  check "exit $code and '$message' for: $*" \
    bash -c "[[ $got -eq $code ]] && grep -qF -- \"\$1\" \"\$2\"" _ "$message" "$tmp/e.txt"
}
expect_error 2 "--model and one of --prompt, --prompt-file, --prompt-ids, --messages, --chat are required" --model "$model"
expect_error 2 "--model and one of" --model "$model" --prompt "a" --prompt-ids 1
expect_error 2 "--prompt-ids: '1,x' is not a comma-separated list" --model "$model" --prompt-ids 1,x --max-new-tokens 2
expect_error 2 "--prompt-ids: '1,,2'" --model "$model" --prompt-ids 1,,2 --max-new-tokens 2
expect_error 2 "--max-new-tokens: 0 is not in [1, 2^30]" --model "$model" --prompt-ids 1 --max-new-tokens 0
expect_error 2 "--max-new-tokens: Illegal value 'x'" --model "$model" --prompt-ids 1 --max-new-tokens x
expect_error 2 "--threads: 5000 is not in [0, 1024]" --model "$model" --prompt-ids 1 --max-new-tokens 2 --threads 5000
expect_error 2 "unknown flag '--temp'" --model "$model" --prompt-ids 1 --max-new-tokens 2 --temp 1
expect_error 2 "--weights: 'int5' is not int8 or int4" --model "$model" --prompt-ids 1 --weights int5
expect_error 2 "top_p = 2, expected in (0, 1]" --model "$model" --prompt-ids 1 --temperature 1 --top-p 2
expect_error 2 "temperature = -1" --model "$model" --prompt-ids 1 --temperature=-1
expect_error 2 "--prompt-ids: id 5000 is outside the vocabulary [0, 1024)" --model "$model" --prompt-ids 5000 --max-new-tokens 2
expect_error 1 "TCPU_ERR_IO" --model "$tmp/nowhere" --prompt-ids 1 --max-new-tokens 2
expect_error 1 "max_position_embeddings" --model "$model" --prompt-ids 1 --max-new-tokens 100000
expect_error 1 "--dump-logits: cannot write" --model "$model" --prompt-ids 1 --max-new-tokens 2 --dump-logits "$tmp/no/such/dir/x"

# Text in and out. A checkpoint directory with the small tokenizer beside the weights.
text_model="$tmp/text_model"
mkdir -p "$text_model"
for f in "$model"/* "$tokenizer_dir"/*; do ln -sf "$(readlink -f "$f")" "$text_model/"; done
prompt=$'Once upon a time, 你好 👋\n'
"$decode" --model "$text_model" --prompt "$prompt" --max-new-tokens 24 --print-ids \
  > "$tmp/text.txt" 2> "$tmp/text_err.txt"
check "text mode (exit 0)" test $? -eq 0
text_ids="$(tail -n 1 "$tmp/text.txt")"
printf '%s' "$prompt" | "$tokenize" --tokenizer "$tokenizer_dir" --add-special-tokens > "$tmp/prompt_ids.txt"
"$decode" --model "$model" --prompt-ids "$(cat "$tmp/prompt_ids.txt")" --max-new-tokens 24 > "$tmp/ids_mode.txt"
check "text mode generates the ids mode's ids" test "$text_ids" = "$(head -n 1 "$tmp/ids_mode.txt")"
echo "$text_ids" | "$tokenize" --tokenizer "$tokenizer_dir" --decode --skip-special-tokens > "$tmp/expected_text.txt"
check "the streamed text is the text of those ids" \
  test "$(head -n -1 "$tmp/text.txt")" = "$(cat "$tmp/expected_text.txt")"
check "report on stderr" grep -q "^prompt: $(tr ',' '\n' < "$tmp/prompt_ids.txt" | wc -l) tokens; generated: 24 tokens" "$tmp/text_err.txt"
printf '%s' "$prompt" > "$tmp/prompt.txt"
"$decode" --model "$text_model" --prompt-file "$tmp/prompt.txt" --max-new-tokens 24 > "$tmp/file.txt" 2> /dev/null
check "--prompt-file gives the same text" test "$(cat "$tmp/file.txt")" = "$(head -n -1 "$tmp/text.txt")"
"$decode" --model "$model" --tokenizer "$tokenizer_dir" --prompt "$prompt" --max-new-tokens 24 > "$tmp/tok.txt" 2> /dev/null
check "--tokenizer elsewhere gives the same text" test "$(cat "$tmp/tok.txt")" = "$(cat "$tmp/file.txt")"

# EOS: a tokenizer_config.json naming the third generated token as EOS stops right there.
third=$(echo "$text_ids" | cut -d, -f3)
eos_token=$(grep -m1 -E "^   \".*\": $third,?\$" "$tokenizer_dir/tokenizer.json" | sed -E 's/^   (".*"): [0-9]+,?$/\1/')
eos_model="$tmp/eos_model"
mkdir -p "$eos_model"
for f in "$text_model"/*; do ln -sf "$(readlink -f "$f")" "$eos_model/"; done
rm "$eos_model/tokenizer_config.json"
echo "{\"eos_token\": $eos_token}" > "$eos_model/tokenizer_config.json"
"$decode" --model "$eos_model" --prompt "$prompt" --max-new-tokens 24 --print-ids > "$tmp/eos.txt" 2> "$tmp/eos_err.txt"
# The ids before the first EOS (the EOS itself is not part of the text or the ids).
IFS=, read -r -a all_ids <<< "$text_ids"
before_eos=()
for id in "${all_ids[@]}"; do [[ $id == "$third" ]] && break; before_eos+=("$id"); done
check "stops at EOS (token $third, $eos_token)" \
  test "$(tail -n 1 "$tmp/eos.txt")" = "$(IFS=,; echo "${before_eos[*]}")"
check "says it stopped at EOS" grep -q "(stopped at EOS)" "$tmp/eos_err.txt"

# Sampling: the same seed gives the same text, another seed another text.
sample() {
  "$decode" --model "$text_model" --prompt "$prompt" --max-new-tokens 24 --print-ids \
    --temperature 0.9 --top-k 40 --top-p 0.95 --min-p 0.02 --repetition-penalty 1.1 --seed "$1" 2> /dev/null
}
sample 7 > "$tmp/s7a.txt"; sample 7 > "$tmp/s7b.txt"; sample 8 > "$tmp/s8.txt"
check "same seed, same text" cmp -s "$tmp/s7a.txt" "$tmp/s7b.txt"
check "other seed, other text" bash -c "! cmp -s '$tmp/s7a.txt' '$tmp/s8.txt'"
check "sampled ids differ from greedy" test "$(tail -n 1 "$tmp/s7a.txt")" != "$text_ids"

expect_error 1 "not valid UTF-8: byte 0xFF at offset 1" --model "$text_model" --prompt $'a\xffb'
expect_error 1 "cannot read $model/tokenizer.json" --model "$model" --prompt "hello"
expect_error 1 "--prompt-file: cannot read" --model "$text_model" --prompt-file "$tmp/none.txt"
exit $((failures > 0))
