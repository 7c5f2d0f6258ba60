#!/usr/bin/env bash
# Usage: python_test.sh PYTHON3 — checks the pinned interpreter (see BUILD.bazel).
set -euo pipefail
python3="$1"
"$python3" -I -S - <<'PY'
import hashlib, json, os, subprocess, sys, tomllib
assert sys.version_info[:2] == (3, 11), sys.version
stdlib = os.path.dirname(os.__file__)
# The standard library must come from the package tree next to the interpreter.
real = os.path.realpath(stdlib)
assert not real.startswith("/usr/"), f"host standard library used: {real}"
assert real.endswith("python3/usr/lib/python3.11"), real
assert hashlib.sha256(b"abc").hexdigest().startswith("ba7816bf")
assert tomllib.loads('a = 1')["a"] == 1
assert json.loads("[1]") == [1]
print("python", sys.version.split()[0], "stdlib", stdlib)
PY
