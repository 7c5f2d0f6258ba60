"""Reading run records (tcpu-board-record/1) and the per-benchmark times in them."""

import json
import os

RECORD_SCHEMA = "tcpu-board-record/1"
_TO_NS = {"ns": 1.0, "us": 1e3, "ms": 1e6, "s": 1e9}


class RecordError(Exception):
    pass


def load_record(path):
    try:
        with open(path) as f:
            record = json.load(f)
    except OSError as error:
        raise RecordError(f"{path}: cannot read: {error.strerror}") from None
    except json.JSONDecodeError as error:
        raise RecordError(f"{path}: not JSON: {error}") from None
    if not isinstance(record, dict) or record.get("schema") != RECORD_SCHEMA:
        raise RecordError(f"{path}: not a tcpu-board run record (schema {RECORD_SCHEMA})")
    for key in ("board", "timestamp", "benchmarks"):
        if key not in record:
            raise RecordError(f"{path}: the record has no '{key}'")
    return record


def find_records(directory):
    """Every run record under `directory`, oldest first."""
    if not os.path.isdir(directory):
        raise RecordError(f"{directory}: not a directory")
    records = []
    for root, _, names in os.walk(directory):
        for name in sorted(names):
            if name.endswith(".json"):
                path = os.path.join(root, name)
                try:
                    records.append(load_record(path))
                except RecordError:
                    continue  # Other JSON files (probe caches, copies) are not runs.
    records.sort(key=lambda r: (r["timestamp"], r.get("run_id", "")))
    return records


def latest_per_board(path):
    """A record file -> [it]; a directory -> the newest record of each board in it."""
    if os.path.isfile(path):
        return [load_record(path)]
    newest = {}
    for record in find_records(path):
        newest[record["board"]] = record
    if not newest:
        raise RecordError(f"{path}: no run records in it")
    return list(newest.values())


def benchmark_times(record, metric="real_time"):
    """{(program, benchmark): time in ns}: the median when there are repetitions, else the mean
    of the iterations of each benchmark (errored runs are left out)."""
    iterations = {}
    medians = {}
    for entry in record["benchmarks"]:
        if entry.get("error_occurred"):
            continue
        unit = _TO_NS.get(entry.get("time_unit", "ns"))
        value = entry.get(metric)
        if unit is None or not isinstance(value, (int, float)):
            continue
        key = (entry.get("program", ""), entry.get("run_name") or entry.get("name"))
        if entry.get("run_type") == "aggregate":
            if entry.get("aggregate_name") == "median":
                medians[key] = value * unit
        else:
            iterations.setdefault(key, []).append(value * unit)
    times = {key: sum(values) / len(values) for key, values in iterations.items()}
    times.update(medians)
    return times


def format_ns(value):
    for unit, scale in (("s", 1e9), ("ms", 1e6), ("us", 1e3)):
        if value >= scale:
            return f"{value / scale:.3g} {unit}"
    return f"{value:.3g} ns"
