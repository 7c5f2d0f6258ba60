"""`tcpu-board report DIR`: a Markdown summary and, per board, an SVG plot of each benchmark
over time (one small panel per benchmark, each scaled to its own range)."""

import html
import os

from result_records import benchmark_times, find_records, format_ns, RecordError

PANEL_WIDTH, PANEL_HEIGHT, COLUMNS = 360, 150, 2
MARGIN_LEFT, MARGIN_TOP, MARGIN_BOTTOM = 70, 34, 28


def series_by_board(records, metric="real_time"):
    """{board: {(program, benchmark): [(timestamp, ns), ...]}}, oldest first."""
    boards = {}
    for record in records:
        series = boards.setdefault(record["board"], {})
        for key, value in benchmark_times(record, metric).items():
            series.setdefault(key, []).append((record["timestamp"], value))
    return boards


def svg_plot(board, series):
    """One SVG: a panel per benchmark with its time (lower is better) per run."""
    keys = sorted(series)
    rows = max(1, (len(keys) + COLUMNS - 1) // COLUMNS)
    width, height = PANEL_WIDTH * COLUMNS, PANEL_HEIGHT * rows + 30
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
           f'viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="11">',
           f'<rect width="{width}" height="{height}" fill="white"/>',
           f'<text x="8" y="18" font-size="14" font-weight="bold">{html.escape(board)}: '
           'time per benchmark over runs (lower is better)</text>']
    for index, key in enumerate(keys):
        points = series[key]
        x0 = (index % COLUMNS) * PANEL_WIDTH + MARGIN_LEFT
        y0 = (index // COLUMNS) * PANEL_HEIGHT + 30 + MARGIN_TOP
        w = PANEL_WIDTH - MARGIN_LEFT - 16
        h = PANEL_HEIGHT - MARGIN_TOP - MARGIN_BOTTOM
        values = [v for _, v in points]
        low, high = min(values), max(values)
        if high - low < 1e-9 * max(high, 1.0):
            low, high = low * 0.95, high * 1.05 + 1e-12
        label = f"{key[0]}/{key[1]}"
        out.append(f'<text x="{x0 - MARGIN_LEFT + 8}" y="{y0 - 14}">'
                   f'{html.escape(label[:60])}</text>')
        out.append(f'<rect x="{x0}" y="{y0}" width="{w}" height="{h}" fill="none" '
                   'stroke="#999"/>')
        out.append(f'<text x="{x0 - 4}" y="{y0 + 8}" text-anchor="end">'
                   f'{html.escape(format_ns(high))}</text>')
        out.append(f'<text x="{x0 - 4}" y="{y0 + h}" text-anchor="end">'
                   f'{html.escape(format_ns(low))}</text>')
        step = w / max(1, len(points) - 1)
        coords = []
        for i, (_, value) in enumerate(points):
            x = x0 + (i * step if len(points) > 1 else w / 2)
            y = y0 + h - (value - low) / (high - low) * h
            coords.append((x, y))
        if len(coords) > 1:
            out.append('<polyline fill="none" stroke="#1f77b4" stroke-width="2" points="'
                       + " ".join(f"{x:.1f},{y:.1f}" for x, y in coords) + '"/>')
        for (x, y), (stamp, value) in zip(coords, points):
            out.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="3" fill="#1f77b4">'
                       f'<title>{html.escape(stamp)}: {html.escape(format_ns(value))}'
                       '</title></circle>')
        out.append(f'<text x="{x0}" y="{y0 + h + 14}">{html.escape(points[0][0][:10])}</text>')
        out.append(f'<text x="{x0 + w}" y="{y0 + h + 14}" text-anchor="end">'
                   f'{html.escape(points[-1][0][:10])} ({len(points)} runs)</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _probe_line(record):
    probe = record.get("probe") or {}
    features = set(probe.get("features") or []) | set(probe.get("features2") or [])
    shown = [f for f in ("asimddp", "i8mm", "bf16", "sve", "sve2") if f in features]
    uname = probe.get("uname") or {}
    return (f"{uname.get('machine', '?')} Linux {uname.get('release', '?')}; "
            f"{' '.join(shown) or 'no dotprod/i8mm/bf16/sve'}; SVE VL "
            f"{probe.get('sve_vl_bits', 0)} bits; cores {record.get('cores')} "
            f"({record.get('threads')} threads), governor "
            f"{(record.get('governor') or {}).get('set') or 'unchanged'}")


def markdown(records, boards, svg_names):
    latest = {}
    for record in records:
        latest[record["board"]] = record
    lines = ["# tcpu-board report", "",
             f"{len(records)} runs on {len(boards)} board(s), "
             f"{records[0]['timestamp']} to {records[-1]['timestamp']}.", ""]
    for board in sorted(boards):
        last = latest[board]
        lines += [f"## {board}", "", f"Latest run {last.get('run_id')} "
                  f"(release {last.get('release')}, commit {last.get('git_commit') or 'unknown'},"
                  f" toolchain {last.get('toolchain') or 'unknown'}): {_probe_line(last)}.", "",
                  "| benchmark | latest | previous | change | best | runs |",
                  "|---|---:|---:|---:|---:|---:|"]
        for (program, name), points in sorted(boards[board].items()):
            value = points[-1][1]
            previous = points[-2][1] if len(points) > 1 else None
            change = f"{(value / previous - 1) * 100:+.1f}%" if previous else ""
            lines.append(f"| {program}/{name} | {format_ns(value)} | "
                         f"{format_ns(previous) if previous else '—'} | {change} | "
                         f"{format_ns(min(v for _, v in points))} | {len(points)} |")
        lines += ["", f"![{board} over time]({svg_names[board]})", ""]
    return "\n".join(lines)


def write_report(directory, out_dir=None, metric="real_time"):
    """Writes report.md and <board>.svg into out_dir (default: directory); returns paths."""
    records = find_records(directory)
    if not records:
        raise RecordError(f"{directory}: no run records in it (run `tcpu-board bench` first)")
    out_dir = out_dir or directory
    os.makedirs(out_dir, exist_ok=True)
    boards = series_by_board(records, metric)
    svg_names = {board: f"{board}.svg" for board in boards}
    written = []
    for board, series in boards.items():
        path = os.path.join(out_dir, svg_names[board])
        with open(path, "w") as f:
            f.write(svg_plot(board, series))
        written.append(path)
    path = os.path.join(out_dir, "report.md")
    with open(path, "w") as f:
        f.write(markdown(records, boards, svg_names) + "\n")
    return [path] + written
