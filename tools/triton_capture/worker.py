"""Worker process: imports torch, installs the hooks and runs the workloads the supervisor sends.

Protocol (capture.py is the other side): the worker writes protocol lines on the file descriptor
that was its stdout (its Python-level stdout is redirected to stderr, so that library prints
cannot interleave with them):

    @@ready             after start-up (torch imported, versions checked, hooks installed)
    @@fatal MESSAGE     start-up failed (e.g. wrong torch or triton version); then it exits
    @@done NAME         workload NAME finished (its state.json is written)
    @@dead NAME         NAME left the CUDA context unusable; the worker exits, a new one continues

and reads commands from stdin: 'RUN NAME' or 'EXIT'.
Run by the supervisor as: python3 -m triton_capture.worker --work-dir W --size-cap-bytes N [--any-version]
"""

import argparse
import os
import sys
import time
import traceback


def _protocol_stream():
    fd = os.dup(1)
    os.dup2(2, 1)  # anything printed to stdout from now on goes to stderr
    sys.stdout = sys.stderr
    return os.fdopen(fd, "w", buffering=1)


def _cuda_usable() -> bool:
    import torch

    try:
        torch.cuda.synchronize()
        return torch.ones(1, device="cuda").add_(1).item() == 2.0
    except Exception:
        return False


def _short_error(e: BaseException) -> str:
    tb = traceback.extract_tb(e.__traceback__)
    where = ""
    for frame in reversed(tb):
        if "triton_capture" in frame.filename:
            where = f" (at {os.path.basename(frame.filename)}:{frame.lineno})"
            break
    text = f"{type(e).__name__}: {e}".strip()
    if len(text) > 1500:
        text = text[:1500] + " ..."
    return text + where


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="triton_capture.worker")
    ap.add_argument("--work-dir", required=True)
    ap.add_argument("--size-cap-bytes", type=int, required=True)
    ap.add_argument("--any-version", action="store_true")
    ap.add_argument("--compile-threads", type=int, default=0)
    ap.add_argument("--tag", default="w")
    args = ap.parse_args(argv)

    proto = _protocol_stream()
    tag = args.tag

    def log(msg: str) -> None:
        print(f"[{tag}] {msg}", file=sys.stderr, flush=True)

    from . import env
    from .record import WorkDir, write_json

    work = WorkDir(args.work_dir)
    env.set_env_before_torch(work.path("cache"), args.compile_threads)
    try:
        import torch  # noqa: F401
        import triton  # noqa: F401

        problem = env.check_versions(args.any_version)
        if problem:
            proto.write(f"@@fatal {problem}\n")
            return 4
        if not torch.cuda.is_available():
            proto.write("@@fatal no CUDA GPU visible to torch\n")
            return 4
        env.configure_inductor()
        from .hook import Recorder, install
        from .workloads import Ctx, load_all

        recorder = Recorder(work, args.size_cap_bytes, log=log)
        patched = install(recorder)
        registry = load_all()
        if not os.path.exists(work.path("env.json")):
            write_json(work.path("env.json"), env.environment())
    except Exception as e:
        proto.write(f"@@fatal start-up failed: {_short_error(e)}\n")
        traceback.print_exc()
        return 4
    log("hooks: " + "; ".join(patched[:3]) + (f"; +{len(patched) - 3} benchmarking entry points" if len(patched) > 3 else ""))
    proto.write("@@ready\n")

    ctx = Ctx(log=log)
    for line in sys.stdin:
        cmd = line.split()
        if not cmd:
            continue
        if cmd[0] == "EXIT":
            break
        if cmd[0] != "RUN" or len(cmd) != 2 or cmd[1] not in registry:
            log(f"unknown command {line.strip()!r}")
            continue
        name = cmd[1]
        wl = registry[name]
        writer = work.open_workload(name)
        started = time.time()
        work.set_state(name, {"status": "started", "started": started, "worker": tag})
        log(f"{name}: start ({wl.description})")
        recorder.begin(name, writer, wl.family_hint)
        error = None
        try:
            wl.fn(ctx)
            torch.cuda.synchronize()
        except Exception as e:  # a workload failure is reported; the others still run
            error = _short_error(e)
            traceback.print_exc()
        finally:
            counters = recorder.end()
            writer.close()
        seconds = round(time.time() - started, 2)
        state = {"status": "error" if error else "done", "seconds": seconds, "worker": tag, **counters}
        if error:
            state["error"] = error
        work.set_state(name, state)
        log(f"{name}: {'FAILED' if error else 'done'} in {seconds:.1f} s: {counters.get('launches', 0)} launches recorded, "
            f"{counters.get('skipped', 0)} skipped ({counters.get('calls', 0)} calls: "
            f"{counters.get('duplicates', 0)} duplicates, {counters.get('autotune_launches', 0)} while autotuning)"
            + (f"\n[{tag}]   error: {error}" if error else ""))
        if error and not _cuda_usable():
            proto.write(f"@@dead {name}\n")
            return 3
        try:
            torch._dynamo.reset()
        except Exception:
            pass
        proto.write(f"@@done {name}\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
