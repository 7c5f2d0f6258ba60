"""Building the SDK's own tools (tcpu-opt, tcpu-compile) once for the build host.

A tool is needed by rules built in several configurations: the lit tests (host), the kernel
libraries of every QEMU test (built for aarch64 through `to_aarch64`) and the perf builds
(aarch64, -c opt). Through `cfg = "exec"`, Bazel 4 compiles the tool once per distinct parent
configuration (each keeps its transition's output-directory suffix), and a plain host build
compiles it once more; the dialect is the most expensive code in the tree. `to_host_tool` sets
the same two options from every parent, to values no parent has (a platform of its own, -c
opt), so every path ends in one configuration and the tool is compiled once:

    "_tcpu_compile": attr.label(default = "//dialect:tcpu-compile", executable = True,
                                cfg = to_host_tool),

`host_tool` forwards a tool built that way to rules that take files (sh_test data).
Tools still run on the exec platform, which is the build host (//platforms:linux_x86_64 is
the only execution platform).
"""

load("//platforms:forward_binary.bzl", "forward_binary")

def _to_host_tool_impl(settings, attr):
    return {
        "//command_line_option:platforms": str(Label("//platforms:linux_x86_64_tools")),
        "//command_line_option:compilation_mode": "opt",
    }

to_host_tool = transition(
    implementation = _to_host_tool_impl,
    inputs = [],
    outputs = [
        "//command_line_option:platforms",
        "//command_line_option:compilation_mode",
    ],
)

def _host_tool_impl(ctx):
    return forward_binary(ctx, executable = True)

host_tool = rule(
    implementation = _host_tool_impl,
    attrs = {
        "binary": attr.label(mandatory = True, executable = True, cfg = to_host_tool),
        "_allowlist_function_transition": attr.label(
            default = "@bazel_tools//tools/allowlists/function_transition_allowlist",
        ),
    },
    executable = True,
    doc = "Forwards `binary` built by `to_host_tool`: `bazel run` it, or use it as data.",
)
