"""`tcpu-board probe`: runs tcpu-board-probe on a board and caches what it reports."""

import json
import os

from ssh_transport import BoardError

_INSTALL = 'mkdir -p -- "$1" && cat > "$2.tmp" && chmod 755 "$2.tmp" && mv -f -- "$2.tmp" "$2"'


def cache_path(state_dir, board):
    return os.path.join(state_dir, board.name, "probe.json")


def run_probe(ssh, probe_binary, state_dir):
    """Copies the probe to <work_dir>/tools, runs it, caches and returns its facts (a dict)."""
    board = ssh.board
    tools = f"{board.work_dir}/tools"
    target = f"{tools}/tcpu-board-probe"
    try:
        with open(probe_binary, "rb") as f:
            data = f.read()
    except OSError as error:
        raise BoardError(board.name, "probe", f"cannot read the probe program: {error}") from None
    ssh.script("probe: upload", _INSTALL, [tools, target], stdin=data,
               timeout=board.command_timeout)
    result = ssh.run("probe: run",
                     list(board.exec_wrapper) + [target, "--sysfs-root", board.sysfs_root],
                     timeout=board.command_timeout)
    try:
        facts = json.loads(result.stdout)
    except json.JSONDecodeError as error:
        raise BoardError(board.name, "probe", f"the probe printed no JSON ({error})") from None
    if facts.get("schema") != "tcpu-board-probe/1":
        raise BoardError(board.name, "probe", "unexpected probe output (no schema)")
    if facts.get("uname", {}).get("machine") != "aarch64":
        raise BoardError(board.name, "probe", "the board is not aarch64 (uname says "
                         f"{facts.get('uname', {}).get('machine')!r}); set exec_wrapper?")
    path = cache_path(state_dir, board)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path + ".tmp", "w") as f:
        json.dump(facts, f, indent=1, sort_keys=True)
    os.replace(path + ".tmp", path)
    return facts


def cached_or_run(ssh, probe_binary, state_dir):
    path = cache_path(state_dir, ssh.board)
    if os.path.exists(path):
        with open(path) as f:
            return json.load(f)
    return run_probe(ssh, probe_binary, state_dir)


def clusters(facts):
    """Groups the probed CPUs into clusters of equal (capacity, max freq, part)."""
    groups = {}
    for cpu in facts.get("cpus", []):
        key = (cpu["capacity"], cpu["max_freq_khz"], cpu["midr_part"], cpu["cpuinfo_part"])
        groups.setdefault(key, []).append(cpu["id"])
    return [{"cpus": ids, "capacity": k[0], "max_freq_khz": k[1],
             "midr_part": f"{k[2]:#x}" if k[2] >= 0 else k[3] or None}
            for k, ids in sorted(groups.items(), key=lambda item: item[1][0])]


def summary(board, facts):
    features = set(facts.get("features", [])) | set(facts.get("features2", []))
    wanted = ["asimddp", "i8mm", "bf16", "sve", "sve2", "sme"]
    lines = [
        f"board {board.name}: {facts['uname']['machine']} Linux {facts['uname']['release']}, "
        f"{facts.get('libc_system') or 'libc unknown'}",
        "  features: " + " ".join(f for f in wanted if f in features)
        + f"; SVE vector length {facts.get('sve_vl_bits', 0)} bits",
        f"  memory: {facts.get('mem_total_kb', -1) // 1024} MiB",
    ]
    for cluster in clusters(facts):
        lines.append(f"  cluster cpus {','.join(map(str, cluster['cpus']))}: capacity "
                     f"{cluster['capacity']}, max {cluster['max_freq_khz']} kHz, part "
                     f"{cluster['midr_part']}")
    governors = {c["id"]: c["governor"] for c in facts.get("cpus", []) if c["governor"]}
    if governors:
        lines.append("  governors: " + ", ".join(f"cpu{k}={v}" for k, v in governors.items()))
    lines.append("  fastest cluster: " + ",".join(map(str, facts.get("fastest_cluster", []))))
    return "\n".join(lines)
