"""tcpu_kernel_library: MLIR kernels compiled ahead of time into an aarch64 cc_library.

    load("//dialect:tcpu_kernel_library.bzl", "tcpu_kernel_library")

    tcpu_kernel_library(
        name = "vector_add",
        srcs = ["vector_add.mlir"],
        target = '#tcpu.target<arch = "armv8-a", features = [], vector_bits = 0>',
        hdrs = ["vector_add.h"],
    )

Each .mlir file becomes one object through tcpu-compile, which is built for the build host
(`to_host_tool`, one configuration for every rule) whatever the target platform. `target`, if given, replaces the
modules' own #tcpu.target. The cc_library is aarch64-only. A func.func taking memrefs is
called from C with each memref expanded to (allocated, aligned, offset, sizes..., strides...).
"""

load("//dialect:tcpu_compile.bzl", "TCPU_COMPILE_ATTRS", "run_tcpu_compile")
load("//platforms:aarch64_binary.bzl", "to_aarch64")

def _tcpu_objects_impl(ctx):
    objects = []
    for src in ctx.files.srcs:
        if not src.basename.endswith(".mlir"):
            fail("tcpu_kernel_library(%s): %s is not an .mlir file" % (ctx.label.name, src.path))
        obj = ctx.actions.declare_file("%s/%s.o" % (ctx.label.name, src.basename[:-len(".mlir")]))
        flags = ["--target=" + ctx.attr.target] if ctx.attr.target else []
        run_tcpu_compile(ctx, src, obj, flags, mnemonic = "TcpuCompile")
        objects.append(obj)
    return [DefaultInfo(files = depset(objects))]

_tcpu_objects = rule(
    cfg = to_aarch64,
    implementation = _tcpu_objects_impl,
    attrs = dict(TCPU_COMPILE_ATTRS, **{
        "srcs": attr.label_list(allow_files = [".mlir"], mandatory = True),
        "target": attr.string(doc = "A #tcpu.target<...> replacing the modules' own."),
    }),
)

def tcpu_kernel_library(name, srcs, target = "", hdrs = [], deps = [], **kwargs):
    """A cc_library `name` of the aarch64 objects tcpu-compile makes from `srcs`.

    Args:
      name: the cc_library.
      srcs: .mlir files, one object each.
      target: optional #tcpu.target<...> text for every module (else each module's own).
      hdrs: C headers declaring the kernels.
      deps: libraries the kernels call (e.g. //:tcpu for tcpu.* runtime ops).
      **kwargs: passed to the cc_library (visibility, tags, ...).
    """
    _tcpu_objects(
        name = name + "_objects",
        srcs = srcs,
        target = target,
        target_compatible_with = ["@platforms//cpu:aarch64"],
        visibility = ["//visibility:private"],
    )
    native.cc_library(
        name = name,
        srcs = [":" + name + "_objects"],
        hdrs = hdrs,
        deps = deps,
        target_compatible_with = ["@platforms//cpu:aarch64"],
        **kwargs
    )
