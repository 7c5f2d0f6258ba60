"""The test of one QEMU variant of a triton_replay_test (replay.bzl generates its command line).

Gates every compiled object's size, unpacks the corpus, runs the aarch64 runner under
qemu-aarch64 once per thread count (TCPU_NUM_THREADS) and checks the report: every launch once,
each `ok` unless --expect names it (then its line must hold that text). Prints the report and
writes it to $TEST_UNDECLARED_OUTPUTS_DIR/replay_report.txt, beside compile_report.tsv.
"""

import argparse
import csv
import json
import os
import shutil
import subprocess
import sys
import tarfile

TARBALL = "corpus.tar.xz"


def parse_args():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--variant", required=True)
    parser.add_argument("--cpu", required=True)
    parser.add_argument("--qemu", required=True)
    parser.add_argument("--runner", required=True)
    parser.add_argument("--corpus-manifest", required=True)
    parser.add_argument("--compile-report", required=True)
    parser.add_argument("--launches")
    parser.add_argument("--threads", required=True)
    parser.add_argument("--max-object-bytes", type=int, required=True)
    parser.add_argument("--expect", action="append", default=[], metavar="ID=TEXT")
    parser.add_argument("--timeout", type=int, default=0,
                        help="per launch, seconds (0: none; tests set none)")
    return parser.parse_args()


def size_gate(report_path, cap, out):
    """Prints the compile report; returns the failures of the size gate as (kernels, message)."""
    failures = []
    with open(report_path, encoding="utf-8") as f:
        rows = list(csv.DictReader(f, delimiter="\t"))
    out.append("compiled objects (%d; the size cap is %d bytes):" % (len(rows), cap))
    for row in rows:
        out.append("  %-8s %-28s %-10s %8s bytes %6s s  %s%s" % (
            row["status"], row["kernels"], row["object"], row["bytes"], row["seconds"], row["ttir"],
            ("  " + row["message"][:200]) if row["message"] else ""))
        if row["status"] == "ok" and int(row["bytes"]) > cap:
            failures.append((row["kernels"], "size %s: the %s object of %s is %s bytes, over the "
                             "%d-byte cap" % (row["kernels"], row["object"], row["ttir"],
                                              row["bytes"], cap)))
    return failures


def safe_member(member):
    name = member.name
    return (member.isfile() or member.isdir()) and not name.startswith("/") and ".." not in name.split("/")


def unpack(manifest_path, workdir):
    """The corpus root the runner reads: corpus.tar.xz unpacked beside a copy of the manifest, or
    the folder of the manifest when the corpus is kept unpacked."""
    root = os.path.dirname(manifest_path)
    tarball = os.path.join(root, TARBALL)
    if not os.path.exists(tarball):
        return root
    target = os.path.join(workdir, "corpus")
    os.makedirs(target, exist_ok=True)
    with tarfile.open(tarball, "r:xz") as archive:
        members = [m for m in archive.getmembers() if safe_member(m)]
        archive.extractall(target, members=members)
    shutil.copy(manifest_path, os.path.join(target, "manifest.json"))
    return target


def expected_ids(manifest_path, slice_path):
    """The launch ids the runner must report, as it reads them (corpus_index.cc)."""
    try:
        with open(manifest_path, encoding="utf-8") as f:
            launches = json.load(f).get("launches", [])
    except (OSError, ValueError, AttributeError):
        return None
    ids = [l.get("id") if isinstance(l, dict) and isinstance(l.get("id"), str)
           else "launches[%d]" % i for i, l in enumerate(launches)]
    if slice_path is None:
        return ids
    chosen = []
    with open(slice_path, encoding="utf-8") as f:
        for line in f:
            line = line.split("#", 1)[0].strip()
            if line and line not in chosen:
                chosen.append(line)
    return chosen


def run_replay(args, corpus, threads, out):
    """Runs the runner once; returns {id: line} and the failures it shows by itself."""
    command = [args.qemu, "-cpu", args.cpu, args.runner, "--corpus=" + corpus]
    if args.timeout > 0:
        command.append("--timeout=%d" % args.timeout)
    if args.launches:
        command.append("--launches=" + args.launches)
    env = dict(os.environ, TCPU_NUM_THREADS=str(threads))
    done = subprocess.run(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    stdout = done.stdout.decode("utf-8", "replace")
    stderr = done.stderr.decode("utf-8", "replace")
    out.append("")
    out.append("%s, TCPU_NUM_THREADS=%d (exit %d):" % (args.variant, threads, done.returncode))
    failures = []
    lines = {}
    for line in stdout.splitlines():
        out.append("  " + line)
        fields = line.split(" ", 3)
        if line.startswith("replayed ") or len(fields) < 3:
            continue
        if fields[0] in lines:
            failures.append("threads=%d: launch %s reported twice" % (threads, fields[0]))
        lines[fields[0]] = line
    if stderr.strip():
        out.extend("  stderr: " + l for l in stderr.splitlines()[-20:])
    if done.returncode not in (0, 1):
        failures.append("threads=%d: the runner failed (exit %d): %s" % (
            threads, done.returncode, stderr.strip().splitlines()[-1:] or "no message"))
    return lines, failures


def check_lines(lines, ids, expect, threads):
    failures = []
    for launch in ids:
        line = lines.get(launch)
        if line is None:
            failures.append("threads=%d: launch %s has no report line" % (threads, launch))
            continue
        stage_and_detail = line.split(" ", 2)[2]
        stage = stage_and_detail.split(" ", 1)[0]
        if launch in expect:
            if stage == "ok" or expect[launch] not in stage_and_detail:
                failures.append("threads=%d: launch %s was expected to report '%s': %s" % (
                    threads, launch, expect[launch], line))
        elif stage != "ok":
            failures.append("threads=%d: %s" % (threads, line))
    for launch in sorted(set(lines) - set(ids)):
        failures.append("threads=%d: launch %s is not in the corpus's launches" % (threads, launch))
    return failures


def expected_size_failures(size_failures, expect):
    """Size-gate failures that --expect size:KERNELS=TEXT does not expect, and the expected ones
    that did not happen."""
    failures = []
    seen = set()
    for kernels, message in size_failures:
        key = "size:" + kernels
        if key in expect and expect[key] in message:
            seen.add(key)
        else:
            failures.append(message)
    for key in sorted(k for k in expect if k.startswith("size:") and k not in seen):
        failures.append("--expect %s: the size gate did not fail that way" % key)
    return failures


def main():
    args = parse_args()
    expect = dict(item.split("=", 1) for item in args.expect)
    workdir = os.environ.get("TEST_TMPDIR") or os.getcwd()
    out = ["replay of %s in %s (-cpu %s)" % (args.corpus_manifest.split("runfiles/")[-1],
                                              args.variant, args.cpu)]
    failures = expected_size_failures(size_gate(args.compile_report, args.max_object_bytes, out),
                                      expect)
    expect = {k: v for k, v in expect.items() if not k.startswith("size:")}
    ids = expected_ids(args.corpus_manifest, args.launches)
    corpus = unpack(args.corpus_manifest, workdir)
    for threads in [int(t) for t in args.threads.split(",")]:
        lines, run_failures = run_replay(args, corpus, threads, out)
        failures += run_failures
        if ids is not None:
            failures += check_lines(lines, ids, expect, threads)
    for launch in sorted(set(expect) - set(ids or [])):
        failures.append("--expect names launch %s, which the corpus does not replay" % launch)
    out.append("")
    out.extend(["FAIL: " + f for f in failures] or ["PASS: every launch as expected"])
    report = "\n".join(out) + "\n"
    sys.stdout.write(report)
    outputs = os.environ.get("TEST_UNDECLARED_OUTPUTS_DIR")
    if outputs:
        with open(os.path.join(outputs, "replay_report.txt"), "w", encoding="utf-8") as f:
            f.write(report)
        shutil.copy(args.compile_report, os.path.join(outputs, "compile_report.tsv"))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
