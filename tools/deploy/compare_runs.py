"""`tcpu-board compare OLD NEW`: per-benchmark deltas; a regression gate for CI."""

import dataclasses
import re

from result_records import benchmark_times, format_ns, latest_per_board


@dataclasses.dataclass(frozen=True)
class Delta:
    board: str
    program: str
    benchmark: str
    old_ns: float | None
    new_ns: float | None

    @property
    def change(self):
        """Relative change of the time (+0.05 = 5 % slower), None if one side is missing."""
        if self.old_ns is None or self.new_ns is None or self.old_ns <= 0:
            return None
        return self.new_ns / self.old_ns - 1.0


def parse_threshold(text):
    """'3%' or '3' -> 0.03. Must be a non-negative percentage."""
    match = re.fullmatch(r"\s*([0-9]+(?:\.[0-9]*)?|\.[0-9]+)\s*%?\s*", text)
    if not match:
        raise ValueError(f"threshold '{text}' is not a percentage such as 3% or 0.5%")
    return float(match.group(1)) / 100.0


def deltas(old_records, new_records, metric="real_time"):
    """Matches benchmarks by (board, program, name) across the two sides."""
    def index(records):
        out = {}
        for record in records:
            for (program, name), value in benchmark_times(record, metric).items():
                out[(record["board"], program, name)] = value
        return out
    old, new = index(old_records), index(new_records)
    return [Delta(*key, old.get(key), new.get(key)) for key in sorted(set(old) | set(new))]


def is_regression(delta, threshold):
    change = delta.change
    return change is not None and change > threshold


def table(rows, threshold):
    """A Markdown table of the deltas, regressions marked."""
    lines = ["| board | benchmark | old | new | change | |", "|---|---|---:|---:|---:|---|"]
    for d in rows:
        old = format_ns(d.old_ns) if d.old_ns is not None else "—"
        new = format_ns(d.new_ns) if d.new_ns is not None else "—"
        if d.change is None:
            change, mark = "", "only in new" if d.old_ns is None else "only in old"
        else:
            change = f"{d.change * 100:+.1f}%"
            mark = ("**REGRESSION**" if is_regression(d, threshold)
                    else "faster" if d.change < -threshold else "")
        lines.append(f"| {d.board} | {d.program}/{d.benchmark} | {old} | {new} | {change} | "
                     f"{mark} |")
    return "\n".join(lines)


def compare(old_path, new_path, threshold, metric="real_time"):
    """Returns (markdown table, number of regressions)."""
    rows = deltas(latest_per_board(old_path), latest_per_board(new_path), metric)
    regressions = sum(1 for d in rows if is_regression(d, threshold))
    return table(rows, threshold), regressions, rows
