"""script_binary: a shell script as a runnable target that needs no toolchain.

sh_binary carries Bazel's launcher, a C++ target, so analysing it resolves the C++ toolchain and
fetches LLVM and a sysroot: `bazel run //tools/lock` on a fresh clone would download hundreds of
megabytes to run a shell script, and could not run at all where a pinned package is unavailable
under TCPU_STRICT_LOCK=1, which is when the lockfile updater is needed. This rule only links the
script and gives it its data as runfiles.
"""

def _script_binary_impl(ctx):
    executable = ctx.actions.declare_file(ctx.label.name)
    ctx.actions.symlink(output = executable, target_file = ctx.file.src, is_executable = True)
    runfiles = ctx.runfiles(files = [ctx.file.src] + ctx.files.data)
    return [DefaultInfo(executable = executable, runfiles = runfiles)]

script_binary = rule(
    implementation = _script_binary_impl,
    attrs = {
        "src": attr.label(mandatory = True, allow_single_file = True),
        "data": attr.label_list(allow_files = True),
    },
    executable = True,
)
