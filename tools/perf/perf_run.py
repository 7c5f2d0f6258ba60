"""Runs an aarch64 program under the pinned qemu-aarch64 with the counting plugin.

Shared by count.py, the report and the gates. Paths of the pinned tools come from the
runfiles tree (Runfiles); counts come back as Counts: total, per-symbol (demangled) and
per-region instruction counts, the plugin's errors and, when asked, per-block counts (each
block of guest code with its function and offset in it).
"""

import dataclasses
import json
import os
import struct
import subprocess
import tempfile


class PerfError(Exception):
    """A run that could not be counted; the message says what and why."""


@dataclasses.dataclass
class Runfiles:
    """The pinned tools in a runfiles tree (RUNFILES_DIR or TEST_SRCDIR)."""

    root: str

    @classmethod
    def from_environment(cls):
        root = os.environ.get("RUNFILES_DIR") or os.environ.get("TEST_SRCDIR")
        if not root:
            raise PerfError("RUNFILES_DIR is unset: run this through bazel run / bazel test")
        return cls(root)

    def path(self, runfiles_path):
        full = os.path.join(self.root, runfiles_path)
        if not os.path.exists(full):
            raise PerfError(f"{runfiles_path} is missing from the runfiles tree {self.root}")
        return full

    @property
    def qemu(self):
        return self.path("qemu_user/bin/qemu-aarch64")

    @property
    def plugin(self):
        return self.path("tcpu_sdk/tools/perf/count_plugin.so")

    @property
    def cxxfilt(self):
        return self.path("llvm_toolchain/bin/llvm-cxxfilt")

    def variants(self):
        with open(self.path("tcpu_sdk/tools/perf/qemu_variants.json")) as f:
            return json.load(f)


@dataclasses.dataclass
class Parallel:
    """The thread pool's parallel regions run inside a region (count_plugin.c's header)."""
    groups: int    # parallel regions
    shares: int    # worker shares in them
    busiest: int   # sum over the parallel regions of the largest share
    mean: float    # sum over the parallel regions of the mean share
    work: int      # all shares together
    serial: int    # the region's own thread outside parallel regions

    @property
    def balance(self):
        """Busiest over mean: 1.0 when every worker got the same instructions."""
        return self.busiest / self.mean if self.mean else 1.0


@dataclasses.dataclass
class Region:
    name: str
    calls: int
    instructions: int  # summed over the calls
    min: int
    max: int
    parallel: Parallel = None  # None: no parallel region ran inside

    @property
    def work_instructions(self):
        """The instructions of the region's work on every thread: with several workers, its own
        thread's outside the parallel regions plus every worker's share, not the calling
        thread's wait for them (spinning, as long as the workers take: no measure of the code).
        On one thread, `instructions`."""
        if self.parallel is None or self.parallel.shares <= self.parallel.groups:
            return self.instructions
        return self.parallel.serial + self.parallel.work


@dataclasses.dataclass
class Block:
    """One translated block of guest code (count_plugin.c's blocks=on)."""
    address: int
    length: int      # instructions
    executions: int
    symbol: str      # the function of its first instruction, demangled ("" outside any)
    offset: int      # its address less the function's, or None where the function is unknown

    @property
    def instructions(self):
        return self.length * self.executions


@dataclasses.dataclass
class Counts:
    total: int
    symbols: list  # (demangled name, instructions), most first
    regions: dict  # name -> Region, in order of first use
    errors: list
    blocks: list = None  # Block, most instructions first (run_counted with blocks=True)


def function_addresses(binary):
    """The address of each function symbol (STT_FUNC) of a 64-bit little-endian ELF file's
    .symtab, by name."""
    with open(binary, "rb") as f:
        elf = f.read()
    if elf[:4] != b"\x7fELF" or elf[4] != 2 or elf[5] != 1:
        raise PerfError(f"{binary} is not a 64-bit little-endian ELF file")
    shoff, = struct.unpack_from("<Q", elf, 0x28)
    shentsize, shnum = struct.unpack_from("<HH", elf, 0x3A)
    sections = [struct.unpack_from("<IIQQQQIIQQ", elf, shoff + i * shentsize)
                for i in range(shnum)]
    addresses = {}
    for _, kind, _, _, offset, size, link, _, _, entsize in sections:
        if kind != 2 or entsize == 0:  # SHT_SYMTAB
            continue
        strings_offset = sections[link][4]
        for i in range(size // entsize):
            name, info, _, _, value, _ = struct.unpack_from("<IBBHQQ", elf, offset + i * entsize)
            if info & 0xF != 2:  # STT_FUNC
                continue
            end = elf.index(b"\0", strings_offset + name)
            addresses[elf[strings_offset + name:end].decode("utf-8", "replace")] = value
    return addresses


def demangle(cxxfilt, names):
    """Demangles C++ symbol names with the pinned llvm-cxxfilt (others are kept as they are)."""
    if not names:
        return []
    result = subprocess.run([cxxfilt], input="\n".join(names) + "\n", capture_output=True,
                            text=True, check=False)
    lines = result.stdout.splitlines()
    if result.returncode != 0 or len(lines) != len(names):
        raise PerfError(f"llvm-cxxfilt failed: {result.stderr.strip()}")
    return lines


def run_counted(runfiles, binary, args=(), variant="vl128", env=None, stdout=None, blocks=False):
    """Runs `binary args` in QEMU variant `variant` with the plugin; returns Counts.

    env: extra guest environment (TCPU_NUM_THREADS=1 is set unless given). The program's
    stdout goes to `stdout` (default: inherited); a non-zero exit raises PerfError. blocks:
    also count each block of guest code (Counts.blocks).
    """
    variants = runfiles.variants()
    if variant not in variants:
        raise PerfError(f"unknown variant '{variant}'; known: {', '.join(variants)}")
    v = variants[variant]
    if not os.path.isfile(binary):
        raise PerfError(f"no such program: {binary}")
    guest_env = dict(os.environ)
    guest_env.update({
        "TCPU_NUM_THREADS": "1",
        "TCPU_QEMU_VARIANT": variant,
        "TCPU_QEMU_CPU": v["cpu"],
        "TCPU_EXPECT_SVE_VL_BITS": str(v["sve_vl_bits"]),
        "TCPU_EXPECT_FEATURES": ",".join(v["features"]),
    })
    guest_env.update(env or {})
    with tempfile.TemporaryDirectory(prefix="tcpu-perf-") as tmp:
        out = os.path.join(tmp, "counts.json")
        plugin = f"{runfiles.plugin},out={out}" + (",blocks=on" if blocks else "")
        command = [runfiles.qemu, "-plugin", plugin, "-cpu", v["cpu"], binary, *args]
        result = subprocess.run(command, env=guest_env, stdout=stdout, check=False)
        if result.returncode != 0:
            raise PerfError(f"{os.path.basename(binary)} {' '.join(args)} exited with "
                            f"{result.returncode} under qemu -cpu {v['cpu']} ({variant})")
        if not os.path.exists(out):
            raise PerfError(f"the plugin wrote no counts for {binary} ({variant})")
        with open(out) as f:
            raw = json.load(f)
    names = demangle(runfiles.cxxfilt, [s["name"] for s in raw["symbols"]])
    symbols = [(name, s["instructions"]) for name, s in zip(names, raw["symbols"])]
    regions = {
        r["name"]: Region(r["name"], r["calls"], r["instructions"], r["min"], r["max"],
                          Parallel(**r["parallel"]) if "parallel" in r else None)
        for r in raw["regions"]
    }
    block_list = None
    if blocks:
        starts = function_addresses(binary)
        raw_blocks = raw.get("blocks", [])
        block_names = demangle(runfiles.cxxfilt, [b["symbol"] for b in raw_blocks])
        block_list = [
            Block(b["address"], b["length"], b["executions"], name,
                  b["address"] - starts[b["symbol"]] if b["symbol"] in starts else None)
            for b, name in zip(raw_blocks, block_names)
        ]
    return Counts(raw["total"], symbols, regions, raw["errors"], block_list)
