"""Runs commands on a board and streams files to it through the OpenSSH client.

Local commands are argv lists (no local shell). The remote side always gets one command
line made of shlex-quoted words, so no board name, path or filter can be read as shell.
"""

import os
import shlex
import subprocess


class BoardError(Exception):
    """A failure on one board, naming the board and the step that failed."""

    def __init__(self, board, step, message):
        super().__init__(f"{board}: {step}: {message}")
        self.board = board
        self.step = step


def _explain_ssh_failure(board, stderr):
    """Turns ssh's own (exit 255) messages into a sentence that says what to do."""
    text = stderr.strip()
    if "REMOTE HOST IDENTIFICATION HAS CHANGED" in text:
        return (f"the host key of {board.name} changed; refusing to connect (check the board, "
                f"then fix {board.known_hosts})")
    if "Host key verification failed" in text or "No ED25519 host key is known" in text or (
            "host key" in text and "known" in text):
        return (f"the host key of {board.name} is not in {board.known_hosts}; add it after "
                "checking its fingerprint (ssh-keyscan), or set host_key_policy = "
                "\"accept-new\" for this board")
    if "Permission denied" in text:
        return f"login refused ({text.splitlines()[-1]}); check the user and identity_file"
    if "Connection refused" in text:
        return "unreachable: connection refused (is sshd running, is the port right?)"
    if "timed out" in text:
        return "unreachable: connection timed out"
    if "Could not resolve hostname" in text or "Name or service not known" in text:
        return "unreachable: unknown host name"
    if "No route to host" in text or "Network is unreachable" in text:
        return "unreachable: no route to host"
    return f"ssh failed: {text or 'no message'}"


class Ssh:
    """One board's SSH connection settings (a new ssh process per command)."""

    def __init__(self, board):
        self.board = board

    def argv(self, remote_command, step="connect", options=()):
        """ssh's argv for `remote_command` (None: none, for `options` like -W)."""
        board = self.board
        if board.identity_file and not os.path.isfile(board.identity_file):
            raise BoardError(board.name, step, f"identity_file {board.identity_file} does "
                             "not exist")
        args = list(board.ssh_command)
        if board.ssh_config:
            args += ["-F", board.ssh_config]
        args += [
            "-o", "BatchMode=yes",
            "-o", "StrictHostKeyChecking="
                  + ("accept-new" if board.host_key_policy == "accept-new" else "yes"),
            "-o", f"UserKnownHostsFile={board.known_hosts}",
            "-o", "GlobalKnownHostsFile=/dev/null",
            "-o", f"ConnectTimeout={board.connect_timeout}",
            "-o", "ServerAliveInterval=15",
            "-o", "ServerAliveCountMax=4",
            "-o", "LogLevel=ERROR",
        ]
        if board.identity_file:
            args += ["-i", board.identity_file, "-o", "IdentitiesOnly=yes"]
        args += list(options)
        dest = board.destination.ssh_args()
        # "--" ends the options, so a destination can never be taken for one.
        command = [] if remote_command is None else [remote_command]
        return args + dest[:-1] + ["--", dest[-1]] + command

    def run(self, step, words, stdin=None, timeout=None, check=True, capture=True):
        """Runs the remote command made of `words` (each quoted); returns CompletedProcess.

        Raises BoardError naming `step` if ssh cannot connect, or (check) if the command fails.
        """
        command = " ".join(shlex.quote(str(w)) for w in words)
        timeout = timeout or self.board.command_timeout
        try:
            result = subprocess.run(
                self.argv(command, step), input=stdin, timeout=timeout,
                stdout=subprocess.PIPE if capture else None, stderr=subprocess.PIPE)
        except subprocess.TimeoutExpired:
            raise BoardError(self.board.name, step, f"timed out after {timeout} s") from None
        except FileNotFoundError:
            raise BoardError(self.board.name, step,
                             f"ssh client '{self.board.ssh_command[0]}' not found") from None
        return self._checked(step, result, check)

    def script(self, step, script, args, **kwargs):
        """Runs a fixed sh `script` (never user text) with `args` as $1.. on the board."""
        return self.run(step, ["sh", "-c", script, "tcpu-board"] + list(args), **kwargs)

    def stream(self, step, words):
        """Starts the remote command `words` with a pipe to its stdin (for uploads)."""
        command = " ".join(shlex.quote(str(w)) for w in words)
        try:
            return subprocess.Popen(self.argv(command, step), stdin=subprocess.PIPE,
                                    stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        except FileNotFoundError:
            raise BoardError(self.board.name, step,
                             f"ssh client '{self.board.ssh_command[0]}' not found") from None

    def connect_port(self, step, port, sock):
        """Connects the local socket `sock` to TCP 127.0.0.1:`port` on the board (ssh -W, one
        ssh process per connection; no local port is opened). Returns the ssh process."""
        try:
            return subprocess.Popen(self.argv(None, step, ["-W", f"127.0.0.1:{int(port)}"]),
                                    stdin=sock, stdout=sock, stderr=subprocess.PIPE)
        except FileNotFoundError:
            raise BoardError(self.board.name, step,
                             f"ssh client '{self.board.ssh_command[0]}' not found") from None

    def finish(self, step, process, timeout=None):
        try:
            stdout, stderr = process.communicate(timeout=timeout or self.board.command_timeout)
        except subprocess.TimeoutExpired:
            process.kill()
            process.communicate()
            raise BoardError(self.board.name, step, "timed out") from None
        result = subprocess.CompletedProcess(process.args, process.returncode, stdout, stderr)
        return self._checked(step, result, True)

    def _checked(self, step, result, check):
        stderr = (result.stderr or b"").decode("utf-8", "replace")
        if result.returncode == 255:
            raise BoardError(self.board.name, step, _explain_ssh_failure(self.board, stderr))
        if check and result.returncode != 0:
            if "No space left on device" in stderr:
                raise BoardError(self.board.name, step,
                                 f"the board's disk is full under {self.board.work_dir}")
            detail = stderr.strip().splitlines()[-3:] if stderr.strip() else ["no message"]
            raise BoardError(self.board.name, step,
                             f"remote command failed (exit {result.returncode}): "
                             + " / ".join(detail))
        return result
