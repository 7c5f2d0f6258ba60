"""`tcpu-board bench --serve`: tcpu-serve on one board and a concurrency benchmark against it.

Under the board's lock (governor and pinning as for `bench`), starts the deployed tcpu-serve over
--model (a checkpoint folder on the board, with its tokenizer.json) with one slot per stream of
the largest --streams, and for each N of --streams sends N greedy streamed completions at once
through the OpenAI HTTP API: Python's http.client over `ssh -W` (one ssh per connection, so no
port opens on either side). Each connection is opened (GET /health) before the N requests start
together. One record per run, like `bench`'s, whose benchmarks are, per N and repetition:
  serve/streams:N/time_per_token  real_time: the wall time of the N streams over the tokens they
                                  generated (tokens_per_second: its inverse, aggregate)
  serve/streams:N/stream_latency  real_time: the median time from a stream's request to its end
                                  (latency_ns and first_token_ns: every stream's)
so `compare` and `report` read them like any benchmark (lower is better).
"""

import http.client
import json
import socket
import statistics
import threading
import time

import benchmark_run
import board_probe
from board_session import BoardSession
from ssh_transport import BoardError

PROGRAM = "tcpu-serve"
_LISTENING = "tcpu-serve: listening on http://"


class _BoardConnection(http.client.HTTPConnection):
    """An HTTP connection to 127.0.0.1:port on the board, through `ssh -W`."""

    def __init__(self, ssh, port):
        super().__init__("127.0.0.1", port)
        self._ssh = ssh
        self._tunnel = None

    def connect(self):
        mine, theirs = socket.socketpair()
        self._tunnel = self._ssh.connect_port("bench: connect to tcpu-serve", self.port, theirs)
        theirs.close()
        self.sock = mine

    def close(self):
        super().close()
        if self._tunnel is not None:
            self._tunnel.communicate()  # Ends once ssh sees its end of the socket close.
            self._tunnel = None


def _start_server(ssh, words):
    """Starts tcpu-serve; returns (the ssh process, its port, its stderr lines so far)."""
    process = benchmark_run.start_while_connected(ssh, "bench: start tcpu-serve", words)
    errors = []
    drain = threading.Thread(target=lambda: errors.extend(process.stderr), daemon=True)
    drain.start()
    for raw in process.stdout:
        line = raw.decode("utf-8", "replace").strip()
        if line.startswith(_LISTENING):
            return process, int(line.rsplit(":", 1)[1]), errors
    process.wait()
    drain.join()
    detail = " / ".join(e.decode("utf-8", "replace").strip() for e in errors[-3:])
    raise BoardError(ssh.board.name, "bench: start tcpu-serve",
                     f"it exited (status {process.returncode}) before listening: "
                     f"{detail or 'no message'}")


def _stream(connection, body):
    """One streamed completion on an open connection: (seconds to the first text, seconds to
    the end, generated tokens), from the moment the request is sent."""
    start = time.monotonic()
    connection.request("POST", "/v1/completions", body=json.dumps(body),
                       headers={"Content-Type": "application/json"})
    response = connection.getresponse()
    if response.status != 200:
        raise RuntimeError(f"HTTP {response.status}: {response.read()[:300]!r}")
    first = None
    tokens = None
    for raw in response:
        line = raw.decode("utf-8", "replace").strip()
        if not line.startswith("data: "):
            continue
        if line == "data: [DONE]":
            break
        event = json.loads(line[len("data: "):])
        if "error" in event:
            raise RuntimeError(f"the stream ended with an error: {event['error']}")
        if first is None and any(c.get("text") for c in event.get("choices", [])):
            first = time.monotonic() - start
        if event.get("usage"):
            tokens = event["usage"]["completion_tokens"]
    end = time.monotonic() - start
    if tokens is None:
        raise RuntimeError("the stream had no usage chunk")
    return (first if first is not None else end), end, tokens


def _concurrent_streams(ssh, port, streams, max_tokens, repetition):
    """`streams` greedy completions at once; returns the two benchmark entries."""
    barrier = threading.Barrier(streams)
    results = [None] * streams
    failures = []

    def one(index):
        connection = _BoardConnection(ssh, port)
        try:
            connection.request("GET", "/health")  # Opens the connection (ssh) first.
            connection.getresponse().read()
            barrier.wait()
            body = {"prompt": f"Stream {index}: once upon a time", "max_tokens": max_tokens,
                    "temperature": 0, "stream": True, "stream_options": {"include_usage": True}}
            results[index] = _stream(connection, body)
        except threading.BrokenBarrierError:
            pass  # Another stream failed first; its failure is the one reported.
        except Exception as error:  # Any failure fails the run, naming the stream.
            failures.append(f"stream {index}: {type(error).__name__}: {error}")
            barrier.abort()
        finally:
            connection.close()

    threads = [threading.Thread(target=one, args=(i,)) for i in range(streams)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    if failures:
        raise BoardError(ssh.board.name, f"bench: {streams} streams", failures[0])
    # The streams start together at the barrier: the wall time is the longest stream's.
    wall = max(end for _, end, _ in results)
    tokens = sum(n for _, _, n in results)
    common = {"program": PROGRAM, "run_type": "iteration", "repetition_index": repetition,
              "iterations": 1, "time_unit": "ns", "streams": streams}
    per_token = f"serve/streams:{streams}/time_per_token"
    latency = f"serve/streams:{streams}/stream_latency"
    return [
        dict(common, name=per_token, run_name=per_token,
             real_time=wall * 1e9 / max(tokens, 1), tokens_per_second=tokens / wall,
             generated_tokens=tokens, wall_ns=wall * 1e9),
        dict(common, name=latency, run_name=latency,
             real_time=statistics.median(end for _, end, _ in results) * 1e9,
             latency_ns=[end * 1e9 for _, end, _ in results],
             first_token_ns=[first * 1e9 for first, _, _ in results]),
    ]


def bench_serve(ssh, probe_binary, state_dir, results_dir, provenance, options, cancelled):
    """Runs the serve benchmark on one board; returns the path of the record written."""
    board = ssh.board
    facts = board_probe.cached_or_run(ssh, probe_binary, state_dir)
    cores = benchmark_run.choose_cores(board, facts, options.cores)
    threads = options.threads or len(cores)
    run_id, started = benchmark_run.new_run_id()
    streams = sorted(set(options.streams))
    benchmarks = []
    with BoardSession(ssh, options.lock_wait, cancelled) as session:
        release, programs = benchmark_run.current_release(ssh, "bench",
                                                          "//tools/serve:tcpu-serve")
        if PROGRAM not in programs:
            raise BoardError(board.name, "bench", f"not deployed: {PROGRAM} (release {release} "
                             f"has: {', '.join(programs)}); deploy //tools/serve:tcpu-serve")
        governors_before = None
        if board.may_set_governor and not options.keep_governor:
            governors_before = session.set_governor(cores)
        # Connections stay open between the requests of a stream (--keep-alive-timeout).
        words = benchmark_run.program_words(board, cores, threads, options.pin) + [
            f"{board.work_dir}/{release}/bin/{PROGRAM}", "--model", options.model,
            "--port", "0", "--parallel", str(streams[-1]), "--queue", "0",
            "--keep-alive-timeout", "3600"]
        server, port, _ = _start_server(ssh, words)
        try:
            for repetition in range(options.repetitions):
                for n in streams:
                    if cancelled.is_set():
                        raise BoardError(board.name, "bench", "interrupted")
                    benchmarks += _concurrent_streams(ssh, port, n, options.max_tokens,
                                                      repetition)
        finally:
            server.stdin.close()  # tcpu-serve is stopped when its ssh connection ends.
            server.wait()
    record = benchmark_run.record_head(board, run_id, started, release, provenance, cores,
                                       threads, options.pin, governors_before, facts)
    record.update({
        "repetitions": options.repetitions,
        "filter": None,
        "serve": {"model": options.model, "streams": streams, "max_tokens": options.max_tokens,
                  "sampling": "greedy"},
        "contexts": {},
        "benchmarks": benchmarks,
    })
    return benchmark_run.write_record(results_dir, record, cancelled)
