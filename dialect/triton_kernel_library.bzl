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
load("//platforms:aarch64_binary.bzl", "to_aarch64")

# Targets for `variants`: what the runtime's dispatch tells apart (tcpu/cpu.h features).
# "sve2" is an Armv9-A core as shipped (Cortex-A510/A710/A720, Neoverse N2/V2: FP16 and FHM
# beside SVE2, as tests/qemu/variants.bzl models it): picked first wherever it applies, it must
# not leave f16 dots on FCVTL + FMLA where FMLAL runs them (attention over descriptors as
# Triton prints it: 1.20 -> 1.01 instructions per MAC).
TRITON_TARGETS = {
    "bf16": '#tcpu.target<arch = "armv8.2-a", features = ["bf16"], vector_bits = 0>',
    "dotprod": '#tcpu.target<arch = "armv8.2-a", features = ["dotprod"], vector_bits = 0>',
    "fp16": '#tcpu.target<arch = "armv8.2-a", features = ["fp16"], vector_bits = 0>',
    "fp16fml": '#tcpu.target<arch = "armv8.2-a", features = ["fp16", "fp16fml"], vector_bits = 0>',
    "i8mm": '#tcpu.target<arch = "armv8.6-a", features = ["dotprod", "i8mm", "bf16"], vector_bits = 0>',
    "sve2": '#tcpu.target<arch = "armv9-a", features = ["sve2", "dotprod", "i8mm", "bf16", "fp16", "fp16fml"], vector_bits = 0>',
}

TritonCompileInfo = provider(
    doc = "The objects a rule compiled with tcpu-compile, for reports that compile them again.",
    fields = {"runs": "list of struct(src = File, object = its output's basename, flags = list)"},
)

def _ttir_stem(ctx, src):
    if not src.basename.endswith(".ttir"):
        fail("triton_kernel_library(%s): %s is not a .ttir file" % (ctx.label.name, src.path))
    return src.basename[:-len(".ttir")]

def _triton_objects_impl(ctx):
    objects = []
    compiled = []
    for src in ctx.files.srcs:
        stem = _ttir_stem(ctx, src)
        fusion = [] if ctx.attr.fp_fusion else ["--fp-fusion=false"]
        baseline_flags = ["--emit=obj"] + fusion + ["--dispatch=" + entry for entry in ctx.attr.variants]
        if ctx.attr.target:
            baseline_flags.append("--target=" + ctx.attr.target)
        runs = [(stem, baseline_flags)]
        for entry in ctx.attr.variants:
            variant, target = entry.split("=", 1)
            runs.append(("%s__%s" % (stem, variant), ["--emit=obj"] + fusion + ["--variant=" + variant, "--target=" + target]))
        for object_stem, flags in runs:
            obj = ctx.actions.declare_file("%s/%s.o" % (ctx.label.name, object_stem))
            run_tcpu_compile(ctx, src, obj, flags, mnemonic = "TritonCompile")
            objects.append(obj)
            compiled.append(struct(src = src, object = obj.basename, flags = flags))
    return [DefaultInfo(files = depset(objects)), TritonCompileInfo(runs = compiled)]

# The objects: in the one device configuration (`to_aarch64`), one compile for the QEMU tests
# and the perf programs.
_triton_objects = rule(
    cfg = to_aarch64,
    implementation = _triton_objects_impl,
    attrs = dict(TCPU_COMPILE_ATTRS, **{
        "srcs": attr.label_list(allow_files = [".ttir"], mandatory = True),
        "target": attr.string(doc = "A #tcpu.target<...> for every module."),
        "variants": attr.string_list(doc = "NAME=#tcpu.target<...> entries, best first."),
        "fp_fusion": attr.bool(default = True, doc = "Fuse multiplies and adds into FMAs (tcpu-compile --fp-fusion)."),
    }),
)

def _triton_headers_impl(ctx):
    headers = []
    for src in ctx.files.srcs:
        header = ctx.actions.declare_file(_ttir_stem(ctx, src) + ".h")
        run_tcpu_compile(ctx, src, header, ["--emit=header"], mnemonic = "TritonHeader")
        headers.append(header)
    return [DefaultInfo(files = depset(headers))]

# The headers: in the cc_library's own configuration, whose output folder is on its include
# path (a header of another configuration would not be found as "<package>/K.h").
_triton_headers = rule(
    implementation = _triton_headers_impl,
    attrs = dict(TCPU_COMPILE_ATTRS, **{
        "srcs": attr.label_list(allow_files = [".ttir"], mandatory = True),
    }),
)

def triton_kernel_library(name, srcs, target = "", variants = {}, fp_fusion = True, deps = [], **kwargs):
    """A cc_library `name` of the kernels in `srcs` (.ttir), with generated headers.

    Args:
      name: the cc_library.
      srcs: TTIR files, one object and one header each.
      target: optional #tcpu.target<...> text for every module (the baseline).
      variants: name -> #tcpu.target<...> of further compiled forms, best first.
      fp_fusion: fuse float multiplies and adds into FMAs, as Triton does by default
        (`enable_fp_fusion`); False rounds every op.
      deps: further libraries the kernels need.
      **kwargs: passed to the cc_library (visibility, tags, ...).
    """
    _triton_objects(
        name = name + "_objects",
        srcs = srcs,
        target = target,
        variants = ["%s=%s" % (variant, variant_target) for variant, variant_target in variants.items()],
        fp_fusion = fp_fusion,
        target_compatible_with = ["@platforms//cpu:aarch64"],
        visibility = ["//visibility:private"],
    )
    _triton_headers(
        name = name + "_headers",
        srcs = srcs,
        target_compatible_with = ["@platforms//cpu:aarch64"],
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
    flags = ["--emit=obj"] + ctx.attr.flags
    run_tcpu_compile(ctx, ctx.file.src, out, flags, mnemonic = "TritonCompile")
    return [
        DefaultInfo(files = depset([out])),
        TritonCompileInfo(runs = [struct(src = ctx.file.src, object = out.basename, flags = flags)]),
    ]

triton_kernel_object = rule(
    cfg = to_aarch64,
    implementation = _triton_kernel_object_impl,
    attrs = dict(TCPU_COMPILE_ATTRS, **{
        "src": attr.label(allow_single_file = [".ttir"], mandatory = True),
        "flags": attr.string_list(doc = "Further tcpu-compile flags (--variant, --mattr, ...)."),
    }),
    doc = "`<name>.o`: one .ttir compiled with `flags` (no launcher header), e.g. a kernel " +
          "lowered without NEON for a comparison; link it as a cc_binary/cc_library src.",
)

def _triton_compile_manifest_impl(ctx):
    entries = []
    sources = []
    for target in ctx.attr.objects:
        for run in target[TritonCompileInfo].runs:
            entries.append({"src": run.src.short_path, "object": run.object, "flags": run.flags})
            sources.append(run.src)
    out = ctx.actions.declare_file(ctx.label.name + ".json")
    ctx.actions.write(out, json.encode(entries))
    return [DefaultInfo(files = depset([out]), runfiles = ctx.runfiles(files = [out] + sources))]

triton_compile_manifest = rule(
    implementation = _triton_compile_manifest_impl,
    attrs = {
        "objects": attr.label_list(
            providers = [TritonCompileInfo],
            doc = "triton_kernel_library `NAME_objects` and triton_kernel_object targets.",
        ),
    },
    doc = "`<name>.json`: every object `objects` compile, as [{src, object, flags}] (src a " +
          "workspace path, in the runfiles), for //tools/perf:triton_table.",
)
