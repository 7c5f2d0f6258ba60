"""triton_capture: record every Triton launch of a set of workloads into a corpus (FORMAT.md).

    cd tools && python3 -m triton_capture --out DIR --workloads all
    python3 tools/triton_capture/capture.py --out DIR --workloads tk_vector_add,ind_scan
    python3 -m triton_capture --list

This module is the supervisor and does not import torch: it starts worker processes
(worker.py) that each import torch, install the launch hook and run one workload at a time,
hands them workloads (longest first), restarts a worker that dies or hangs (the workload it was
running is reported as failed, the others still run), stops handing out work when the time
budget is spent, and finally packs OUT/manifest.json and OUT/corpus.tar.xz from the work
directory. Re-running the same command resumes: finished workloads are kept, the rest run.
"""

import argparse
import hashlib
import os
import selectors
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import time

if __package__ in (None, ""):  # run as a script: make 'triton_capture' importable, and keep
    _here = os.path.dirname(os.path.abspath(__file__))  # this folder off sys.path (its
    sys.path[:] = [p for p in sys.path if os.path.abspath(p or ".") != _here]  # subfolders
    sys.path.insert(0, os.path.dirname(_here))  # must not shadow top-level packages)
    __package__ = "triton_capture"

from triton_capture import record  # noqa: E402
from triton_capture.workloads import load_all, select  # noqa: E402

TOOLS_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEFAULT_SIZE_CAP = 4 * 1024 * 1024
DEFAULT_MAX_CORPUS = 15 * 1024 * 1024  # the device machine returns files of at most 16 MiB


def _default_jobs() -> int:
    return max(1, min(6, (os.cpu_count() or 4) // 3))


def _parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(
        prog="python3 -m triton_capture",
        description="Record every Triton launch of a set of workloads into a corpus (see FORMAT.md).")
    ap.add_argument("--out", help="corpus folder: manifest.json and corpus.tar.xz are written here")
    ap.add_argument("--workloads", default="all", help="'all' or NAME,NAME,... (see --list)")
    ap.add_argument("--size-cap-bytes", type=int, default=DEFAULT_SIZE_CAP,
                    help="skip a launch whose buffers add up to more bytes (default 4 MiB)")
    ap.add_argument("--list", action="store_true", help="list the workloads and exit")
    ap.add_argument("--any-version", action="store_true", help="run with torch/triton other than 2.11/3.6")
    ap.add_argument("--jobs", type=int, default=_default_jobs(),
                    help="worker processes sharing the GPU (default: cores/3, at most 6)")
    ap.add_argument("--work-dir", help="where records, blobs and compile caches accumulate "
                                       "(default: a folder under the system temp dir, derived from --out)")
    ap.add_argument("--fresh", action="store_true", help="forget earlier records in the work dir")
    ap.add_argument("--retry-failed", action="store_true", help="run failed workloads again when resuming")
    ap.add_argument("--time-budget", type=float, default=480,
                    help="seconds after which no new workload starts (0 = none; default 480)")
    ap.add_argument("--workload-timeout", type=float, default=300,
                    help="kill a worker whose workload runs longer (default 300 s)")
    ap.add_argument("--max-corpus-bytes", type=int, default=DEFAULT_MAX_CORPUS,
                    help="leave whole workloads out (last first) if corpus.tar.xz would be larger "
                         "(default 15 MiB; 0 = no limit)")
    ap.add_argument("--pack-size-cap-bytes", type=int, default=0,
                    help="leave out of the corpus (listed as skipped) a recorded launch whose "
                         "buffers add up to more bytes: a smaller corpus from the same records "
                         "(default 0 = the capture's cap alone)")
    ap.add_argument("--xz-preset", type=int, default=6, help="xz compression preset (default 6)")
    ap.add_argument("--no-pack", action="store_true", help="record only; do not write the corpus")
    ap.add_argument("--pack-only", action="store_true", help="only pack what the work dir holds")
    ap.add_argument("--strict", action="store_true", help="exit 1 if any workload failed or did not run")
    return ap


def _command_line(argv) -> str:
    prog = sys.argv[0] if sys.argv else ""
    head = "python3 -m triton_capture" if prog.endswith("__main__.py") or not prog.endswith("capture.py") \
        else "python3 " + prog
    return head + (" " + " ".join(shlex.quote(a) for a in argv) if argv else "")


def _say(msg: str) -> None:
    print(msg, flush=True)


def list_workloads() -> None:
    reg = load_all()
    width = max(len(n) for n in reg)
    _say(f"{'workload'.ljust(width)}  {'family hint':21s} description")
    for w in reg.values():
        _say(f"{w.name.ljust(width)}  {w.family_hint:21s} {w.description}")
    _say(f"\n{len(reg)} workloads; '--workloads all' runs every one.")


# ----------------------------------------------------------------------------------------------
# Workers


class Worker:
    def __init__(self, index: int, cmd, env):
        self.tag = f"w{index}"
        self.proc = subprocess.Popen(cmd + ["--tag", self.tag], cwd=TOOLS_DIR, env=env,
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=None,
                                     start_new_session=True)
        self.buf = b""
        self.ready = False
        self.current = None
        self.started_at = 0.0
        self.fatal = None

    def send(self, line: str) -> bool:
        try:
            self.proc.stdin.write((line + "\n").encode())
            self.proc.stdin.flush()
            return True
        except (BrokenPipeError, OSError):
            return False

    def run(self, name: str) -> bool:
        self.current = name
        self.started_at = time.time()
        return self.send(f"RUN {name}")

    def lines(self):
        try:
            data = os.read(self.proc.stdout.fileno(), 65536)
        except OSError:
            data = b""
        if not data:
            return None  # EOF
        self.buf += data
        out = []
        while b"\n" in self.buf:
            line, self.buf = self.buf.split(b"\n", 1)
            out.append(line.decode("utf-8", "replace"))
        return out

    def kill(self) -> None:
        """Kill the worker, while it runs, with what it started (its compile subprocesses share its
        process group; once the worker has exited they end on their own)."""
        if self.proc.poll() is None:
            try:
                os.killpg(self.proc.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                self.proc.kill()
        try:
            self.proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            pass


def run_workloads(names, costs, work: record.WorkDir, args, worker_module: str = "triton_capture.worker") -> str:
    """Run `names` in worker processes. Returns '' or a fatal start-up message.

    `args` needs: jobs, size_cap_bytes, any_version, time_budget, workload_timeout.
    """
    queue = sorted(names, key=lambda n: -costs[n])  # longest first
    jobs = max(1, min(args.jobs, len(queue)))
    threads = max(1, (os.cpu_count() or 4) // jobs)
    cmd = [sys.executable, "-m", worker_module, "--work-dir", work.root,
           "--size-cap-bytes", str(args.size_cap_bytes), "--compile-threads", str(threads)]
    if args.any_version:
        cmd.append("--any-version")
    env = dict(os.environ)
    env["PYTHONPATH"] = TOOLS_DIR + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    env["PYTHONUNBUFFERED"] = "1"

    t0 = time.time()
    assign_until = t0 + args.time_budget if args.time_budget > 0 else float("inf")
    hard_stop = assign_until + 60 if args.time_budget > 0 else float("inf")
    sel = selectors.DefaultSelector()
    workers = []
    spawned = 0
    max_spawns = jobs + len(queue)
    ever_ready = False

    def spawn():
        nonlocal spawned
        w = Worker(spawned, cmd, env)
        spawned += 1
        sel.register(w.proc.stdout, selectors.EVENT_READ, w)
        workers.append(w)

    def retire(w: Worker, why: str, status: str = "error"):
        if w.current:
            state = work.state(w.current) or {}
            if state.get("status") not in ("done", "error"):
                work.set_state(w.current, {"status": status, "error": why,
                                           "seconds": round(time.time() - w.started_at, 2), "worker": w.tag})
                _say(f"[{w.tag}] {w.current}: {why}")
            w.current = None
        try:
            sel.unregister(w.proc.stdout)
        except (KeyError, ValueError):
            pass
        w.kill()
        if w in workers:
            workers.remove(w)

    try:
        while True:
            now = time.time()
            busy = [w for w in workers if w.current]
            if not queue and not busy:
                break
            if now >= assign_until and not busy:
                break
            want = min(jobs, len(queue) + len(busy)) if now < assign_until else len(busy)
            while len(workers) < want and spawned < max_spawns:
                spawn()
            for w in workers:
                if w.ready and not w.current and queue and now < assign_until:
                    name = queue.pop(0)
                    if not w.run(name):
                        queue.insert(0, name)
            for key, _ in sel.select(timeout=1.0):
                w = key.data
                lines = w.lines()
                if lines is None:  # EOF: the worker exited
                    code = w.proc.wait()
                    if w.fatal and not ever_ready:
                        return w.fatal
                    retire(w, f"worker process died (exit code {code}) during this workload")
                    continue
                for line in lines:
                    if line.startswith("@@ready"):
                        w.ready = ever_ready = True
                    elif line.startswith("@@fatal"):
                        w.fatal = line[len("@@fatal"):].strip()
                        _say(f"[{w.tag}] fatal: {w.fatal}")
                    elif line.startswith("@@done"):
                        w.current = None
                    elif line.startswith("@@dead"):
                        w.current = None  # the worker wrote the state and exits
                    elif line.strip():
                        _say(f"[{w.tag}] {line}")
            now = time.time()
            for w in list(workers):
                if w.current and now - w.started_at > args.workload_timeout:
                    retire(w, f"timed out after {args.workload_timeout:.0f} s (worker killed)")
                elif w.current and now > hard_stop:
                    retire(w, "interrupted: the time budget ran out", status="interrupted")
            if spawned >= max_spawns and not workers and queue:
                _say("too many worker restarts; giving up on: " + ", ".join(queue))
                break
    finally:
        for w in list(workers):
            if not w.current:
                w.send("EXIT")
        deadline = time.time() + 10
        for w in list(workers):
            try:
                w.proc.wait(timeout=max(0.1, deadline - time.time()))
            except subprocess.TimeoutExpired:
                pass
            retire(w, "interrupted", status="interrupted")
        sel.close()
    if queue:
        _say(f"time budget spent; not started: {', '.join(queue)} (run the same command again to resume)")
    return ""


# ----------------------------------------------------------------------------------------------


def main(argv=None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    args = _parser().parse_args(argv)
    if args.list:
        list_workloads()
        return 0
    if not args.out:
        _parser().error("--out is required")
    out = os.path.abspath(args.out)
    try:
        selected = select(args.workloads)
    except KeyError as e:
        _say(f"unknown workload {e}; known: {', '.join(load_all())}")
        return 2
    reg = load_all()
    order = list(reg)
    selected.sort(key=lambda w: order.index(w.name))  # corpus order is registry order

    work_root = args.work_dir or os.path.join(
        tempfile.gettempdir(), "triton_capture-" + hashlib.sha1(out.encode()).hexdigest()[:10])
    work = record.WorkDir(work_root)
    settings = {"size_cap_bytes": args.size_cap_bytes}
    if args.fresh and os.path.isdir(work.path("workloads")):
        shutil.rmtree(work.path("workloads"))
    old = record.read_json(work.path("run.json"))
    if old and old != settings and os.path.isdir(work.path("workloads")):
        _say(f"the work dir {work.root} holds records made with {old}, not {settings}; "
             "pass --fresh to start over (or another --work-dir)")
        return 2
    record.write_json(work.path("run.json"), settings)
    _say(f"triton_capture: {len(selected)} workloads -> {out} (work dir {work.root})")

    t0 = time.time()
    if not args.pack_only:
        pending = []
        for w in selected:
            st = (work.state(w.name) or {}).get("status")
            if st == "done" or (st == "error" and not args.retry_failed):
                continue
            pending.append(w.name)
        kept = len(selected) - len(pending)
        if kept:
            _say(f"resuming: {kept} workloads already recorded in the work dir, {len(pending)} to run")
        if pending:
            fatal = run_workloads(pending, {w.name: w.cost for w in selected}, work, args)
            if fatal:
                _say(f"error: {fatal}")
                return 2
    if args.no_pack:
        return 0

    made_with = dict(record.read_json(work.path("env.json"), {}) or {})
    made_with["command"] = _command_line(argv)
    _say("packing the corpus ...")
    summary = record.pack(work, out, [{"name": w.name, "description": w.description, "family_hint": w.family_hint}
                                      for w in selected], made_with, args.size_cap_bytes,
                          args.max_corpus_bytes, args.xz_preset, log=_say,
                          pack_size_cap_bytes=args.pack_size_cap_bytes)
    _print_summary(summary, out, time.time() - t0)
    failed = [w for w in summary["workloads"] if w.get("error")]
    return 1 if (args.strict and failed) else 0


def _print_summary(summary, out: str, seconds: float) -> None:
    rows = summary["workloads"]
    width = max([len(r["name"]) for r in rows] + [8])
    _say("")
    _say(f"{'workload'.ljust(width)}  launches  skipped  seconds  status")
    for r in rows:
        status = "ok" if not r.get("error") else "FAILED: " + r["error"].splitlines()[0][:100]
        secs = r.get("seconds")
        _say(f"{r['name'].ljust(width)}  {r['launches']:8d}  {r['skipped']:7d}  "
             f"{(f'{secs:7.1f}' if isinstance(secs, (int, float)) else '      -')}  {status}")
    fams = ", ".join(f"{k} {v}" for k, v in sorted(summary["families"].items()))
    failed = sum(1 for r in rows if r.get("error"))
    _say("")
    _say(f"{summary['launches']} launches recorded, {summary['skipped']} skipped, "
         f"{len(rows) - failed}/{len(rows)} workloads ok, {seconds:.0f} s")
    _say(f"families: {fams or '-'}")
    _say(f"corpus: {os.path.join(out, 'corpus.tar.xz')} ({summary['corpus_bytes']} bytes, "
         f"{summary['raw_bytes']} unpacked) and {os.path.join(out, 'manifest.json')}")


if __name__ == "__main__":
    sys.exit(main())
