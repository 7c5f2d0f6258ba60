"""`tcpu-board deploy`: atomic, verified, incremental upload of binaries to a board.

On the board, under work_dir:
  releases/<id>/bin/<program>            each program, with its <program>.runfiles/ tree
  releases/<id>/MANIFEST.sha256          sha256 of every file (sha256sum -c format)
  releases/<id>/release.json             the programs of the release
  current -> releases/<id>               switched (rename of a new link) only after every
                                         file of the release verified
A deploy uploads into releases/<id>.partial; an interrupted one leaves `current` alone and
the next deploy removes the leftover. Files whose sha256 is in the current release are
hard-linked (or copied) from it on the board instead of being sent again.
"""

import dataclasses
import hashlib
import io
import json
import os
import re
import stat
import subprocess
import tarfile
import time

from ssh_transport import BoardError

SAFE_RELATIVE = re.compile(r"^[A-Za-z0-9_.+=,@~-][A-Za-z0-9_.+=,@~/-]*$")
PROGRAM_NAME = re.compile(r"^[A-Za-z0-9_][A-Za-z0-9_.+-]*$")
LABEL = re.compile(r"^(@[A-Za-z0-9_.-]+)?//([A-Za-z0-9_./+-]*)(:([A-Za-z0-9_.+=,@~/-]+))?$")


@dataclasses.dataclass(frozen=True)
class BundleFile:
    local_path: str
    relative_path: str   # in the release, e.g. bin/sdot_benchmark
    executable: bool
    sha256: str


def _sha256(path):
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def bundle(programs):
    """Files of a release: each program (local path) as bin/<name> plus its runfiles tree."""
    files = {}
    names = []
    for program in programs:
        name = os.path.basename(program)
        if not PROGRAM_NAME.match(name):
            raise ValueError(f"program name '{name}' has characters other than letters, "
                             "digits and ._+-")
        if not os.path.isfile(program):
            raise ValueError(f"program '{program}' does not exist (build it first)")
        if name in names:
            raise ValueError(f"two programs are named '{name}'")
        with open(program, "rb") as f:
            header = f.read(20)
        # ELF e_machine (little-endian, offset 18): 183 is AArch64. Scripts and data pass.
        if header[:4] == b"\x7fELF" and header[18:20] != (183).to_bytes(2, "little"):
            raise ValueError(f"program '{name}' is not an aarch64 executable (ELF machine "
                             f"{int.from_bytes(header[18:20], 'little')}); build it with "
                             "--config=aarch64")
        names.append(name)
        entries = [(program, f"bin/{name}")]
        runfiles = program + ".runfiles"
        if os.path.isdir(runfiles):
            for root, _, filenames in os.walk(runfiles, followlinks=True):
                for filename in sorted(filenames):
                    path = os.path.join(root, filename)
                    rel = os.path.relpath(path, os.path.dirname(program))
                    entries.append((path, f"bin/{rel}"))
        for path, rel in entries:
            if not SAFE_RELATIVE.match(rel) or "/../" in f"/{rel}/" or "//" in rel:
                raise ValueError(f"file '{rel}' of '{name}' has an unsafe name")
            if not os.path.exists(path):
                continue  # A dangling runfiles link: nothing to send.
            mode = os.stat(path).st_mode
            files[rel] = BundleFile(path, rel, bool(mode & stat.S_IXUSR), _sha256(path))
    return names, [files[k] for k in sorted(files)]


def build_targets(targets, workspace, config="aarch64", compilation_mode="opt",
                  bazel="bazel"):
    """Builds `targets` for the board in `workspace`; returns the paths of their executables.

    Optimized by default: a benchmark built -c fastbuild measures the wrong code."""
    for target in targets:
        if not LABEL.match(target):
            raise ValueError(f"'{target}' is not a Bazel label such as "
                             "//kernels/gemv:gemv_benchmark")
    flags = [f"--config={config}", f"--compilation_mode={compilation_mode}"]
    subprocess.run([bazel, "build"] + flags + ["--"] + targets, cwd=workspace, check=True)
    bin_dir = subprocess.run([bazel, "info"] + flags + ["bazel-bin"], cwd=workspace,
                             check=True, stdout=subprocess.PIPE, text=True).stdout.strip()
    paths = []
    for target in targets:
        match = LABEL.match(target)
        if match.group(1):
            raise ValueError(f"'{target}': only targets of this workspace can be deployed")
        package = match.group(2)
        name = match.group(4) or package.rsplit("/", 1)[-1]
        paths.append(os.path.join(bin_dir, package, name))
    return paths


def _manifest(files):
    return "".join(f"{f.sha256}  ./{f.relative_path}\n" for f in files)


_PREPARE = r'''
set -e
w=$1 id=$2
mkdir -p -- "$w/releases"
cd -- "$w/releases"
for old in *.partial; do if [ -e "$old" ]; then rm -rf -- "$old"; fi; done
mkdir -- "$id.partial"
if [ -L "$w/current" ]; then
  echo "current=$(readlink -- "$w/current")"
  cat -- "$w/current/MANIFEST.sha256" 2>/dev/null || true
fi
'''

_REUSE = r'''
set -e
from=$1 to=$2
shift 2
while [ $# -ge 2 ]; do
  mkdir -p -- "$to/$(dirname -- "$2")"
  ln -- "$from/$1" "$to/$2" 2>/dev/null || cp -p -- "$from/$1" "$to/$2"
  shift 2
done
'''

_COMMIT = r'''
set -e
w=$1 id=$2 keep=$3
cd -- "$w/releases/$id.partial"
if ! sha256sum -c MANIFEST.sha256 > ../"$id.verify" 2>&1; then
  grep -v ': OK$' ../"$id.verify" | head -n 5 >&2
  rm -f ../"$id.verify"
  exit 3
fi
rm -f ../"$id.verify"
cd -- "$w"
mv -- "releases/$id.partial" "releases/$id"
ln -sfn -- "releases/$id" "current.new.$$"
mv -fT -- "current.new.$$" current
# Keep the newest $keep releases (the current one always stays).
ls -1 releases | grep -v '\.partial$' | sort -r | tail -n "+$((keep + 1))" |
  while read -r old; do if [ "$old" != "$id" ]; then rm -rf -- "releases/$old"; fi; done
echo "switched"
'''


def deploy(ssh, programs, keep=3, progress=None):
    """Uploads `programs` (local paths) as a new release and switches `current` to it.

    progress(sent, total, relative_path) is called as each file enters the upload stream.
    Returns a dict: release id, files sent, files reused, bytes sent.
    """
    board = ssh.board
    try:
        names, files = bundle(programs)
    except ValueError as error:
        raise BoardError(board.name, "deploy: bundle", str(error)) from None
    manifest = _manifest(files)
    release = json.dumps({"programs": names, "files": len(files)}, indent=1) + "\n"
    digest = hashlib.sha256(manifest.encode()).hexdigest()[:10]
    release_id = time.strftime("%Y%m%dT%H%M%SZ", time.gmtime()) + "-" + digest

    out = ssh.script("deploy: prepare", _PREPARE, [board.work_dir, release_id]).stdout
    previous = None
    previous_files = {}
    for line in out.decode("utf-8", "replace").splitlines():
        if line.startswith("current="):
            previous = line[len("current="):]
        elif "  ./" in line:
            sha, rel = line.split("  ./", 1)
            previous_files.setdefault(sha, rel)
    if previous and not re.match(r"^releases/[A-Za-z0-9TZ-]+$", previous):
        raise BoardError(board.name, "deploy: prepare",
                         f"{board.work_dir}/current points at '{previous}', not a release")
    if previous and previous.endswith(digest):
        ssh.run("deploy: clean up", ["rm", "-rf", "--",
                                     f"{board.work_dir}/releases/{release_id}.partial"])
        return {"release": previous.split("/", 1)[1], "sent": 0, "reused": len(files),
                "bytes": 0, "unchanged": True}

    partial = f"{board.work_dir}/releases/{release_id}.partial"
    reuse = [f for f in files if f.sha256 in previous_files]
    send = [f for f in files if f.sha256 not in previous_files]
    if reuse:
        pairs = []
        for f in reuse:
            pairs += [previous_files[f.sha256], f.relative_path]
        ssh.script("deploy: reuse unchanged files", _REUSE,
                   [f"{board.work_dir}/{previous}", partial] + pairs)

    process = ssh.stream("deploy: upload", ["tar", "-x", "-o", "-f", "-", "-C", partial])
    sent_bytes = 0
    try:
        with tarfile.open(fileobj=process.stdin, mode="w|", format=tarfile.PAX_FORMAT) as tar:
            extras = [("MANIFEST.sha256", manifest.encode()), ("release.json", release.encode())]
            first_by_sha = {}
            for index, f in enumerate(send, start=1):
                info = tar.gettarinfo(f.local_path, arcname=f.relative_path)
                info.mode = 0o755 if f.executable else 0o644
                info.uid = info.gid = 0
                info.uname = info.gname = ""
                if f.sha256 in first_by_sha:
                    # The same content twice (a program and its copy in its runfiles):
                    # sent once, hard-linked by tar on the board.
                    info.type = tarfile.LNKTYPE
                    info.linkname = first_by_sha[f.sha256]
                    info.size = 0
                    tar.addfile(info)
                else:
                    first_by_sha[f.sha256] = f.relative_path
                    info.type = tarfile.REGTYPE  # Runfiles are local symlinks: send contents.
                    info.size = os.path.getsize(f.local_path)
                    with open(f.local_path, "rb") as data:
                        tar.addfile(info, data)
                    sent_bytes += info.size
                if progress:
                    progress(index, len(send), f.relative_path)
            for name, data in extras:
                info = tarfile.TarInfo(name)
                info.size = len(data)
                info.mode = 0o644
                info.mtime = int(time.time())
                tar.addfile(info, io.BytesIO(data))
    except BrokenPipeError:
        pass  # The remote tar stopped; finish() below reports why.
    except BaseException:
        process.kill()
        process.communicate()
        raise
    ssh.finish("deploy: upload", process)
    result = ssh.script("deploy: verify and switch", _COMMIT,
                        [board.work_dir, release_id, str(keep)], check=False)
    if result.returncode == 3:
        raise BoardError(board.name, "deploy: verify",
                         "sha256 mismatch on the board, `current` unchanged: "
                         + result.stderr.decode("utf-8", "replace").strip())
    ssh._checked("deploy: verify and switch", result, True)
    return {"release": release_id, "sent": len(send), "reused": len(reuse),
            "bytes": sent_bytes, "unchanged": False}
