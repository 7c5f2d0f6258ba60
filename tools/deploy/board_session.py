"""Exclusive use of a board for a bench or a deploy: a lock, and the cpufreq governor.

The lock is the directory <work_dir>/lock (mkdir is atomic on every file system); it holds
the owner and the governors to restore. A run that died leaves both behind:
`tcpu-board unlock BOARD` restores the governors and removes the lock.
"""

import os
import socket
import sys
import time

from ssh_transport import BoardError

_LOCK = r'''
w=$1 owner=$2
mkdir -p -- "$w" || exit 1
if mkdir -- "$w/lock" 2>/dev/null; then
  printf '%s\n' "$owner" > "$w/lock/owner"
  echo acquired
else
  cat -- "$w/lock/owner" 2>/dev/null || echo "an unknown owner"
  exit 4
fi
'''

_UNLOCK = r'''
w=$1 owner=$2
if [ -n "$owner" ] && [ "$(cat -- "$w/lock/owner" 2>/dev/null)" != "$owner" ]; then
  echo "the lock of $w belongs to someone else now" >&2
  exit 4
fi
rm -rf -- "$w/lock"
'''

# Saves every governor before changing any, so a failure half-way restores them all.
_SET_GOVERNOR = r'''
w=$1 sys=$2 sudo=$3 governor=$4
shift 4
: > "$w/lock/governor.saved.tmp"
for c in "$@"; do
  f="$sys/devices/system/cpu/cpu$c/cpufreq/scaling_governor"
  if [ ! -r "$f" ]; then echo "cpu$c has no cpufreq governor ($f)" >&2; exit 5; fi
  printf '%s %s\n' "$c" "$(cat -- "$f")" >> "$w/lock/governor.saved.tmp"
done
mv -f -- "$w/lock/governor.saved.tmp" "$w/lock/governor.saved"
for c in "$@"; do
  f="$sys/devices/system/cpu/cpu$c/cpufreq/scaling_governor"
  if [ "$sudo" = 1 ]; then
    printf '%s' "$governor" | sudo -n tee -- "$f" > /dev/null || exit 6
  else
    printf '%s' "$governor" > "$f" || exit 6
  fi
done
cat -- "$w/lock/governor.saved"
'''

_RESTORE_GOVERNOR = r'''
w=$1 sys=$2 sudo=$3
[ -f "$w/lock/governor.saved" ] || exit 0
status=0
while read -r c g; do
  case $c in ''|*[!0-9]*) continue ;; esac
  case $g in ''|*[!A-Za-z0-9_-]*) continue ;; esac
  f="$sys/devices/system/cpu/cpu$c/cpufreq/scaling_governor"
  if [ "$sudo" = 1 ]; then
    printf '%s' "$g" | sudo -n tee -- "$f" > /dev/null || status=6
  else
    printf '%s' "$g" > "$f" || status=6
  fi
done < "$w/lock/governor.saved"
[ $status = 0 ] && rm -f -- "$w/lock/governor.saved"
exit $status
'''


class BoardSession:
    """`with BoardSession(ssh, wait=...)`: holds the board's lock; restores governors on exit."""

    def __init__(self, ssh, wait_seconds=0, cancelled=None, purpose="bench"):
        self.ssh = ssh
        self.wait_seconds = wait_seconds
        self.cancelled = cancelled
        self.owner = (f"tcpu-board {purpose} pid {os.getpid()} on {socket.gethostname()} "
                      f"since {time.strftime('%Y-%m-%dT%H:%M:%SZ', time.gmtime())}")
        self.saved = None

    def __enter__(self):
        board = self.ssh.board
        deadline = time.monotonic() + self.wait_seconds
        announced = False
        while True:
            result = self.ssh.script("lock", _LOCK, [board.work_dir, self.owner], check=False)
            if result.returncode == 0:
                return self
            if result.returncode != 4:
                self.ssh._checked("lock", result, True)
            holder = result.stdout.decode("utf-8", "replace").strip()
            if time.monotonic() >= deadline or (self.cancelled and self.cancelled.is_set()):
                raise BoardError(board.name, "lock",
                                 f"the board is busy: locked by {holder} (--lock-wait "
                                 f"SECONDS waits for it; if that run died, `tcpu-board "
                                 f"unlock {board.name}`)")
            if not announced:  # Once: the user (or a test) learns why nothing happens.
                print(f"{board.name}: lock: waiting for the board (locked by {holder})",
                      file=sys.stderr, flush=True)
                announced = True
            time.sleep(min(2.0, max(0.1, deadline - time.monotonic())))

    def set_governor(self, cores, governor="performance"):
        """Sets `governor` on `cores`; returns the governors they had ({cpu: name})."""
        board = self.ssh.board
        result = self.ssh.script(
            "governor: set", _SET_GOVERNOR,
            [board.work_dir, board.sysfs_root, "1" if board.governor_sudo else "0", governor]
            + [str(c) for c in cores], timeout=board.command_timeout, check=False)
        if result.returncode in (5, 6):
            self.restore_governor()
            why = result.stderr.decode("utf-8", "replace").strip()
            raise BoardError(board.name, "governor: set",
                             why or "cannot write scaling_governor (permission? set "
                             "governor_sudo = true with a NOPASSWD sudo rule, or "
                             "may_set_governor = false)")
        self.ssh._checked("governor: set", result, True)
        self.saved = {}
        for line in result.stdout.decode().splitlines():
            cpu, _, name = line.partition(" ")
            self.saved[int(cpu)] = name
        return self.saved

    def restore_governor(self):
        board = self.ssh.board
        self.ssh.script("governor: restore", _RESTORE_GOVERNOR,
                        [board.work_dir, board.sysfs_root, "1" if board.governor_sudo else "0"],
                        timeout=self.ssh.board.command_timeout)

    def __exit__(self, *exc):
        try:
            self.restore_governor()
        finally:
            self.ssh.script("unlock", _UNLOCK, [self.ssh.board.work_dir, self.owner],
                            timeout=self.ssh.board.command_timeout)
        return False


def force_unlock(ssh):
    """Restores the governors a dead run left changed and removes its lock."""
    board = ssh.board
    ssh.script("unlock: restore governor", _RESTORE_GOVERNOR,
               [board.work_dir, board.sysfs_root, "1" if board.governor_sudo else "0"])
    ssh.script("unlock", _UNLOCK, [board.work_dir, ""])
