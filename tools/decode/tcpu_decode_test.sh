#!/usr/bin/env bash
# tcpu-decode end to end on the host: the generated checkpoint's ids equal the reference
# decoder's, --dump-logits writes steps x vocab fp32 values, the report lines are there, and
# bad flags or inputs give an error naming them (exit 2) or the failing file (exit 1).
set -uo pipefail
decode="$1" model="$(dirname "$2")" expected_ids="$3"  # $2: the checkpoint's config.json
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
for line in "^load: " "^prefill: 8 tokens, " "^decode: 39 tokens, " "^weights read per token: 3326784 bytes" \
    "^kernels: gemv_bf16_w8:ref flash_attn_decode_bf16:ref rms_norm_bf16:ref swiglu_bf16:ref (threads: 2)"; do
  check "prints '$line'" grep -q "$line" "$tmp/out.txt"
done

expect_error() {  # expect_error EXIT_CODE MESSAGE ARGS...
  local code="$1" message="$2"; shift 2
  "$decode" "$@" > "$tmp/o.txt" 2> "$tmp/e.txt"
  local got=$?
  check "exit $code and '$message' for: $*" \
    bash -c "[[ $got -eq $code ]] && grep -qF -- \"\$1\" \"\$2\"" _ "$message" "$tmp/e.txt"
}
expect_error 2 "--model, --prompt-ids and --max-new-tokens are required" --model "$model"
expect_error 2 "--prompt-ids: '1,x' is not a comma-separated list" --model "$model" --prompt-ids 1,x --max-new-tokens 2
expect_error 2 "--prompt-ids: '1,,2'" --model "$model" --prompt-ids 1,,2 --max-new-tokens 2
expect_error 2 "--max-new-tokens: '0' is not a positive integer" --model "$model" --prompt-ids 1 --max-new-tokens 0
expect_error 2 "--threads: '0'" --model "$model" --prompt-ids 1 --max-new-tokens 2 --threads 0
expect_error 2 "unknown flag '--temperature'" --model "$model" --prompt-ids 1 --max-new-tokens 2 --temperature 1
expect_error 2 "--prompt-ids: id 5000 is outside the vocabulary [0, 1024)" --model "$model" --prompt-ids 5000 --max-new-tokens 2
expect_error 1 "TCPU_ERR_IO" --model "$tmp/nowhere" --prompt-ids 1 --max-new-tokens 2
expect_error 1 "max_position_embeddings" --model "$model" --prompt-ids 1 --max-new-tokens 100000
expect_error 1 "--dump-logits: cannot write" --model "$model" --prompt-ids 1 --max-new-tokens 2 --dump-logits "$tmp/no/such/dir/x"
exit $((failures > 0))
