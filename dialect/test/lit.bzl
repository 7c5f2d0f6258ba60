"""lit_tests: a Bazel test running lit (on the pinned CPython) over .mlir lit tests."""

_HOST_TOOLS = ["FileCheck", "not", "split-file"]

def lit_tests(
        name,
        srcs,
        tcpu_opt = "//dialect:tcpu-opt_host",
        tcpu_compile = "//dialect:tcpu-compile_host",
        qemu = None,
        tags = [],
        **kwargs):
    """Declares the test `name`: one lit run over all of srcs.

    One run, not one Bazel test per file: every test would otherwise set up its own sandbox
    and runfiles (CPython's library, lit, the LLVM tools), several seconds each on two cores,
    where lit runs the files in parallel in one process. One file:
    `bazel test //dialect/test:lit --test_arg=--filter=tt_to_tcpu_dot`.

    Args:
      name: the test's name.
      srcs: the .mlir tests (each with RUN lines).
      tcpu_opt: the tcpu-opt binary under test.
      tcpu_compile: the tcpu-compile binary under test.
      qemu: None for host tools; the qemu-aarch64 label to run aarch64 ones.
      tags: tags of the test.
      **kwargs: passed to the sh_test (size, ...).
    """
    native.sh_test(
        name = name,
        srcs = ["//dialect/test:run_lit.sh"],
        args = [
            "$(location @python3//:bin/python3)",
            "$(location @mlir_host//:usr/lib/llvm-19/build/utils/lit/lit.py)",
            "$(location %s)" % qemu if qemu else "-",
            "$(location %s)" % tcpu_opt,
            "$(location %s)" % tcpu_compile,
            "--",
        ] + ["$(location @mlir_host//:bin/%s)" % tool for tool in _HOST_TOOLS] + [
            "--",
        ] + ["$(location %s)" % src for src in srcs],
        data = srcs + [
            tcpu_opt,
            tcpu_compile,
            "//dialect/test:lit.cfg.py",
            "@python3//:bin/python3",
            "@python3//:python3_files",
            "@mlir_host//:lit",
            "@mlir_host//:usr/lib/llvm-19/build/utils/lit/lit.py",
        ] + ["@mlir_host//:bin/" + tool for tool in _HOST_TOOLS] +
               ["@mlir_host//:%s_files" % tool for tool in _HOST_TOOLS] +
               ([qemu, "@qemu_user//:qemu_aarch64_files"] if qemu else []),
        tags = tags,
        **kwargs
    )
