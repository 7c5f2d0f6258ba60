"""td_library and mlir_tblgen: ODS (.td) files in, generated .inc files out, as build actions.

    load("//toolchains/mlir:tblgen.bzl", "mlir_tblgen", "td_library")

    td_library(name = "tcpu_td", srcs = glob(["include/tcpu/*.td"]), includes = ["include"])

    mlir_tblgen(
        name = "tcpu_ops_inc",
        td_file = "include/tcpu/TcpuOps.td",
        deps = [":tcpu_td"],
        outs = {
            "include/tcpu/TcpuOps.h.inc": "-gen-op-decls",
            "include/tcpu/TcpuOps.cpp.inc": "-gen-op-defs",
        },
    )

Outputs are declared relative to the package, so a cc_library of the same package with
`includes = ["include"]` finds them as "tcpu/TcpuOps.h.inc". mlir-tblgen runs on the build
host (the exec configuration) whatever the target platform.
"""

TdInfo = provider(
    doc = "ODS sources and their include directories (execroot-relative), transitively.",
    fields = {
        "sources": "depset of .td files",
        "includes": "depset of include directories",
    },
)

def _package_dir(ctx):
    root = ctx.label.workspace_root
    return (root + "/" if root else "") + ctx.label.package

def _td_library_impl(ctx):
    base = _package_dir(ctx)
    includes = [(base + "/" + inc) if base else inc for inc in ctx.attr.includes]
    return [
        DefaultInfo(files = depset(ctx.files.srcs)),
        TdInfo(
            sources = depset(
                ctx.files.srcs,
                transitive = [d[TdInfo].sources for d in ctx.attr.deps],
            ),
            includes = depset(includes, transitive = [d[TdInfo].includes for d in ctx.attr.deps]),
        ),
    ]

td_library = rule(
    implementation = _td_library_impl,
    attrs = {
        "srcs": attr.label_list(allow_files = [".td"]),
        "includes": attr.string_list(doc = "Include directories, relative to the package."),
        "deps": attr.label_list(providers = [TdInfo]),
    },
    doc = "A set of .td files that other .td files include.",
)

def _mlir_tblgen_impl(ctx):
    sources = depset(
        [ctx.file.td_file] + ctx.files._mlir_td_files,
        transitive = [d[TdInfo].sources for d in ctx.attr.deps],
    )
    includes = depset(
        [ctx.attr._mlir_include],
        transitive = [d[TdInfo].includes for d in ctx.attr.deps],
    )
    tblgen = ctx.executable._tblgen
    outputs = []
    for out, generator in ctx.attr.outs.items():
        output = ctx.actions.declare_file(out)
        outputs.append(output)
        args = ctx.actions.args()
        args.add_all(generator.split(" "))
        args.add_all(includes, before_each = "-I")
        args.add("-o", output)
        args.add(ctx.file.td_file)
        ctx.actions.run(
            executable = tblgen,
            arguments = [args],
            inputs = sources,
            tools = ctx.files._tblgen_files,
            outputs = [output],
            mnemonic = "MlirTblgen",
            progress_message = "mlir-tblgen %s %s" % (generator, out),
        )
    return [DefaultInfo(files = depset(outputs))]

mlir_tblgen = rule(
    implementation = _mlir_tblgen_impl,
    attrs = {
        "td_file": attr.label(mandatory = True, allow_single_file = [".td"]),
        "deps": attr.label_list(providers = [TdInfo]),
        "outs": attr.string_dict(
            mandatory = True,
            doc = "Output path (relative to the package) -> mlir-tblgen generator flags.",
        ),
        "_tblgen": attr.label(
            default = "@mlir_host//:bin/mlir-tblgen",
            allow_single_file = True,
            executable = True,
            cfg = "exec",
        ),
        "_tblgen_files": attr.label(default = "@mlir_host//:mlir-tblgen_files", cfg = "exec"),
        "_mlir_td_files": attr.label(default = "@mlir_host//:td_files"),
        "_mlir_include": attr.string(default = "external/mlir_host/usr/lib/llvm-19/include"),
    },
    doc = "Runs mlir-tblgen on td_file once per entry of outs.",
)
