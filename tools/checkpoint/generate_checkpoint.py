"""Writes a random Hugging Face checkpoint (config.json + safetensors) for the decoder tests,
the demo and benchmarks: exactly the files and tensor names transformers writes for
LlamaForCausalLM, MiniCPMForCausalLM, Qwen2ForCausalLM and Qwen3ForCausalLM, so the loader
sees what a real checkpoint gives it.

  generate_checkpoint.py --out DIR [--hidden 256 --layers 4 --heads 8 --kv-heads 2
      --head-dim 32 --intermediate 768 --vocab 1024] [--arch llama|minicpm|qwen2|qwen3]
      [--dtype bf16|f16|f32] [--shards N] [--tie] [--seed S] [--attention-bias]
      [--rope-scaling linear|llama3|longrope]

minicpm writes MiniCPM's muP fields (scale_emb 12, scale_depth 1.4, dim_model_base
hidden / 4); qwen2 (and --attention-bias, Llama's q/k/v/o biases) writes the bias tensors;
--rope-scaling writes a rope_scaling object of that type with values that move every band
(llama3: original context 64, so short prompts cross its wavelength thresholds).

Values are random with magnitudes a trained model has (weights ~ 1/sqrt(fan_in), norms
around 1), so activations stay in range and greedy decoding does not degenerate.
"""

import argparse
import json
import os
import random
import struct
import sys

DTYPE_BYTES = {"bf16": 2, "f16": 2, "f32": 4}
DTYPE_NAMES = {"bf16": "BF16", "f16": "F16", "f32": "F32"}


def random_values(rng, count, scale, offset=0.0):
    """count floats uniform in offset + [-scale, scale) (sqrt(3) * scale has unit variance)."""
    width = 2.0 * scale * 3 ** 0.5
    start = offset - width / 2
    return [start + width * rng.random() for _ in range(count)]


def encode(values, dtype):
    """Little-endian bytes of values in dtype (bf16: round to nearest even)."""
    if dtype == "f32":
        return struct.pack("<%df" % len(values), *values)
    if dtype == "f16":
        return struct.pack("<%de" % len(values), *values)
    words = struct.unpack("<%dI" % len(values), struct.pack("<%df" % len(values), *values))
    out = bytearray(2 * len(values))
    for i, w in enumerate(words):
        bf16 = (w + 0x7FFF + ((w >> 16) & 1)) >> 16
        out[2 * i] = bf16 & 0xFF
        out[2 * i + 1] = bf16 >> 8
    return bytes(out)


def tensors_of(args):
    """(name, shape, scale, offset) of every tensor, in the order transformers saves them."""
    h, d, i = args.hidden, args.head_dim, args.intermediate
    q, kv = args.heads * d, args.kv_heads * d
    yield "model.embed_tokens.weight", [args.vocab, h], args.embedding_scale, 0.0
    for layer in range(args.layers):
        p = "model.layers.%d." % layer
        yield p + "input_layernorm.weight", [h], 0.1, 1.0
        yield p + "self_attn.q_proj.weight", [q, h], h ** -0.5, 0.0
        yield p + "self_attn.k_proj.weight", [kv, h], h ** -0.5, 0.0
        yield p + "self_attn.v_proj.weight", [kv, h], h ** -0.5, 0.0
        if args.arch == "qwen2" or args.attention_bias:
            yield p + "self_attn.q_proj.bias", [q], 0.2, 0.0
            yield p + "self_attn.k_proj.bias", [kv], 0.2, 0.0
            yield p + "self_attn.v_proj.bias", [kv], 0.2, 0.0
        if args.arch == "qwen3":
            yield p + "self_attn.q_norm.weight", [d], 0.1, 1.0
            yield p + "self_attn.k_norm.weight", [d], 0.1, 1.0
        yield p + "self_attn.o_proj.weight", [h, q], q ** -0.5, 0.0
        if args.attention_bias:
            yield p + "self_attn.o_proj.bias", [h], 0.05, 0.0
        yield p + "post_attention_layernorm.weight", [h], 0.1, 1.0
        yield p + "mlp.gate_proj.weight", [i, h], h ** -0.5, 0.0
        yield p + "mlp.up_proj.weight", [i, h], h ** -0.5, 0.0
        yield p + "mlp.down_proj.weight", [h, i], i ** -0.5, 0.0
    yield "model.norm.weight", [h], 0.1, 1.0
    if not args.tie:
        yield "lm_head.weight", [args.vocab, h], h ** -0.5, 0.0


def write_safetensors(path, tensors):
    """tensors: list of (name, dtype, shape, bytes). Header padded to 8 bytes as HF does."""
    header, offset = {"__metadata__": {"format": "pt"}}, 0
    for name, dtype, shape, data in tensors:
        header[name] = {"dtype": DTYPE_NAMES[dtype], "shape": shape,
                        "data_offsets": [offset, offset + len(data)]}
        offset += len(data)
    text = json.dumps(header, separators=(",", ":")).encode()
    text += b" " * (-len(text) % 8)
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(text)))
        f.write(text)
        for _, _, _, data in tensors:
            f.write(data)


def rope_scaling_of(args):
    half = args.head_dim // 2
    if args.rope_scaling == "linear":
        return {"rope_type": "linear", "factor": 4.0}
    if args.rope_scaling == "llama3":
        return {"rope_type": "llama3", "factor": 8.0, "low_freq_factor": 1.0,
                "high_freq_factor": 4.0, "original_max_position_embeddings": 64}
    if args.rope_scaling == "longrope":
        # MiniCPM4's shape of the field: per-frequency factors growing with the wavelength.
        return {"rope_type": "longrope",
                "long_factor": [1.0 + 3.0 * i / half for i in range(half)],
                "short_factor": [1.0 + 0.5 * i / half for i in range(half)],
                "original_max_position_embeddings": args.max_positions // 4}
    return None


def config_of(args):
    arch = {"llama": "LlamaForCausalLM", "minicpm": "MiniCPMForCausalLM",
            "qwen2": "Qwen2ForCausalLM", "qwen3": "Qwen3ForCausalLM"}[args.arch]
    extra = {}
    if args.arch == "minicpm":
        extra = {"scale_emb": 12, "scale_depth": 1.4, "dim_model_base": args.hidden // 4}
    return dict({
        "architectures": [arch],
        "model_type": args.arch,
        "hidden_size": args.hidden,
        "intermediate_size": args.intermediate,
        "num_hidden_layers": args.layers,
        "num_attention_heads": args.heads,
        "num_key_value_heads": args.kv_heads,
        "head_dim": args.head_dim,
        "vocab_size": args.vocab,
        "max_position_embeddings": args.max_positions,
        "rms_norm_eps": 1e-6,
        "rope_theta": args.rope_theta,
        "rope_scaling": rope_scaling_of(args),
        "hidden_act": "silu",
        "attention_bias": args.attention_bias,
        "tie_word_embeddings": args.tie,
        "torch_dtype": {"bf16": "bfloat16", "f16": "float16", "f32": "float32"}[args.dtype],
    }, **extra)


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", required=True, help="directory to write (created)")
    parser.add_argument("--hidden", type=int, default=256)
    parser.add_argument("--layers", type=int, default=4)
    parser.add_argument("--heads", type=int, default=8)
    parser.add_argument("--kv-heads", type=int, default=2)
    parser.add_argument("--head-dim", type=int, default=32)
    parser.add_argument("--intermediate", type=int, default=768)
    parser.add_argument("--vocab", type=int, default=1024)
    parser.add_argument("--max-positions", type=int, default=4096)
    parser.add_argument("--rope-theta", type=float, default=10000.0)
    parser.add_argument("--arch", choices=["llama", "minicpm", "qwen2", "qwen3"],
                        default="llama")
    parser.add_argument("--attention-bias", action="store_true",
                        help="Llama's attention_bias: q/k/v/o_proj.bias tensors")
    parser.add_argument("--rope-scaling", choices=["linear", "llama3", "longrope"])
    parser.add_argument("--dtype", choices=sorted(DTYPE_BYTES), default="bf16")
    parser.add_argument("--shards", type=int, default=1, help="files to split the weights into")
    parser.add_argument("--tie", action="store_true", help="tie lm_head to the embeddings")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--embedding-scale", type=float, default=0.05,
                        help="standard deviation of the embeddings (small, as in trained models, "
                        "so the layers, not the input token, decide the output)")
    args = parser.parse_args(argv)
    for name in ("hidden", "layers", "heads", "kv_heads", "head_dim", "intermediate", "vocab",
                 "shards", "max_positions"):
        if getattr(args, name) <= 0:
            parser.error("--%s must be positive" % name.replace("_", "-"))
    if args.heads % args.kv_heads:
        parser.error("--heads must be a multiple of --kv-heads")

    rng = random.Random(args.seed)
    tensors = []
    for name, shape, scale, offset in tensors_of(args):
        count = shape[0] * (shape[1] if len(shape) > 1 else 1)
        data = encode(random_values(rng, count, scale, offset), args.dtype)
        tensors.append((name, args.dtype, shape, data))
    os.makedirs(args.out, exist_ok=True)
    with open(os.path.join(args.out, "config.json"), "w") as f:
        json.dump(config_of(args), f, indent=2)
        f.write("\n")
    if args.shards == 1:
        write_safetensors(os.path.join(args.out, "model.safetensors"), tensors)
        return 0
    per_shard = -(-len(tensors) // args.shards)
    weight_map, total = {}, 0
    for s in range(args.shards):
        name = "model-%05d-of-%05d.safetensors" % (s + 1, args.shards)
        part = tensors[s * per_shard:(s + 1) * per_shard]
        write_safetensors(os.path.join(args.out, name), part)
        for tensor in part:
            weight_map[tensor[0]] = name
            total += len(tensor[3])
    with open(os.path.join(args.out, "model.safetensors.index.json"), "w") as f:
        json.dump({"metadata": {"total_size": total}, "weight_map": weight_map}, f, indent=2)
        f.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
