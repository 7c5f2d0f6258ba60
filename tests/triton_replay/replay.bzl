"""triton_replay_test: captured Triton launches (tools/triton_capture/FORMAT.md) replayed with the
CPU kernels, under QEMU.

    load("//tests/triton_replay:replay.bzl", "triton_replay_test")

    triton_replay_test(
        name = "llama_slice_replay_test",
        corpus = "//tests/triton_replay/corpus",   # a filegroup: manifest.json + corpus.tar.xz
        launches = "ci_slice.txt",                  # None: every launch of the corpus
        # variants = ["n1", "vl128"], threads = [1, 3],
    )

`compile_shards` build actions (compile_corpus.py compile) compile each distinct TTIR of the
chosen launches once (tcpu-compile --kernel-suffix=_H: --emit=replay, the baseline object, one
object per `kernel_variants` target), each action every N-th TTIR, so the compiles share the
cores with the rest of the build; a last, cheap one (compile_corpus.py table) puts them into an
archive, a C source of entries and table, and a compile report (time and size per object). A
TTIR that does not compile fails nothing at build time: its launches report stage `compile`.
The runner (replay_main.cc and the generated table) links them all; `<name>_<variant>` runs it
under qemu-aarch64 in each QEMU variant, once per thread count, through replay_test.py, which
unpacks the corpus, gates every object at `max_object_bytes` and checks that every launch is
`ok` (or fails as `expected_failures` says). `<name>` is the suite of the variants.
"""

load("//dialect:tcpu_compile.bzl", "TCPU_COMPILE_ATTRS")
load("//dialect:triton_kernel_library.bzl", "TRITON_TARGETS")
load("//platforms:aarch64_binary.bzl", "to_aarch64")
load("//tests/qemu:variants.bzl", "QEMU_VARIANTS")
load("//platforms:runfiles.bzl", "runfiles_path", "shell_quote")

# The pinned Python that the build actions run (compile_corpus.py, slice_corpus.py).
_PYTHON_ATTRS = {
    "_python": attr.label(
        default = "@python3//:bin/python3",
        allow_single_file = True,
        executable = True,
        cfg = "exec",
    ),
    "_python_files": attr.label(default = "@python3//:python3_files", cfg = "exec"),
}

def _corpus_manifest(ctx):
    manifests = [f for f in ctx.files.corpus if f.basename == "manifest.json"]
    if len(manifests) != 1:
        fail("%s: `corpus` must hold one manifest.json, it holds %d (a captured corpus goes in " %
             (ctx.label, len(manifests)) + "tests/triton_replay/corpus/: tests/triton_replay/README.md)")
    return manifests[0]

def _replay_kernels_impl(ctx):
    manifest = _corpus_manifest(ctx)
    launches = [ctx.file.launches] if ctx.file.launches else []
    tools = ctx.files._python_files + [ctx.attr._tcpu_compile[0][DefaultInfo].files_to_run]
    shards = []
    for shard in range(ctx.attr.compile_shards):
        objects = ctx.actions.declare_file("%s/shard_%d.a" % (ctx.label.name, shard))
        results = ctx.actions.declare_file("%s/shard_%d.json" % (ctx.label.name, shard))
        args = ctx.actions.args()
        args.add(ctx.file._compile_corpus)
        args.add("compile")
        args.add("--corpus-manifest", manifest)
        args.add_all(launches, before_each = "--launches")
        args.add("--tcpu-compile", ctx.executable._tcpu_compile)
        if ctx.attr.target:
            args.add("--target", ctx.attr.target)
        args.add_all(ctx.attr.kernel_variants, before_each = "--variant")
        args.add("--shard", "%d/%d" % (shard, ctx.attr.compile_shards))
        args.add("--objects", objects)
        args.add("--results", results)
        ctx.actions.run(
            executable = ctx.executable._python,
            tools = tools,
            arguments = [args],
            inputs = ctx.files.corpus + [ctx.file._compile_corpus] + launches,
            outputs = [objects, results],
            mnemonic = "TritonReplayCompile",
            progress_message = "tcpu-compile the TTIRs of %s (shard %d of %d)" % (
                ctx.label,
                shard + 1,
                ctx.attr.compile_shards,
            ),
        )
        shards.append((results, objects))

    archive = ctx.actions.declare_file(ctx.label.name + "/kernels.a")
    entries = ctx.actions.declare_file(ctx.label.name + "/replay_entries.c")
    report = ctx.actions.declare_file(ctx.label.name + "/compile_report.tsv")
    args = ctx.actions.args()
    args.add(ctx.file._compile_corpus)
    args.add("table")
    for results, objects in shards:
        args.add_all("--shard", [results, objects])
    args.add("--archive", archive)
    args.add("--entries", entries)
    args.add("--report", report)
    ctx.actions.run(
        executable = ctx.executable._python,
        tools = ctx.files._python_files,
        arguments = [args],
        inputs = [ctx.file._compile_corpus] + [f for shard in shards for f in shard],
        outputs = [archive, entries, report],
        mnemonic = "TritonReplayTable",
        progress_message = "Archiving the kernels of %s" % ctx.label,
    )
    return [
        DefaultInfo(files = depset([entries, archive])),
        OutputGroupInfo(report = depset([report])),
    ]

# The kernels of a replay: in the one device configuration, like every tcpu-compile output.
_replay_kernels = rule(
    cfg = to_aarch64,
    implementation = _replay_kernels_impl,
    attrs = dict(TCPU_COMPILE_ATTRS, **dict(_PYTHON_ATTRS, **{
        "corpus": attr.label_list(allow_files = True, mandatory = True),
        "launches": attr.label(allow_single_file = True),
        "target": attr.string(doc = "A #tcpu.target<...> for the baseline objects."),
        "kernel_variants": attr.string_list(doc = "NAME=#tcpu.target<...>, best first."),
        "compile_shards": attr.int(
            default = 8,
            doc = "Actions the TTIRs are compiled in (each takes every N-th, in first-use order).",
        ),
        "_compile_corpus": attr.label(default = "//tests/triton_replay:compile_corpus.py", allow_single_file = True),
    })),
)

def _replay_test_impl(ctx):
    manifest = _corpus_manifest(ctx)
    report = ctx.attr.kernels[OutputGroupInfo].report.to_list()[0]
    runner = ctx.executable.runner
    arguments = [
        ("--variant", ctx.attr.variant),
        ("--cpu", ctx.attr.cpu),
        ("--qemu", "$runfiles/" + runfiles_path(ctx, ctx.file._qemu)),
        ("--runner", "$runfiles/" + runfiles_path(ctx, runner)),
        ("--corpus-manifest", "$runfiles/" + runfiles_path(ctx, manifest)),
        ("--compile-report", "$runfiles/" + runfiles_path(ctx, report)),
        ("--threads", ",".join([str(t) for t in ctx.attr.threads])),
        ("--max-object-bytes", str(ctx.attr.max_object_bytes)),
    ]
    if ctx.file.launches:
        arguments.append(("--launches", "$runfiles/" + runfiles_path(ctx, ctx.file.launches)))
    for launch, text in sorted(ctx.attr.expected_failures.items()):
        arguments.append(("--expect", "%s=%s" % (launch, text)))
    lines = [
        "#!/usr/bin/env bash",
        "# Generated by triton_replay_test: replays %s under qemu-aarch64 -cpu %s." % (
            ctx.attr.corpus[0].label,
            ctx.attr.cpu,
        ),
        "set -euo pipefail",
        "runfiles=${RUNFILES_DIR:-${TEST_SRCDIR:-}}",
        "if [[ -z $runfiles ]]; then",
        "  if [[ -d $0.runfiles ]]; then runfiles=$0.runfiles; else runfiles=${0%/*}; fi",
        "fi",
        "export TCPU_QEMU_VARIANT=%s" % shell_quote(ctx.attr.variant),
        "exec \"$runfiles/%s\" -I -S \"$runfiles/%s\" \\" % (
            runfiles_path(ctx, ctx.file._python),
            runfiles_path(ctx, ctx.file._driver),
        ),
    ]
    for flag, value in arguments:
        quoted = "\"%s\"" % value if value.startswith("$runfiles/") else shell_quote(value)
        lines.append("  %s %s \\" % (flag, quoted))
    lines.append("  \"$@\"")
    launcher = ctx.actions.declare_file(ctx.label.name + ".sh")
    ctx.actions.write(launcher, "\n".join(lines) + "\n", is_executable = True)
    runfiles = ctx.runfiles(
        files = [runner, report, ctx.file._driver, ctx.file._python] + ctx.files.corpus +
                ctx.files._qemu_files + ctx.files._python_files +
                ([ctx.file.launches] if ctx.file.launches else []),
    )
    runfiles = runfiles.merge(ctx.attr.runner[0][DefaultInfo].default_runfiles)
    return [DefaultInfo(executable = launcher, runfiles = runfiles)]

_replay_test = rule(
    implementation = _replay_test_impl,
    test = True,
    attrs = {
        "runner": attr.label(mandatory = True, executable = True, cfg = to_aarch64),
        "kernels": attr.label(mandatory = True, doc = "The _replay_kernels target."),
        "corpus": attr.label_list(allow_files = True, mandatory = True),
        "launches": attr.label(allow_single_file = True),
        "variant": attr.string(mandatory = True),
        "cpu": attr.string(mandatory = True, doc = "qemu-aarch64 -cpu value."),
        "threads": attr.int_list(mandatory = True),
        "max_object_bytes": attr.int(mandatory = True),
        "expected_failures": attr.string_dict(),
        "_driver": attr.label(default = "//tests/triton_replay:replay_test.py", allow_single_file = True),
        "_qemu": attr.label(
            default = "@qemu_user//:bin/qemu-aarch64",
            allow_single_file = True,
            cfg = "exec",
        ),
        "_qemu_files": attr.label(default = "@qemu_user//:qemu_aarch64_files", cfg = "exec"),
        "_python": attr.label(
            default = "@python3//:bin/python3",
            allow_single_file = True,
            cfg = "exec",
        ),
        "_python_files": attr.label(default = "@python3//:python3_files", cfg = "exec"),
        "_allowlist_function_transition": attr.label(
            default = "@bazel_tools//tools/allowlists/function_transition_allowlist",
        ),
    },
)

def triton_replay_runner(
        name,
        corpus,
        launches = None,
        kernels = None,
        kernel_variants = {"sve2": TRITON_TARGETS["sve2"]},
        target = "",
        compile_shards = 8,
        visibility = None):
    """The aarch64 replay_runner of `corpus`'s launches (`launches`: a slice file, or None for
    all), its TTIRs compiled by `<kernels>` (default `<name>_kernels`); arguments as
    triton_replay_test's. tools/perf counts its instructions (replay_main.cc, --count-regions)."""
    kernels = kernels or name + "_kernels"
    _replay_kernels(
        name = kernels,
        corpus = [corpus],
        launches = launches,
        target = target,
        kernel_variants = ["%s=%s" % item for item in kernel_variants.items()],
        compile_shards = compile_shards,
        target_compatible_with = ["@platforms//cpu:aarch64"],
        tags = ["manual"],
        testonly = True,
    )
    native.cc_binary(
        name = name,
        srcs = [":" + kernels],
        deps = ["//tests/triton_replay:replay_runner_main"],
        target_compatible_with = ["@platforms//cpu:aarch64"],
        tags = ["manual"],
        testonly = True,
        visibility = visibility,
    )

def triton_replay_test(
        name,
        corpus,
        launches = None,
        variants = ["n1", "vl128"],
        threads = [1, 3],
        kernel_variants = {"sve2": TRITON_TARGETS["sve2"]},
        target = "",
        expected_failures = {},
        max_object_bytes = 512 * 1024,
        compile_shards = 8,
        size = "medium",
        tags = [],
        **kwargs):
    """Replays the launches of `corpus` in each QEMU variant; `name` is their suite.

    Args:
      name: the suite; each variant's test is `<name>_<variant>`.
      corpus: a filegroup of one corpus: its manifest.json and corpus.tar.xz (or the unpacked
        ttir/, launches/ and blobs/ beside the manifest).
      launches: None for every launch, or a slice file (launch ids, one per line, '#' comments);
        only the TTIRs of those launches are compiled.
      variants: QEMU variants (tests/qemu/variants.bzl) to run the runner in.
      threads: TCPU_NUM_THREADS values; each variant runs the replay once per value.
      kernel_variants: name -> #tcpu.target<...> of further compiled forms of every kernel (the
        launcher picks the first whose features the CPU has; the report names the one that ran).
        Default: the Armv9-A SVE2 target, so SVE CPUs run the board's code and others the baseline.
      target: #tcpu.target<...> of the baseline objects (default: Armv8-A NEON).
      expected_failures: launch id -> text its report line must hold after the id and kernel
        ("compare buffer 2 element 5"); every other launch must be `ok`. For self-checks.
      max_object_bytes: the size gate of every object; a larger one fails the test, named.
      compile_shards: build actions the TTIRs are compiled in (each takes every N-th TTIR of
        the slice, in first-use order). A shard costs a Python start and a pass over the
        tarball; 8 suits a few dozen TTIRs.
      size: of every variant's test.
      tags: of every variant's test (each also gets `qemu` and its variant's tags).
      **kwargs: more test attributes (timeout, ...).
    """
    triton_replay_runner(
        name = name + "_runner",
        kernels = name + "_kernels",
        corpus = corpus,
        launches = launches,
        kernel_variants = kernel_variants,
        target = target,
        compile_shards = compile_shards,
    )
    tests = []
    for variant in variants:
        if variant not in QEMU_VARIANTS:
            fail("triton_replay_test(%s): unknown variant '%s'" % (name, variant))
        v = QEMU_VARIANTS[variant]
        _replay_test(
            name = name + "_" + variant,
            runner = ":" + name + "_runner",
            kernels = ":" + name + "_kernels",
            corpus = [corpus],
            launches = launches,
            variant = variant,
            cpu = v.cpu,
            threads = threads,
            max_object_bytes = max_object_bytes,
            expected_failures = expected_failures,
            size = size,
            tags = ["qemu", variant] + v.tags + tags,
            **kwargs
        )
        tests.append(":" + name + "_" + variant)
    native.test_suite(name = name, tests = tests, tags = tags)

def _triton_corpus_slice_impl(ctx):
    manifest = _corpus_manifest(ctx)
    out = ctx.actions.declare_directory(ctx.label.name)
    args = ctx.actions.args()
    args.add(ctx.file._slice_corpus)
    args.add("--corpus-manifest", manifest)
    args.add("--launches", ctx.file.launches)
    args.add("--out", out.path)
    ctx.actions.run(
        executable = ctx.executable._python,
        tools = ctx.files._python_files,
        arguments = [args],
        inputs = ctx.files.corpus + [ctx.file._slice_corpus, ctx.file._compile_corpus, ctx.file.launches],
        outputs = [out],
        mnemonic = "TritonCorpusSlice",
        progress_message = "Unpacking the launches of %s" % ctx.label,
    )
    return [DefaultInfo(files = depset([out]), runfiles = ctx.runfiles(files = [out]))]

triton_corpus_slice = rule(
    implementation = _triton_corpus_slice_impl,
    doc = """The folder replay_runner reads (--corpus=) for the launches of a slice file: the
    corpus's manifest.json and, from its corpus.tar.xz, only those launches' records, TTIRs and
    buffers (slice_corpus.py).""",
    attrs = dict(_PYTHON_ATTRS, **{
        "corpus": attr.label_list(allow_files = True, mandatory = True),
        "launches": attr.label(allow_single_file = True, mandatory = True),
        "_slice_corpus": attr.label(default = "//tests/triton_replay:slice_corpus.py", allow_single_file = True),
        "_compile_corpus": attr.label(default = "//tests/triton_replay:compile_corpus.py", allow_single_file = True),
    }),
)
