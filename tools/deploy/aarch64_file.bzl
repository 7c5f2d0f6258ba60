"""aarch64_file: the executable of a target built for //platforms:linux_aarch64.

tcpu-board ships aarch64 programs (the probe; in the tests, a benchmark) as data of a host
tool, so `bazel run` and `bazel test` with no flags build them for the board.
"""

def _to_aarch64_impl(settings, attr):
    return {"//command_line_option:platforms": str(Label("//platforms:linux_aarch64"))}

_to_aarch64 = transition(
    implementation = _to_aarch64_impl,
    inputs = [],
    outputs = ["//command_line_option:platforms"],
)

def _aarch64_file_impl(ctx):
    binary = ctx.attr.binary[0]
    executable = binary[DefaultInfo].files_to_run.executable
    return [DefaultInfo(
        files = depset([executable]),
        runfiles = binary[DefaultInfo].default_runfiles,
    )]

aarch64_file = rule(
    implementation = _aarch64_file_impl,
    attrs = {
        "binary": attr.label(mandatory = True, executable = True, cfg = _to_aarch64),
        "_allowlist_function_transition": attr.label(
            default = "@bazel_tools//tools/allowlists/function_transition_allowlist",
        ),
    },
    doc = "Provides the executable of `binary` built for linux_aarch64 (one file).",
)
