"""Compiles the TTIRs of a corpus slice for a replay (triton_replay_test's build step).

    compile_corpus.py --corpus-manifest CORPUS/manifest.json [--launches SLICE]
        --tcpu-compile TOOL [--target T] [--variant NAME=T ...] [--jobs N] [--timeout S]
        --archive OUT.a --entries OUT.c --report OUT.tsv

Every TTIR the slice's launches name (ttir/H.ttir, from corpus.tar.xz or the unpacked folder
beside the manifest) is compiled once with --kernel-suffix=_H, so that same-named kernels of
different files link together: --emit=replay (the entries), the baseline object (with
--dispatch for each variant) and one object per variant. A TTIR that does not compile fails
nothing here: the table records tcpu-compile's message and the replay reports its launches at
stage `compile`. Outputs:
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
    """An ar archive of (name, file) members; names are short, so no long-name table."""
    with open(path, "wb") as out:
        out.write(b"!<arch>\n")
        for name, member in members:
            with open(member, "rb") as f:
                data = f.read()
            header = "%-16s%-12s%-6s%-6s%-8s%-10s`\n" % (name + "/", 0, 0, 0, 644, len(data))
            assert len(header) == 60 and len(name) < 16, name
            out.write(header.encode("ascii") + data)
            if len(data) % 2:
                out.write(b"\n")


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


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--corpus-manifest", required=True)
    parser.add_argument("--launches")
    parser.add_argument("--tcpu-compile", required=True)
    parser.add_argument("--target", default="")
    parser.add_argument("--variant", action="append", default=[])
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--timeout", type=int, default=0,
                        help="per tcpu-compile, seconds (0: none, as in the build)")
    parser.add_argument("--archive", required=True)
    parser.add_argument("--entries", required=True)
    parser.add_argument("--report", required=True)
    options = parser.parse_args()
    options.root = os.path.dirname(options.corpus_manifest)
    options.tcpu_compile = os.path.abspath(options.tcpu_compile)

    ttirs = wanted_ttirs(options.corpus_manifest, options.launches)
    with tempfile.TemporaryDirectory() as workdir:
        sources = extract_ttirs(options.root, ttirs, workdir)
        with concurrent.futures.ThreadPoolExecutor(max(1, options.jobs)) as pool:
            futures = [pool.submit(compile_ttir, i, t, sources[t], options, workdir)
                       for i, t in enumerate(ttirs)]
            results = [f.result() for f in futures]
        write_archive(options.archive, [(name, path) for r in results if r["error"] is None
                                        for name, path in r["objects"]])
        write_entries(options.entries, results)
        write_report(options.report, results)
    failed = sum(1 for r in results if r["error"] is not None)
    print("compile_corpus: %d TTIRs, %d did not compile" % (len(results), failed))
    return 0


if __name__ == "__main__":
    sys.exit(main())
