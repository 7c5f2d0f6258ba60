"""aarch64_binary: a binary built for //platforms:linux_aarch64 whatever the target platform,
so that a host test (the lit tests) can run it under qemu-aarch64."""

def _to_aarch64_impl(settings, attr):
    return {"//command_line_option:platforms": str(Label("//platforms:linux_aarch64"))}

_to_aarch64 = transition(
    implementation = _to_aarch64_impl,
    inputs = [],
    outputs = ["//command_line_option:platforms"],
)

def _aarch64_binary_impl(ctx):
    binary = ctx.attr.binary[0][DefaultInfo].files_to_run.executable
    # Named like the binary, so that tests find it under its own name.
    out = ctx.actions.declare_file(ctx.label.name + "/" + binary.basename)
    ctx.actions.symlink(output = out, target_file = binary)
    return [DefaultInfo(files = depset([out]), runfiles = ctx.runfiles(files = [out, binary]))]

aarch64_binary = rule(
    implementation = _aarch64_binary_impl,
    attrs = {
        "binary": attr.label(mandatory = True, executable = True, cfg = _to_aarch64),
        "_allowlist_function_transition": attr.label(
            default = "@bazel_tools//tools/allowlists/function_transition_allowlist",
        ),
    },
    doc = "Forwards `binary`, built for linux_aarch64 (statically linked, as all device code).",
)
