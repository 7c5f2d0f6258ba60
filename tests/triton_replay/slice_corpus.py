"""Writes the folder replay_runner reads for some launches of a captured corpus.

    slice_corpus.py --corpus-manifest corpus/manifest.json --launches slice.txt --out DIR

DIR gets the corpus's manifest.json and, from corpus.tar.xz beside it, only what the chosen
launches use: their records (launches/ID.json), their TTIRs and the buffer blobs the records name.
A slice file holds one launch id per line (`#` starts a comment). Every id must be in the manifest.
"""

import argparse
import json
import os
import re
import shutil
import sys
import tarfile

import compile_corpus

TARBALL = "corpus.tar.xz"
BLOB = re.compile(r'"(blobs/[^"/]+)"')


class SliceError(Exception):
    pass


def read_slice(path):
    """The slice's launch ids (compile_corpus.py reads them), each checked to be one."""
    chosen = compile_corpus.read_slice(path)
    for launch in chosen:
        if not re.fullmatch(r"[A-Za-z0-9_.-]+", launch):
            raise SliceError("%s: '%s' is not a launch id" % (path, launch))
    if not chosen:
        raise SliceError("%s names no launch" % path)
    return chosen


def wanted_members(manifest_path, chosen):
    """The launch records and TTIRs of the chosen launches, as tarball member names."""
    with open(manifest_path, encoding="utf-8") as f:
        launches = {l.get("id"): l for l in json.load(f).get("launches", []) if isinstance(l, dict)}
    missing = [launch for launch in chosen if launch not in launches]
    if missing:
        raise SliceError("%s has no launch %s" % (manifest_path, ", ".join(missing)))
    members = set()
    for launch in chosen:
        members.update((launches[launch]["record"], launches[launch]["ttir"]))
    return members


def safe_name(name):
    return not name.startswith("/") and ".." not in name.split("/")


def extract(tarball, wanted, out):
    """Extracts the wanted members and the blobs their records name; returns what was missing.
    Blobs follow the records in the tarball that capture writes, so one pass is enough; a blob
    seen before the record naming it costs a second pass."""
    blobs, seen, found = set(), [], set()
    with tarfile.open(tarball, "r:xz") as archive:
        for member in archive:
            if not member.isfile() or not safe_name(member.name):
                continue
            seen.append(member.name)
            if member.name in wanted or member.name in blobs:
                archive.extract(member, out)
                found.add(member.name)
                if member.name.startswith("launches/"):
                    with open(os.path.join(out, member.name), encoding="utf-8") as f:
                        blobs.update(BLOB.findall(f.read()))
    late = blobs - found
    if late & set(seen):
        with tarfile.open(tarball, "r:xz") as archive:
            for member in archive:
                if member.name in late:
                    archive.extract(member, out)
                    found.add(member.name)
    return sorted((wanted | blobs) - found)


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--corpus-manifest", required=True)
    parser.add_argument("--launches", required=True)
    parser.add_argument("--out", required=True)
    options = parser.parse_args(argv)
    try:
        chosen = read_slice(options.launches)
        wanted = wanted_members(options.corpus_manifest, chosen)
        tarball = os.path.join(os.path.dirname(options.corpus_manifest), TARBALL)
        if not os.path.exists(tarball):
            raise SliceError("no %s beside %s" % (TARBALL, options.corpus_manifest))
        os.makedirs(options.out, exist_ok=True)
        missing = extract(tarball, wanted, options.out)
        if missing:
            raise SliceError("%s lacks %s" % (tarball, ", ".join(missing[:5])))
        shutil.copy(options.corpus_manifest, os.path.join(options.out, "manifest.json"))
    except (OSError, ValueError, KeyError, tarfile.TarError, SliceError) as e:
        print("slice_corpus: %s" % e, file=sys.stderr)
        return 1
    print("slice_corpus: %d launches, %d files" % (len(chosen), sum(
        len(files) for _, _, files in os.walk(options.out))))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
