"""`tcpu-board bench`: runs the deployed Google Benchmark programs on one board.

Under the board's lock, with the performance governor when allowed (restored on every exit
path), pinned to the fastest cluster; the JSON of each program is copied back and one
record per run is written to <results>/<board>/<run id>.json.
"""

import json
import os
import re
import subprocess
import threading
import time

import board_probe
from board_session import BoardSession
from ssh_transport import BoardError

RECORD_SCHEMA = "tcpu-board-record/1"

# Runs "$@" and stops it when the ssh connection closes (stdin reaches EOF), so killing
# tcpu-board (Ctrl-C) never leaves a benchmark running on the board.
_RUN_WHILE_CONNECTED = r'''
exec 3<&0
"$@" < /dev/null &
pid=$!
{ cat <&3 > /dev/null 2>&1; kill "$pid" 2> /dev/null; } < /dev/null > /dev/null 2>&1 &
watcher=$!
wait "$pid"
status=$?
kill "$watcher" 2> /dev/null
exit $status
'''

_CURRENT = r'''
w=$1
if [ ! -L "$w/current" ]; then echo "nothing is deployed (no $w/current)" >&2; exit 7; fi
echo "release=$(readlink -- "$w/current")"
cat -- "$w/current/release.json"
'''

_FETCH = r'''
f=$1
if [ ! -s "$f" ]; then echo "no benchmark output in $f" >&2; exit 8; fi
cat -- "$f"
'''


def _cpu_list(cores):
    return ",".join(str(c) for c in cores)


def choose_cores(board, facts, override=None):
    """Cores to run on: --cores, else the board's `cores`, else the probe's fastest cluster."""
    if override:
        return sorted(override)
    if board.cores:
        return list(board.cores)
    fastest = facts.get("fastest_cluster") or [c["id"] for c in facts.get("cpus", [])]
    return sorted(fastest)


def current_release(ssh, step, hint):
    """The board's current release ("releases/<id>") and the programs in it. `hint`: what to
    deploy when nothing is."""
    board = ssh.board
    current = ssh.script(f"{step}: find the release", _CURRENT, [board.work_dir], check=False)
    if current.returncode == 7:
        raise BoardError(board.name, step, "nothing is deployed; run `tcpu-board "
                         f"deploy {board.name} {hint}` first")
    ssh._checked(f"{step}: find the release", current, True)
    text = current.stdout.decode("utf-8", "replace")
    release = text.splitlines()[0].split("=", 1)[1]
    if not re.match(r"^releases/[A-Za-z0-9TZ-]+$", release):
        raise BoardError(board.name, step, f"current points at '{release}'")
    return release, json.loads(text.split("\n", 1)[1])["programs"]


def program_words(board, cores, threads, pin):
    """The argv prefix of a program run on the board: its threads, its pinning, the wrapper."""
    # TCPU_* for the SDK runtime's thread pool, OMP_* for OpenMP code in the programs.
    words = ["env", f"TCPU_NUM_THREADS={threads}", f"OMP_NUM_THREADS={threads}"]
    if pin:
        # taskset for the program, TCPU_CPUS for the runtime's worker threads.
        words += [f"TCPU_CPUS={_cpu_list(cores)}", "OMP_PROC_BIND=true",
                  "taskset", "-c", _cpu_list(cores)]
    return words + list(board.exec_wrapper)


def start_while_connected(ssh, step, words):
    """Starts `words` on the board; it is stopped when the returned ssh process ends."""
    return ssh.stream(step, ["sh", "-c", _RUN_WHILE_CONNECTED, "tcpu-board"] + words)


def new_run_id():
    """(run id, start time) of a run starting now."""
    now = time.gmtime()
    return (time.strftime("%Y%m%dT%H%M%SZ", now) + f"-{os.getpid()}",
            time.strftime("%Y-%m-%dT%H:%M:%SZ", now))


def record_head(board, run_id, started, release, provenance, cores, threads, pin,
                governors_before, facts):
    """The fields every run record has, before what the run measured."""
    return {
        "schema": RECORD_SCHEMA,
        "board": board.name,
        "tags": list(board.tags),
        "run_id": run_id,
        "timestamp": started,
        "release": release.split("/", 1)[1],
        **provenance,
        "cores": cores,
        "threads": threads,
        "pinned": pin,
        "governor": {"set": "performance" if governors_before is not None else None,
                     "before": {str(k): v for k, v in (governors_before or {}).items()}},
        "probe": {key: facts.get(key) for key in (
            "features", "features2", "sve_vl_bits", "cpus", "fastest_cluster",
            "mem_total_kb", "uname", "libc_system", "libc_sdk")},
    }


def write_record(results_dir, record, cancelled):
    """Writes <results>/<board>/<run id>.json; returns its path."""
    # An interrupted bench leaves no record, even when its benchmarks ended just before the
    # interrupt (short filters under load): "interrupted" and a new record would disagree.
    if cancelled.is_set():
        raise BoardError(record["board"], "bench", "interrupted")
    path = os.path.join(results_dir, record["board"], f"{record['run_id']}.json")
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path + ".tmp", "w") as f:
        json.dump(record, f, indent=1, sort_keys=True)
    os.replace(path + ".tmp", path)
    return path


def _run_cancellable(ssh, step, words, cancelled, timeout):
    """Runs `words` remotely with stdin kept open; kills ssh if `cancelled` is set."""
    process = start_while_connected(ssh, step, words)
    output = {}

    def drain(name, stream):
        output[name] = stream.read()

    readers = [threading.Thread(target=drain, args=(n, s), daemon=True)
               for n, s in (("stdout", process.stdout), ("stderr", process.stderr))]
    for reader in readers:
        reader.start()
    deadline = time.monotonic() + timeout
    while process.poll() is None:
        if cancelled.is_set() or time.monotonic() > deadline:
            process.kill()
            process.wait()
            for reader in readers:
                reader.join()
            reason = "interrupted" if cancelled.is_set() else f"timed out after {timeout} s"
            raise BoardError(ssh.board.name, step, reason)
        time.sleep(0.1)
    for reader in readers:
        reader.join()
    process.stdin.close()
    result = subprocess.CompletedProcess(process.args, process.returncode,
                                         output.get("stdout", b""), output.get("stderr", b""))
    return ssh._checked(step, result, True)


def bench_board(ssh, probe_binary, state_dir, results_dir, provenance, options, cancelled):
    """Runs one board's benchmarks; returns the path of the record written."""
    board = ssh.board
    facts = board_probe.cached_or_run(ssh, probe_binary, state_dir)
    cores = choose_cores(board, facts, options.cores)
    threads = options.threads or len(cores)
    run_id, started = new_run_id()
    with BoardSession(ssh, options.lock_wait, cancelled) as session:
        release, programs = current_release(ssh, "bench", "//kernels/...:..._benchmark")
        wanted = [p for p in programs if (options.programs and p in options.programs)
                  or (not options.programs and "benchmark" in p)]
        if options.programs:
            missing = sorted(set(options.programs) - set(programs))
            if missing:
                raise BoardError(board.name, "bench", f"not deployed: {', '.join(missing)} "
                                 f"(release {release} has: {', '.join(programs)})")
        if not wanted:
            raise BoardError(board.name, "bench", f"release {release} has no benchmark "
                             f"programs (it has: {', '.join(programs)})")
        governors_before = None
        if board.may_set_governor and not options.keep_governor:
            governors_before = session.set_governor(cores)
        release_dir = f"{board.work_dir}/{release}"
        run_dir = f"{board.work_dir}/runs/{run_id}"
        ssh.run("bench: prepare", ["mkdir", "-p", "--", run_dir])
        benchmarks = []
        contexts = {}
        for program in wanted:
            out = f"{run_dir}/{program}.json"
            words = program_words(board, cores, threads, options.pin) + [
                f"{release_dir}/bin/{program}", f"--benchmark_out={out}",
                "--benchmark_out_format=json", f"--benchmark_repetitions={options.repetitions}"]
            if options.filter:
                words.append(f"--benchmark_filter={options.filter}")
            if options.min_time:
                words.append(f"--benchmark_min_time={options.min_time}")
            _run_cancellable(ssh, f"bench: run {program}", words, cancelled,
                             board.command_timeout)
            fetched = ssh.script(f"bench: fetch {program}", _FETCH, [out], check=False)
            if fetched.returncode == 8:
                continue  # Google Benchmark writes nothing when the filter matches none.
            data = ssh._checked(f"bench: fetch {program}", fetched, True).stdout
            try:
                parsed = json.loads(data)
            except json.JSONDecodeError as error:
                raise BoardError(board.name, f"bench: fetch {program}",
                                 f"the benchmark JSON is not valid ({error})") from None
            # The board is the record's own "board"; its paths say nothing more.
            contexts[program] = {k: v for k, v in parsed.get("context", {}).items()
                                 if k not in ("host_name", "executable")}
            for entry in parsed.get("benchmarks", []):
                benchmarks.append(dict(entry, program=program))
        if not benchmarks:
            raise BoardError(board.name, "bench", "no benchmark ran" + (
                f" (--filter '{options.filter}' matches none)" if options.filter else ""))
    record = record_head(board, run_id, started, release, provenance, cores, threads,
                         options.pin, governors_before, facts)
    record.update({
        "repetitions": options.repetitions,
        "filter": options.filter,
        "contexts": contexts,
        "benchmarks": benchmarks,
    })
    return write_record(results_dir, record, cancelled)
