#!/usr/bin/env bash
# tools/lock/relock against a small local Debian archive (tests/debian/local_archive.sh), through
# TCPU_APT_SOURCES: `--check` lists exactly the stale rows of a fixture lockfile (a pin the
# archive no longer serves, a pin it serves beside a newer version) and changes nothing, exits 0,
# and 1 under TCPU_STRICT_LOCK=1; relock re-pins them from the lockfile's header request, after
# which `--check` finds nothing stale; a lockfile it cannot resolve is named, and left unchanged.
#
#   relock_test.sh RELOCK APT_FTPARCHIVE LOCAL_ARCHIVE_SH
set -euo pipefail

relock=$(readlink -f "$1")
ftparchive=$(readlink -f "$2")
source "$3"
local_archive_setup relock

make_deb tcpu-gone 1.0-1 "gone" "$work/debs"
make_deb tcpu-gone 2.0-1 "gone, replaced" "$work/debs"
make_deb tcpu-old 1.0-1 "old" "$work/debs"
make_deb tcpu-old 1.1-1 "old, updated" "$work/debs"
make_deb tcpu-same 1.0-1 "same" "$work/debs"
make_archive "$work/archive" "$work/debs/tcpu-gone_2.0-1_all.deb" "$work/debs/tcpu-old_1.0-1_all.deb" \
    "$work/debs/tcpu-old_1.1-1_all.deb" "$work/debs/tcpu-same_1.0-1_all.deb"
export TCPU_APT_SOURCES=$(sources_for "$work/archive")

row() {  # row NAME VERSION: the lockfile row of a package made above
  local deb=$work/debs/${1}_${2}_all.deb
  printf '%s\t%s\tall\t%s\t%s\n' "$1" "$2" "$(sha_of "$deb")" "${deb##*/}"
}
lock=$work/fixture.lock
{
  printf '# A fixture of the relock test.\n# arch: amd64\n# packages: tcpu-gone tcpu-old tcpu-same\n'
  printf '# name\tversion\tarch\tsha256\tfile\n'
  row tcpu-gone 1.0-1
  row tcpu-old 1.0-1
  row tcpu-same 1.0-1
} >"$lock"
cp "$lock" "$work/fixture.orig"

# --- --check: exactly the two stale rows; nothing changed. ----------------------------------
status=0
report=$("$relock" --check "$lock" 2>&1) || status=$?
echo "$report"
check "--check exits 0" test "$status" = 0
check "--check counts the stale rows" contains "$report" "2 of 3 pinned rows are stale (1 gone, 1 superseded)"
check "--check lists the gone row" contains "$report" "$lock: tcpu-gone 1.0-1 (all): gone; served: 2.0-1"
check "--check lists the superseded row" contains "$report" "$lock: tcpu-old 1.0-1 (all): superseded; served: 1.1-1"
check "--check lists nothing else" test "$(grep -c "^  $lock: " <<<"$report")" = 2
check "--check names the re-pin command" contains "$report" "re-pin: tools/lock/relock"
check "--check changes nothing" cmp -s "$lock" "$work/fixture.orig"
status=0
TCPU_STRICT_LOCK=1 "$relock" --check "$lock" >/dev/null 2>&1 || status=$?
check "--check under TCPU_STRICT_LOCK=1 exits 1" test "$status" = 1

# --- relock: re-pinned from the header request; then nothing is stale. ----------------------
out=$("$relock" "$lock" 2>&1) || { echo "$out"; check "relock succeeds" false; }
echo "$out"
check "relock reports two changed rows" contains "$out" "3 rows, 2 changed"
check "relock: the gone row re-pinned" grep -qxF "$(row tcpu-gone 2.0-1)" "$lock"
check "relock: the superseded row re-pinned" grep -qxF "$(row tcpu-old 1.1-1)" "$lock"
check "relock: the current row kept" grep -qxF "$(row tcpu-same 1.0-1)" "$lock"
check "relock: the header kept" test "$(grep '^#' "$lock")" = "$(grep '^#' "$work/fixture.orig")"
report=$("$relock" --check "$lock" 2>&1) || true
check "--check after relock: nothing stale" contains "$report" "all 3 pinned rows in 1 lockfile(s) are the versions served"
status=0
TCPU_STRICT_LOCK=1 "$relock" --check "$lock" >/dev/null 2>&1 || status=$?
check "--check after relock under TCPU_STRICT_LOCK=1 exits 0" test "$status" = 0

# --- A request the archive cannot satisfy: named; the lockfile is left as it was. ------------
sed 's/^# packages: .*/# packages: tcpu-same tcpu-missing/' "$work/fixture.orig" >"$work/unresolvable.lock"
cp "$work/unresolvable.lock" "$work/unresolvable.orig"
status=0
out=$("$relock" "$work/unresolvable.lock" 2>&1) || status=$?
echo "$out"
check "unresolvable request: relock fails" test "$status" = 1
check "unresolvable request: names the package" contains "$out" "tcpu-missing"
check "unresolvable request: lockfile unchanged" cmp -s "$work/unresolvable.lock" "$work/unresolvable.orig"

local_archive_finish
