"""The host-tool configuration: where the SDK's own tools (tcpu-opt, tcpu-compile), the fuzzers
and the sanitized tests are built, once, instrumented.

A tool is needed by rules built in several configurations: the lit tests (host), the kernel
libraries of every QEMU test (built for aarch64 through `to_aarch64`) and the perf builds
(aarch64, -c opt). Through `cfg = "exec"`, Bazel 4 compiles the tool once per distinct parent
configuration (each keeps its transition's output-directory suffix), and a plain host build
compiles it once more; the dialect is the most expensive code in the tree. `to_host_tool` sets
the options below from every parent to values no parent has (a platform of its own, -c opt,
fixed copts and linkopts), so every path ends in one configuration and the tool is compiled
once:

    "_tcpu_compile": attr.label(default = "//dialect:tcpu-compile", executable = True,
                                cfg = to_host_tool),

The same configuration builds the host's sanitizer tests (//tests/sanitize:sanitize.bzl): its
code is compiled with ASan + UBSan and libFuzzer's coverage instrumentation, so a fuzzer links
the very objects the tools run (the dialect is compiled for the host once, not once for the
tools and again for the fuzzers). Binaries link the ASan and UBSan runtimes; a fuzzer adds
`-fsanitize=fuzzer` (libFuzzer's main) through its own linkopts (`cc_fuzzer`).

The dialect opts out of ASan and UBSan (COVERAGE_ONLY_COPTS): instrumented, its MLIR-heavy
units took 1.6x as long to compile (33.6 s against 20.7 s of CPU for one unit), and the dialect
was the largest cost of a cold `bazel test //...`. It keeps the coverage instrumentation, so
its fuzzers still steer by the dialect's branches; like the prebuilt MLIR libraries under it,
it runs unchecked by the sanitizers. So tcpu-opt and tcpu-compile link no ASan runtime (the
toolchain feature `no_asan_runtime`): its allocator, an mmap for every large block, had cost
each compile of CI's kernels about half its time. UBSan's runtime stays (the coverage
callbacks).

`host_tool` forwards a tool built that way to rules that take files (sh_test data).
Tools still run on the exec platform, which is the build host (//platforms:linux_x86_64 is
the only execution platform).
"""

load("//platforms:forward_binary.bzl", "forward_binary")

# Line tables are all a sanitizer report needs for file:line frames; full -g made the
# instrumented dialect slower to compile and link.
HOST_TOOL_COPTS = [
    "-O1",
    "-gline-tables-only",
    "-fno-omit-frame-pointer",
    "-fno-sanitize-recover=all",
    "-fsanitize=fuzzer-no-link,address,undefined",
]

# Target copts that undo the sanitizers of HOST_TOOL_COPTS (and keep libFuzzer's coverage), for
# code whose instrumentation costs more build time than its checks are worth (see above).
COVERAGE_ONLY_COPTS = ["-fno-sanitize=address,undefined"]

# The toolchain links with the `clang` driver, which leaves out the sanitizers' C++ parts
# (operator new/delete, UBSan's vptr checks) unless asked.
HOST_TOOL_LINKOPTS = [
    "-fsanitize=address,undefined",
    "-fsanitize-link-c++-runtime",
]

def _to_host_tool_impl(settings, attr):
    return {
        "//command_line_option:platforms": str(Label("//platforms:linux_x86_64_tools")),
        "//command_line_option:compilation_mode": "opt",
        "//command_line_option:copt": HOST_TOOL_COPTS,
        "//command_line_option:linkopt": HOST_TOOL_LINKOPTS,
        # One object per source, as in the device configuration (platforms/aarch64_binary.bzl):
        # -c opt alone compiles a library twice when something links it into a shared library.
        "//command_line_option:force_pic": True,
    }

to_host_tool = transition(
    implementation = _to_host_tool_impl,
    inputs = [],
    outputs = [
        "//command_line_option:platforms",
        "//command_line_option:compilation_mode",
        "//command_line_option:copt",
        "//command_line_option:linkopt",
        "//command_line_option:force_pic",
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

def _host_tool_genrule_impl(ctx):
    rule_dir = ctx.bin_dir.path + "/" + ctx.label.package
    # `$$` is a shell `$`: set aside first, so that `$$@` stays the shell's "$@".
    escaped = "<host_tool_genrule: shell dollar>"
    command = ctx.attr.cmd.replace("$$", escaped)
    command = ctx.expand_location(command, targets = ctx.attr.srcs + ctx.attr.tools)
    command = command.replace("$(RULEDIR)", rule_dir)
    if len(ctx.outputs.outs) == 1:
        command = command.replace("$@", ctx.outputs.outs[0].path)
    command = command.replace(escaped, "$")
    tool_inputs, tool_manifests = ctx.resolve_tools(tools = ctx.attr.tools)
    ctx.actions.run_shell(
        command = command,
        inputs = ctx.files.srcs,
        tools = tool_inputs,
        input_manifests = tool_manifests,
        outputs = ctx.outputs.outs,
        mnemonic = "HostToolGenrule",
        progress_message = "Generating %s" % ctx.label,
    )
    return [DefaultInfo(
        files = depset(ctx.outputs.outs),
        runfiles = ctx.runfiles(files = ctx.outputs.outs),
    )]

host_tool_genrule = rule(
    implementation = _host_tool_genrule_impl,
    attrs = {
        "srcs": attr.label_list(allow_files = True),
        "outs": attr.output_list(mandatory = True),
        "cmd": attr.string(mandatory = True),
        "tools": attr.label_list(cfg = to_host_tool, allow_files = True),
        "_allowlist_function_transition": attr.label(
            default = "@bazel_tools//tools/allowlists/function_transition_allowlist",
        ),
    },
    doc = """A genrule whose `tools` are built by `to_host_tool`.

A genrule's tools are built in Bazel's host configuration, where a transition to the host-tool
one is ignored: a C++ tool there compiles its whole dependency tree a second time (the engine,
for the test-data writers). Same `cmd` language as genrule: $(execpath ...), $(location ...),
$(RULEDIR), $@ (one output), $$ for a shell `$`.""",
)
