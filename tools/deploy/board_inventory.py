"""The board inventory: a TOML file naming each board and how to reach and use it.

Every error names the file, the line and the key that was wrong (see README.md for the
format and boards.example.toml for an example).
"""

import dataclasses
import os
import re
import tomllib

# Board names end up in remote paths and lock files: keep them to a safe alphabet.
BOARD_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$")
TAG = BOARD_NAME
# An ~/.ssh/config alias, host, user@host, user@host:port or user@[v6::addr]:port.
DESTINATION = re.compile(
    r"^(?:(?P<user>[A-Za-z0-9._][A-Za-z0-9._-]*)@)?"
    r"(?P<host>[A-Za-z0-9][A-Za-z0-9._-]*|\[[0-9A-Fa-f:.]+\])"
    r"(?::(?P<port>[0-9]{1,5}))?$")
SAFE_REMOTE_PATH = re.compile(r"^/[A-Za-z0-9._/+-]*$")
HOST_KEY_POLICIES = ("strict", "accept-new")
BOARD_KEYS = {
    "ssh", "identity_file", "work_dir", "cores", "may_set_governor", "governor_sudo",
    "exec_wrapper", "tags", "host_key_policy", "sysfs_root", "ssh_command", "ssh_config",
    "connect_timeout", "command_timeout",
}
DEFAULT_KEYS = {"known_hosts", "ssh_command", "ssh_config", "host_key_policy",
                "connect_timeout", "command_timeout"}
TOP_KEYS = {"defaults", "boards"}


class InventoryError(Exception):
    """A mistake in the inventory, with the file, line and key it is at."""

    def __init__(self, path, line, key, message):
        where = f"{path}:{line}" if line else path
        super().__init__(f"{where}: {key}: {message}" if key else f"{where}: {message}")


@dataclasses.dataclass(frozen=True)
class Destination:
    user: str | None
    host: str
    port: int | None

    def ssh_args(self):
        """ssh arguments that select this destination (the host comes last)."""
        args = ["-p", str(self.port)] if self.port else []
        host = self.host.strip("[]")
        return args + [f"{self.user}@{host}" if self.user else host]


@dataclasses.dataclass(frozen=True)
class Board:
    name: str
    destination: Destination
    work_dir: str
    identity_file: str | None = None
    cores: tuple = ()
    may_set_governor: bool = False
    governor_sudo: bool = False
    exec_wrapper: tuple = ()
    tags: tuple = ()
    host_key_policy: str = "strict"
    sysfs_root: str = "/sys"
    ssh_command: tuple = ("ssh",)
    ssh_config: str | None = None
    known_hosts: str = ""
    connect_timeout: int = 10
    command_timeout: int = 3600


@dataclasses.dataclass(frozen=True)
class Inventory:
    path: str
    boards: dict

    def select(self, spec):
        """Boards named by `spec`: "a,b", "tag:farm" or "all" (comma-separated, mixed)."""
        chosen = []
        for item in spec.split(","):
            item = item.strip()
            if item == "all":
                matches = list(self.boards.values())
            elif item.startswith("tag:"):
                matches = [b for b in self.boards.values() if item[4:] in b.tags]
            elif item in self.boards:
                matches = [self.boards[item]]
            else:
                matches = []
            if not matches:
                known = ", ".join(sorted(self.boards)) or "none"
                raise InventoryError(self.path, 0, None,
                                     f"no board matches '{item}' (boards: {known})")
            chosen += [b for b in matches if b not in chosen]
        return chosen


def _key_lines(text):
    """Maps (table, key) to the line it is defined on, and each table to its header line."""
    lines = {}
    table = ""
    header = re.compile(r"^\s*\[\s*([^\[\]]+?)\s*\]\s*(#.*)?$")
    assignment = re.compile(r'^\s*("[^"]*"|[A-Za-z0-9_-]+)\s*=')
    for number, line in enumerate(text.splitlines(), start=1):
        match = header.match(line)
        if match:
            table = ".".join(part.strip().strip('"') for part in match.group(1).split("."))
            lines.setdefault((table, None), number)
            continue
        match = assignment.match(line)
        if match:
            lines.setdefault((table, match.group(1).strip('"')), number)
    return lines


def load(path):
    """Reads and checks the inventory at `path`; raises InventoryError naming what is wrong."""
    try:
        with open(path, "rb") as f:
            raw = f.read()
    except OSError as error:
        raise InventoryError(path, 0, None, f"cannot read: {error.strerror}") from None
    try:
        text = raw.decode("utf-8")
        data = tomllib.loads(text)
    except UnicodeDecodeError as error:
        raise InventoryError(path, 0, None, f"not UTF-8 ({error.reason})") from None
    except tomllib.TOMLDecodeError as error:
        # tomllib's message says "(at line L, column C)".
        match = re.search(r"line (\d+)", str(error))
        raise InventoryError(path, int(match.group(1)) if match else 0, None,
                             f"not valid TOML: {error}") from None
    return parse(data, text, path)


def parse(data, text, path):
    lines = _key_lines(text)
    base = os.path.dirname(os.path.abspath(path))

    def fail(table, key, message):
        line = lines.get((table, key)) or lines.get((table, None), 0)
        raise InventoryError(path, line, f"{table}.{key}" if key else table, message)

    for key in data:
        if key not in TOP_KEYS:
            fail("", key, f"unknown top-level key (expected one of: {', '.join(sorted(TOP_KEYS))})")
    defaults = data.get("defaults", {})
    if not isinstance(defaults, dict):
        fail("", "defaults", "must be a table")
    for key in defaults:
        if key not in DEFAULT_KEYS:
            fail("defaults", key, f"unknown key (known: {', '.join(sorted(DEFAULT_KEYS))})")
    boards_table = data.get("boards")
    if not isinstance(boards_table, dict) or not boards_table:
        fail("boards", None, "the inventory defines no boards (add a [boards.NAME] table)")

    def get(table, values, key, kind, default):
        value = values.get(key, default)
        if value is default:
            return value
        if kind is int and (isinstance(value, bool) or not isinstance(value, int)):
            fail(table, key, f"must be an integer, not {value!r}")
        if kind is bool and not isinstance(value, bool):
            fail(table, key, f"must be true or false, not {value!r}")
        if kind is str and not isinstance(value, str):
            fail(table, key, f"must be a string, not {value!r}")
        if kind is list and not (isinstance(value, list)):
            fail(table, key, f"must be a list, not {value!r}")
        return value

    def local_path(table, values, key, default):
        value = get(table, values, key, str, default)
        if value is None:
            return None
        if not value:
            fail(table, key, "must not be empty")
        value = os.path.expanduser(value)
        return value if os.path.isabs(value) else os.path.join(base, value)

    def command(table, values, key, default):
        value = get(table, values, key, None, default)
        if isinstance(value, str):
            value = [value]
        if not isinstance(value, (list, tuple)) or not value or not all(
                isinstance(v, str) and v for v in value):
            fail(table, key, "must be a program or a list of program and arguments")
        return tuple(os.path.expanduser(v) for v in value)

    def timeout(table, values, key, default):
        value = get(table, values, key, int, default)
        if not 1 <= value <= 86400:
            fail(table, key, f"must be between 1 and 86400 seconds, not {value}")
        return value

    known_hosts = local_path("defaults", defaults, "known_hosts", "known_hosts")
    default_ssh = command("defaults", defaults, "ssh_command", ("ssh",))
    default_config = local_path("defaults", defaults, "ssh_config", None)
    default_policy = get("defaults", defaults, "host_key_policy", str, "strict")
    if default_policy not in HOST_KEY_POLICIES:
        fail("defaults", "host_key_policy",
             f"'{default_policy}' is not one of: {', '.join(HOST_KEY_POLICIES)}")
    default_connect = timeout("defaults", defaults, "connect_timeout", 10)
    default_command = timeout("defaults", defaults, "command_timeout", 3600)

    boards = {}
    for name, values in boards_table.items():
        table = f"boards.{name}"
        if not BOARD_NAME.match(name):
            fail(table, None, "board names are letters, digits, '.', '_' and '-' (at most 64)")
        if not isinstance(values, dict):
            fail("boards", name, "must be a table ([boards.NAME])")
        for key in values:
            if re.search(r"pass(word|phrase)?|secret|token", key, re.IGNORECASE):
                fail(table, key, "secrets do not belong in the inventory (use ssh keys and "
                     "ssh-agent; identity_file names a key file)")
            if key not in BOARD_KEYS:
                fail(table, key, f"unknown key (known: {', '.join(sorted(BOARD_KEYS))})")
        for required in ("ssh", "work_dir"):
            if required not in values:
                fail(table, None, f"missing required key '{required}'")
        ssh = get(table, values, "ssh", str, None)
        match = DESTINATION.match(ssh)
        if not match:
            fail(table, "ssh", f"'{ssh}' is not a host alias, user@host or user@host:port")
        port = int(match.group("port")) if match.group("port") else None
        if port is not None and not 1 <= port <= 65535:
            fail(table, "ssh", f"port {port} is out of range 1..65535")
        work_dir = get(table, values, "work_dir", str, None)
        if not SAFE_REMOTE_PATH.match(work_dir) or "/../" in work_dir + "/" or work_dir == "/":
            fail(table, "work_dir", f"'{work_dir}' must be an absolute path below / made of "
                 "letters, digits and ._+-/ with no '..'")
        sysfs_root = get(table, values, "sysfs_root", str, "/sys")
        if not SAFE_REMOTE_PATH.match(sysfs_root) or "/../" in sysfs_root + "/":
            fail(table, "sysfs_root", f"'{sysfs_root}' must be an absolute path with no '..'")
        cores = get(table, values, "cores", list, [])
        if not all(isinstance(c, int) and not isinstance(c, bool) and 0 <= c < 4096
                   for c in cores) or len(set(cores)) != len(cores):
            fail(table, "cores", f"must be distinct CPU numbers 0..4095, not {cores!r}")
        tags = get(table, values, "tags", list, [])
        for tag in tags:
            if not isinstance(tag, str) or not TAG.match(tag):
                fail(table, "tags", f"tag {tag!r} must be letters, digits, '.', '_' and '-'")
        policy = get(table, values, "host_key_policy", str, default_policy)
        if policy not in HOST_KEY_POLICIES:
            fail(table, "host_key_policy",
                 f"'{policy}' is not one of: {', '.join(HOST_KEY_POLICIES)}")
        wrapper = get(table, values, "exec_wrapper", list, [])
        if not all(isinstance(w, str) and w for w in wrapper):
            fail(table, "exec_wrapper", "must be a list of non-empty strings")
        boards[name] = Board(
            name=name,
            destination=Destination(match.group("user"), match.group("host"), port),
            work_dir=work_dir.rstrip("/"),
            identity_file=local_path(table, values, "identity_file", None),
            cores=tuple(sorted(cores)),
            may_set_governor=get(table, values, "may_set_governor", bool, False),
            governor_sudo=get(table, values, "governor_sudo", bool, False),
            exec_wrapper=tuple(wrapper),
            tags=tuple(tags),
            host_key_policy=policy,
            sysfs_root=sysfs_root.rstrip("/") or "/",
            ssh_command=command(table, values, "ssh_command", default_ssh),
            ssh_config=local_path(table, values, "ssh_config", default_config),
            known_hosts=known_hosts,
            connect_timeout=timeout(table, values, "connect_timeout", default_connect),
            command_timeout=timeout(table, values, "command_timeout", default_command),
        )
    return Inventory(path=path, boards=boards)
