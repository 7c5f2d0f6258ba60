"""Random Hugging Face checkpoints and their reference decodes, generated at build time.

    random_checkpoint(name = "tiny_llama", files = [...], args = ["--layers", "4"])
        -> <name>/config.json, <name>/model.safetensors ... (files must list what
           generate_checkpoint.py writes for these args)
    reference_decode(name = "tiny_llama_ref", checkpoint = ":tiny_llama", prompt = "1,2,3",
                     new_tokens = 32, weights = "int8")   # or "int4" (W4A8)
        -> <name>.ids (the reference decoder's greedy ids, one comma-separated line) and
           <name>.logits.f64 (its float64 logits, steps x vocab)
"""

load("//platforms:host_tool.bzl", "to_host_tool")

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

def _reference_decode_impl(ctx):
    configs = [f for f in ctx.files.checkpoint if f.basename == "config.json"]
    if len(configs) != 1:
        fail("reference_decode(%s): the checkpoint must hold one config.json, found %d" %
             (ctx.label.name, len(configs)))
    decoder = ctx.executable._reference_decoder
    args = ctx.actions.args()
    args.add_all([
        decoder,
        configs[0].dirname,
        ctx.attr.prompt,
        str(ctx.attr.new_tokens),
        ctx.attr.weights,
        ctx.outputs.logits,
        ctx.outputs.ids,
    ])
    ctx.actions.run_shell(
        inputs = ctx.files.checkpoint,
        tools = [decoder],
        outputs = [ctx.outputs.ids, ctx.outputs.logits],
        command = "\"$1\" --model \"$2\" --prompt-ids \"$3\" --max-new-tokens \"$4\" " +
                  "--weights \"$5\" --dump-logits \"$6\" > \"$7\"",
        arguments = [args],
        mnemonic = "ReferenceDecode",
        progress_message = "Reference decode of %s" % ctx.label,
    )
    outputs = [ctx.outputs.ids, ctx.outputs.logits]
    return [DefaultInfo(files = depset(outputs), runfiles = ctx.runfiles(files = outputs))]

# The reference decoder runs as a host tool (`to_host_tool`): built once, in the configuration
# the native tests and the SDK's tools share, whatever configuration asks for the references.
reference_decode = rule(
    implementation = _reference_decode_impl,
    attrs = {
        "checkpoint": attr.label(mandatory = True, allow_files = True),
        "prompt": attr.string(mandatory = True, doc = "Prompt ids, comma-separated."),
        "new_tokens": attr.int(mandatory = True),
        "weights": attr.string(default = "int8", values = ["int8", "int4"]),
        "_reference_decoder": attr.label(
            default = "//tools/reference_decoder:reference-decoder",
            executable = True,
            cfg = to_host_tool,
        ),
        "_allowlist_function_transition": attr.label(
            default = "@bazel_tools//tools/allowlists/function_transition_allowlist",
        ),
    },
    outputs = {"ids": "%{name}.ids", "logits": "%{name}.logits.f64"},
)
