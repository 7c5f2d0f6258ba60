"""What the rules that run tcpu-compile share: the tool (built once, by `to_host_tool`; the
`//dialect:tcpu_compile_tool` flag may name a prebuilt one) and the action that compiles one
source with some flags."""

load("//platforms:host_tool.bzl", "to_host_tool")

# Private attributes of a rule that runs tcpu-compile: dict(TCPU_COMPILE_ATTRS, **own_attrs).
TCPU_COMPILE_ATTRS = {
    "_tcpu_compile": attr.label(
        default = "//dialect:tcpu_compile_tool",
        executable = True,
        cfg = to_host_tool,
    ),
    "_allowlist_function_transition": attr.label(
        default = "@bazel_tools//tools/allowlists/function_transition_allowlist",
    ),
}

def run_tcpu_compile(ctx, src, output, flags, mnemonic):
    """Runs `tcpu-compile src -o output flags...` as an action."""
    args = ctx.actions.args()
    args.add(src)
    args.add("-o", output)
    args.add_all(flags)
    ctx.actions.run(
        executable = ctx.executable._tcpu_compile,
        arguments = [args],
        inputs = [src],
        outputs = [output],
        mnemonic = mnemonic,
        progress_message = "tcpu-compile %s -> %s" % (src.short_path, output.basename),
    )
