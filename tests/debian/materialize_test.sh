#!/usr/bin/env bash
# Tests materialize.sh offline, on a .deb made here: TCPU_DEB_DIR is used and verified,
# the sha256-keyed cache is filled and then used alone, absolute symlinks become relative,
# and a wrong sha256 fails with the package name, the expected and the actual digest; the
# unpacked tree kept in the cache is copied by the next materialisation, and one that changed
# is unpacked again.
set -euo pipefail

materialize=$(readlink -f "$1")
work=${TEST_TMPDIR:-$(mktemp -d)}
failures=0
check() {  # check DESCRIPTION COMMAND...
  if "${@:2}"; then echo "ok: $1"; else echo "FAIL: $1"; failures=$((failures + 1)); fi
}

# A tiny package with a file and an absolute symlink to it.
pkg=$work/pkgroot
mkdir -p "$pkg/DEBIAN" "$pkg/usr/lib/demo" "$pkg/usr/bin"
printf 'Package: tcpu-demo\nVersion: 1.0-1\nArchitecture: all\nMaintainer: tcpu-sdk tests\nDescription: test package\n' >"$pkg/DEBIAN/control"
echo "payload" >"$pkg/usr/lib/demo/data.txt"
ln -s /usr/lib/demo/data.txt "$pkg/usr/bin/demo-data"
mkdir -p "$work/debs"
dpkg-deb --root-owner-group -b "$pkg" "$work/debs/tcpu-demo_1.0-1_all.deb" >/dev/null
sha=$(sha256sum "$work/debs/tcpu-demo_1.0-1_all.deb" | cut -d' ' -f1)

lock=$work/demo.lock
printf '# arch: amd64\n# packages: tcpu-demo\n# name\tversion\tarch\tsha256\tfile\n' >"$lock"
printf 'tcpu-demo\t1.0-1\tall\t%s\ttcpu-demo_1.0-1_all.deb\n' "$sha" >>"$lock"

# 1. From TCPU_DEB_DIR into the cache and the tree.
TCPU_DEB_DIR=$work/debs bash "$materialize" "$lock" "$work/out1" "$work/cache"
check "payload extracted" grep -qx payload "$work/out1/usr/lib/demo/data.txt"
check "cache keyed by sha256" test -f "$work/cache/$sha.deb"
check "absolute symlink made relative" test "$(readlink "$work/out1/usr/bin/demo-data")" = "../lib/demo/data.txt"
check "relative symlink resolves inside the tree" grep -qx payload "$work/out1/usr/bin/demo-data"

# 2. The cache alone suffices (no TCPU_DEB_DIR, no network).
rm -rf "$work/debs"
bash "$materialize" "$lock" "$work/out2" "$work/cache"
check "second materialisation from the cache" grep -qx payload "$work/out2/usr/lib/demo/data.txt"
tree=$(find "$work/cache/trees" -mindepth 1 -maxdepth 1 -type d ! -name '.*')
check "one tree kept, with its digest" test -n "$tree" -a -f "$tree.sha256"
check "the kept tree is the whole tree" diff -r --no-dereference "$work/out1" "$tree"
check "the copy is the whole tree" diff -r --no-dereference "$work/out1" "$work/out2"

# 2b. A kept tree that changed is not used: the packages are unpacked again, and kept again.
echo "tampered" >"$tree/usr/lib/demo/data.txt"
msg=$(bash "$materialize" "$lock" "$work/out2b" "$work/cache" 2>&1)
check "changed tree noticed" grep -q "changed since it was unpacked" <<<"$msg"
check "changed tree not used" grep -qx payload "$work/out2b/usr/lib/demo/data.txt"
check "tree kept again" grep -qx payload "$tree/usr/lib/demo/data.txt"

# 3. A rotten cache entry is caught before extraction.
cp "$work/cache/$sha.deb" "$work/good.deb"
echo "corrupt" >>"$work/cache/$sha.deb"
if msg=$(bash "$materialize" "$lock" "$work/out3" "$work/cache" 2>&1); then
  check "corrupt cache entry rejected" false
else
  check "corrupt cache entry names the package" grep -q "package tcpu-demo 1.0-1: sha256 mismatch" <<<"$msg"
  check "corrupt cache entry names the expected digest" grep -q "expected $sha" <<<"$msg"
fi
check "nothing extracted from a corrupt .deb" test ! -e "$work/out3/usr/lib/demo/data.txt"

# 4. A lockfile digest that does not match the .deb in TCPU_DEB_DIR.
mkdir -p "$work/debs2"
cp "$work/good.deb" "$work/debs2/tcpu-demo_1.0-1_all.deb"
bad=$(printf '%064d' 0)
sed "s/$sha/$bad/" "$lock" >"$work/bad.lock"
if msg=$(TCPU_DEB_DIR=$work/debs2 bash "$materialize" "$work/bad.lock" "$work/out4" "$work/cache2" 2>&1); then
  check "wrong lockfile digest rejected" false
else
  check "mismatch names package, expected and actual" \
    grep -q "package tcpu-demo 1.0-1: sha256 mismatch.*expected $bad, got $sha" <<<"$msg"
fi

# 5. A malformed row is rejected with the package name.
sed "s/$sha/not-a-digest/" "$lock" >"$work/malformed.lock"
if msg=$(bash "$materialize" "$work/malformed.lock" "$work/out5" "$work/cache" 2>&1); then
  check "malformed digest rejected" false
else
  check "malformed digest names the package" grep -q "package tcpu-demo: malformed sha256" <<<"$msg"
fi

# 6. A source row: the upstream tarball is unpacked into src/<name>/ without its Bazel files.
mkdir -p "$work/srcpkg/demo-1.0/lib"
echo "int demo() { return 1; }" >"$work/srcpkg/demo-1.0/lib/demo.cc"
echo "cc_library(name = 'upstream')" >"$work/srcpkg/demo-1.0/BUILD.bazel"
tar -czf "$work/debs2/demo_1.0.orig.tar.gz" -C "$work/srcpkg" demo-1.0
src_sha=$(sha256sum "$work/debs2/demo_1.0.orig.tar.gz" | cut -d' ' -f1)
printf 'demo\t1.0-1\tsource\t%s\tdemo_1.0.orig.tar.gz\n' "$src_sha" >"$work/src.lock"
TCPU_DEB_DIR=$work/debs2 bash "$materialize" "$work/src.lock" "$work/out6" "$work/cache"
check "source tarball unpacked into src/<name>" test -f "$work/out6/src/demo/lib/demo.cc"
check "upstream BUILD files removed" test ! -e "$work/out6/src/demo/BUILD.bazel"
check "source tarball cached by sha256" test -f "$work/cache/$src_sha.src"

((failures == 0)) || { echo "$failures check(s) failed"; exit 1; }
echo "all checks passed"
