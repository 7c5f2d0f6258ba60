"""Where a run's binaries came from: git commit, lockfile digest and toolchain version."""

import glob
import hashlib
import os
import subprocess


def git_commit(workspace):
    """HEAD of the workspace (with "-dirty" if it has changes), or None outside git."""
    try:
        head = subprocess.run(["git", "-C", workspace, "rev-parse", "HEAD"], check=True,
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                              text=True, timeout=30).stdout.strip()
        dirty = subprocess.run(["git", "-C", workspace, "status", "--porcelain",
                                "--untracked-files=no"], check=True, stdout=subprocess.PIPE,
                               stderr=subprocess.DEVNULL, text=True, timeout=30).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return None
    return head + ("-dirty" if dirty else "")


def lockfile_digest(workspace):
    """sha256 over the lockfiles (name and content, sorted): one value per package set."""
    paths = sorted(glob.glob(os.path.join(workspace, "toolchains", "lockfiles", "*.lock")))
    if not paths:
        return None
    digest = hashlib.sha256()
    for path in paths:
        digest.update(os.path.basename(path).encode() + b"\0")
        with open(path, "rb") as f:
            digest.update(f.read())
    return digest.hexdigest()


def toolchain(workspace):
    """The pinned clang package and version, from the LLVM lockfile (e.g. clang-19 1:19.1.7-3)."""
    path = os.path.join(workspace, "toolchains", "lockfiles", "llvm_amd64.lock")
    try:
        with open(path) as f:
            for line in f:
                fields = line.split("\t")
                if len(fields) >= 2 and fields[0].startswith("clang-"):
                    return f"{fields[0]} {fields[1]}"
    except OSError:
        pass
    return None


def provenance(workspace):
    if not workspace:
        return {"git_commit": None, "lockfile_digest": None, "toolchain": None}
    return {"git_commit": git_commit(workspace), "lockfile_digest": lockfile_digest(workspace),
            "toolchain": toolchain(workspace)}
