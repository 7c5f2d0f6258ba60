"""Compiles the TTIRs of a corpus slice for a replay (triton_replay_test's build step).

    compile_corpus.py compile --corpus-manifest CORPUS/manifest.json [--launches SLICE]
        --tcpu-compile TOOL [--target T] [--variant NAME=T ...] [--shard K/N] [--jobs J]
        [--timeout S] --objects SHARD.a --results SHARD.json
    compile_corpus.py table --shard SHARD.json SHARD.a [--shard ...]
        --archive OUT.a --entries OUT.c --report OUT.tsv

Every TTIR the slice's launches name (ttir/H.ttir, from corpus.tar.xz or the unpacked folder
beside the manifest) is compiled once with --kernel-suffix=_H, so that same-named kernels of
different files link together: --emit=replay (the entries), the baseline object (with
--dispatch for each variant) and one object per variant. A TTIR that does not compile fails
nothing here: the table records tcpu-compile's message and the replay reports its launches at
stage `compile`.

`compile` takes the TTIRs of shard K of N (the K-th of every N, in first-use order; without
--shard, all): the build runs the shards as separate actions, so they share the cores with the
rest of the build. It writes their objects (SHARD.a) and what the table needs (SHARD.json).
`table` puts the shards together, in first-use order whatever the sharding:
  OUT.a     the objects of every TTIR that compiled (an ar archive without a symbol index:
            ld.lld reads the members' symbols itself)
  OUT.c     the replay entries of those TTIRs and the table tcpu_replay_table (replay_table.h)
  OUT.tsv   per object: ttir, kernels, object, status, bytes, seconds, message
"""

import argparse
import concurrent.futures
import json
import os
import re
import subprocess
import sys
import tarfile
import tempfile
import time

TARBALL = "corpus.tar.xz"


def read_slice(path):
    ids = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.split("#", 1)[0].strip()
            if line and line not in ids:
                ids.append(line)
    return ids


def wanted_ttirs(manifest_path, slice_path):
    """The ttir paths the slice's launches name, in first-use order. A manifest or slice that
    cannot be read names none: the runner reports it, this step does not fail the build."""
    try:
        with open(manifest_path, encoding="utf-8") as f:
            manifest = json.load(f)
        ids = None if slice_path is None else read_slice(slice_path)
    except (OSError, ValueError) as e:
        print("compile_corpus: %s: %s (nothing compiled)" % (manifest_path, e))
        return []
    launches = manifest.get("launches", []) if isinstance(manifest, dict) else []
    by_id = {l.get("id"): l for l in launches if isinstance(l, dict)}
    chosen = launches if ids is None else [by_id[i] for i in ids if i in by_id]
    ttirs = []
    for launch in chosen:
        ttir = launch.get("ttir") if isinstance(launch, dict) else None
        if isinstance(ttir, str) and ttir not in ttirs:
            ttirs.append(ttir)
    return ttirs


def extract_ttirs(root, ttirs, into):
    """Writes each wanted TTIR to `into`/ttir/H.ttir; returns {ttir: True if found}. tcpu-compile
    then runs in `into` on the relative path, so that its messages name the TTIR as the corpus
    does (and no temporary folder gets into the outputs)."""
    found = {}
    tarball = os.path.join(root, TARBALL)
    wanted = set(ttirs)

    def keep(ttir, data):
        if os.path.isabs(ttir) or ".." in ttir.split("/"):
            return  # a record may not point outside the corpus
        path = os.path.join(into, ttir)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as out:
            out.write(data)
        found[ttir] = True

    if os.path.exists(tarball):
        try:
            with tarfile.open(tarball, "r|xz") as archive:
                for member in archive:
                    if member.name in wanted and member.isfile():
                        keep(member.name, archive.extractfile(member).read())
                        if len(found) == len(wanted):
                            break
        except (OSError, tarfile.TarError, EOFError) as e:
            print("compile_corpus: %s: %s (the TTIRs after it count as absent)" % (tarball, e))
    else:
        for ttir in ttirs:
            path = os.path.join(root, ttir)
            if os.path.isfile(path):
                with open(path, "rb") as f:
                    keep(ttir, f.read())
    return {ttir: found.get(ttir, False) for ttir in ttirs}


def suffix_of(ttir):
    """_H for ttir/H.ttir: the part of the name that makes its symbols unique."""
    stem = os.path.basename(ttir)
    stem = stem[: -len(".ttir")] if stem.endswith(".ttir") else stem
    return "_" + re.sub(r"[^A-Za-z0-9_]", "_", stem)


def run_tool(args, timeout, cwd):
    start = time.monotonic()
    try:
        done = subprocess.run(args, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                              timeout=timeout or None, cwd=cwd)
        message = done.stdout.decode("utf-8", "replace")
        ok = done.returncode == 0
        if not ok and not message.strip():
            message = "tcpu-compile exited with status %d" % done.returncode
    except subprocess.TimeoutExpired:
        ok, message = False, "tcpu-compile timed out after %d s" % timeout
    return ok, message, time.monotonic() - start


def compile_ttir(index, ttir, present, options, workdir):
    """Compiles one TTIR; returns a dict with its entries, objects and rows of the report."""
    result = {"ttir": ttir, "entries": None, "objects": [], "rows": [], "error": None, "kernels": []}
    source = ttir
    if not present:
        where = TARBALL if os.path.exists(os.path.join(options.root, TARBALL)) else "the corpus folder"
        result["error"] = "%s is not in %s" % (ttir, where)
        result["rows"].append([ttir, "-", "-", "compile", 0, 0.0, result["error"]])
        return result
    suffix = suffix_of(ttir)
    tool = options.tcpu_compile
    entries = os.path.join(workdir, "%d_replay.c" % index)
    ok, message, seconds = run_tool(
        [tool, source, "-o", entries, "--emit=replay", "--kernel-suffix=" + suffix],
        options.timeout, workdir)
    if not ok:
        result["error"] = message
        result["rows"].append([ttir, "-", "replay entries", "compile", 0, seconds, message])
        return result
    with open(entries, encoding="utf-8") as f:
        text = f.read()
    symbols = re.findall(r"^const tcpu_replay_kernel tcpu_replay_kernel_(\w+) = ", text, re.M)
    result["kernels"] = [(s[: -len(suffix)], s) for s in symbols]
    names = ",".join(name for name, _ in result["kernels"])
    dispatch = ["--dispatch=" + v for v in options.variant]
    builds = [("baseline", "%d.o" % index, ["--emit=obj"] + dispatch +
               (["--target=" + options.target] if options.target else []))]
    for number, entry in enumerate(options.variant):
        name, target = entry.split("=", 1)
        builds.append((name, "%dv%d.o" % (index, number),
                       ["--emit=obj", "--variant=" + name, "--target=" + target]))
    objects = []
    for name, object_name, flags in builds:
        path = os.path.join(workdir, object_name)
        ok, message, seconds = run_tool(
            [tool, source, "-o", path, "--kernel-suffix=" + suffix] + flags, options.timeout,
            workdir)
        size = os.path.getsize(path) if ok else 0
        result["rows"].append([ttir, names, name, "ok" if ok else "compile", size, seconds,
                               "" if ok else message])
        if not ok:
            result["error"] = "%s object: %s" % (name, message)
            return result
        objects.append((object_name, path))
    result["entries"] = text
    result["objects"] = objects
    return result


def write_archive(path, members):
    """An ar archive of (name, bytes) members; names are short, so no long-name table."""
    with open(path, "wb") as out:
        out.write(b"!<arch>\n")
        for name, data in members:
            header = "%-16s%-12s%-6s%-6s%-8s%-10s`\n" % (name + "/", 0, 0, 0, 644, len(data))
            assert len(header) == 60 and len(name) < 16, name
            out.write(header.encode("ascii") + data)
            if len(data) % 2:
                out.write(b"\n")


def read_archive(path):
    """{name: bytes} of an archive write_archive wrote."""
    with open(path, "rb") as f:
        data = f.read()
    if not data.startswith(b"!<arch>\n"):
        raise ValueError("%s is not an ar archive" % path)
    members, at = {}, 8
    while at < len(data):
        header = data[at:at + 60].decode("ascii")
        name, size = header[:16].rstrip().rstrip("/"), int(header[48:58])
        members[name] = data[at + 60:at + 60 + size]
        at += 60 + size + size % 2
    return members


def c_string(text):
    escaped = []
    for byte in text.encode("utf-8"):
        c = chr(byte)
        if c == "\\" or c == '"':
            escaped.append("\\" + c)
        elif c == "\n":
            escaped.append("\\n")
        elif 32 <= byte < 127:
            escaped.append(c)
        else:
            escaped.append("\\%03o" % byte)
    return '"' + "".join(escaped) + '"'


def write_entries(path, results):
    lines = ["/* Generated by tests/triton_replay/compile_corpus.py: the replay entries of the",
             " * corpus kernels that compiled, and the table of every TTIR of the slice. */",
             '#include "tests/triton_replay/replay_table.h"', ""]
    table = []
    for result in results:
        if result["error"] is None:
            lines.append(result["entries"])
            for name, symbol in result["kernels"]:
                table.append("    {%s, %s, &tcpu_replay_kernel_%s, 0}," %
                             (c_string(result["ttir"]), c_string(name), symbol))
        else:
            # Long messages are cut: the report has them whole.
            table.append("    {%s, 0, 0, %s}," % (c_string(result["ttir"]), c_string(result["error"][:4000])))
    lines.append("const tcpu_replay_table_entry tcpu_replay_table[] = {")
    lines.extend(table or ["    {0, 0, 0, 0},"])
    lines.append("};")
    lines.append("const int32_t tcpu_replay_table_size = %d;" % len(table))
    with open(path, "w", encoding="utf-8") as out:
        out.write("\n".join(lines) + "\n")


def write_report(path, results):
    with open(path, "w", encoding="utf-8") as out:
        out.write("ttir\tkernels\tobject\tstatus\tbytes\tseconds\tmessage\n")
        for result in results:
            for row in result["rows"]:
                row = list(row)
                row[5] = "%.2f" % row[5]
                row[6] = " | ".join(line for line in row[6].splitlines() if line.strip())
                out.write("\t".join(str(field).replace("\t", " ") for field in row) + "\n")


def compile_shard(options):
    """The `compile` command: this shard's TTIRs into SHARD.a and SHARD.json."""
    options.root = os.path.dirname(options.corpus_manifest)
    options.tcpu_compile = os.path.abspath(options.tcpu_compile)
    shard, shards = options.shard
    ttirs = wanted_ttirs(options.corpus_manifest, options.launches)
    # Indices are over the whole slice: they order the table and name the archive's members.
    mine = [(i, t) for i, t in enumerate(ttirs) if i % shards == shard]
    with tempfile.TemporaryDirectory() as workdir:
        sources = extract_ttirs(options.root, [t for _, t in mine], workdir)
        with concurrent.futures.ThreadPoolExecutor(max(1, options.jobs)) as pool:
            futures = [pool.submit(compile_ttir, i, t, sources[t], options, workdir)
                       for i, t in mine]
            results = [f.result() for f in futures]
        members = []
        for (index, _), result in zip(mine, results):
            result["index"] = index
            for name, path in result["objects"]:
                with open(path, "rb") as f:
                    members.append((name, f.read()))
            result["objects"] = [name for name, _ in result["objects"]]
        write_archive(options.objects, members)
    with open(options.results, "w", encoding="utf-8") as out:
        json.dump({"ttirs": len(ttirs), "results": results}, out, indent=1)
    return 0


def write_table(options):
    """The `table` command: the shards' results as one archive, entries source and report."""
    results, members, counts = [], {}, set()
    for results_path, objects_path in options.shard:
        with open(results_path, encoding="utf-8") as f:
            shard = json.load(f)
        counts.add(shard["ttirs"])
        results.extend(shard["results"])
        members.update(read_archive(objects_path))
    results.sort(key=lambda r: r["index"])
    expected = counts.pop() if len(counts) == 1 else -1
    if [r["index"] for r in results] != list(range(expected)):
        sys.exit("compile_corpus: the shards do not cover the slice once each (%s)" %
                 ", ".join(path for path, _ in options.shard))
    write_archive(options.archive, [(name, members[name]) for r in results
                                    if r["error"] is None for name in r["objects"]])
    write_entries(options.entries, results)
    write_report(options.report, results)
    failed = sum(1 for r in results if r["error"] is not None)
    print("compile_corpus: %d TTIRs, %d did not compile" % (len(results), failed))
    return 0


def shard_of(text):
    try:
        shard, shards = (int(n) for n in text.split("/"))
    except ValueError:
        shard = shards = -1
    if not 0 <= shard < shards:
        raise argparse.ArgumentTypeError("expected K/N with 0 <= K < N, got '%s'" % text)
    return shard, shards


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    compile_parser = commands.add_parser("compile", help="compile one shard of the TTIRs")
    compile_parser.add_argument("--corpus-manifest", required=True)
    compile_parser.add_argument("--launches")
    compile_parser.add_argument("--tcpu-compile", required=True)
    compile_parser.add_argument("--target", default="")
    compile_parser.add_argument("--variant", action="append", default=[])
    compile_parser.add_argument("--shard", type=shard_of, default=(0, 1), help="K/N (0-based)")
    compile_parser.add_argument("--jobs", type=int, default=1,
                                help="tcpu-compile processes at once (the build runs shards "
                                     "in parallel instead)")
    compile_parser.add_argument("--timeout", type=int, default=0,
                                help="per tcpu-compile, seconds (0: none, as in the build)")
    compile_parser.add_argument("--objects", required=True)
    compile_parser.add_argument("--results", required=True)
    table_parser = commands.add_parser("table", help="put the shards together")
    table_parser.add_argument("--shard", nargs=2, action="append", default=[],
                              metavar=("RESULTS", "OBJECTS"))
    table_parser.add_argument("--archive", required=True)
    table_parser.add_argument("--entries", required=True)
    table_parser.add_argument("--report", required=True)
    options = parser.parse_args()
    return {"compile": compile_shard, "table": write_table}[options.command](options)


if __name__ == "__main__":
    sys.exit(main())
