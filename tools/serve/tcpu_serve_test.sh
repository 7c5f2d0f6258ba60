#!/usr/bin/env bash
# tcpu-serve against OpenAI's JavaScript client (openai_client_test.js, run by Debian's node),
# over the tiny checkpoint and byte-level tokenizer with a ChatML template. The expected answers
# are tcpu-decode's (the host build) for the same conversations and prompt, greedy, 16 tokens.
#   tcpu_serve_test.sh MODE SERVE DECODE RUN_NODE NODE OPENAI_PACKAGE_JSON CLIENT_JS CONFIG_JSON
#                      TOKENIZER_JSON TEMPLATE_CONFIG_JSON
# MODE host: SERVE is the host build; every scenario (answers, bad requests, a client that goes
# away, stalled clients, SIGTERM that lets the streams in flight finish or cancels them).
# MODE qemu: SERVE runs the aarch64 build under qemu; the answers (8 conversations alone and at
# once).
# Every server is started with --port 0 and its port read from the line it prints; each must
# exit 0 after SIGTERM. Nothing here depends on timing (openai_client_test.js says how); what
# does (a full queue, a cancelled stream) is scheduler_test's.
set -uo pipefail
mode=$1 serve=$2 decode=$3 run_node=$4 node=$5 openai_dir=$(dirname "$6") client=$7
model=$(dirname "$8") tokenizer=$(dirname "$9") template=$(dirname "${10}")
tmp=$(mktemp -d "${TEST_TMPDIR:-/tmp}/serve.XXXXXX")
expected=$tmp/expected
mkdir -p "$expected"
failures=0
fail() { echo "FAIL $*"; failures=$((failures + 1)); }
max_tokens=16

# Eight conversations (the first with a system message and two turns) and a raw prompt.
contents=("Hello there" "Tell me a story" "What is 2+2?" "Bonjour, ça va ?" "Write a haiku"
  "Name three colors" "Why is the sky blue?" "Count to five")
for i in "${!contents[@]}"; do
  if ((i == 0)); then
    printf '[{"role": "system", "content": "Be brief."}, {"role": "user", "content": "Hi"}, {"role": "assistant", "content": "Hello!"}, {"role": "user", "content": "%s"}]' \
      "${contents[i]}" > "$expected/conv_$i.json"
  else
    printf '[{"role": "user", "content": "%s"}]' "${contents[i]}" > "$expected/conv_$i.json"
  fi
  "$decode" --model "$model" --tokenizer "$tokenizer" --chat-template "$template" \
    --messages "$expected/conv_$i.json" --max-new-tokens $max_tokens \
    > "$expected/expected_$i.txt" 2> "$expected/expected_$i.err" || fail "tcpu-decode --messages conv_$i.json"
done
printf 'Once upon a time' > "$expected/prompt.txt"
"$decode" --model "$model" --tokenizer "$tokenizer" --prompt-file "$expected/prompt.txt" \
  --max-new-tokens $max_tokens > "$expected/completion.txt" 2> "$expected/completion.err" ||
  fail "tcpu-decode --prompt-file"

server_pid="" port=""
start_server() {  # start_server NAME FLAGS...: sets server_pid and port
  local name=$1
  shift
  mkfifo "$tmp/$name.out"
  "$serve" --model "$model" --model-name tiny --tokenizer "$tokenizer" --chat-template "$template" \
    --port 0 "$@" > "$tmp/$name.out" 2> "$tmp/$name.err" &
  server_pid=$!
  local line
  exec {out}< "$tmp/$name.out"
  read -r line <&$out
  port=${line##*:}
  [[ $line == "tcpu-serve: listening on http://127.0.0.1:"* ]] || {
    fail "$name: no 'listening on' line (got '$line')"
    cat "$tmp/$name.err"
    port=""
  }
}
client() {  # client SCENARIO: the node client against $port
  "$run_node" "$node" "$client" "$openai_dir" "$port" "$expected" "$1" "$server_pid" || fail "scenario $1"
}
stop_server() {  # stop_server NAME: SIGTERM (unless sent already), then exit status 0
  local name=$1 signal=${2:-send}
  [[ $signal == sent ]] || kill -TERM "$server_pid"
  wait "$server_pid"
  local status=$?
  if ((status == 0)); then echo "ok   $name: exit 0 after SIGTERM"; else fail "$name: exit $status after SIGTERM"; cat "$tmp/$name.err"; fi
}

common=(--context-size 512 --max-body-bytes 65536)
# The servers of the openai client never close an idle connection themselves (a client reusing
# one as it closes would race them); the clients close theirs.
keep=(--keep-alive-timeout 3600)
if [[ $mode == host ]]; then
  start_server main --parallel 4 --queue 4 "${common[@]}" "${keep[@]}"
  if [[ -n $port ]]; then
    client answers
    client bad
    client away
    stop_server main
  fi
  # Stalled clients need a short read timeout (and the default keep-alive: a stalled client's
  # connection is closed after its error); the good requests there are sent whole at once.
  start_server slow --parallel 1 "${common[@]}" --read-timeout 1
  [[ -z $port ]] || { client slow; stop_server slow; }
  # The longest deadline: the stream ends before it, or Bazel's test timeout ends the test.
  start_server finish --parallel 2 "${common[@]}" "${keep[@]}" --shutdown-deadline 86400
  [[ -z $port ]] || { client sigterm-finish; stop_server finish sent; }
  start_server cancel --parallel 2 "${common[@]}" "${keep[@]}" --shutdown-deadline 0
  [[ -z $port ]] || { client sigterm-cancel; stop_server cancel sent; }
else
  start_server qemu --parallel 8 "${common[@]}" "${keep[@]}"
  [[ -z $port ]] || { client answers; stop_server qemu; }
fi
exit $((failures > 0))
