# Sourced by the tests of the pinned-package machinery: small Debian packages and flat apt
# archives made in the test's temp dir (dpkg-deb, and apt-ftparchive for the Packages and Release
# index), and the checks' bookkeeping. The caller sets $ftparchive to apt-ftparchive.

# local_archive_setup NAME: $work, a fresh folder under the test's temp dir, readable by apt's
# _apt user (apt, run as root, downloads as that user when it can); no TCPU_DEB_DIR, and no
# TCPU_STRICT_LOCK but where a check sets it.
local_archive_setup() {
  work=${TEST_TMPDIR:-$(mktemp -d)}/$1
  rm -rf "$work" && mkdir -p "$work"
  chmod 755 "$work"
  unset TCPU_DEB_DIR TCPU_STRICT_LOCK
  failures=0
}

check() {  # check DESCRIPTION COMMAND...
  if "${@:2}"; then echo "ok: $1"; else echo "FAIL: $1"; failures=$((failures + 1)); fi
}
contains() { grep -qF -- "$2" <<<"$1"; }
sha_of() { sha256sum "$1" | cut -d' ' -f1; }

local_archive_finish() {
  ((failures == 0)) || { echo "$failures check(s) failed"; exit 1; }
  echo "all checks passed"
}

# make_deb NAME VERSION PAYLOAD OUT_DIR: a package with usr/share/NAME/payload.txt.
make_deb() {
  local root=$work/build/$1-$2
  rm -rf "$root" && mkdir -p "$root/DEBIAN" "$root/usr/share/$1"
  printf 'Package: %s\nVersion: %s\nArchitecture: all\nMaintainer: tcpu-sdk tests\nDescription: test package\n' \
      "$1" "$2" >"$root/DEBIAN/control"
  echo "$3" >"$root/usr/share/$1/payload.txt"
  mkdir -p "$4"
  dpkg-deb --root-owner-group -b "$root" "$4/${1}_${2}_all.deb" >/dev/null
}
# make_archive DIR DEB...: a flat archive (deb file:DIR ./) holding the given packages.
make_archive() {
  local dir=$1
  mkdir -p "$dir"
  cp "${@:2}" "$dir/"
  (cd "$dir" && "$ftparchive" packages . >Packages && "$ftparchive" release . >Release)
  chmod -R a+rX "$dir"
}
sources_for() {  # sources_for DIR: a one-line sources file for the flat archive DIR
  echo "deb [trusted=yes] file:$1 ./" >"$1.list"
  echo "$1.list"
}
