"""tcpu-board: deploy and benchmark SDK binaries on real aarch64 boards over SSH.

  tcpu-board probe BOARD                      what the board is (cached for bench)
  tcpu-board deploy BOARD //target ...        build for aarch64, upload, switch atomically
  tcpu-board bench BOARD[,BOARD...]           run the deployed benchmarks, keep JSON records
  tcpu-board bench BOARD --serve --model DIR  tcpu-serve under 1, 4, 8 concurrent streams
  tcpu-board compare OLD NEW [--threshold 3%] deltas; exit 1 on a regression
  tcpu-board report DIR                       Markdown summary and SVG plots over time
  tcpu-board unlock BOARD                     after a run died: restore governors, drop lock
  tcpu-board boards                           list the inventory

See tools/deploy/README.md.
"""

import argparse
import concurrent.futures
import os
import signal
import sys
import threading

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import board_inventory  # noqa: E402
import board_probe  # noqa: E402
import benchmark_run  # noqa: E402
import board_session  # noqa: E402
import compare_runs  # noqa: E402
import history_report  # noqa: E402
import release_deploy  # noqa: E402
import run_provenance  # noqa: E402
import serve_bench  # noqa: E402
from result_records import RecordError  # noqa: E402
from ssh_transport import BoardError, Ssh  # noqa: E402

# Exit codes: 0 ok; 1 a regression (compare); 2 usage or inventory error; for bench, bit i
# (1 << i) set when the i-th board (in the order given, i < 6) failed, 64 for any later one.
EXIT_USAGE = 2


def _cores(text):
    try:
        cores = sorted({int(c) for c in text.split(",")})
    except ValueError:
        raise argparse.ArgumentTypeError(f"'{text}' is not a list of CPU numbers like 4,5,6,7")
    if any(c < 0 or c > 4095 for c in cores):
        raise argparse.ArgumentTypeError(f"'{text}': CPU numbers are 0..4095")
    return cores


def _positive(text):
    if not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"'{text}' is not a positive integer")
    return int(text)


def _counts(text):
    counts = [_positive(c) for c in text.split(",")]
    if max(counts) > 256:
        raise argparse.ArgumentTypeError(f"'{text}': at most 256 streams (tcpu-serve --parallel)")
    return counts


def parser():
    top = argparse.ArgumentParser(prog="tcpu-board", description=__doc__,
                                  formatter_class=argparse.RawDescriptionHelpFormatter)
    top.add_argument("--inventory", default=os.environ.get("TCPU_BOARDS", "boards.toml"),
                     help="board inventory (TOML); default $TCPU_BOARDS or ./boards.toml")
    top.add_argument("--state-dir", help="probe cache (default: .tcpu-board next to the "
                     "inventory)")
    top.add_argument("--probe-binary", help="the aarch64 tcpu-board-probe program")
    top.add_argument("--workspace", default=os.environ.get("BUILD_WORKSPACE_DIRECTORY"),
                     help="the SDK checkout (for bazel builds and run provenance)")
    sub = top.add_subparsers(dest="command", required=True)

    p = sub.add_parser("probe", help="probe boards and cache what they are")
    p.add_argument("boards")

    p = sub.add_parser("deploy", help="build for aarch64 and deploy atomically")
    p.add_argument("boards")
    p.add_argument("targets", nargs="*", help="Bazel labels of the programs")
    p.add_argument("--prebuilt", action="append", default=[],
                   help="an aarch64 program built already (with its .runfiles if any)")
    p.add_argument("--keep", type=_positive, default=3, help="releases kept on the board")
    p.add_argument("--config", default="aarch64", choices=["aarch64", "aarch64_armv9"],
                   help="bazel --config of the build (default aarch64: run-time dispatch)")
    p.add_argument("--compilation-mode", default="opt", choices=["opt", "dbg", "fastbuild"])
    p.add_argument("--lock-wait", type=float, default=0.0,
                   help="seconds to wait for a busy board (default: fail at once)")

    p = sub.add_parser("bench", help="run the deployed benchmarks")
    p.add_argument("boards")
    p.add_argument("--filter", help="--benchmark_filter regex")
    p.add_argument("--repetitions", type=_positive, default=1)
    p.add_argument("--min-time", help="--benchmark_min_time (e.g. 0.5 or 0.05s)")
    p.add_argument("--programs", type=lambda s: s.split(","),
                   help="which deployed programs (default: those named *benchmark*)")
    p.add_argument("--cores", type=_cores, help="CPUs to pin to (default: fastest cluster)")
    p.add_argument("--threads", type=_positive, help="TCPU_NUM_THREADS (default: cores)")
    p.add_argument("--no-pin", dest="pin", action="store_false", help="do not taskset")
    p.add_argument("--keep-governor", action="store_true", help="leave the governor alone")
    p.add_argument("--lock-wait", type=float, default=0.0,
                   help="seconds to wait for a busy board (default: fail at once)")
    p.add_argument("--results", default="tcpu-results", help="where run records go")
    p.add_argument("--reprobe", action="store_true", help="probe again before running")
    p.add_argument("--serve", action="store_true",
                   help="benchmark the deployed tcpu-serve under concurrent streams instead")
    p.add_argument("--model", help="--serve: the checkpoint folder on the board (with its "
                   "tokenizer.json)")
    p.add_argument("--streams", type=_counts, default=[1, 4, 8],
                   help="--serve: concurrent greedy streams, e.g. 1,4,8 (the default)")
    p.add_argument("--max-tokens", type=_positive, default=64,
                   help="--serve: tokens generated per stream (default 64)")

    p = sub.add_parser("compare", help="per-benchmark deltas of two runs or result dirs")
    p.add_argument("old")
    p.add_argument("new")
    p.add_argument("--threshold", default="3%")
    p.add_argument("--metric", default="real_time", choices=["real_time", "cpu_time"])

    p = sub.add_parser("report", help="Markdown summary and SVG plots of a results dir")
    p.add_argument("dir")
    p.add_argument("--out", help="output folder (default: DIR)")
    p.add_argument("--metric", default="real_time", choices=["real_time", "cpu_time"])

    p = sub.add_parser("unlock", help="restore governors and remove a dead run's lock")
    p.add_argument("boards")

    sub.add_parser("boards", help="list the boards of the inventory")
    return top


def _default_probe():
    here = os.path.dirname(os.path.abspath(__file__))
    return os.path.join(here, "probe_aarch64", "board_probe")


def _load(args):
    inventory = board_inventory.load(args.inventory)
    state_dir = args.state_dir or os.path.join(
        os.path.dirname(os.path.abspath(args.inventory)), ".tcpu-board")
    return inventory, state_dir


def cmd_probe(args):
    inventory, state_dir = _load(args)
    failed = 0
    for board in inventory.select(args.boards):
        try:
            facts = board_probe.run_probe(Ssh(board), args.probe_binary, state_dir)
            print(board_probe.summary(board, facts))
        except BoardError as error:
            print(f"error: {error}", file=sys.stderr)
            failed = 1
    return failed


def cmd_deploy(args):
    inventory, _ = _load(args)
    boards = inventory.select(args.boards)
    programs = [os.path.abspath(p) for p in args.prebuilt]
    if args.targets:
        if not args.workspace:
            print("error: deploy //targets needs the SDK checkout: `bazel run "
                  "//tools/deploy:tcpu-board -- ...` or --workspace", file=sys.stderr)
            return EXIT_USAGE
        try:
            programs += release_deploy.build_targets(args.targets, args.workspace, args.config,
                                                     args.compilation_mode)
        except ValueError as error:
            print(f"error: {error}", file=sys.stderr)
            return EXIT_USAGE
        except Exception as error:  # A failed bazel build: its own output says why.
            print(f"error: building {' '.join(args.targets)} failed: {error}", file=sys.stderr)
            return 1
    if not programs:
        print("error: nothing to deploy: give //targets or --prebuilt PATH", file=sys.stderr)
        return EXIT_USAGE
    failed = 0
    for board in boards:
        ssh = Ssh(board)
        try:
            # Under the board's lock: a bench never sees its release pruned mid-run.
            with board_session.BoardSession(ssh, args.lock_wait, purpose="deploy"):
                result = release_deploy.deploy(ssh, programs, keep=args.keep)
        except BoardError as error:
            print(f"error: {error}", file=sys.stderr)
            failed = 1
            continue
        if result["unchanged"]:
            print(f"{board.name}: unchanged, current is {result['release']}")
        else:
            print(f"{board.name}: release {result['release']} is current ({result['sent']} "
                  f"files sent, {result['bytes']} bytes; {result['reused']} reused)")
    return failed


def cmd_bench(args):
    if args.serve != bool(args.model):
        print("error: bench --serve needs --model DIR (the checkpoint on the board), and "
              "--model goes with --serve", file=sys.stderr)
        return EXIT_USAGE
    inventory, state_dir = _load(args)
    boards = inventory.select(args.boards)
    provenance = run_provenance.provenance(args.workspace)
    cancelled = threading.Event()
    results = {}

    def one(board):
        ssh = Ssh(board)
        if args.reprobe:
            board_probe.run_probe(ssh, args.probe_binary, state_dir)
        run = serve_bench.bench_serve if args.serve else benchmark_run.bench_board
        return run(ssh, args.probe_binary, state_dir, args.results, provenance, args, cancelled)

    with concurrent.futures.ThreadPoolExecutor(max_workers=len(boards)) as pool:
        futures = {pool.submit(one, board): board for board in boards}
        try:
            concurrent.futures.wait(futures)
        except KeyboardInterrupt:
            cancelled.set()
            print("interrupted: stopping the benchmarks and restoring the boards",
                  file=sys.stderr)
            concurrent.futures.wait(futures)
        for future, board in futures.items():
            try:
                results[board.name] = ("ok", future.result())
            except BoardError as error:
                results[board.name] = ("failed", str(error))
            except Exception as error:  # Anything else still fails only this board.
                results[board.name] = ("failed", f"{board.name}: {type(error).__name__}: "
                                                 f"{error}")
    if cancelled.is_set():
        # An interrupted bench leaves no record, also a board's that was written between its
        # last benchmark and the interrupt (the run reports "interrupted" either way).
        for name, (status, detail) in results.items():
            if status == "ok":
                os.remove(detail)
                results[name] = ("failed", f"{name}: bench: interrupted")
    code = 0
    for index, board in enumerate(boards):
        status, detail = results[board.name]
        if status == "ok":
            print(f"{board.name}: ok, record {detail}")
        else:
            print(f"error: {detail}", file=sys.stderr)
            code |= 1 << index if index < 6 else 64
    if code:
        failed = [b.name for b in boards if results[b.name][0] != "ok"]
        print(f"failed boards: {', '.join(failed)} (exit code {code})", file=sys.stderr)
    return 130 if cancelled.is_set() else code


def cmd_compare(args):
    threshold = compare_runs.parse_threshold(args.threshold)
    text, regressions, rows = compare_runs.compare(args.old, args.new, threshold, args.metric)
    print(text)
    if not rows:
        print("error: no benchmarks to compare", file=sys.stderr)
        return EXIT_USAGE
    if regressions:
        print(f"{regressions} regression(s) beyond {args.threshold}", file=sys.stderr)
        return 1
    return 0


def cmd_report(args):
    for path in history_report.write_report(args.dir, args.out, args.metric):
        print(path)
    return 0


def cmd_unlock(args):
    inventory, _ = _load(args)
    for board in inventory.select(args.boards):
        board_session.force_unlock(Ssh(board))
        print(f"{board.name}: governors restored, lock removed")
    return 0


def cmd_boards(args):
    inventory, _ = _load(args)
    for board in inventory.boards.values():
        print(f"{board.name}\t{' '.join(board.destination.ssh_args())}\t{board.work_dir}\t"
              f"{','.join(board.tags)}")
    return 0


def main(argv=None):
    args = parser().parse_args(argv)
    # `bazel run` starts us in the runfiles tree; the user's paths are relative to where
    # they typed the command.
    args.probe_binary = os.path.abspath(args.probe_binary or _default_probe())
    if os.environ.get("BUILD_WORKING_DIRECTORY"):
        os.chdir(os.environ["BUILD_WORKING_DIRECTORY"])
    signal.signal(signal.SIGTERM, signal.default_int_handler)
    commands = {"probe": cmd_probe, "deploy": cmd_deploy, "bench": cmd_bench,
                "compare": cmd_compare, "report": cmd_report, "unlock": cmd_unlock,
                "boards": cmd_boards}
    try:
        return commands[args.command](args)
    except board_inventory.InventoryError as error:
        print(f"error: {error}", file=sys.stderr)
        return EXIT_USAGE
    except (RecordError, ValueError) as error:
        print(f"error: {error}", file=sys.stderr)
        return EXIT_USAGE
    except BoardError as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
