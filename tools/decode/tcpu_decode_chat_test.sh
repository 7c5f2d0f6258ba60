#!/usr/bin/env bash
# tcpu-decode's conversations, on the host over the tiny checkpoint and tokenizer with a
# ChatML template (testdata/tokenizer_config.json):
# --messages: the text and ids equal those of --prompt-file over the conversation's rendering
# (written out by hand in testdata/conversation.rendered.txt) and of --prompt-ids over its
# tokens; malformed messages, a refusing template and a tokenizer without chat_template fail
# naming what was wrong.
# --chat with stdin from a file: the first answer is --messages' answer to the same turn, the
# second turn reuses the cache (prefilling only its new tokens), and errors end it.
set -uo pipefail
decode="$1" model="$(dirname "$2")" tokenize="$3" tokenizer_dir="$(dirname "$4")"
template_dir="$(dirname "$5")"  # $5: testdata/tokenizer_config.json
conversation="$6" rendered="$7"
tmp="${TEST_TMPDIR:-$(mktemp -d)}"
failures=0
check() {  # check NAME CONDITION...
  local name="$1"; shift
  if "$@"; then echo "ok   $name"; else echo "FAIL $name"; failures=$((failures + 1)); fi
}
run() { "$decode" --model "$model" --tokenizer "$tokenizer_dir" --chat-template "$template_dir" "$@"; }

# --messages against the same conversation rendered by hand, as text and as ids.
run --messages "$conversation" --max-new-tokens 16 --print-ids > "$tmp/messages.txt" 2> "$tmp/messages_err.txt"
check "--messages (exit 0)" test $? -eq 0
run --prompt-file "$rendered" --add-special-tokens=false --max-new-tokens 16 --print-ids \
  > "$tmp/rendered.txt" 2> "$tmp/rendered_err.txt"
check "--prompt-file of the rendering (exit 0)" test $? -eq 0
check "--messages: the text and ids of the rendered conversation's" cmp -s "$tmp/messages.txt" "$tmp/rendered.txt"
check "--messages: the same prompt and generated counts" \
  test "$(grep '^prompt: ' "$tmp/messages_err.txt")" = "$(grep '^prompt: ' "$tmp/rendered_err.txt")"
"$tokenize" --tokenizer "$tokenizer_dir" < "$rendered" > "$tmp/rendered_ids.txt"
context_tokens=$(tr ',' '\n' < "$tmp/rendered_ids.txt" | wc -l)
check "--messages: the prompt is the rendering's $context_tokens tokens" \
  grep -q "^prompt: $context_tokens tokens; generated: 16 tokens" "$tmp/messages_err.txt"
"$decode" --model "$model" --prompt-ids "$(cat "$tmp/rendered_ids.txt")" --max-new-tokens 16 > "$tmp/ids.txt"
check "--messages: the ids of --prompt-ids over the rendering's tokens" \
  test "$(tail -n 1 "$tmp/messages.txt")" = "$(head -n 1 "$tmp/ids.txt")"
echo "$(tail -n 1 "$tmp/messages.txt")" | "$tokenize" --tokenizer "$tokenizer_dir" --decode --skip-special-tokens > "$tmp/expected_text.txt"
check "--messages: the streamed text is the text of those ids" \
  test "$(head -n -1 "$tmp/messages.txt")" = "$(cat "$tmp/expected_text.txt")"

expect_error() {  # expect_error EXIT_CODE MESSAGE ARGS...
  local code="$1" message="$2"; shift 2
  run "$@" > "$tmp/o.txt" 2> "$tmp/e.txt" < /dev/null
  local got=$?
  check "exit $code and '$message' for: $*" \
    bash -c "[[ $got -eq $code ]] && grep -qF -- \"\$1\" \"\$2\"" _ "$message" "$tmp/e.txt"
}
bad() {  # bad NAME JSON: a messages file
  printf '%s' "$2" > "$tmp/$1.json"
  echo "$tmp/$1.json"
}
expect_error 2 "not valid JSON: [json.exception.parse_error.101] parse error at line 1, column 23: syntax error while parsing object key" \
  --messages "$(bad truncated '[{"role": "user", "con')"
expect_error 2 "expected a list of {\"role\", \"content\"} objects, found a JSON object" \
  --messages "$(bad object '{"role": "user", "content": "hi"}')"
expect_error 2 "the list of messages is empty" --messages "$(bad empty '[]')"
expect_error 2 "message 1 has no \"content\"" \
  --messages "$(bad no_content '[{"role": "user", "content": "a"}, {"role": "user"}]')"
expect_error 2 "message 0: \"content\" is a JSON number, expected a string" \
  --messages "$(bad number '[{"role": "user", "content": 7}]')"
expect_error 2 "message 0 is a JSON string, expected an object" --messages "$(bad string '["hi"]')"
expect_error 2 "message 0: \"role\" is empty" --messages "$(bad no_role '[{"role": "", "content": "a"}]')"
expect_error 1 "--messages: cannot read $tmp/none.json" --messages "$tmp/none.json"
expect_error 1 "after the system message, roles must be user or assistant" \
  --messages "$(bad tool '[{"role": "tool", "content": "a"}]')"
expect_error 2 "--chat takes no prompt but --messages" --chat --prompt "hi"
expect_error 2 "--print-ids and --dump-logits are for one prompt, not --chat" --chat --print-ids
# The tiny tokenizer's own tokenizer_config.json has no chat_template.
"$decode" --model "$model" --tokenizer "$tokenizer_dir" --messages "$conversation" > /dev/null 2> "$tmp/e.txt"
check "exit 1 without a chat_template" test $? -eq 1
check "names the tokenizer_config.json without a chat_template" \
  grep -qF -- "--messages needs the chat template of $tokenizer_dir" "$tmp/e.txt"
check "and says what it lacks" grep -q "chat_template" <(tail -n 1 "$tmp/e.txt")

# --chat from a file: one turn, then two.
printf 'Hello there\n' | run --chat --max-new-tokens 12 --verbose > "$tmp/chat1.txt" 2> "$tmp/chat1_err.txt"
check "--chat, one turn (exit 0)" test $? -eq 0
printf '[{"role": "user", "content": "Hello there"}]' > "$tmp/turn1.json"
run --messages "$tmp/turn1.json" --max-new-tokens 12 > "$tmp/turn1.txt" 2> /dev/null
check "--chat: the first answer is --messages' answer to the same turn" cmp -s "$tmp/chat1.txt" "$tmp/turn1.txt"
printf 'Hello there\nTell me more\n' | run --chat --max-new-tokens 12 --verbose > "$tmp/chat2.txt" 2> "$tmp/chat2_err.txt"
check "--chat, two turns (exit 0)" test $? -eq 0
check "--chat: the transcript begins with the first answer" \
  test "$(head -c "$(stat -c %s "$tmp/chat1.txt")" "$tmp/chat2.txt")" = "$(cat "$tmp/chat1.txt")"
turn1=$(grep '^\[turn 1: ' "$tmp/chat2_err.txt")
turn2=$(grep '^\[turn 2: ' "$tmp/chat2_err.txt")
context1=$(sed -E 's/.*context ([0-9]+) tokens.*/\1/' <<< "$turn1")
context2=$(sed -E 's/.*context ([0-9]+) tokens.*/\1/' <<< "$turn2")
check "--chat: turn 1 prefills its whole context" \
  grep -q "^\[turn 1: context $context1 tokens: reused 0, prefilled $context1; generated 12 tokens, stop: max new tokens" "$tmp/chat2_err.txt"
# The cache holds turn 1's context and its answer but the last token (sampled, not fed).
reused=$((context1 + 12 - 1))
check "--chat: turn 2 reuses the $reused cached tokens, prefills the other $((context2 - reused))" \
  grep -q "^\[turn 2: context $context2 tokens: reused $reused, prefilled $((context2 - reused)); generated 12 tokens" "$tmp/chat2_err.txt"
check "--chat: no prompt marker when stdin is not a terminal" bash -c "! grep -q '^> ' '$tmp/chat2.txt'"
# --messages gives the chat's start (a system message here).
printf '[{"role": "system", "content": "Be brief."}]' > "$tmp/system.json"
printf 'Hello there\n' | run --chat --messages "$tmp/system.json" --max-new-tokens 12 > "$tmp/chat_system.txt" 2> /dev/null
printf '[{"role": "system", "content": "Be brief."}, {"role": "user", "content": "Hello there"}]' > "$tmp/system_turn1.json"
run --messages "$tmp/system_turn1.json" --max-new-tokens 12 > "$tmp/system_turn1.txt" 2> /dev/null
check "--chat --messages: the conversation starts with the file's messages" \
  cmp -s "$tmp/chat_system.txt" "$tmp/system_turn1.txt"
check "--chat --messages: (which change the answer)" bash -c "! cmp -s '$tmp/chat_system.txt' '$tmp/chat1.txt'"
printf 'Hello there\n\nnever read\n' | run --chat --max-new-tokens 4 --verbose > /dev/null 2> "$tmp/empty_err.txt"
check "--chat: an empty line ends the chat" bash -c "[[ \$(grep -c '^\[turn' '$tmp/empty_err.txt') -eq 1 ]]"
printf 'Hello there\nTell me more\n' | run --chat --context-size 48 --max-new-tokens 12 > /dev/null 2> "$tmp/full_err.txt"
check "--chat: a conversation longer than the KV cache ends with exit 1" test $? -eq 1
check "--chat: naming the turn and the KV cache" grep -q "^tcpu-decode: turn 2: TCPU_ERR_INVALID_ARGUMENT" "$tmp/full_err.txt"
check "--chat: and the sizes" grep -q "more than the KV cache holds (48)" "$tmp/full_err.txt"
exit $((failures > 0))
