"""Tiny transformer models from `transformers`, built from config objects (no downloads).

Each model has two workloads: NAME_fwd (eval mode, no grad, one compiled forward) and NAME_train
(train mode: compiled forward + cross-entropy (the model's own loss, from labels) + backward, then
a compiled AdamW step). 2 layers, hidden 64, 4 heads, vocab 256, batch 2, sequence 16; fixed
seeds, so the fwd and train workloads of a model start from the same weights (their blobs dedupe).
Attention runs the models' eager implementation (matmul + softmax, which Inductor compiles) rather
than SDPA, whose CUDA kernels are not Triton.
"""

from . import workload

VOCAB, HIDDEN, INTER, LAYERS, HEADS, KV_HEADS, BATCH, SEQ = 256, 64, 128, 2, 4, 2, 2, 16


def _config(cls, **kwargs):
    try:
        cfg = cls(attn_implementation="eager", **kwargs)
    except TypeError:
        cfg = cls(**kwargs)
    try:
        cfg._attn_implementation = "eager"
    except Exception:
        pass
    return cfg


def _causal_lm_inputs(torch, gen):
    ids = torch.randint(0, VOCAB, (BATCH, SEQ), device="cuda", generator=gen)
    return {"input_ids": ids, "attention_mask": torch.ones_like(ids)}, {"labels": ids.clone()}


def _build(name):
    """Return (model, inputs, train_extra) for a model name."""
    import torch
    import transformers as tf

    gen = torch.Generator(device="cuda")
    gen.manual_seed(1)
    if name == "llama":
        cfg = _config(tf.LlamaConfig, vocab_size=VOCAB, hidden_size=HIDDEN, intermediate_size=INTER,
                      num_hidden_layers=LAYERS, num_attention_heads=HEADS, num_key_value_heads=KV_HEADS,
                      max_position_embeddings=64, tie_word_embeddings=False)
        model = tf.LlamaForCausalLM(cfg)
        inputs, extra = _causal_lm_inputs(torch, gen)
    elif name == "qwen3":
        cfg = _config(tf.Qwen3Config, vocab_size=VOCAB, hidden_size=HIDDEN, intermediate_size=INTER,
                      num_hidden_layers=LAYERS, num_attention_heads=HEADS, num_key_value_heads=KV_HEADS,
                      head_dim=HIDDEN // HEADS, max_position_embeddings=64)
        model = tf.Qwen3ForCausalLM(cfg)
        inputs, extra = _causal_lm_inputs(torch, gen)
    elif name == "gpt2":
        cfg = _config(tf.GPT2Config, vocab_size=VOCAB, n_positions=64, n_embd=HIDDEN, n_layer=LAYERS,
                      n_head=HEADS, n_inner=INTER)
        model = tf.GPT2LMHeadModel(cfg)
        inputs, extra = _causal_lm_inputs(torch, gen)
    elif name == "bert":
        cfg = _config(tf.BertConfig, vocab_size=VOCAB, hidden_size=HIDDEN, num_hidden_layers=LAYERS,
                      num_attention_heads=HEADS, intermediate_size=INTER, max_position_embeddings=64)
        model = tf.BertForMaskedLM(cfg)
        ids = torch.randint(0, VOCAB, (BATCH, SEQ), device="cuda", generator=gen)
        inputs = {"input_ids": ids, "attention_mask": torch.ones_like(ids), "token_type_ids": torch.zeros_like(ids)}
        extra = {"labels": torch.randint(0, VOCAB, (BATCH, SEQ), device="cuda", generator=gen)}
    elif name == "vit":
        cfg = _config(tf.ViTConfig, image_size=32, patch_size=8, num_channels=3, hidden_size=HIDDEN,
                      num_hidden_layers=LAYERS, num_attention_heads=HEADS, intermediate_size=INTER, num_labels=10)
        model = tf.ViTForImageClassification(cfg)
        inputs = {"pixel_values": torch.randn(BATCH, 3, 32, 32, device="cuda", generator=gen)}
        extra = {"labels": torch.randint(0, 10, (BATCH,), device="cuda", generator=gen)}
    elif name == "mixtral":
        cfg = _config(tf.MixtralConfig, vocab_size=VOCAB, hidden_size=HIDDEN, intermediate_size=INTER,
                      num_hidden_layers=LAYERS, num_attention_heads=HEADS, num_key_value_heads=KV_HEADS,
                      num_local_experts=4, num_experts_per_tok=2, max_position_embeddings=64)
        model = tf.MixtralForCausalLM(cfg)
        inputs, extra = _causal_lm_inputs(torch, gen)
    elif name == "gemma3":
        cfg = _config(tf.Gemma3TextConfig, vocab_size=VOCAB, hidden_size=HIDDEN, intermediate_size=INTER,
                      num_hidden_layers=LAYERS, num_attention_heads=HEADS, num_key_value_heads=KV_HEADS,
                      head_dim=HIDDEN // HEADS, max_position_embeddings=64, sliding_window=8,
                      query_pre_attn_scalar=HIDDEN // HEADS)
        model = tf.Gemma3ForCausalLM(cfg)
        inputs, extra = _causal_lm_inputs(torch, gen)
    elif name == "t5":
        cfg = _config(tf.T5Config, vocab_size=VOCAB, d_model=HIDDEN, d_kv=HIDDEN // HEADS, d_ff=INTER,
                      num_layers=LAYERS, num_decoder_layers=LAYERS, num_heads=HEADS,
                      decoder_start_token_id=0, pad_token_id=0)
        model = tf.T5ForConditionalGeneration(cfg)
        ids = torch.randint(1, VOCAB, (BATCH, SEQ), device="cuda", generator=gen)
        labels = torch.randint(1, VOCAB, (BATCH, SEQ), device="cuda", generator=gen)
        inputs = {"input_ids": ids, "attention_mask": torch.ones_like(ids)}
        extra = {"labels": labels}
    else:
        raise KeyError(name)
    return model.to("cuda"), inputs, extra


def _forward(ctx, name):
    import torch

    ctx.seed(0)
    model, inputs, extra = _build(name)
    model.eval()
    if name == "t5":  # an encoder-decoder forward needs decoder inputs
        inputs = dict(inputs, decoder_input_ids=model._shift_right(extra["labels"]))
    compiled = ctx.compile(model)
    with torch.no_grad():
        out = compiled(**inputs)
        ref = model(**inputs)
    got = out.logits if hasattr(out, "logits") else out[0]
    want = ref.logits if hasattr(ref, "logits") else ref[0]
    ctx.check_close(got, want, 1e-3, 1e-3, f"{name} forward logits")


def _train(ctx, name):
    import torch

    ctx.seed(0)
    model, inputs, extra = _build(name)
    model.train()
    compiled = ctx.compile(model)
    opt = torch.optim.AdamW(model.parameters(), lr=1e-3, weight_decay=0.01, foreach=True)

    def opt_step():
        opt.step()

    compiled_step = ctx.compile(opt_step)
    out = compiled(**inputs, **extra)
    loss = out.loss
    ctx.check(bool(torch.isfinite(loss)), f"{name}: loss is not finite")
    loss.backward()
    compiled_step()
    opt.zero_grad(set_to_none=True)
    torch.cuda.synchronize()


_MODELS = [
    ("llama", "Llama"),
    ("qwen3", "Qwen3"),
    ("gpt2", "GPT-2"),
    ("bert", "BERT (masked LM)"),
    ("vit", "ViT (image classification)"),
    ("mixtral", "Mixtral (mixture of experts, 4 experts, top-2)"),
    ("gemma3", "Gemma 3 (text, sliding-window layers)"),
    ("t5", "T5 (encoder-decoder)"),
]


def _register_fwd(name: str, title: str) -> None:
    @workload(f"{name}_fwd", f"{title}: tiny model, compiled forward (eval, no grad)", "mixed", cost=25)
    def fwd(ctx):
        _forward(ctx, name)


def _register_train(name: str, title: str) -> None:
    @workload(f"{name}_train", f"{title}: tiny model, compiled forward + cross-entropy + backward + AdamW step",
              "mixed", cost=60)
    def train(ctx):
        _train(ctx, name)


# Every forward before every training step: the training workloads carry the most bytes (weights,
# gradients, optimizer state), and the corpus size limit leaves workloads out from the end.
for _name, _title in _MODELS:
    _register_fwd(_name, _title)
for _name, _title in _MODELS:
    _register_train(_name, _title)
