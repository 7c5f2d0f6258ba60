"""lit_tests: one Bazel test per .mlir lit test, run by lit on the pinned CPython."""

_HOST_TOOLS = ["FileCheck", "not", "split-file"]

def lit_tests(
        name,
        srcs,
        tcpu_opt = "//dialect:tcpu-opt_host",
        tcpu_compile = "//dialect:tcpu-compile_host",
        qemu = None,
        tags = [],
        **kwargs):
    """Declares `<name>_<file stem>` for each of srcs and a test_suite `name` of them.

    Args:
      name: suite name and prefix of each test.
      srcs: the .mlir tests (each with RUN lines).
      tcpu_opt: the tcpu-opt binary under test.
      tcpu_compile: the tcpu-compile binary under test.
      qemu: None for host tools; the qemu-aarch64 label to run aarch64 ones.
      tags: tags of every test.
      **kwargs: passed to each sh_test (size, ...).
    """
    tests = []
    for src in srcs:
        test = name + "_" + src.replace(".mlir", "").replace("/", "_")
        native.sh_test(
            name = test,
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
                "$(location %s)" % src,
            ],
            data = [
                src,
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
        tests.append(":" + test)
    native.test_suite(name = name, tests = tests, tags = tags)
