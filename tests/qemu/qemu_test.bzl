"""qemu_test / qemu_run: run one aarch64 binary under the pinned qemu-aarch64 with one -cpu variant.

The binary is built for //platforms:linux_aarch64 through a transition, so a plain
`bazel test //...` (host platform, no flags) builds and runs it. All variants of one
binary share that configuration, so the binary is built once.
"""

load("//platforms:aarch64_binary.bzl", "to_aarch64")
load("//platforms:runfiles.bzl", "runfiles_path", "shell_quote")

def _qemu_test_impl(ctx):
    binary = ctx.executable.binary
    qemu = ctx.file._qemu
    launcher = ctx.actions.declare_file(ctx.label.name + ".sh")
    ctx.actions.expand_template(
        template = ctx.file._launcher_template,
        output = launcher,
        is_executable = True,
        substitutions = {
            "%{variant}": ctx.attr.variant,
            "%{cpu}": ctx.attr.cpu,
            "%{sve_vl_bits}": str(ctx.attr.sve_vl_bits),
            "%{features}": ",".join(ctx.attr.cpu_features),
            "%{qemu}": runfiles_path(ctx, qemu),
            "%{binary}": runfiles_path(ctx, binary),
            "%{env}": "\n".join([
                "export %s=%s" % (key, shell_quote(value))
                for key, value in sorted(ctx.attr.test_env.items())
            ]),
        },
    )
    runfiles = ctx.runfiles(files = [binary] + ctx.files._qemu_files)
    runfiles = runfiles.merge(ctx.attr.binary[0][DefaultInfo].default_runfiles)
    return [DefaultInfo(executable = launcher, runfiles = runfiles)]

_ATTRS = {
    "binary": attr.label(
        mandatory = True,
        executable = True,
        cfg = to_aarch64,
        doc = "The aarch64 program to run (usually a cc_test); built for linux_aarch64.",
    ),
    "variant": attr.string(mandatory = True),
    "cpu": attr.string(mandatory = True, doc = "qemu-aarch64 -cpu value."),
    "sve_vl_bits": attr.int(doc = "SVE vector length the CPU promises, 0 without SVE."),
    "cpu_features": attr.string_list(doc = "Features the CPU promises (sve, sve2, i8mm, ...)."),
    "test_env": attr.string_dict(doc = "Environment of the program (qemu passes it to the guest)."),
    "_qemu": attr.label(
        default = "@qemu_user//:bin/qemu-aarch64",
        allow_single_file = True,
        cfg = "exec",
    ),
    "_qemu_files": attr.label(
        default = "@qemu_user//:qemu_aarch64_files",
        cfg = "exec",
    ),
    "_launcher_template": attr.label(
        default = "//tests/qemu:qemu_launcher.sh.tpl",
        allow_single_file = True,
    ),
    "_allowlist_function_transition": attr.label(
        default = "@bazel_tools//tools/allowlists/function_transition_allowlist",
    ),
}

qemu_test = rule(
    implementation = _qemu_test_impl,
    test = True,
    attrs = _ATTRS,
    doc = "A test that runs `binary` under qemu-aarch64 -cpu `cpu`.",
)

qemu_run = rule(
    implementation = _qemu_test_impl,
    executable = True,
    attrs = _ATTRS,
    doc = "`bazel run` of `binary` under qemu-aarch64 -cpu `cpu` (benchmarks, tools).",
)
