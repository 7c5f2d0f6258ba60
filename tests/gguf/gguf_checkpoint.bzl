"""gguf_checkpoint: a generated checkpoint written as a GGUF file at build time.

    gguf_checkpoint(name = "tiny_llama_q8_0", checkpoint = "//tools/checkpoint:tiny_llama",
                    tokenizer = "...:tokenizer.json", kind = "q8_0")   # -> tiny_llama_q8_0.gguf

The writer (//engine/model/tests:write-gguf-checkpoint) runs as a host tool (`to_host_tool`):
built once, in the configuration the native tests share, not again in Bazel's host one.
"""

load("//platforms:host_tool.bzl", "to_host_tool")

def _gguf_checkpoint_impl(ctx):
    configs = [f for f in ctx.files.checkpoint if f.basename == "config.json"]
    if len(configs) != 1:
        fail("gguf_checkpoint(%s): the checkpoint must hold one config.json, found %d" %
             (ctx.label.name, len(configs)))
    args = ctx.actions.args()
    args.add_all([configs[0].dirname, ctx.outputs.gguf, ctx.file.tokenizer])
    if ctx.attr.kind != "as_stored":
        args.add(ctx.attr.kind)
    ctx.actions.run(
        executable = ctx.executable._writer,
        arguments = [args],
        inputs = ctx.files.checkpoint + [ctx.file.tokenizer],
        outputs = [ctx.outputs.gguf],
        mnemonic = "GgufCheckpoint",
        progress_message = "Writing %s" % ctx.outputs.gguf.short_path,
    )
    return [DefaultInfo(
        files = depset([ctx.outputs.gguf]),
        runfiles = ctx.runfiles(files = [ctx.outputs.gguf]),
    )]

gguf_checkpoint = rule(
    implementation = _gguf_checkpoint_impl,
    attrs = {
        "checkpoint": attr.label(mandatory = True, allow_files = True),
        "tokenizer": attr.label(mandatory = True, allow_single_file = True),
        "kind": attr.string(
            default = "as_stored",
            values = ["as_stored", "f32", "q8_0", "q4_0"],
            doc = "Tensor type of the matrices: as in the checkpoint, or converted.",
        ),
        "_writer": attr.label(
            default = "//engine/model/tests:write-gguf-checkpoint",
            executable = True,
            cfg = to_host_tool,
        ),
        "_allowlist_function_transition": attr.label(
            default = "@bazel_tools//tools/allowlists/function_transition_allowlist",
        ),
    },
    outputs = {"gguf": "%{name}.gguf"},
)
