"""bazel run -c opt //tools/perf:triton_mca [-- --mcpu=cortex-a720 --verbose]

llvm-mca's model of the inner loops of the Triton kernels' objects (kernels/triton), in
Markdown. Triton objects carry no loop markers (the hand kernels' TCPU_MCA_LOOP), so the loops
are found in the disassembly of each kernel function (the pinned llvm-objdump):
- a loop is a backward branch (B.cond, CBZ/CBNZ, TBZ/TBNZ or B) from address E to S <= E; its
  iteration as llvm-mca sees it is the straight-line code S..E, the path on which every forward
  branch inside falls through (those are exits or skipped cold blocks, never modelled);
- it is innermost when no other backward branch lies in S..E;
- a loop is reported when it holds dot instructions (FMLA/FMLS, FMLAL(2), BFMMLA, BFDOT,
  BFMLALB/T, SDOT/UDOT, SMMLA/UMMLA): the dot tile's loop; exp's polynomial is not a dot.
MACs per iteration (what each dot instruction computes, per its destination's lanes):
  FMLA/FMLS .4s 4, .2s/.2d 2, .8h 8, .4h 4, scalar 1; FMLAL/FMLAL2 .4s 4 (f16 x f16 -> f32);
  BFMMLA 16 (2x4 by 4x2 bf16 -> 2x2 f32); BFDOT .4s 8; BFMLALB/T 4; SDOT/UDOT .4s 16;
  SMMLA/UMMLA 32. A loop that also evaluates exp or exp2 (one FRINTN per vector: the rounding
  of tcpu-expand-math's polynomials) runs the polynomial's FMAs as FMLAs too, which this count
  cannot tell from the dot's: its MACs are printed as an upper bound ("<= N") with the FRINTNs.
Each loop runs through the pinned llvm-mca (-mtriple=aarch64 -mcpu=cortex-a720: LLVM 19 models
the A720 with Neoverse N2's scheduling model): the block reverse throughput (cycles per
iteration from the resources alone), the simulated cycles per iteration (with dependencies),
the busiest resource, and the same loop's dot instructions alone (the dot pipes' floor for its
MACs). Stack loads and stores (sp-based addresses) are the spills and reloads; the lane-by-lane
stack buffers of the lowering are addressed through other registers.
"""

import argparse
import collections
import dataclasses
import os
import re
import subprocess
import sys

BRANCH = re.compile(r"^(b|b\.[a-z]+|cbz|cbnz|tbz|tbnz)$")
FUNCTION = re.compile(r"^([0-9a-f]+) <([^>]+)>:$")
INSTRUCTION = re.compile(r"^\s*([0-9a-f]+):\s+([a-z][a-z0-9.]*)\s*(.*)$")  # --no-show-raw-insn
TARGET = re.compile(r"(?:0x)?([0-9a-f]+) <[^>]*>")
ARRANGEMENT = re.compile(r"^v\d+\.(\d+)([bhsd])")
# Per dot mnemonic: MACs per destination lane (the lanes come from the destination), or a
# fixed count per instruction (matrix multiplies).
LANE_MACS = {"fmla": 1, "fmls": 1, "fmlal": 1, "fmlal2": 1, "fmlsl": 1, "fmlsl2": 1,
             "bfdot": 2, "bfmlalb": 1, "bfmlalt": 1, "sdot": 4, "udot": 4, "usdot": 4,
             "sudot": 4}
MATRIX_MACS = {"bfmmla": 16, "smmla": 32, "ummla": 32, "usmmla": 32}
# llvm-mca's Neoverse N2 resources (the A720's model) in words.
UNIT_WORDS = {
    "N2UnitB": "branch",
    "N2UnitD": "integer store data",
    "N2UnitL01": "load/store address",
    "N2UnitL2": "load",
    "N2UnitM0": "integer multi-cycle",
    "N2UnitM1": "integer multi-cycle",
    "N2UnitS": "integer single-cycle",
    "N2UnitV0": "FP/ASIMD",
    "N2UnitV1": "FP/ASIMD",
}


class McaError(Exception):
    """A tool failed or its output was not what this script reads."""


@dataclasses.dataclass(frozen=True)
class Instruction:
    address: int
    mnemonic: str
    operands: str  # as llvm-objdump prints them, comments removed

    @property
    def backward_target(self):
        """The branch target when this is a branch to itself or an earlier address."""
        if not BRANCH.match(self.mnemonic):
            return None
        match = TARGET.search(self.operands)
        if not match:
            return None  # a register branch (br, ret) is not matched by BRANCH anyway
        target = int(match.group(1), 16)
        return target if target <= self.address else None

    def assembly(self):
        """The instruction as llvm-mca reads it: branch targets become symbols."""
        operands = TARGET.sub(lambda m: "target_" + m.group(1), self.operands)
        return f"{self.mnemonic}\t{operands}" if operands else self.mnemonic


@dataclasses.dataclass(frozen=True)
class Loop:
    function: str
    instructions: tuple  # the iteration: head to the backward branch, inclusive

    @property
    def start(self):
        return self.instructions[0].address

    @property
    def end(self):
        return self.instructions[-1].address


@dataclasses.dataclass(frozen=True)
class Dots:
    instructions: int
    macs: int  # an upper bound where exp_vectors > 0 (exp's FMAs are FMLAs too)
    by_mnemonic: tuple  # ((mnemonic with arrangement, count), ...)
    exp_vectors: int  # FRINTNs: exp or exp2 evaluations in the loop


@dataclasses.dataclass(frozen=True)
class McaSummary:
    iterations: int
    total_cycles: int
    block_rthroughput: float
    pressure: dict  # resource name -> cycles per iteration (the busiest unit of that name)
    by_instruction: tuple  # per instruction of the block: {resource name: cycles}, summed

    @property
    def cycles_per_iteration(self):
        return self.total_cycles / self.iterations

    def bottleneck(self):
        """The busiest resources (within 2% of the busiest) and their cycles per iteration."""
        top = max(self.pressure.values())
        names = sorted(n for n, c in self.pressure.items() if c >= 0.98 * top)
        return names, top


def parse_objdump(text):
    """llvm-objdump -d text -> {function: [Instruction, ...]} in address order."""
    functions = {}
    current = None
    for line in text.splitlines():
        header = FUNCTION.match(line)
        if header:
            current = functions.setdefault(header.group(2), [])
            continue
        match = INSTRUCTION.match(line) if current is not None else None
        if match:
            operands = match.group(3).split("//")[0].strip()
            current.append(Instruction(int(match.group(1), 16), match.group(2), operands))
    return functions


def kernel_functions(functions):
    """The kernel bodies of a Triton object: not the launcher, the variant query or the
    range entry (a loop calling the kernel per program) that tcpu-compile adds."""
    return [name for name in functions
            if not name.startswith(("tcpu_launch_", "tcpu_variant_"))
            and not name.endswith("__programs")]


def innermost_loops(function, instructions):
    """Every backward branch whose straight-line body holds no other backward branch."""
    branches = [(i, inst.backward_target) for i, inst in enumerate(instructions)
                if inst.backward_target is not None]
    index_of = {inst.address: i for i, inst in enumerate(instructions)}
    loops = []
    for end, target in branches:
        start = index_of.get(target)
        if start is None:
            continue  # a branch into another function or the middle of an instruction
        if any(start <= other < end for other, _ in branches):
            continue
        loops.append(Loop(function, tuple(instructions[start:end + 1])))
    return loops


def destination_lanes(operands):
    """Lanes of the destination register: v0.4s -> 4; a scalar (s0, h0, d0) -> 1."""
    match = ARRANGEMENT.match(operands)
    return int(match.group(1)) if match else 1


def count_dots(instructions):
    counts = collections.Counter()
    macs = 0
    for inst in instructions:
        if inst.mnemonic in LANE_MACS:
            macs += LANE_MACS[inst.mnemonic] * destination_lanes(inst.operands)
        elif inst.mnemonic in MATRIX_MACS:
            macs += MATRIX_MACS[inst.mnemonic]
        else:
            continue
        arrangement = ARRANGEMENT.match(inst.operands)
        counts[inst.mnemonic + ("." + "".join(arrangement.groups()) if arrangement else "")] += 1
    exp_vectors = sum(1 for inst in instructions if inst.mnemonic == "frintn")
    return Dots(sum(counts.values()), macs, tuple(sorted(counts.items())), exp_vectors)


def stack_accesses(instructions):
    """(loads, stores) whose address is sp-based: spills and reloads."""
    loads = stores = 0
    for inst in instructions:
        if "[sp" not in inst.operands:
            continue
        if inst.mnemonic.startswith("ld"):
            loads += 1
        elif inst.mnemonic.startswith("st"):
            stores += 1
    return loads, stores


PERMUTES = ("zip1", "zip2", "uzp1", "uzp2", "trn1", "trn2", "ext", "tbl", "rev64")
MOVES = ("mov", "movi", "fmov", "dup", "ins", "orr", "umov")


def category(inst):
    """What an instruction is for, in the words of the breakdown of the busiest pipes."""
    if inst.mnemonic in LANE_MACS or inst.mnemonic in MATRIX_MACS:
        return "dots"
    if inst.mnemonic.startswith("st"):
        return "stack stores" if "[sp" in inst.operands else "stores"
    if inst.mnemonic.startswith("ld"):
        return "stack loads" if "[sp" in inst.operands else "loads"
    if inst.mnemonic.startswith(("fcvt", "bfcvt", "shll", "sshll", "ushll", "xtn", "scvtf",
                                 "ucvtf")):
        return "conversions"
    if inst.mnemonic in PERMUTES:
        return "permutes"
    if inst.mnemonic in MOVES:
        return "moves"
    return "other"


def pipe_breakdown(instructions, summary, units):
    """Cycles per iteration each category puts on `units` (e.g. the two V pipes), per unit."""
    if len(summary.by_instruction) != len(instructions):
        raise McaError(f"llvm-mca reported {len(summary.by_instruction)} instructions' "
                       f"pressure for a loop of {len(instructions)}")
    cycles = collections.Counter()
    for inst, used in zip(instructions, summary.by_instruction):
        cycles[category(inst)] += sum(used.get(u, 0.0) for u in units) / len(units)
    return cycles


def mca_source(instructions):
    return "".join(inst.assembly() + "\n" for inst in instructions)


def parse_mca(report):
    """The summary of an llvm-mca report: iterations, cycles, block reverse throughput and
    each resource's cycles per iteration."""
    def field(name, kind):
        match = re.search(rf"^{name}:\s+([0-9.]+)$", report, re.M)
        if not match:
            raise McaError(f"llvm-mca's report has no '{name}:' line")
        return kind(match.group(1))

    resources = dict(re.findall(r"^\[([0-9.]+)\]\s+- (\S+)$", report, re.M))
    table = re.search(r"^Resource pressure per iteration:\n(.*)\n(.*)$", report, re.M)
    if not resources or not table:
        raise McaError("llvm-mca's report has no resource pressure table")
    columns = re.findall(r"\[([0-9.]+)\]", table.group(1))
    values = table.group(2).split()
    if len(columns) != len(values):
        raise McaError(f"resource pressure: {len(columns)} columns, {len(values)} values")
    pressure = {}
    for column, value in zip(columns, values):
        name = resources[column]
        cycles = 0.0 if value == "-" else float(value)
        pressure[name] = max(pressure.get(name, 0.0), cycles)
    rows = re.search(r"^Resource pressure by instruction:\n.*\n((?:.+\n?)*)", report, re.M)
    by_instruction = []
    for line in (rows.group(1).splitlines() if rows else []):
        cells = line.split(None, len(columns))
        if len(cells) <= len(columns):
            break
        used = collections.Counter()
        for column, value in zip(columns, cells):
            if value != "-":
                used[resources[column]] += float(value)
        by_instruction.append(dict(used))
    return McaSummary(field("Iterations", int), field("Total Cycles", int),
                      field("Block RThroughput", float), pressure, tuple(by_instruction))


def run_mca(mca, source, mcpu, iterations, extra=()):
    result = subprocess.run(
        [mca, "-mtriple=aarch64", f"-mcpu={mcpu}", f"-iterations={iterations}", *extra],
        input=source, capture_output=True, text=True, check=False)
    if result.returncode != 0:
        raise McaError(f"llvm-mca failed: {result.stderr.strip()[:2000]}")
    return result.stdout


def iterations_for(instruction_count):
    """Enough iterations for a steady state, about 100k simulated instructions at most."""
    return max(10, min(100, 100_000 // max(1, instruction_count)))


def describe_units(names):
    words = sorted({UNIT_WORDS.get(n, n) for n in names})
    return f"{'/'.join(names)} ({', '.join(words)})"


@dataclasses.dataclass(frozen=True)
class Row:
    kernel: str
    loop: Loop
    dots: Dots
    stack: tuple
    loop_mca: McaSummary
    dots_mca: McaSummary


def measure(kernel, loop, mca, mcpu):
    dots = count_dots(loop.instructions)
    iterations = iterations_for(len(loop.instructions))
    loop_mca = parse_mca(run_mca(mca, mca_source(loop.instructions), mcpu, iterations))
    dot_only = [i for i in loop.instructions if i.mnemonic in LANE_MACS or
                i.mnemonic in MATRIX_MACS]
    dots_mca = parse_mca(run_mca(mca, mca_source(dot_only), mcpu, iterations))
    return Row(kernel, loop, dots, stack_accesses(loop.instructions), loop_mca, dots_mca)


BREAKDOWN_CATEGORIES = ("dots", "stack stores", "stores", "stack loads", "loads", "moves",
                        "conversions", "permutes", "other")


def print_table(rows, mcpu):
    print(f"| kernel (object) | loop | instructions | dot instructions | MACs / iteration | "
          f"instructions / MAC | stack loads / stores | block RThroughput ({mcpu}) | "
          f"simulated cycles / iteration | MACs / cycle | dots alone: cycles | bottleneck |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    for row in rows:
        names, cycles = row.loop_mca.bottleneck()
        cycles_per_iteration = row.loop_mca.cycles_per_iteration
        dots = ", ".join(f"{n} {c}" for n, c in row.dots.by_mnemonic)
        bound = ""  # exp's FMAs are counted as dots: MACs at most, instructions per MAC at least
        if row.dots.exp_vectors:
            dots += f" (and {row.dots.exp_vectors} FRINTN: exp's FMAs among them)"
            bound = "<= "
        floor = ">= " if bound else ""
        print(f"| `{row.kernel}` | {row.loop.function}+{row.loop.start:#x}..{row.loop.end:#x} | "
              f"{len(row.loop.instructions)} | {row.dots.instructions}: {dots} | "
              f"{bound}{row.dots.macs} | {floor}{len(row.loop.instructions) / row.dots.macs:.3f} | "
              f"{row.stack[0]} / {row.stack[1]} | {row.loop_mca.block_rthroughput:.1f} | "
              f"{cycles_per_iteration:.1f} | {bound}{row.dots.macs / cycles_per_iteration:.2f} | "
              f"{row.dots_mca.block_rthroughput:.1f} | {describe_units(names)} "
              f"{cycles:.0f} |")
    print()
    print(f"What occupies each loop's busiest pipes (cycles per iteration per pipe, "
          f"{mcpu}):\n")
    print("| kernel (object) | loop | pipes | busy | " +
          " | ".join(BREAKDOWN_CATEGORIES) + " |")
    print("|---|---|---|---|" + "---|" * len(BREAKDOWN_CATEGORIES))
    for row in rows:
        names, cycles = row.loop_mca.bottleneck()
        breakdown = pipe_breakdown(row.loop.instructions, row.loop_mca, names)
        print(f"| `{row.kernel}` | +{row.loop.start:#x} | {'/'.join(names)} | {cycles:.0f} | " +
              " | ".join(f"{breakdown.get(c, 0.0):.0f}" for c in BREAKDOWN_CATEGORIES) + " |")


def disassemble(objdump, path):
    result = subprocess.run([objdump, "-d", "--no-show-raw-insn", path], capture_output=True,
                            text=True, check=False)
    if result.returncode != 0:
        raise McaError(f"llvm-objdump -d {path} failed: {result.stderr.strip()}")
    return result.stdout


def main(argv):
    parser = argparse.ArgumentParser(prog="triton_mca", description=__doc__.split("\n\n")[1])
    parser.add_argument("--llvm-objdump", required=True)
    parser.add_argument("--llvm-mca", required=True)
    parser.add_argument("--mcpu", default="cortex-a720")
    parser.add_argument("--kernel", action="append", required=True,
                        help="an object's name (attention_fwd, matmul_bf16__bf16, ...), in "
                             "the table's order")
    parser.add_argument("--verbose", action="store_true",
                        help="print each loop's instructions (stderr)")
    parser.add_argument("objects", nargs="+", help="the objects (NAME.o) to choose from")
    options = parser.parse_args(argv)

    # Runfiles paths are relative to the main workspace's runfiles folder.
    base = os.path.join(os.environ.get("RUNFILES_DIR", "."), "tcpu_sdk")
    resolve = lambda path: path if os.path.isabs(path) else os.path.join(base, path)  # noqa: E731
    objects = {os.path.basename(p)[:-len(".o")]: resolve(p) for p in options.objects}
    rows = []
    try:
        for kernel in options.kernel:
            if kernel not in objects:
                raise McaError(f"no object {kernel}.o among {', '.join(sorted(objects))}")
            functions = parse_objdump(disassemble(resolve(options.llvm_objdump),
                                                  objects[kernel]))
            found = [loop for name in kernel_functions(functions)
                     for loop in innermost_loops(name, functions[name])
                     if count_dots(loop.instructions).macs > 0]
            if not found:
                raise McaError(f"{kernel}.o: no innermost loop with dot instructions")
            for loop in found:
                row = measure(kernel, loop, resolve(options.llvm_mca), options.mcpu)
                rows.append(row)
                if options.verbose:
                    print(f"== {kernel}: {loop.function}+{loop.start:#x}..{loop.end:#x}\n"
                          f"{mca_source(loop.instructions)}", file=sys.stderr)
    except McaError as error:
        print(f"triton_mca: {error}", file=sys.stderr)
        return 1
    print_table(rows, options.mcpu)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
