#!/usr/bin/env bash
# tcpu-tokenize end to end: the ids of the corpus's first text equal the oracle's
# (@lenml/tokenizers, //engine/tokenizer/tests), decoding gives the text back for both real
# tokenizers, and bad input gives an error naming it (exit 2: command line or id list,
# exit 1: tokenizer or text).
set -uo pipefail
tokenize="$1" qwen3="$2" llama2="$3" qwen3_oracle="$4" llama2_oracle="$5"
tmp="${TEST_TMPDIR:-$(mktemp -d)}"
failures=0
check() {  # check NAME CONDITION...
  local name="$1"; shift
  if "$@"; then echo "ok   $name"; else echo "FAIL $name"; failures=$((failures + 1)); fi
}
# first_ids ORACLE KEY: the ids list KEY ("ids" or "ids_with_special") of the oracle's first
# case, comma-separated (the file is JSON with one number per line).
first_ids() {
  awk -v key="\"$2\": \\[" '$0 ~ key { on = 1; next } on && /\]/ { exit } on { gsub(/[ ,]/, ""); print }' \
    "$1" | paste -sd, -
}
text="Hello, world! This is a plain English sentence."

printf '%s' "$text" | "$tokenize" --tokenizer "$qwen3" > "$tmp/q.txt"
check "qwen3 ids equal the oracle's" test "$(cat "$tmp/q.txt")" = "$(first_ids "$qwen3_oracle" ids)"
printf '%s' "$text" | "$tokenize" --tokenizer "$llama2" --add-special-tokens > "$tmp/l.txt"
check "llama2 ids with BOS equal the oracle's" \
  test "$(cat "$tmp/l.txt")" = "$(first_ids "$llama2_oracle" ids_with_special)"
# The directory works as well as the file, and underscores as well as hyphens.
printf '%s' "$text" | "$tokenize" --tokenizer "$(dirname "$llama2")" --add_special_tokens > "$tmp/l2.txt"
check "a directory and --add_special_tokens" cmp -s "$tmp/l.txt" "$tmp/l2.txt"

multilingual=$'Grüße 你好 👨‍👩‍👧 مرحبا नमस्ते\n\tcode(x) <|im_end|>  end'
for tok in "$qwen3" "$llama2"; do
  printf '%s' "$multilingual" | "$tokenize" --tokenizer "$tok" > "$tmp/ids.txt"
  "$tokenize" --tokenizer "$tok" --decode < "$tmp/ids.txt" > "$tmp/back.txt"
  check "round trip through $(basename "$(dirname "$(dirname "$tok")")")" \
    test "$(cat "$tmp/back.txt")" = "$multilingual"
done
# <|im_end|> is special in Qwen3: --skip-special-tokens leaves it out.
echo "151645,9707" | "$tokenize" --tokenizer "$qwen3" --decode --skip-special-tokens > "$tmp/s.txt"
check "--skip-special-tokens" test "$(cat "$tmp/s.txt")" = "Hello"

expect_error() {  # expect_error EXIT_CODE MESSAGE STDIN ARGS...
  local code="$1" message="$2" input="$3"; shift 3
  printf '%s' "$input" | "$tokenize" "$@" > "$tmp/o.txt" 2> "$tmp/e.txt"
  local got=$?
  check "exit $code and '$message' for: $*" \
    bash -c "[[ $got -eq $code ]] && grep -qF -- \"\$1\" \"\$2\"" _ "$message" "$tmp/e.txt"
}
# Errors about the input, not the tokenizer, use Llama 2's (Qwen3's takes seconds to load under
# the sanitizers).
expect_error 2 "--tokenizer is required" "a"
expect_error 2 "unknown flag '--vocab'" "a" --tokenizer "$qwen3" --vocab 3
expect_error 2 "--decode: Illegal value" "a" --tokenizer "$qwen3" --decode=maybe
expect_error 1 "not valid UTF-8: byte 0xFF at offset 2" $'ab\xff' --tokenizer "$llama2"
expect_error 2 "'x' in the id list" "1,x" --tokenizer "$llama2" --decode
expect_error 2 "an empty item" "1,,2" --tokenizer "$llama2" --decode
expect_error 1 "id 99999999 at position 1 is not in the vocabulary" "1,99999999" --tokenizer "$llama2" --decode
expect_error 1 "TCPU_ERR_IO" "a" --tokenizer "$tmp/nowhere.json"
echo '{"model": {"type": "WordPiece"}}' > "$tmp/tokenizer.json"
expect_error 1 "model \"WordPiece\" is not supported" "a" --tokenizer "$tmp/tokenizer.json"
exit $((failures > 0))
