#!/usr/bin/env bash
# The policy for a pin the archive no longer serves, against real apt and a real (small) Debian
# archive built here: packages made with dpkg-deb, indexed with apt-ftparchive (Packages and
# Release), served as a `file:` apt source marked trusted through TCPU_APT_SOURCES, so nothing
# leaves this machine. The lockfile pins tcpu-demo 1.0-1 while the archive holds 2.0-1:
#   1. default: materialised from 2.0-1, with one warning naming the lockfile, the package, both
#      versions and the relock command; debian_packages.lock and debian_package_files.tsv name
#      2.0-1; the next materialisation takes the substitute from the cache without apt;
#   2. TCPU_STRICT_LOCK=1: fails with that text, and nothing is left in the output or the cache;
#   3. the pinned version served: used, and checked against the lockfile's sha256;
#   4. a served file whose bytes do not match the index: refused by apt, nothing cached;
#   5. the same sources as deb822 stanzas; a sources file that does not exist.
#
#   local_archive_test.sh MATERIALIZE_SH APT_FTPARCHIVE LOCAL_ARCHIVE_SH
set -euo pipefail

materialize=$(readlink -f "$1")
ftparchive=$(readlink -f "$2")
source "$3"
local_archive_setup local_archive

materialize() {  # materialize LOCKFILE OUT CACHE: stderr and stdout into $log; returns its status
  local status=0
  log=$(bash "$materialize" "$1" "$2" "$3" "toolchains/lockfiles/demo.lock" 2>&1) || status=$?
  return "$status"
}
# Everything a cache holds besides directories (packages, substitutes, trees, temporaries).
cache_files() { find "$1" -mindepth 1 ! -type d 2>/dev/null | sort; }

make_deb tcpu-demo 1.0-1 "version one" "$work/debs"
make_deb tcpu-demo 2.0-1 "version two" "$work/debs"
v1=$work/debs/tcpu-demo_1.0-1_all.deb
v2=$work/debs/tcpu-demo_2.0-1_all.deb
lock=$work/demo.lock
printf '# arch: amd64\n# packages: tcpu-demo\n# name\tversion\tarch\tsha256\tfile\n' >"$lock"
printf 'tcpu-demo\t1.0-1\tall\t%s\ttcpu-demo_1.0-1_all.deb\n' "$(sha_of "$v1")" >>"$lock"

# --- 1. The archive serves only 2.0-1: by default it is used, with a warning. ---------------
make_archive "$work/archive_v2" "$v2"
export TCPU_APT_SOURCES=$(sources_for "$work/archive_v2")
check "default: materialised" materialize "$lock" "$work/out1" "$work/cache1"
echo "$log"
check "default: version 2 unpacked" grep -qx "version two" "$work/out1/usr/share/tcpu-demo/payload.txt"
warnings=$(grep -c '^WARNING: ' <<<"$log" || true)
check "default: exactly one warning" test "$warnings" = 1
warning=$(grep '^WARNING: ' <<<"$log" || true)
check "warning names the lockfile" contains "$warning" "toolchains/lockfiles/demo.lock"
check "warning names the package and the pinned version" contains "$warning" "tcpu-demo 1.0-1 (all)"
check "warning names the served version" contains "$warning" "using 2.0-1, the version it serves"
check "warning names the relock command" contains "$warning" "tools/lock/relock toolchains/lockfiles/demo.lock"
check "used rows name version 2" grep -qP "^tcpu-demo\t2.0-1\tall\t$(sha_of "$v2")\t" "$work/out1/debian_packages.lock"
check "used rows say what was substituted" grep -qx "# substituted: tcpu-demo 1.0-1 -> 2.0-1 (all)" "$work/out1/debian_packages.lock"
check "file owners name version 2" grep -qP "^tcpu-demo\t2.0-1\tusr/share/tcpu-demo/payload.txt$" "$work/out1/debian_package_files.tsv"
check "substitute cached by its sha256" test -f "$work/cache1/$(sha_of "$v2").deb"
check "substitute remembered for the pinned sha256" test -f "$work/cache1/substitutes/$(sha_of "$v1")"

# The next output base (a fresh clone): from the cache alone, apt's sources unreachable.
TCPU_APT_SOURCES=$work/does-not-exist.list materialize "$lock" "$work/out1b" "$work/cache1" ||
  { echo "$log"; check "substitute from the cache without apt" false; }
check "cache: version 2 again" grep -qx "version two" "$work/out1b/usr/share/tcpu-demo/payload.txt"
check "cache: the warning again" test "$(grep -c '^WARNING: .*using 2.0-1' <<<"$log")" = 1

# --- 2. Strict: fails with that text; nothing is substituted or written. ---------------------
if TCPU_STRICT_LOCK=1 materialize "$lock" "$work/out2" "$work/cache2"; then
  check "strict: fails" false
else
  echo "$log"
  check "strict: names the package and the pinned version" contains "$log" "tcpu-demo 1.0-1 (all)"
  check "strict: names the served version" contains "$log" "it serves 2.0-1"
  check "strict: names the lockfile" contains "$log" "toolchains/lockfiles/demo.lock"
  check "strict: names the relock command" contains "$log" "Re-pin: tools/lock/relock toolchains/lockfiles/demo.lock"
  check "strict: says why" contains "$log" "TCPU_STRICT_LOCK=1"
fi
check "strict: nothing in the output" test -z "$(find "$work/out2" -mindepth 1 2>/dev/null)"
check "strict: nothing in the cache" test -z "$(cache_files "$work/cache2")"
# A substitute remembered by a default build is not used either.
before=$(cache_files "$work/cache1")
if TCPU_STRICT_LOCK=1 materialize "$lock" "$work/out2b" "$work/cache1"; then
  check "strict: a remembered substitute is refused" false
else
  check "strict: a remembered substitute is refused" contains "$log" "it serves 2.0-1"
fi
check "strict: the cache is unchanged" test "$(cache_files "$work/cache1")" = "$before"
if TCPU_STRICT_LOCK=yes materialize "$lock" "$work/out2c" "$work/cache2c"; then
  check "strict: a value other than 0 or 1 is refused" false
else
  check "strict: a value other than 0 or 1 is named" contains "$log" "TCPU_STRICT_LOCK='yes'"
fi

# --- 3. The pinned version is served: used, and checked against the lockfile. ----------------
make_archive "$work/archive_both" "$v1" "$v2"
export TCPU_APT_SOURCES=$(sources_for "$work/archive_both")
for mode in 0 1; do
  check "pinned served (strict=$mode): materialised" env TCPU_STRICT_LOCK=$mode bash -c \
    'bash "$1" "$2" "$3" "$4" 2>"$3.log"' _ "$materialize" "$lock" "$work/out3_$mode" "$work/cache3_$mode"
  check "pinned served (strict=$mode): version 1 unpacked" grep -qx "version one" "$work/out3_$mode/usr/share/tcpu-demo/payload.txt"
  check "pinned served (strict=$mode): no warning" test ! -s "$work/out3_$mode.log"
  check "pinned served (strict=$mode): nothing substituted" test ! -e "$work/cache3_$mode/substitutes"
done
sed "s/$(sha_of "$v1")/$(sha_of "$v2")/" "$lock" >"$work/wrong_sha.lock"
if materialize "$work/wrong_sha.lock" "$work/out3b" "$work/cache3b"; then
  check "pinned served with another sha256: refused" false
else
  check "pinned served with another sha256: refused" contains "$log" \
    "package tcpu-demo 1.0-1: sha256 mismatch: expected $(sha_of "$v2") (lockfile), got $(sha_of "$v1")"
fi
check "sha256 mismatch: nothing cached" test -z "$(find "$work/cache3b" -name '*.deb' 2>/dev/null)"

# --- 4. A served file whose bytes do not match the index: apt refuses it. -------------------
make_archive "$work/archive_tampered" "$v2"
make_deb tcpu-demo 2.0-1 "not what the index says" "$work/other"
cp "$work/other/tcpu-demo_2.0-1_all.deb" "$work/archive_tampered/tcpu-demo_2.0-1_all.deb"
export TCPU_APT_SOURCES=$(sources_for "$work/archive_tampered")
if materialize "$lock" "$work/out4" "$work/cache4"; then
  check "tampered substitute: refused" false
else
  echo "$log"
  check "tampered substitute: refused, naming the package" contains "$log" "tcpu-demo 2.0-1 (all) cannot be downloaded"
  check "tampered substitute: apt's reason" grep -qiE "hash sum mismatch|hashes|size mismatch" <<<"$log"
fi
check "tampered substitute: nothing unpacked" test ! -e "$work/out4/usr/share/tcpu-demo/payload.txt"
check "tampered substitute: nothing cached" test -z "$(find "$work/cache4" -name '*.deb' 2>/dev/null)"
check "tampered substitute: nothing remembered" test ! -e "$work/cache4/substitutes"

# --- 5. The same archive as deb822 stanzas; a sources file that is not there. ----------------
cat >"$work/archive_v2.sources" <<SOURCES
Types: deb
URIs: file:$work/archive_v2
Suites: ./
Trusted: yes
SOURCES
export TCPU_APT_SOURCES=$work/archive_v2.sources
check "deb822 sources: materialised" materialize "$lock" "$work/out5" "$work/cache5"
check "deb822 sources: version 2 unpacked" grep -qx "version two" "$work/out5/usr/share/tcpu-demo/payload.txt"
export TCPU_APT_SOURCES=$work/missing.sources
if materialize "$lock" "$work/out5b" "$work/cache5b"; then
  check "missing sources file: fails" false
else
  check "missing sources file: named" contains "$log" "TCPU_APT_SOURCES=$work/missing.sources: no such readable file"
fi

local_archive_finish
