# lit configuration of the tcpu dialect tests. run_lit.sh puts the tools under test
# (tcpu-opt, FileCheck, not, split-file) first on PATH; outputs go to the Bazel test's TEST_TMPDIR.
import os

import lit.formats

config.name = "tcpu"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".mlir"]
config.excludes = ["lit.cfg.py"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(os.environ["TEST_TMPDIR"], "lit")
# The tools first; the rest of PATH only provides the shell their launchers run in.
config.environment["PATH"] = os.pathsep.join([os.environ["TCPU_LIT_TOOLS"], os.environ["PATH"]])
