#!/usr/bin/env bash
# tcpu-decode --chat in a real terminal: a detached tmux session (the pinned tmux package) runs
# the chat in its pane; the test types with send-keys and reads the screen with capture-pane.
# It waits for events on the screen (polling, no deadline: the test's timeout is the only
# limit), never for a fixed time. Checked: the prompt marker appears when stdin is a terminal,
# each answer appears on the screen (turn 2's is the answer the same chat gives with stdin from
# a file), turn 2 reuses the cache (its statistics line equals the file run's), and an empty
# line ends the chat with exit status 0.
set -uo pipefail
tmux_bin="$1" decode="$2" model="$(dirname "$3")" tokenizer_dir="$(dirname "$4")"
template_dir="$(dirname "$5")"  # $5: testdata/tokenizer_config.json
tmp="${TEST_TMPDIR:-$(mktemp -d)}"
# A socket path must be short (108 bytes), and TEST_TMPDIR may not be.
socket_dir="$(mktemp -d /tmp/tcpu-chat.XXXXXX)"
tmux() { "$tmux_bin" -S "$socket_dir/socket" "$@"; }
trap 'tmux kill-server 2> /dev/null; rm -rf "$socket_dir"' EXIT
failures=0
check() {  # check NAME CONDITION...
  local name="$1"; shift
  if "$@"; then echo "ok   $name"; else echo "FAIL $name"; failures=$((failures + 1)); fi
}
args=(--model "$model" --tokenizer "$tokenizer_dir" --chat-template "$template_dir" --chat
  --max-new-tokens 12 --verbose)

# The same chat with stdin from a file: the answers and statistics the terminal must show.
printf 'Hello there\n' | "$decode" "${args[@]}" > "$tmp/turn1.txt" 2> /dev/null
printf 'Hello there\nTell me more\n' | "$decode" "${args[@]}" > "$tmp/file.txt" 2> "$tmp/file_err.txt"
answer2="$(tail -c +$(($(stat -c %s "$tmp/turn1.txt") + 1)) "$tmp/file.txt")"
stats2="$(grep '^\[turn 2: ' "$tmp/file_err.txt" | sed 's/; prefill [0-9.]* s, decode [0-9.]* s\]$//')"
# A run of printable ASCII from turn 2's answer, to find on the screen (the rest of a random
# model's text may be U+FFFD and line breaks).
marker="$(grep -o '[[:alnum:][:punct:] ]\{8,\}' <<< "$answer2" | head -n 1)"
check "turn 2's answer has a printable run to look for ('$marker')" test -n "$marker"

printf 'set -g remain-on-exit on\nset -g history-limit 10000\n' > "$tmp/tmux.conf"
# The pane's shell writes the chat's exit status to a file when it ends.
command="$(printf '%q ' "$decode" "${args[@]}"); echo \$? > $(printf '%q' "$tmp/status.tmp") && mv $(printf '%q ' "$tmp/status.tmp" "$tmp/status")"
tmux -f "$tmp/tmux.conf" new-session -d -s chat -x 200 -y 50 "$command"
screen() { tmux capture-pane -p -J -S - -t chat | sed 's/ *$//'; }  # -J keeps trailing spaces
last_line() { screen | grep -v '^$' | tail -n 1; }
pane_dead() { [[ "$(tmux display-message -p -t chat '#{pane_dead}')" == 1 ]]; }
wait_for() {  # wait_for DESCRIPTION COMMAND...: polls until COMMAND succeeds
  echo "waiting for $1"
  shift
  until "$@"; do
    if pane_dead; then
      echo "FAIL the chat ended (status $(cat "$tmp/status" 2> /dev/null))"
      screen
      exit 1
    fi
    sleep 0.1  # the polling interval, not a condition
  done
}
prompt_shown() { [[ "$(last_line)" == ">" ]]; }
screen_has() { screen | grep -qF -- "$1"; }

# Should the test time out (Bazel's limit is the only one), show where the chat was.
trap 'echo "--- timed out; pane_dead=$(tmux display-message -p -t chat "#{pane_dead}"), screen:"; screen; exit 1' TERM
wait_for "the prompt marker" prompt_shown
tmux send-keys -t chat 'Hello there' Enter
wait_for "turn 1's statistics" screen_has "[turn 1: "
wait_for "the second prompt marker" prompt_shown
tmux send-keys -t chat 'Tell me more' Enter
wait_for "turn 2's statistics" screen_has "[turn 2: "
wait_for "the third prompt marker" prompt_shown
screen > "$tmp/screen.txt"
check "the user's turns are echoed after the markers" \
  bash -c 'grep -qx "> Hello there" "$1" && grep -qx "> Tell me more" "$1"' _ "$tmp/screen.txt"
# Turn 2's answer: after its user line, before its statistics.
sed -n '/^> Tell me more$/,/^\[turn 2: /p' "$tmp/screen.txt" > "$tmp/answer2_screen.txt"
check "turn 2's answer appears on the screen" grep -qF -- "$marker" "$tmp/answer2_screen.txt"
check "turn 2 reuses the cache as with stdin from a file ($stats2)" grep -qF -- "$stats2" "$tmp/screen.txt"
check "turn 2 reuses the cache: reused > 0" \
  grep -q '^\[turn 2: context [0-9]* tokens: reused [1-9]' "$tmp/screen.txt"
tmux send-keys -t chat Enter
echo "waiting for the chat's exit status"
until [[ -f "$tmp/status" ]]; do sleep 0.1; done
status="$(cat "$tmp/status")"
check "an empty line ends the chat with exit status 0 (status: '$status')" test "$status" = 0
if ((failures > 0)); then echo "--- the screen:"; cat "$tmp/screen.txt"; fi
exit $((failures > 0))
