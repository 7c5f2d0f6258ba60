"""bazel run -c opt //tools/perf:triton_table [-- --variant=vl128]

The table of every Triton kernel in kernels/triton/, in Markdown:
- each object the build compiles (baseline, per-target variants, the NEON-less forms the table
  compares with): tcpu-compile's CPU time (user + system seconds) and the object's size. The
  tool compiled with -c opt is the optimized host tcpu-compile the budgets speak of; without
  -c opt the table refuses to time a slower build.
- each Triton kernel's counted region of triton_perf (table shapes) and triton_table: guest
  instructions under the counting plugin in one QEMU variant, per MAC, element or program,
  beside its peers, each with the ratio kernel / peer (above 1: Triton runs more instructions):
  the project's hand-written kernel computing the same from the kernel's own inputs
  (`peer "<kernel>" hand "<region>"` on the program's stdout), the int8 GEMM on weights packed
  ahead of time (`prepacked`: an easier problem, shown for the int8 kernels), the same
  computation as a plain C loop compiled by clang -O3
  (kernels/triton/plain_loops.h; `peer "<kernel>" clang "<region>"`), and the same TTIR
  compiled without NEON (the region "<kernel region> without NEON", or "triton KERNEL without
  NEON SIZES"). A peer's work is its kernel's (the same problem), so the ratio is one of
  instructions.
CPU seconds vary with the machine and its load a little; sizes and counts are exact.
"""

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

import perf_run

WITHOUT_NEON = " without NEON"
# A peer line's kinds: hand-written kernel from the kernel's inputs, the int8 GEMM on weights
# packed ahead of time, clang -O3 loop.
PEER_KINDS = ("hand", "prepacked", "clang")


def compile_object(tcpu_compile, src, flags, out):
    """Runs tcpu-compile once; returns its user + system CPU seconds."""
    process = subprocess.Popen([tcpu_compile, src, "-o", out, *flags], stdout=subprocess.DEVNULL,
                               stderr=subprocess.PIPE)
    _, status, usage = os.wait4(process.pid, 0)
    stderr = process.stderr.read().decode(errors="replace")
    process.stderr.close()
    process.returncode = os.waitstatus_to_exitcode(status)
    if process.returncode != 0:
        raise perf_run.PerfError(f"tcpu-compile {src} {' '.join(flags)} failed: {stderr.strip()}")
    return usage.ru_utime + usage.ru_stime


def object_rows(runfiles, manifest, tcpu_compile):
    with open(runfiles.path(manifest)) as f:
        entries = json.load(f)
    rows = []
    with tempfile.TemporaryDirectory(prefix="triton-table-") as tmp:
        for entry in entries:
            out = os.path.join(tmp, entry["object"])
            src = runfiles.path("tcpu_sdk/" + entry["src"])
            seconds = compile_object(tcpu_compile, src, entry["flags"], out)
            rows.append((os.path.basename(entry["src"]), entry["object"], seconds,
                         os.path.getsize(out)))
    return sorted(rows)


def work_of(region, work_lines):
    """(units, unit name) of a region: its `work` line, else the sizes in its name."""
    if region in work_lines:
        return work_lines[region]
    sizes = dict(re.findall(r"\b([a-z]+)=(\d+)", region))
    if all(key in sizes for key in ("m", "n", "k")):
        return int(sizes["m"]) * int(sizes["n"]) * int(sizes["k"]), "MACs"
    if "rows" in sizes and ("cols" in sizes or "n" in sizes):
        return int(sizes["rows"]) * int(sizes.get("cols", sizes.get("n"))), "elements"
    raise perf_run.PerfError(f"region '{region}' says nothing of its work (no `work` line, no "
                             "m/n/k or rows/cols in its name)")


def counted_regions(runfiles, program, args, variant):
    """The program's kernel and peer regions as (name, instructions, work, unit), and its peer
    lines as {kernel region: {kind: peer region}}."""
    with tempfile.TemporaryFile("w+") as out:
        counts = perf_run.run_counted(runfiles, runfiles.path(program), args, variant, stdout=out)
        out.seek(0)
        stdout = out.read()
    if counts.errors:
        raise perf_run.PerfError("; ".join(counts.errors))
    work_lines = {
        m.group(1): (int(m.group(2)), m.group(3))
        for m in re.finditer(r'^work "([^"]+)" (\d+) (\S+)$', stdout, re.MULTILINE)
    }
    peers = {}
    for m in re.finditer(r'^peer "([^"]+)" (\S+) "([^"]+)"$', stdout, re.MULTILINE):
        kernel, kind, peer = m.groups()
        if kind not in PEER_KINDS:
            raise perf_run.PerfError(f"{program}: peer of '{kernel}' of kind '{kind}' (not one of "
                                     f"{', '.join(PEER_KINDS)})")
        if peers.setdefault(kernel, {}).setdefault(kind, peer) != peer:
            raise perf_run.PerfError(f"{program}: '{kernel}' has two {kind} peers: "
                                     f"'{peers[kernel][kind]}' and '{peer}'")
    for kernel, kinds in peers.items():
        for region in [kernel, *kinds.values()]:
            if region not in counts.regions:
                raise perf_run.PerfError(f"{program}: its peer line names '{region}', which it "
                                         "did not count")
    # The kernels' regions and their peers; the runtime's own (tcpu.parallel_for, ...) nest
    # inside them.
    named = {peer for kinds in peers.values() for peer in kinds.values()}
    # A kernel launched on several threads (a `threads` hint) counts its workers' shares, not
    # the caller's wait.
    regions = [(r.name, r.work_instructions, *work_of(r.name, work_lines))
               for r in counts.regions.values() if r.name.startswith("triton ") or r.name in named]
    return regions, peers


def without_neon_of(name, by_name):
    """The same TTIR without NEON: the region "NAME without NEON", or "triton KERNEL without NEON
    SIZES"."""
    kernel, _, sizes = name.removeprefix("triton ").partition(" ")
    for candidate in (name + WITHOUT_NEON, f"triton {kernel}{WITHOUT_NEON} {sizes}"):
        if candidate in by_name:
            return candidate
    return None


def peer_label(region):
    """A peer region's functions without its sizes: "tcpu_pack_weights_i8 + tcpu_gemm_i8 m=1"
    -> "`tcpu_pack_weights_i8` + `tcpu_gemm_i8`"."""
    if region is None:
        return "–"
    return " + ".join(f"`{part.split()[0]}`" for part in region.split(" + "))


def peer_cells(kernel_per_unit, peer, by_name):
    """A peer's instructions per unit and kernel / peer, or dashes."""
    if peer is None:
        return "– | –"
    instructions, work, _ = by_name[peer]
    per_unit = instructions / work
    return f"{per_unit:.4f} | {kernel_per_unit / per_unit:.2f}x"


def main(argv):
    parser = argparse.ArgumentParser(prog="triton_table", description=__doc__.split("\n\n")[1])
    parser.add_argument("--variant", default="vl128", help="QEMU variant (default vl128)")
    parser.add_argument("--manifest", required=True)
    parser.add_argument("--tcpu-compile", required=True)
    parser.add_argument("--compilation-mode", required=True)
    parser.add_argument("--program", action="append", default=[],
                        help="PATH[=ARG,...]: a counted program and its arguments")
    options = parser.parse_args(argv)
    try:
        if options.compilation_mode != "opt":
            raise perf_run.PerfError(
                f"tcpu-compile here is the -c {options.compilation_mode} build: run "
                "`bazel run -c opt //tools/perf:triton_table` to time the optimized one")
        runfiles = perf_run.Runfiles.from_environment()
        objects = object_rows(runfiles, options.manifest, runfiles.path(options.tcpu_compile))
        regions, peers = [], {}
        for spec in options.program:
            path, _, args = spec.partition("=")
            program_regions, program_peers = counted_regions(
                runfiles, path, [a for a in args.split(",") if a], options.variant)
            regions += program_regions
            peers.update(program_peers)
    except perf_run.PerfError as e:
        print(f"triton_table: {e}", file=sys.stderr)
        return 1

    print("| .ttir | object | tcpu-compile CPU s | KiB |")
    print("|---|---|---|---|")
    for ttir, obj, seconds, size in objects:
        print(f"| `{ttir}` | `{obj}` | {seconds:.2f} | {size / 1024:.1f} |")
    print(f"\nslowest compile {max(o[2] for o in objects):.2f} s, largest object "
          f"{max(o[3] for o in objects) / 1024:.1f} KiB, {len(objects)} objects\n")

    by_name = {name: (instructions, work, unit) for name, instructions, work, unit in regions}
    print(f"| region ({options.variant}, one thread) | instructions | per unit | hand-written "
          "peer | hand per unit | kernel / hand | hand on weights packed ahead per unit | "
          "kernel / packed ahead | clang -O3 per unit | kernel / clang | "
          "without NEON per unit | kernel / without NEON |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    for name, (instructions, work, unit) in by_name.items():
        if not name.startswith("triton ") or WITHOUT_NEON in name:
            continue  # a peer
        per = instructions / work
        kinds = peers.get(name, {})
        hand = kinds.get("hand")
        print(f"| {name} | {instructions:,} | {per:.4f} / {unit.rstrip('s')} | "
              f"{peer_label(hand)} | {peer_cells(per, hand, by_name)} | "
              f"{peer_cells(per, kinds.get('prepacked'), by_name)} | "
              f"{peer_cells(per, kinds.get('clang'), by_name)} | "
              f"{peer_cells(per, without_neon_of(name, by_name), by_name)} |")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
