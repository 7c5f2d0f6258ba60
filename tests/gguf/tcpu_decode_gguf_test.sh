#!/usr/bin/env bash
# tcpu-decode --model FILE.gguf end to end on the host: the generated Llama checkpoint written
# as GGUF (llama.cpp's layout, tokenizer in the metadata) gives the reference decoder's ids
# (int8 and int4, exactly as the safetensors checkpoint does), the same text as the checkpoint
# directory with its tokenizer.json, Q8_0 matrices decode, and a damaged file is an error
# naming it.
set -uo pipefail
decode="$1" gguf="$2" gguf_q8_0="$3" model="$(dirname "$4")"  # $4: the checkpoint's config.json
tokenizer_dir="$(dirname "$5")" expected_ids="$6" expected_int4_ids="$7"
tmp="${TEST_TMPDIR:-$(mktemp -d)}"
failures=0
check() {  # check NAME CONDITION...
  local name="$1"; shift
  if "$@"; then echo "ok   $name"; else echo "FAIL $name"; failures=$((failures + 1)); fi
}

"$decode" --model "$gguf" --prompt-ids 1,2,3,4,5,6,7,8 --max-new-tokens 40 > "$tmp/ids.txt"
check "decodes the .gguf (exit 0)" test $? -eq 0
check "ids equal the reference decoder's" test "$(head -n 1 "$tmp/ids.txt")" = "$(cat "$expected_ids")"

"$decode" --model "$gguf" --prompt-ids 1,2,3,4,5,6,7,8 --max-new-tokens 40 --weights int4 \
  > "$tmp/int4.txt"
check "int4 ids equal the int4 reference decoder's" \
  test "$(head -n 1 "$tmp/int4.txt")" = "$(cat "$expected_int4_ids")"

# Text in and out: the tokenizer comes from the GGUF metadata.
"$decode" --model "$gguf" --prompt "Hello, world" --max-new-tokens 8 > "$tmp/gguf_text.txt" \
  2> "$tmp/gguf_err.txt"
check "text mode on the .gguf (exit 0)" test $? -eq 0
"$decode" --model "$model" --tokenizer "$tokenizer_dir" --prompt "Hello, world" \
  --max-new-tokens 8 > "$tmp/dir_text.txt" 2> "$tmp/dir_err.txt"
check "the same text as the checkpoint directory with tokenizer.json" \
  cmp -s "$tmp/gguf_text.txt" "$tmp/dir_text.txt"
check "the same prompt and generated token counts" \
  test "$(grep '^prompt: ' "$tmp/gguf_err.txt")" = "$(grep '^prompt: ' "$tmp/dir_err.txt")"

"$decode" --model "$gguf_q8_0" --prompt-ids 1,2,3,4,5,6,7,8 --max-new-tokens 40 > "$tmp/q8.txt"
check "Q8_0 .gguf decodes (exit 0)" test $? -eq 0
check "Q8_0: 40 ids" test "$(head -n 1 "$tmp/q8.txt" | tr ',' '\n' | wc -l)" -eq 40

head -c 100000 "$gguf" > "$tmp/truncated.gguf"
"$decode" --model "$tmp/truncated.gguf" --prompt-ids 1,2 --max-new-tokens 2 > /dev/null \
  2> "$tmp/err.txt"
check "a truncated .gguf exits 1" test $? -eq 1
check "naming the file" grep -qF "$tmp/truncated.gguf" "$tmp/err.txt"

if [[ $failures -ne 0 ]]; then echo "$failures check(s) failed"; exit 1; fi
echo "all checks passed"
