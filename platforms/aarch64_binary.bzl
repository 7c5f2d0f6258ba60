"""Building a target for the board from a host build.

`to_aarch64` is the transition every rule uses to build device code for
//platforms:linux_aarch64 at -c opt whatever the target platform and -c (the QEMU matrix, the
perf programs, the kernel objects, the lit tests of the aarch64 tcpu-opt, tcpu-board's probe).
`aarch64_binary` forwards a binary built that way:

    aarch64_binary(name = "probe_aarch64", binary = "//tools/deploy/probe:board_probe")

gives `<package>/probe_aarch64/board_probe` (a link named like the binary, in its own folder,
so it never collides with a host build of the same target in one runfiles tree).
"""

load("//platforms:forward_binary.bzl", "forward_binary")

def _to_aarch64_impl(settings, attr):
    return {
        "//command_line_option:platforms": str(Label("//platforms:linux_aarch64")),
        "//command_line_option:compilation_mode": "opt",
        "//command_line_option:force_pic": True,
    }

# linux_aarch64 at -c opt, whatever the command line's -c. Every parent reaches one device
# configuration through it: the QEMU tests, the instruction-count programs (//tools/perf, whose
# counts are compared across commits), the objects tcpu-compile makes (triton_kernel_library,
# tcpu_kernel_library) and the SDK bundle link one compile of each library: position-independent
# (--force_pic), as libtcpu.so needs, where -c opt would compile each library once more without
# -fPIC for the executables (toolchains/cc keeps executables non-PIE). A second device
# configuration (tests at fastbuild, perf programs at opt) compiled the engine, the kernels and
# the runtime twice in every `bazel test //...`; the code is the code the board runs, and runs
# quicker under emulation.
to_aarch64 = transition(
    implementation = _to_aarch64_impl,
    inputs = [],
    outputs = [
        "//command_line_option:platforms",
        "//command_line_option:compilation_mode",
        "//command_line_option:force_pic",
    ],
)

def _aarch64_binary_impl(ctx):
    return forward_binary(ctx, executable = False)

aarch64_binary = rule(
    implementation = _aarch64_binary_impl,
    attrs = {
        "binary": attr.label(mandatory = True, executable = True, cfg = to_aarch64),
        "_allowlist_function_transition": attr.label(
            default = "@bazel_tools//tools/allowlists/function_transition_allowlist",
        ),
    },
    doc = "Forwards `binary` built for linux_aarch64 (static, as all device code).",
)

def _aarch64_files_impl(ctx):
    return [DefaultInfo(
        files = depset(ctx.files.srcs),
        runfiles = ctx.runfiles(files = ctx.files.srcs),
    )]

aarch64_files = rule(
    implementation = _aarch64_files_impl,
    attrs = {
        "srcs": attr.label_list(allow_files = True, cfg = to_aarch64),
        "_allowlist_function_transition": attr.label(
            default = "@bazel_tools//tools/allowlists/function_transition_allowlist",
        ),
    },
    doc = "The files of `srcs` built for linux_aarch64, e.g. device objects a host test reads.",
)
