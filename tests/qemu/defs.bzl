"""tcpu_cc_test: one GoogleTest binary, built once for aarch64, run in every QEMU variant.

    load("@tcpu_sdk//tests/qemu:defs.bzl", "tcpu_cc_test")

    tcpu_cc_test(
        name = "gemv_test",
        srcs = ["gemv_test.cc"],
        deps = ["//kernels/gemv", "@tcpu_sdk//third_party:gtest_main"],
    )

creates `gemv_test_vl128` ... `gemv_test_vl2048`, `gemv_test_nosve`, `gemv_test_a64fx`,
`gemv_test_n1`, `gemv_test_a53` (see variants.bzl), a test_suite `gemv_test` of them all,
and the aarch64 cc_test `gemv_test_aarch64` (tagged manual) they run.
"""

load("//tests/sanitize:sanitize.bzl", "host_cc_test")
load(":qemu_test.bzl", "qemu_run", "qemu_test")
load(":variants.bzl", "ALL_VARIANTS", "QEMU_VARIANTS")

def tcpu_cc_test(
        name,
        variants = ALL_VARIANTS,
        size = "small",
        timeout = None,
        shard_count = None,
        flaky = None,
        env = {},
        tags = [],
        **cc_test_args):
    """Declares an aarch64 cc_test and one qemu_test per variant.

    Args:
      name: base name; each variant is `<name>_<variant>`, the suite is `<name>`.
      variants: names from QEMU_VARIANTS to run (default: all nine).
      size, timeout, shard_count, flaky: as for any test, applied to every variant.
      env: environment of the test in every variant (e.g. {"TCPU_DISABLE": "i8mm"}).
      tags: added to every variant (each also gets `qemu`, its variant name and cpu_* tags).
      **cc_test_args: srcs, deps, copts, data, ... of the cc_test.
    """
    binary = name + "_aarch64"
    native.cc_test(
        name = binary,
        env = env,
        tags = ["manual"] + tags,
        target_compatible_with = ["@platforms//cpu:aarch64"],
        **cc_test_args
    )
    _qemu_variants(
        "tcpu_cc_test",
        name,
        ":" + binary,
        variants,
        env,
        tags,
        size = size,
        timeout = timeout,
        shard_count = shard_count,
        flaky = flaky,
    )

def tcpu_cc_test_rerun(name, of, env, variants = ALL_VARIANTS, size = "small", tags = []):
    """The aarch64 binary of tcpu_cc_test `of`, run again with another environment (e.g.
    TCPU_DISABLE=sve2 to force a kernel's NEON path on an SVE2 CPU) in `variants`: the tests
    `<name>_<variant>` and the suite `name`, without compiling and linking the test again."""
    _qemu_variants("tcpu_cc_test_rerun", name, ":" + of + "_aarch64", variants, env, tags, size)

def _qemu_variants(rule, name, binary, variants, env, tags, size, timeout = None,
                   shard_count = None, flaky = None):
    """One qemu_test of `binary` per variant, and their suite `name`."""
    tests = []
    for variant in variants:
        if variant not in QEMU_VARIANTS:
            fail("%s(%s): unknown variant '%s'; known: %s" %
                 (rule, name, variant, ", ".join(ALL_VARIANTS)))
        v = QEMU_VARIANTS[variant]
        qemu_test(
            name = name + "_" + variant,
            binary = binary,
            variant = variant,
            cpu = v.cpu,
            sve_vl_bits = v.sve_vl_bits,
            cpu_features = v.features,
            test_env = env,
            size = size,
            timeout = timeout,
            shard_count = shard_count,
            flaky = flaky,
            tags = ["qemu", variant] + v.tags + tags,
        )
        tests.append(":" + name + "_" + variant)
    # Public so that checks over suites (//tests/layering) may name them; a suite runs nothing
    # by itself.
    native.test_suite(name = name, tests = tests, tags = tags, visibility = ["//visibility:public"])

def tcpu_qemu_binary(name, binary, variant = "vl256", env = {}, **kwargs):
    """`bazel run :<name> -- args` runs aarch64 `binary` under qemu in one QEMU variant.

    For benchmarks and tools: e.g. tcpu_qemu_binary(name = "gemv_benchmark_qemu",
    binary = ":gemv_benchmark"). Under emulation, time means little; count instructions.
    """
    if variant not in QEMU_VARIANTS:
        fail("tcpu_qemu_binary(%s): unknown variant '%s'; known: %s" %
             (name, variant, ", ".join(ALL_VARIANTS)))
    v = QEMU_VARIANTS[variant]
    qemu_run(
        name = name,
        binary = binary,
        variant = variant,
        cpu = v.cpu,
        sve_vl_bits = v.sve_vl_bits,
        cpu_features = v.features,
        test_env = env,
        **kwargs
    )

def tcpu_kernel_test(name, srcs, deps, data = [], linkopts = [], host = True, **kwargs):
    """A kernel's test: tcpu_cc_test `name` (the QEMU matrix) and, with host = True, the same
    sources as the native x86-64 test `<op>_host_test` (the portable paths, under ASan + UBSan:
    host_cc_test).

    Args:
      name: `<op>_test`.
      srcs, deps, data, linkopts: of both tests.
      host: also declare the host test.
      **kwargs: more tcpu_cc_test arguments (variants, env, size, ...).
    """
    if not name.endswith("_test"):
        fail("tcpu_kernel_test(%s): the name must end in _test" % name)
    tcpu_cc_test(name = name, srcs = srcs, deps = deps, data = data, linkopts = linkopts, **kwargs)
    if host:
        host_cc_test(
            name = name[:-len("_test")] + "_host_test",
            size = "medium",
            srcs = srcs,
            data = data,
            linkopts = linkopts,
            deps = deps,
        )

def tcpu_benchmark(name, srcs, deps, copts = ["-O2"]):
    """A Google Benchmark binary for boards (`bazel build --config=aarch64 :<name>`) and
    `<name>_qemu`, which runs it emulated (`bazel run :<name>_qemu -- --benchmark_min_time=0.05`;
    emulated time means little: compare instruction counts or run on a board). aarch64 only: a
    host build would measure nothing the SDK ships (and cost every `bazel test //...` a build of
    Google Benchmark and each benchmark for x86-64).

    `<name>_registers_test` keeps it building under `bazel test //...` (which builds only tests):
    the binary starts under qemu and lists its benchmarks (`--benchmark_list_tests`), running
    none of them."""
    native.cc_binary(
        name = name,
        srcs = srcs,
        copts = copts,
        deps = deps,
        target_compatible_with = ["@platforms//cpu:aarch64"],
    )
    tcpu_qemu_binary(name = name + "_qemu", testonly = True, binary = ":" + name)
    v = QEMU_VARIANTS["vl256"]
    qemu_test(
        name = name + "_registers_test",
        binary = ":" + name,
        args = ["--benchmark_list_tests=true"],
        variant = "vl256",
        cpu = v.cpu,
        sve_vl_bits = v.sve_vl_bits,
        cpu_features = v.features,
        size = "small",
        tags = ["qemu", "vl256"] + v.tags,
    )
