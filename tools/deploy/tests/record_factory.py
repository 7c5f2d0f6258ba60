"""Run records for the unit tests, shaped as `tcpu-board bench` writes them (Google
Benchmark's JSON entries plus the record fields)."""


def entry(name, real_time, unit="ns", run_type="iteration", aggregate=None, cpu_time=None,
          program="gemv_benchmark"):
    value = {"name": name + (f"_{aggregate}" if aggregate else ""), "run_name": name,
             "run_type": run_type, "real_time": real_time,
             "cpu_time": real_time if cpu_time is None else cpu_time,
             "time_unit": unit, "iterations": 100, "program": program}
    if aggregate:
        value["aggregate_name"] = aggregate
    return value


def record(board, timestamp, benchmarks, run_id=None):
    return {"schema": "tcpu-board-record/1", "board": board, "timestamp": timestamp,
            "run_id": run_id or timestamp, "release": "r1", "git_commit": "abc123",
            "toolchain": "clang-19 1:19.1.7-3~deb12u1", "cores": [4, 5, 6, 7], "threads": 4,
            "governor": {"set": "performance", "before": {"4": "schedutil"}},
            "probe": {"features": ["asimd", "asimddp", "sve"], "features2": ["sve2", "i8mm"],
                      "sve_vl_bits": 128, "uname": {"machine": "aarch64", "release": "6.1.0"}},
            "benchmarks": benchmarks}
