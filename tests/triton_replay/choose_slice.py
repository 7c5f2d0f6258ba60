"""Chooses the CI slice of a corpus: a few small launches of every kernel family.

    bazel run //tests/triton_replay:choose_slice -- tests/triton_replay/corpus/manifest.json \\
        [--per-family 4] [--max-buffer-bytes 262144] > tests/triton_replay/corpus/ci_slice.txt

For each family (pointwise, reduction, ..., user) it takes up to --per-family launches, smallest
buffers first, each of a TTIR not taken yet (a kernel replayed once covers its code; more of its
launches add only emulation time), skipping launches over --max-buffer-bytes. The slice lists
their ids with the kernel and family as comments; the replay compiles only their TTIRs.
"""

import argparse
import json
import sys


def choose(launches, per_family, max_bytes):
    chosen = []
    taken_ttirs = set()
    families = sorted({l.get("family", "?") for l in launches})
    for family in families:
        candidates = sorted((l for l in launches if l.get("family", "?") == family
                             and l.get("buffer_bytes", 0) <= max_bytes),
                            key=lambda l: (l.get("buffer_bytes", 0), l.get("id", "")))
        count = 0
        for launch in candidates:
            if count == per_family:
                break
            if launch.get("ttir") in taken_ttirs:
                continue
            taken_ttirs.add(launch.get("ttir"))
            chosen.append(launch)
            count += 1
    return chosen


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("manifest")
    parser.add_argument("--per-family", type=int, default=4)
    parser.add_argument("--max-buffer-bytes", type=int, default=256 * 1024)
    options = parser.parse_args()
    with open(options.manifest, encoding="utf-8") as f:
        launches = json.load(f)["launches"]
    chosen = choose(launches, options.per_family, options.max_buffer_bytes)
    print("# CI slice: up to %d launches per family, each of its own TTIR, buffers <= %d bytes "
          "(choose_slice.py)" % (options.per_family, options.max_buffer_bytes))
    for launch in chosen:
        print("%s  # %s %s, %d buffer bytes" % (launch["id"], launch.get("family", "?"),
                                                launch.get("kernel", "?"),
                                                launch.get("buffer_bytes", 0)))
    print("%d launches of %d" % (len(chosen), len(launches)), file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
