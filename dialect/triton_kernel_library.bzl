"""triton_kernel_library: Triton kernels (TTIR, as Triton prints it) compiled ahead of time.

    load("//dialect:triton_kernel_library.bzl", "triton_kernel_library")

    triton_kernel_library(
        name = "vector_add",
        srcs = ["vector_add.ttir"],
        # target = '#tcpu.target<arch = "armv9-a", features = ["sve2"], vector_bits = 0>',
        # variants = {"dotprod": TRITON_TARGETS["dotprod"]},
    )

Each K.ttir becomes an aarch64 object (tcpu-compile K.ttir -o K.o) holding every kernel NAME
of the module and its launcher tcpu_launch_NAME, and a generated header K.h declaring them
(tcpu-compile --emit=header), included as "<package>/K.h". The cc_library links the runtime's
launcher support (//runtime/triton). tcpu-compile runs on the build host. Without `target`,
the objects are Armv8-A NEON code that runs on every CPU model of the QEMU matrix.

`variants` (name -> #tcpu.target, best first) compiles each kernel again for each target
(NAME__<name>, an object of its own); tcpu_launch_NAME then runs the first variant whose
features the CPU has (after TCPU_DISABLE), the baseline otherwise, and tcpu_variant_NAME()
says which.
"""

load("//dialect:tcpu_compile.bzl", "TCPU_COMPILE_ATTRS", "run_tcpu_compile")

# Targets for `variants`: what the runtime's dispatch tells apart (tcpu/cpu.h features).
TRITON_TARGETS = {
    "bf16": '#tcpu.target<arch = "armv8.2-a", features = ["bf16"], vector_bits = 0>',
    "dotprod": '#tcpu.target<arch = "armv8.2-a", features = ["dotprod"], vector_bits = 0>',
    "fp16": '#tcpu.target<arch = "armv8.2-a", features = ["fp16"], vector_bits = 0>',
    "fp16fml": '#tcpu.target<arch = "armv8.2-a", features = ["fp16", "fp16fml"], vector_bits = 0>',
    "i8mm": '#tcpu.target<arch = "armv8.6-a", features = ["dotprod", "i8mm", "bf16"], vector_bits = 0>',
    "sve2": '#tcpu.target<arch = "armv9-a", features = ["sve2", "dotprod", "i8mm", "bf16"], vector_bits = 0>',
}

def _triton_objects_impl(ctx):
    objects = []
    headers = []
    for src in ctx.files.srcs:
        if not src.basename.endswith(".ttir"):
            fail("triton_kernel_library(%s): %s is not a .ttir file" % (ctx.label.name, src.path))
        stem = src.basename[:-len(".ttir")]
        obj = ctx.actions.declare_file("%s/%s.o" % (ctx.label.name, stem))
        header = ctx.actions.declare_file(stem + ".h")
        baseline_flags = ["--emit=obj"] + ["--dispatch=" + entry for entry in ctx.attr.variants]
        if ctx.attr.target:
            baseline_flags.append("--target=" + ctx.attr.target)
        runs = [(obj, baseline_flags), (header, ["--emit=header"])]
        for entry in ctx.attr.variants:
            variant, target = entry.split("=", 1)
            variant_obj = ctx.actions.declare_file("%s/%s__%s.o" % (ctx.label.name, stem, variant))
            runs.append((variant_obj, ["--emit=obj", "--variant=" + variant, "--target=" + target]))
            objects.append(variant_obj)
        for output, flags in runs:
            run_tcpu_compile(ctx, src, output, flags, mnemonic = "TritonCompile")
        objects.append(obj)
        headers.append(header)
    return [
        DefaultInfo(files = depset(objects + headers)),
        OutputGroupInfo(objects = depset(objects), headers = depset(headers)),
    ]

_triton_objects = rule(
    implementation = _triton_objects_impl,
    attrs = dict(TCPU_COMPILE_ATTRS, **{
        "srcs": attr.label_list(allow_files = [".ttir"], mandatory = True),
        "target": attr.string(doc = "A #tcpu.target<...> for every module."),
        "variants": attr.string_list(doc = "NAME=#tcpu.target<...> entries, best first."),
    }),
)

def triton_kernel_library(name, srcs, target = "", variants = {}, deps = [], **kwargs):
    """A cc_library `name` of the kernels in `srcs` (.ttir), with generated headers.

    Args:
      name: the cc_library.
      srcs: TTIR files, one object and one header each.
      target: optional #tcpu.target<...> text for every module (the baseline).
      variants: name -> #tcpu.target<...> of further compiled forms, best first.
      deps: further libraries the kernels need.
      **kwargs: passed to the cc_library (visibility, tags, ...).
    """
    _triton_objects(
        name = name + "_compile",
        srcs = srcs,
        target = target,
        variants = ["%s=%s" % (variant, variant_target) for variant, variant_target in variants.items()],
        target_compatible_with = ["@platforms//cpu:aarch64"],
        visibility = ["//visibility:private"],
    )
    for group in ["objects", "headers"]:
        native.filegroup(
            name = "%s_%s" % (name, group),
            srcs = [":" + name + "_compile"],
            output_group = group,
            visibility = ["//visibility:private"],
        )
    native.cc_library(
        name = name,
        srcs = [":" + name + "_objects"],
        hdrs = [":" + name + "_headers"],
        deps = deps + ["//runtime/triton"],
        target_compatible_with = ["@platforms//cpu:aarch64"],
        **kwargs
    )

def _triton_kernel_object_impl(ctx):
    out = ctx.actions.declare_file(ctx.label.name + ".o")
    run_tcpu_compile(ctx, ctx.file.src, out, ["--emit=obj"] + ctx.attr.flags, mnemonic = "TritonCompile")
    return [DefaultInfo(files = depset([out]))]

triton_kernel_object = rule(
    implementation = _triton_kernel_object_impl,
    attrs = dict(TCPU_COMPILE_ATTRS, **{
        "src": attr.label(allow_single_file = [".ttir"], mandatory = True),
        "flags": attr.string_list(doc = "Further tcpu-compile flags (--variant, --mattr, ...)."),
    }),
    doc = "`<name>.o`: one .ttir compiled with `flags` (no launcher header), e.g. a kernel " +
          "lowered without NEON for a comparison; link it as a cc_binary/cc_library src.",
)
