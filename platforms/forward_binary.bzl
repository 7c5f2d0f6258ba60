"""forward_binary: the implementation shared by rules that forward a binary built in another
configuration (aarch64_binary, host_tool): `<package>/<rule name>/<binary name>`, a link named
like the binary in its own folder, so it never collides with another build of the same target in
one runfiles tree."""

def forward_binary(ctx, executable):
    """DefaultInfo forwarding ctx.attr.binary (a label with a transition); `executable` for
    rules declared executable."""
    binary = ctx.attr.binary[0][DefaultInfo]
    target = binary.files_to_run.executable
    out = ctx.actions.declare_file(ctx.label.name + "/" + target.basename)
    ctx.actions.symlink(output = out, target_file = target, is_executable = executable)
    runfiles = ctx.runfiles(files = [out, target]).merge(binary.default_runfiles)
    if executable:
        return [DefaultInfo(files = depset([out]), runfiles = runfiles, executable = out)]
    return [DefaultInfo(files = depset([out]), runfiles = runfiles)]
