"""Shrinks a byte-level BPE tokenizer.json to a smaller vocabulary: the 256 byte tokens,
then the merges in rank order until the vocabulary is full, then the special tokens. The
result tokenizes like the original would with fewer merges learned (same pre-tokenizer,
normalizer and decoder), so small random test checkpoints get a real tokenizer that fits
their vocabulary.

    shrink_tokenizer.py --tokenizer tokenizer.json --vocab 1024 --special '<|endoftext|>' \
        --eos '<|endoftext|>' --out DIR   # writes DIR/tokenizer.json, DIR/tokenizer_config.json
"""

import argparse
import json
import os
import sys


def byte_level_alphabet():
    """GPT-2's byte-to-character table: printable bytes as themselves, others at U+0100+."""
    shown = list(range(ord("!"), ord("~") + 1)) + list(range(0xA1, 0xAD)) + list(range(0xAE, 0x100))
    chars, extra = [], 0
    for byte in range(256):
        if byte in shown:
            chars.append(chr(byte))
        else:
            chars.append(chr(256 + extra))
            extra += 1
    return chars


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tokenizer", required=True)
    parser.add_argument("--vocab", type=int, required=True, help="ids in the result, specials included")
    parser.add_argument("--special", action="append", default=[], help="added token to keep")
    parser.add_argument("--eos", required=True, help="the EOS token for tokenizer_config.json")
    parser.add_argument("--out", required=True)
    args = parser.parse_args()

    with open(args.tokenizer, encoding="utf-8") as f:
        source = json.load(f)
    model = source["model"]
    if model.get("type") != "BPE" or "ByteLevel" not in json.dumps(source.get("decoder")):
        sys.exit("shrink_tokenizer: %s is not a byte-level BPE tokenizer" % args.tokenizer)
    if args.eos not in args.special:
        sys.exit("shrink_tokenizer: --eos %s must be one of the --special tokens" % args.eos)
    room = args.vocab - len(args.special)
    if room < 256:
        sys.exit("shrink_tokenizer: --vocab %d leaves no room for the 256 byte tokens" % args.vocab)

    vocab = list(byte_level_alphabet())
    known = set(vocab)
    missing = [c for c in vocab if c not in model["vocab"]]
    if missing:
        sys.exit("shrink_tokenizer: byte tokens missing from the vocabulary: %r" % missing[:5])
    merges = []
    for merge in model["merges"]:
        if len(vocab) >= room:
            break
        left, right = merge if isinstance(merge, list) else merge.split(" ", 1)
        if left not in known or right not in known:
            continue
        merged = left + right
        if merged not in known:
            vocab.append(merged)
            known.add(merged)
        merges.append([left, right])

    added_by_content = {t["content"]: t for t in source.get("added_tokens", [])}
    added = []
    for i, content in enumerate(args.special):
        if content not in added_by_content:
            sys.exit("shrink_tokenizer: %s is not an added token of %s" % (content, args.tokenizer))
        token = dict(added_by_content[content])
        token["id"] = len(vocab) + i
        added.append(token)

    result = dict(source)
    result["added_tokens"] = added
    result["model"] = dict(model, vocab={token: i for i, token in enumerate(vocab)}, merges=merges)
    config = {
        "add_bos_token": False,
        "bos_token": None,
        "eos_token": args.eos,
        "clean_up_tokenization_spaces": False,
        "model_max_length": 4096,
    }
    os.makedirs(args.out, exist_ok=True)
    with open(os.path.join(args.out, "tokenizer.json"), "w", encoding="utf-8") as f:
        json.dump(result, f, ensure_ascii=False, indent=1)
    with open(os.path.join(args.out, "tokenizer_config.json"), "w", encoding="utf-8") as f:
        json.dump(config, f, indent=1)


if __name__ == "__main__":
    main()
