"""Random Hugging Face checkpoints and their reference decodes, generated at build time.

    random_checkpoint(name = "tiny_llama", files = [...], args = ["--layers", "4"])
        -> <name>/config.json, <name>/model.safetensors ... (files must list what
           generate_checkpoint.py writes for these args)
    reference_decode(name = "tiny_llama_ref", checkpoint = ":tiny_llama", prompt = "1,2,3",
                     new_tokens = 32, weights = "int8")   # or "int4" (W4A8)
        -> <name>.ids (the reference decoder's greedy ids, one comma-separated line) and
           <name>.logits.f64 (its float64 logits, steps x vocab)
"""

def random_checkpoint(name, files, args = [], **kwargs):
    native.genrule(
        name = name,
        outs = [name + "/" + f for f in files],
        cmd = ("$(location @python3//:bin/python3) -I -S " +
               "$(location //tools/checkpoint:generate_checkpoint.py) --out $(RULEDIR)/%s %s") %
              (name, " ".join(args)),
        tools = [
            "//tools/checkpoint:generate_checkpoint.py",
            "@python3//:bin/python3",
            "@python3//:python3_files",
        ],
        **kwargs
    )

def reference_decode(name, checkpoint, prompt, new_tokens, weights = "int8", **kwargs):
    native.genrule(
        name = name,
        srcs = [checkpoint],
        outs = [name + ".ids", name + ".logits.f64"],
        # The checkpoint directory is the one holding its config.json.
        cmd = ("dir=$$(dirname $$(echo $(locations %s) | tr ' ' '\\n' | grep /config.json$$)); " +
               "$(location //tools/reference_decoder:reference-decoder) --model $$dir " +
               "--prompt-ids %s --max-new-tokens %d --weights %s " +
               "--dump-logits $(RULEDIR)/%s.logits.f64 > $(RULEDIR)/%s.ids") %
              (checkpoint, prompt, new_tokens, weights, name, name),
        tools = ["//tools/reference_decoder:reference-decoder"],
        **kwargs
    )
