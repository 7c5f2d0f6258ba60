"""Paths and quoting for the shell launchers that test rules write.

    load("//platforms:runfiles.bzl", "runfiles_path", "shell_quote")
"""

def runfiles_path(ctx, file):
    """`file`'s path under a runfiles tree: external files have short paths like
    ../repo/path, the main repository's are workspace-relative."""
    if file.short_path.startswith("../"):
        return file.short_path[3:]
    return ctx.workspace_name + "/" + file.short_path

def shell_quote(value):
    """`value` as one single-quoted shell word."""
    return "'" + value.replace("'", "'\\''") + "'"
