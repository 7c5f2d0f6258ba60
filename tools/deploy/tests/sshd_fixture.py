"""A real OpenSSH server on a loopback port for the tests, with throwaway keys.

sshd runs with its own sshd_config (UsePAM no, StrictModes no, AuthorizedKeysFile and
PidFile in the test folder) and is started by an absolute path (it re-executes itself).

A non-root sshd needs nothing else: it logs in only its own user, who is the test. Run as
root, sshd insists on privilege separation (a user `sshd`, a root-owned /run/sshd and
setgroups(), which Bazel's linux-sandbox forbids). So as root the test starts sshd as a
plain user instead: in a new user namespace where TEST_UID maps to the test's own uid
(files stay the test's), with a copy of /etc/passwd naming TEST_USER bind-mounted over
/etc/passwd in a new mount namespace. Nothing on the host changes.
"""

import ctypes
import os
import pwd
import socket
import subprocess
import time

TEST_USER = "tcpu-board-test"
TEST_UID = 47111
_CLONE_NEWNS = 0x00020000
_CLONE_NEWUSER = 0x10000000
_MS_BIND = 0x1000
_MS_REC = 0x4000
_MS_PRIVATE = 1 << 18


def free_port():
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def keygen(ssh_keygen, path):
    subprocess.run([ssh_keygen, "-q", "-t", "ed25519", "-N", "", "-C", "tcpu-board-test",
                    "-f", path], check=True)
    with open(path + ".pub") as f:
        return f.read().strip()


def _as_test_user(passwd):
    """preexec_fn for a root test: see the module docstring."""
    outer_uid, outer_gid = os.getuid(), os.getgid()
    libc = ctypes.CDLL(None, use_errno=True)
    libc.mount.argtypes = [ctypes.c_char_p] * 3 + [ctypes.c_ulong, ctypes.c_void_p]

    def check(result, what):
        if result != 0:
            errno = ctypes.get_errno()
            raise OSError(errno, f"{what}: {os.strerror(errno)}")

    def write(path, text):
        with open(path, "w") as f:
            f.write(text)

    def prepare():
        check(libc.unshare(_CLONE_NEWUSER | _CLONE_NEWNS), "unshare(user, mount namespaces)")
        write("/proc/self/setgroups", "deny")
        write("/proc/self/uid_map", f"{TEST_UID} {outer_uid} 1\n")
        write("/proc/self/gid_map", f"{TEST_UID} {outer_gid} 1\n")
        check(libc.mount(b"none", b"/", None, _MS_REC | _MS_PRIVATE, None), "make / private")
        check(libc.mount(passwd.encode(), b"/etc/passwd", None, _MS_BIND, None),
              "bind /etc/passwd")
    return prepare


class SshServer:
    def __init__(self, folder, sshd, ssh_keygen):
        self.folder = folder
        self.sshd = os.path.abspath(sshd)  # sshd re-executes itself: it needs an absolute path.
        os.makedirs(folder, exist_ok=True)
        self.host_key = os.path.join(folder, "host_key")
        self.host_public_key = keygen(ssh_keygen, self.host_key)
        self.user_key = os.path.join(folder, "user_key")
        user_public = keygen(ssh_keygen, self.user_key)
        self.authorized_keys = os.path.join(folder, "authorized_keys")
        with open(self.authorized_keys, "w") as f:
            f.write(user_public + "\n")
        self.user = TEST_USER if os.geteuid() == 0 else pwd.getpwuid(os.getuid()).pw_name
        self.port = free_port()
        self.config = os.path.join(folder, "sshd_config")
        self.log = os.path.join(folder, "sshd.log")
        with open(self.config, "w") as f:
            f.write(f"""ListenAddress 127.0.0.1:{self.port}
HostKey {self.host_key}
PidFile {os.path.join(folder, 'sshd.pid')}
AuthorizedKeysFile {self.authorized_keys}
UsePAM no
StrictModes no
PasswordAuthentication no
KbdInteractiveAuthentication no
PrintMotd no
AcceptEnv LANG
""")
        self.process = None

    def known_hosts_line(self):
        return f"[127.0.0.1]:{self.port} {self.host_public_key}"

    def start(self):
        preexec = None
        if os.geteuid() == 0:
            passwd = os.path.join(self.folder, "passwd")
            home = os.path.join(self.folder, "home")
            os.makedirs(home, exist_ok=True)
            with open("/etc/passwd") as f:
                lines = f.read().rstrip("\n")
            with open(passwd, "w") as f:
                f.write(f"{lines}\n{TEST_USER}:x:{TEST_UID}:{TEST_UID}::{home}:/bin/sh\n")
            preexec = _as_test_user(passwd)
        with open(self.log, "w") as log:
            self.process = subprocess.Popen([self.sshd, "-D", "-e", "-f", self.config],
                                            stdout=log, stderr=log, preexec_fn=preexec)
        # Until it listens or exits: no deadline (a loaded machine may take long; Bazel's
        # test timeout is the limit).
        while True:
            if self.process.poll() is not None:
                raise RuntimeError(f"sshd exited with {self.process.returncode}: "
                                   + open(self.log).read())
            try:
                with socket.create_connection(("127.0.0.1", self.port)):
                    return
            except OSError:
                time.sleep(0.1)

    def stop(self):
        if self.process and self.process.poll() is None:
            self.process.terminate()
            self.process.wait()
