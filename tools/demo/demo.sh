#!/usr/bin/env bash
# bazel run //:demo — the SDK's main job end to end: a Hugging Face checkpoint (generated, with
# the issue's default shape) decoded greedily by tcpu-decode built for aarch64 and run under
# qemu with 256-bit SVE, checked token for token against the scalar float64 reference decoder
# run natively on the same input. Exits non-zero if they disagree (//:demo_test runs it).
set -euo pipefail
runfiles="${RUNFILES_DIR:-${TEST_SRCDIR:-$0.runfiles}}"
export RUNFILES_DIR="$runfiles"
ws="$runfiles/tcpu_sdk"
model="$ws/tools/checkpoint/tiny_llama"
prompt="1,2,3,4,5,6,7,8"
new_tokens=40
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

echo "== Model: generated Llama checkpoint (bf16 safetensors, tools/checkpoint/generate_checkpoint.py)"
grep -E '"(hidden_size|num_hidden_layers|num_attention_heads|num_key_value_heads|head_dim|intermediate_size|vocab_size)"' \
  "$model/config.json" | tr -d ' ,' | tr '\n' ' '
echo
echo "== Prompt ids: $prompt; greedy decoding of $new_tokens new tokens"
echo
echo "== tcpu-decode: aarch64 binary under qemu-aarch64 -cpu max, SVE vector length 256 bits"
"$ws/tools/decode/tcpu-decode_qemu.sh" --model "$model" --prompt-ids "$prompt" \
  --max-new-tokens "$new_tokens" > "$work/tcpu.txt"
device_ids="$(head -n 1 "$work/tcpu.txt")"
echo "tokens: $device_ids"
tail -n +2 "$work/tcpu.txt" | sed -e 's/^/  /' -e 's|/s$|/s (emulated)|' -e 's| s$| s (emulated)|'
echo "  (emulated: QEMU on the build host, so times say nothing about a device; bytes do)"
echo
echo "== Reference: scalar float64 decoder, natively on the host (same int8 quantization)"
reference_ids="$("$ws/tools/reference_decoder/reference-decoder_host/reference-decoder" --model "$model" \
  --prompt-ids "$prompt" --max-new-tokens "$new_tokens")"
echo "tokens: $reference_ids"
echo
if [[ "$device_ids" == "$reference_ids" ]]; then
  echo "MATCH: all $new_tokens generated tokens are identical."
else
  IFS=, read -r -a a <<< "$device_ids"
  IFS=, read -r -a b <<< "$reference_ids"
  for ((i = 0; i < ${#b[@]}; i++)); do
    if [[ "${a[i]:-}" != "${b[i]}" ]]; then
      echo "MISMATCH: first difference at generated token $i (tcpu-decode ${a[i]:-none}, reference ${b[i]})."
      break
    fi
  done
  exit 1
fi

echo
echo "== Text in and out: the same checkpoint with a real byte-level tokenizer.json (Qwen3's,"
echo "   cut to the checkpoint's 1024 ids by tools/tokenize/shrink_tokenizer.py)"
tokenizer="$ws/tools/tokenize/tiny_byte_level_tokenizer"
text="Once upon a time, in a small town by the sea,"
text_tokens=24
echo "prompt: $text"
"$ws/tools/decode/tcpu-decode_qemu.sh" --model "$model" --tokenizer "$tokenizer" \
  --prompt "$text" --max-new-tokens "$text_tokens" --print-ids > "$work/text.txt" 2> "$work/text_err.txt"
echo "generated (random weights, so random words; the tokenization is real):"
head -n -1 "$work/text.txt" | sed -e 's/^/  | /'
grep '^prompt: ' "$work/text_err.txt" | sed -e 's/^/  /'
text_ids="$(tail -n 1 "$work/text.txt")"
prompt_ids="$(printf '%s' "$text" | "$ws/tools/tokenize/tcpu-tokenize_host/tcpu-tokenize" --tokenizer "$tokenizer" --add-special-tokens)"
text_reference="$("$ws/tools/reference_decoder/reference-decoder_host/reference-decoder" --model "$model" \
  --prompt-ids "$prompt_ids" --max-new-tokens "$text_tokens")"
# tcpu-decode may stop early at EOS: compare the tokens it generated.
if [[ "$text_reference," == "$text_ids,"* ]]; then
  echo "MATCH: the generated ids equal the reference decoder's for the same prompt ids."
else
  echo "MISMATCH: tcpu-decode $text_ids, reference $text_reference."
  exit 1
fi
