"""bazel run -c opt //tools/perf:triton_corpus_table [-- --variant=vl128 --variant=vl256]

Triton kernels exactly as a GPU's Triton printed them: the launches of triton_corpus_perf.txt
(tutorial-style kernels and Inductor's most frequent kernel shapes from the corpus captured on
an H200, //tests/triton_replay/corpus) replayed by replay_runner --count-regions under the
counting plugin, one thread, in each --variant (default vl128 and vl256). Prints, per launch, its
guest instructions (the launcher, the grid and the kernel: everything between the launch's
region markers, the launch's second run, so that nothing a process does once is counted) per
element written (of the buffers the GPU's launch wrote) and per element of its largest buffer
(what a reduction reads), elements counted in the type their pointer argument addresses. Every
launch must replay `ok` (its output compared with the GPU's); one that does not stops the table.

With --peers (corpus_peers_main.cc), each Inductor launch also gets its clang -O3 peer: the same
computation as a plain C loop run on the launch's own bytes, counted in a region of its own,
checked against the GPU's output; its instructions per element written (the kernel's elements)
and kernel / clang (above 1: Triton runs more instructions). A launch without a peer shows dashes.
"""

import argparse
import json
import os
import re
import sys
import tempfile

import perf_run

REGION = re.compile(r'^work "triton launch (\S+)" (\d+) elements written, (\d+) in the largest '
                    r'buffer$', re.MULTILINE)
PEER = re.compile(r'^peer "triton launch (\S+)" clang "([^"]+)"$', re.MULTILINE)


def read_slice(path):
    """The launch ids of a slice file, in order, with each one's comment."""
    launches = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            text, _, comment = line.partition("#")
            if text.strip():
                launches.append((text.strip(), comment.strip()))
    return launches


def count(runfiles, runner, corpus, slice_path, variant):
    """{launch id: (instructions, elements written, elements of the largest buffer)} for one
    variant."""
    with tempfile.TemporaryFile("w+") as out:
        try:
            counts = perf_run.run_counted(
                runfiles, runner,
                [f"--corpus={corpus}", f"--launches={slice_path}", "--count-regions"], variant,
                stdout=out)
        except perf_run.PerfError as e:
            out.seek(0)
            failed = [line for line in out.read().splitlines()
                      if re.match(r"^\d+ \S+ (record|compile|run|compare)", line)]
            raise perf_run.PerfError(f"{e}; " + ("; ".join(failed) or "no launch reported"))
        out.seek(0)
        stdout = out.read()
    if counts.errors:
        raise perf_run.PerfError("; ".join(counts.errors))
    result = {}
    for m in REGION.finditer(stdout):
        launch = m.group(1)
        region = counts.regions.get(f"triton launch {launch}")
        if region is None:
            raise perf_run.PerfError(f"launch {launch}: the plugin counted no region for it")
        result[launch] = (region.instructions, int(m.group(2)), int(m.group(3)))
    return result


def clang_peers(stdout, regions):
    """{launch id: instructions of its clang -O3 peer}, from the peer program's `peer` lines and
    the plugin's regions ({name: Region}); a line naming a region that was not counted, or a
    second peer of one launch, is an error."""
    peers = {}
    for m in PEER.finditer(stdout):
        launch, region = m.groups()
        if launch in peers:
            raise perf_run.PerfError(f"launch {launch} has two clang peers")
        counted = regions.get(region)
        if counted is None:
            raise perf_run.PerfError(f"launch {launch}: its peer line names '{region}', which "
                                     "was not counted")
        peers[launch] = counted.instructions
    return peers


def count_peers(runfiles, program, corpus, variant):
    """{launch id: instructions of its clang -O3 peer} in one variant; a peer that disagrees
    with the GPU stops the table (PerfError)."""
    with tempfile.TemporaryFile("w+") as out:
        # A disagreement is on the program's stderr (inherited): launch, buffer and element.
        counts = perf_run.run_counted(runfiles, program, [f"--corpus={corpus}"], variant,
                                      stdout=out)
        out.seek(0)
        stdout = out.read()
    if counts.errors:
        raise perf_run.PerfError("; ".join(counts.errors))
    return clang_peers(stdout, counts.regions)


def peer_cells(kernel_instructions, written, peer_instructions):
    """The clang peer's instructions per element written and kernel / clang, or dashes."""
    if peer_instructions is None:
        return "– | –"
    return (f"{peer_instructions / max(1, written):.2f} | "
            f"{kernel_instructions / peer_instructions:.2f}x")


def main(argv):
    parser = argparse.ArgumentParser(prog="triton_corpus_table",
                                     description=__doc__.split("\n\n")[1])
    parser.add_argument("--variant", action="append", default=[],
                        help="QEMU variant (repeatable; default vl128 and vl256)")
    parser.add_argument("--runner", required=True)
    parser.add_argument("--corpus", required=True,
                        help="the launches' corpus folder (a triton_corpus_slice)")
    parser.add_argument("--launches", required=True)
    parser.add_argument("--peers", help="the clang -O3 peers' program (corpus_peers_main.cc)")
    options = parser.parse_args(argv)
    variants = options.variant or ["vl128", "vl256"]
    try:
        runfiles = perf_run.Runfiles.from_environment()
        corpus = runfiles.path(options.corpus)
        manifest = os.path.join(corpus, "manifest.json")
        slice_path = runfiles.path(options.launches)
        with open(manifest, encoding="utf-8") as f:
            by_id = {l["id"]: l for l in json.load(f)["launches"]}
        launches = read_slice(slice_path)
        missing = [launch for launch, _ in launches if launch not in by_id]
        if missing:
            raise perf_run.PerfError(f"launches not in the corpus: {', '.join(missing)}")
        runner = runfiles.path(options.runner)
        counts = {v: count(runfiles, runner, corpus, slice_path, v) for v in variants}
        peers = {v: (count_peers(runfiles, runfiles.path(options.peers), corpus, v)
                     if options.peers else {}) for v in variants}
        for variant in variants:
            absent = [launch for launch, _ in launches if launch not in counts[variant]]
            if absent:
                raise perf_run.PerfError(f"{variant}: launches not replayed ok: "
                                         f"{', '.join(absent)}")
    except perf_run.PerfError as e:
        print(f"triton_corpus_table: {e}", file=sys.stderr)
        return 1

    print("| launch | workload | kernel | what | elements written / largest buffer | "
          + " | ".join(f"instructions ({v}) | per element written / largest ({v}) | "
                       f"clang -O3 per element written ({v}) | kernel / clang ({v})"
                       for v in variants) + " |")
    print("|---|---|---|---|---|" + "---|---|---|---|" * len(variants))
    for launch, comment in launches:
        entry = by_id[launch]
        kernel = entry["kernel"]
        if len(kernel) > 48:
            kernel = kernel[:45] + "..."
        _, written, largest = counts[variants[0]][launch]
        cells = []
        for v in variants:
            instructions, _, _ = counts[v][launch]
            cells.append(f"{instructions:,} | {instructions / max(1, written):.2f} / "
                         f"{instructions / max(1, largest):.2f} | "
                         + peer_cells(instructions, written, peers[v].get(launch)))
        print(f"| {launch} | {entry['workload']} | `{kernel}` | {comment} | {written:,} / "
              f"{largest:,} | " + " | ".join(cells) + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
