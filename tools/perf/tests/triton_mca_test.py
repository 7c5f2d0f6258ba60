"""triton_mca.py on a checked-in llvm-objdump snippet (testdata/triton_mca_snippet.txt): which
loops are innermost, what their dots compute, what llvm-mca is given, and one run of the pinned
llvm-mca on a loop of four FMLAs (its model is deterministic)."""

import os
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))
import triton_mca  # noqa: E402

with open(os.path.join(HERE, "testdata", "triton_mca_snippet.txt")) as f:
    SNIPPET = f.read()


def kernel_loops():
    functions = triton_mca.parse_objdump(SNIPPET)
    return {(loop.start, loop.end): loop
            for loop in triton_mca.innermost_loops("kernel", functions["kernel"])}


class ParseTest(unittest.TestCase):
    def test_functions_and_their_instructions(self):
        functions = triton_mca.parse_objdump(SNIPPET)
        self.assertEqual(list(functions), ["kernel", "kernel__programs", "tcpu_launch_kernel"])
        self.assertEqual(len(functions["kernel"]), 40)
        self.assertEqual(functions["kernel"][5],
                         triton_mca.Instruction(0x14, "ldr", "q2, [sp, #0x20]"))

    def test_the_launcher_and_the_range_entry_are_not_kernels(self):
        functions = triton_mca.parse_objdump(SNIPPET)
        self.assertEqual(triton_mca.kernel_functions(functions), ["kernel"])


class InnermostLoopsTest(unittest.TestCase):
    def test_backward_branches_with_no_other_inside(self):
        # 0x10..0x38 (a forward exit inside), 0x3c..0x80 and the store loop 0x84..0x8c are
        # innermost; the loop closed by the unconditional B at 0x94 holds all three.
        self.assertEqual(sorted(kernel_loops()), [(0x10, 0x38), (0x3c, 0x80), (0x84, 0x8c)])

    def test_an_iteration_is_the_straight_line_from_head_to_branch(self):
        loop = kernel_loops()[(0x10, 0x38)]
        self.assertEqual(len(loop.instructions), 11)
        self.assertEqual(loop.instructions[-1].mnemonic, "b.ne")


class DotsTest(unittest.TestCase):
    def test_fmla_by_element_counts_its_destination_lanes(self):
        dots = triton_mca.count_dots(kernel_loops()[(0x10, 0x38)].instructions)
        self.assertEqual((dots.instructions, dots.macs, dots.exp_vectors), (4, 16, 0))
        self.assertEqual(dots.by_mnemonic, (("fmla.4s", 4),))

    def test_each_dot_form_has_its_width_and_exp_is_flagged(self):
        # FMLA .4s 4 MACs, FMLAL and FMLAL2 4 each, FMLA .8h 8, BFMMLA 16. The FRINTN's nine
        # FMLAs (an exp) count as dots too: the loop says it holds one, its MACs are a bound.
        dots = triton_mca.count_dots(kernel_loops()[(0x3c, 0x80)].instructions)
        self.assertEqual(dots.exp_vectors, 1)
        self.assertEqual(dots.instructions, 13)
        self.assertEqual(dots.macs, 9 * 4 + 4 + 4 + 8 + 16)
        self.assertEqual(dict(dots.by_mnemonic), {"bfmmla.4s": 1, "fmla.4s": 9, "fmla.8h": 1,
                                                  "fmlal.4s": 1, "fmlal2.4s": 1})

    def test_a_loop_without_dots(self):
        self.assertEqual(triton_mca.count_dots(kernel_loops()[(0x84, 0x8c)].instructions).macs, 0)


class StackAndSourceTest(unittest.TestCase):
    def test_sp_based_loads_and_stores(self):
        loop = kernel_loops()[(0x10, 0x38)]
        self.assertEqual(triton_mca.stack_accesses(loop.instructions), (1, 1))

    def test_branch_targets_become_symbols(self):
        source = triton_mca.mca_source(kernel_loops()[(0x10, 0x38)].instructions)
        self.assertIn("b.ge\ttarget_3c\n", source)
        self.assertTrue(source.endswith("b.ne\ttarget_10\n"))
        self.assertNotIn("<", source)


class LlvmMcaTest(unittest.TestCase):
    def test_four_independent_fmlas_take_the_two_fp_pipes_two_cycles(self):
        runfiles = os.environ.get("RUNFILES_DIR") or os.environ["TEST_SRCDIR"]
        mca = os.path.join(runfiles, "llvm_toolchain", "bin", "llvm-mca")
        loop = kernel_loops()[(0x10, 0x38)]
        fmlas = [i for i in loop.instructions if i.mnemonic == "fmla"]
        summary = triton_mca.parse_mca(
            triton_mca.run_mca(mca, triton_mca.mca_source(fmlas), "cortex-a720", 100))
        self.assertEqual(summary.block_rthroughput, 2.0)
        self.assertEqual(summary.bottleneck(), (["N2UnitV0", "N2UnitV1"], 2.0))
        breakdown = triton_mca.pipe_breakdown(fmlas, summary, ["N2UnitV0", "N2UnitV1"])
        self.assertEqual(dict(breakdown), {"dots": 2.0})


if __name__ == "__main__":
    unittest.main()
