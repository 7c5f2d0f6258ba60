"""The work directory (records as they are captured) and the corpus (FORMAT.md) packed from it.

Standard library only. Several worker processes may write into one work directory at once:
every file is written to a temporary name and renamed into place, blobs and TTIR files are
named by their hash (two writers of the same name write the same bytes), and each workload has
its own record folder, index and state file.

Work directory layout::

    WORK/
      run.json                 settings of the run (checked when resuming)
      env.json                 versions and GPU, written by the first worker
      ttir/H.ttir              as in the corpus
      blobs/S.bin              as in the corpus
      workloads/NAME/
        state.json             {"status": "started" | "done" | "error" | "interrupted", ...}
        index.jsonl            one line per recorded launch or skip, appended as they happen
        records/NNNNN.json     the launch records, "id" still local ("NAME/NNNNN")
      cache/                   Inductor and Triton caches (reused when resuming)

The corpus (OUT/manifest.json + OUT/corpus.tar.xz) is rebuilt from scratch by pack().
"""

import hashlib
import io
import json
import os
import re
import shutil
import tarfile
import tempfile
from typing import Any, Dict, Iterable, List, Optional, Tuple

FORMAT_VERSION = 1
TTIR_HASH_CHARS = 16
BLOB_HASH_CHARS = 24


def sha256_hex(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def ttir_name(text: str) -> str:
    return "ttir/%s.ttir" % sha256_hex(text.encode("utf-8"))[:TTIR_HASH_CHARS]


def blob_name(data: bytes) -> str:
    return "blobs/%s.bin" % sha256_hex(data)[:BLOB_HASH_CHARS]


def atomic_write(path: str, data: bytes) -> None:
    d = os.path.dirname(path)
    os.makedirs(d, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=d, prefix=".tmp-")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def write_json(path: str, obj: Any) -> None:
    atomic_write(path, (json.dumps(obj, indent=1, allow_nan=False) + "\n").encode("utf-8"))


def read_json(path: str, default: Any = None) -> Any:
    try:
        with open(path, "r", encoding="utf-8") as f:
            return json.load(f)
    except (OSError, ValueError):
        return default


SCALAR_TYPES = ("i1", "i8", "i16", "i32", "i64", "f16", "bf16", "f32", "f64")
_FLOAT_DIGITS = {"f16": 4, "bf16": 4, "f32": 8, "f64": 16}
_BLOB_RE = re.compile(r"^blobs/[0-9a-f]{%d}\.bin$" % BLOB_HASH_CHARS)
_TTIR_RE = re.compile(r"^ttir/[0-9a-f]{%d}\.ttir$" % TTIR_HASH_CHARS)


def validate_record(rec: Dict[str, Any]) -> List[str]:
    """Problems of a launch record against FORMAT.md (empty list: none)."""
    p = []

    def need(cond, msg):
        if not cond:
            p.append(msg)

    for key in ("id", "kernel", "ttir", "grid", "num_warps", "num_stages", "params", "args", "buffers"):
        need(key in rec, f"missing key {key}")
    if p:
        return p
    need(isinstance(rec["grid"], list) and len(rec["grid"]) == 3
         and all(isinstance(g, int) and g > 0 for g in rec["grid"]), "grid must be 3 positive ints")
    need(bool(_TTIR_RE.match(str(rec["ttir"]))), f"bad ttir path {rec['ttir']!r}")
    for prm in rec["params"]:
        need(isinstance(prm, dict) and {"name", "type", "constexpr"} <= set(prm), f"bad param {prm!r}")
    bufs = rec["buffers"]
    for i, b in enumerate(bufs):
        need(b.get("id") == i, f"buffer {i}: id {b.get('id')}")
        need(isinstance(b.get("nbytes"), int) and b["nbytes"] >= 0, f"buffer {i}: nbytes")
        for k in ("before", "after"):
            need(bool(_BLOB_RE.match(str(b.get(k)))), f"buffer {i}: bad {k} {b.get(k)!r}")
        need(isinstance(b.get("changed"), bool), f"buffer {i}: changed must be a bool")
        if "poisoned" in b:
            need(b["changed"] is False, f"buffer {i}: poisoned on a changed buffer")
            pz = b["poisoned"]
            need(pz.get("fill") == 255 and bool(_BLOB_RE.match(str(pz.get("after")))), f"buffer {i}: bad poisoned")
    for j, a in enumerate(rec["args"]):
        kind = a.get("kind")
        if kind in ("ptr", "desc"):
            ok = isinstance(a.get("buffer"), int) and 0 <= a["buffer"] < len(bufs)
            need(ok, f"arg {j}: bad buffer")
            if ok:
                need(isinstance(a.get("offset"), int) and 0 <= a["offset"] <= bufs[a["buffer"]]["nbytes"],
                     f"arg {j}: offset outside the buffer")
            need(isinstance(a.get("dtype"), str) and a["dtype"], f"arg {j}: dtype")
            if kind == "desc":
                n = len(a.get("block") or [])
                need(n > 0 and len(a.get("shape") or []) == n and len(a.get("strides") or []) == n,
                     f"arg {j}: shape/strides/block ranks")
        elif kind == "scalar":
            t = a.get("type")
            need(t in SCALAR_TYPES, f"arg {j}: scalar type {t!r}")
            if t in _FLOAT_DIGITS:
                bits = str(a.get("bits", ""))
                need(bits.startswith("0x") and len(bits) == 2 + _FLOAT_DIGITS[t], f"arg {j}: bits {bits!r}")
            elif t in SCALAR_TYPES:
                need(isinstance(a.get("value"), int), f"arg {j}: integer value")
        else:
            p.append(f"arg {j}: kind {kind!r}")
    return p


class WorkDir:
    def __init__(self, root: str):
        self.root = os.path.abspath(root)
        self._known = set()  # blob / ttir names known to exist

    def path(self, *parts: str) -> str:
        return os.path.join(self.root, *parts)

    def put_bytes(self, name: str, data: bytes) -> str:
        if name not in self._known:
            p = self.path(name)
            if not os.path.exists(p):
                atomic_write(p, data)
            self._known.add(name)
        return name

    def blob(self, data: bytes) -> str:
        """Store `data` once; return its corpus path 'blobs/S.bin'."""
        return self.put_bytes(blob_name(data), data)

    def ttir(self, text: str) -> str:
        return self.put_bytes(ttir_name(text), text.encode("utf-8"))

    # per workload -----------------------------------------------------------------------
    def workload_dir(self, name: str) -> str:
        return self.path("workloads", name)

    def state(self, name: str) -> Optional[Dict[str, Any]]:
        return read_json(os.path.join(self.workload_dir(name), "state.json"))

    def set_state(self, name: str, state: Dict[str, Any]) -> None:
        write_json(os.path.join(self.workload_dir(name), "state.json"), state)

    def open_workload(self, name: str) -> "WorkloadWriter":
        d = self.workload_dir(name)
        if os.path.isdir(d):
            shutil.rmtree(d)
        os.makedirs(os.path.join(d, "records"))
        return WorkloadWriter(self, name)

    def index(self, name: str) -> List[Dict[str, Any]]:
        """The workload's index entries (a torn last line, from a killed worker, is dropped)."""
        out = []
        try:
            with open(os.path.join(self.workload_dir(name), "index.jsonl"), "r", encoding="utf-8") as f:
                for line in f:
                    try:
                        out.append(json.loads(line))
                    except ValueError:
                        pass
        except OSError:
            pass
        return out


class WorkloadWriter:
    def __init__(self, work: WorkDir, name: str):
        self.work = work
        self.name = name
        self.count = 0
        self.skips = 0
        self._index = open(os.path.join(work.workload_dir(name), "index.jsonl"), "a", encoding="utf-8")

    def _append(self, entry: Dict[str, Any]) -> None:
        self._index.write(json.dumps(entry, allow_nan=False) + "\n")
        self._index.flush()

    def add_record(self, record: Dict[str, Any], family: str) -> str:
        """Write one launch record (its blobs and TTIR must already be stored)."""
        self.count += 1
        local = "%05d" % self.count
        record = dict(record)
        record["id"] = f"{self.name}/{local}"
        rel = f"workloads/{self.name}/records/{local}.json"
        write_json(self.work.path(rel), record)
        blobs = []
        for b in record.get("buffers", []):
            blobs.append(b["before"])
            blobs.append(b["after"])
            if "poisoned" in b:
                blobs.append(b["poisoned"]["after"])
        self._append({"type": "launch", "file": rel, "kernel": record["kernel"], "family": family,
                      "ttir": record["ttir"], "buffer_bytes": sum(b["nbytes"] for b in record["buffers"]),
                      "blobs": blobs})
        return record["id"]

    def add_skip(self, kernel: str, reason: str) -> None:
        self.skips += 1
        self._append({"type": "skip", "kernel": kernel, "reason": reason})

    def close(self) -> None:
        self._index.close()


# ----------------------------------------------------------------------------------------------
# Packing


def _tarinfo(name: str, size: int) -> tarfile.TarInfo:
    ti = tarfile.TarInfo(name)
    ti.size = size
    ti.mtime = 0
    ti.mode = 0o644
    ti.uid = ti.gid = 0
    ti.uname = ti.gname = ""
    return ti


def _write_tar(path: str, members: Iterable[Tuple[str, bytes]], preset: int) -> int:
    tmp = path + ".tmp"
    with tarfile.open(tmp, "w:xz", preset=preset, format=tarfile.PAX_FORMAT) as tar:
        for name, data in members:
            tar.addfile(_tarinfo(name, len(data)), io.BytesIO(data))
    os.replace(tmp, path)
    return os.path.getsize(path)


_SOURCE_PATH = re.compile(r'"[^"\n]*?/(site-packages|cache/inductor|tools/triton_capture)/')


def neutral_paths(ttir: str) -> str:
    """The TTIR with the capture machine's folders left out of its source locations:
    ".../site-packages/torch/..." -> "site-packages/torch/...", an Inductor cache file
    ".../cache/inductor/ab/cab....py" -> "inductor/ab/cab....py", this tool's kernels
    ".../tools/triton_capture/kernels/..." -> "tools/triton_capture/kernels/..."."""
    folder = {"cache/inductor": "inductor/"}
    return _SOURCE_PATH.sub(lambda m: '"' + folder.get(m.group(1), m.group(1) + "/"), ttir)


def pack(work: WorkDir, out_dir: str, workloads: List[Dict[str, Any]], made_with: Dict[str, Any],
         size_cap_bytes: int, max_corpus_bytes: int = 0, xz_preset: int = 6,
         log=print, pack_size_cap_bytes: int = 0) -> Dict[str, Any]:
    """Build OUT/manifest.json and OUT/corpus.tar.xz from the work directory.

    `workloads`: [{"name", "description", "family_hint"}] in corpus order (the registry order).
    Workloads whose state is missing are listed with an error. If the packed corpus would exceed
    `max_corpus_bytes` (0 = no limit), whole workloads are left out, last first, and listed with
    an error saying so. `pack_size_cap_bytes` (0 = none): a recorded launch whose buffers add up
    to more is left out and listed in `skipped`, as the capture's size cap would have done; the
    manifest's size_cap_bytes is then the smaller cap.
    """
    os.makedirs(out_dir, exist_ok=True)
    rows = []
    for w in workloads:
        state = work.state(w["name"]) or {}
        entries = work.index(w["name"]) if state else []
        rows.append((w, state, entries))

    def packed(entry) -> bool:
        return entry["type"] == "launch" and not (
            pack_size_cap_bytes and entry["buffer_bytes"] > pack_size_cap_bytes)

    def build(included: List[bool]):
        manifest_workloads, launches, skipped = [], [], []
        members: List[Tuple[str, bytes]] = []
        seen_ttir, seen_blob = set(), set()
        renamed: Dict[str, str] = {}  # work-dir TTIR name -> corpus name (paths made neutral)
        blob_members: List[Tuple[str, bytes]] = []
        raw = 0
        n = sum(1 for (w, s, e), inc in zip(rows, included) if inc for x in e if packed(x))
        width = max(4, len(str(n)))
        next_id = 0
        for (w, state, entries), inc in zip(rows, included):
            mw = {"name": w["name"], "description": w.get("description", ""),
                  "family_hint": w.get("family_hint", ""), "launches": 0, "skipped": 0}
            for key in ("seconds", "calls", "duplicates", "autotune_launches"):
                if key in state:
                    mw[key] = state[key]
            status = state.get("status")
            if not state:
                mw["error"] = "not run"
            elif status == "started":
                mw["error"] = "unfinished (the worker stopped during this workload)"
            elif status in ("error", "interrupted"):
                mw["error"] = state.get("error") or status
            if not inc:
                if state:
                    mw["error"] = (mw["error"] + "; " if mw.get("error") else "") + \
                        "left out of the corpus: over the corpus size limit"
                manifest_workloads.append(mw)
                continue
            for e in entries:
                if e["type"] == "skip" or not packed(e):
                    reason = e.get("reason") or (f"pack size cap: {e['buffer_bytes']} buffer bytes "
                                                 f"> {pack_size_cap_bytes}")
                    skipped.append({"workload": w["name"], "kernel": e["kernel"], "reason": reason})
                    mw["skipped"] += 1
                    continue
                rec = read_json(work.path(e["file"]))
                if rec is None:
                    continue
                next_id += 1
                lid = str(next_id).zfill(width)
                rec["id"] = lid
                rel = f"launches/{lid}.json"
                source = rec["ttir"]
                if source not in renamed:
                    with open(work.path(source), "rb") as f:
                        text = neutral_paths(f.read().decode("utf-8"))
                    renamed[source] = ttir_name(text)
                    if renamed[source] not in seen_ttir:
                        seen_ttir.add(renamed[source])
                        data = text.encode("utf-8")
                        members.append((renamed[source], data))
                        raw += len(data)
                rec["ttir"] = renamed[source]
                data = (json.dumps(rec, indent=1, allow_nan=False) + "\n").encode("utf-8")
                members.append((rel, data))
                raw += len(data)
                for b in e["blobs"]:
                    if b not in seen_blob:
                        seen_blob.add(b)
                        with open(work.path(b), "rb") as f:
                            bd = f.read()
                        blob_members.append((b, bd))
                        raw += len(bd)
                launches.append({"id": lid, "workload": w["name"], "kernel": e["kernel"],
                                 "family": e["family"], "ttir": rec["ttir"], "record": rel,
                                 "buffer_bytes": e["buffer_bytes"]})
                mw["launches"] += 1
            manifest_workloads.append(mw)
        # TTIR and records first, then blobs in order of first use (related bytes sit together)
        return manifest_workloads, launches, skipped, members + blob_members, raw

    included = [bool(state) for (w, state, e) in rows]
    tar_path = os.path.join(out_dir, "corpus.tar.xz")
    for attempt in range(6):
        mws, launches, skipped, members, raw = build(included)
        size = _write_tar(tar_path, members, xz_preset)
        if not max_corpus_bytes or size <= max_corpus_bytes:
            break
        # Over the limit: drop workloads from the end until the estimated size fits.
        ratio = size / max(raw, 1)
        budget = 0.95 * max_corpus_bytes / ratio
        kept = 0.0
        sizes = _raw_sizes(work, rows, included)
        new_included = []
        for inc, s in zip(included, sizes):
            if inc and kept + s <= budget:
                kept += s
                new_included.append(True)
            else:
                new_included.append(False)
        if new_included == included:  # nothing more to drop by estimate: drop the last one
            last = max(i for i, inc in enumerate(included) if inc)
            new_included[last] = False
        dropped = [rows[i][0]["name"] for i in range(len(rows)) if included[i] and not new_included[i]]
        log(f"corpus is {size} bytes, over the limit of {max_corpus_bytes}: leaving out {', '.join(dropped)}")
        included = new_included
        if not any(included):
            mws, launches, skipped, members, raw = build(included)
            size = _write_tar(tar_path, members, xz_preset)
            break

    families: Dict[str, int] = {}
    for l in launches:
        families[l["family"]] = families.get(l["family"], 0) + 1
    manifest = {
        "format": FORMAT_VERSION,
        "made_with": made_with,
        "size_cap_bytes": min(size_cap_bytes, pack_size_cap_bytes or size_cap_bytes),
        "workloads": mws,
        "launches": launches,
        "skipped": skipped,
    }
    write_json(os.path.join(out_dir, "manifest.json"), manifest)
    return {"corpus_bytes": size, "raw_bytes": raw, "launches": len(launches), "skipped": len(skipped),
            "families": families, "workloads": mws}


def _raw_sizes(work: WorkDir, rows, included) -> List[int]:
    """Bytes each workload adds (its records, new TTIR and new blobs), in order."""
    seen = set()
    out = []
    for (w, state, entries), inc in zip(rows, included):
        total = 0
        if inc:
            for e in entries:
                if e["type"] != "launch":
                    continue
                for name in [e["file"], e["ttir"]] + e["blobs"]:
                    if name not in seen:
                        seen.add(name)
                        try:
                            total += os.path.getsize(work.path(name))
                        except OSError:
                            pass
        out.append(total)
    return out


# ----------------------------------------------------------------------------------------------
# Reading a corpus back (self-test; also handy for inspecting a capture)


class Corpus:
    """Read OUT/manifest.json and either OUT/corpus.tar.xz or the unpacked folders."""

    def __init__(self, out_dir: str):
        self.dir = out_dir
        with open(os.path.join(out_dir, "manifest.json"), "r", encoding="utf-8") as f:
            self.manifest = json.load(f)
        self._files: Dict[str, bytes] = {}
        tar_path = os.path.join(out_dir, "corpus.tar.xz")
        if os.path.exists(tar_path):
            with tarfile.open(tar_path, "r:xz") as tar:
                for m in tar.getmembers():
                    if m.isfile():
                        self._files[m.name] = tar.extractfile(m).read()

    def read(self, name: str) -> bytes:
        if name in self._files:
            return self._files[name]
        with open(os.path.join(self.dir, name), "rb") as f:
            return f.read()

    def record(self, launch_id: str) -> Dict[str, Any]:
        return json.loads(self.read(f"launches/{launch_id}.json"))

    def names(self) -> List[str]:
        return sorted(self._files)
