#!/usr/bin/env bash
# Re-resolves a lockfile from the request in its own header and rewrites it.
#
#   bazel run //tools/lock -- toolchains/lockfiles/llvm_amd64.lock [more.lock ...]
#
# The header names the architecture, the requested packages and what to leave out:
#   # arch: amd64
#   # packages: clang-19 lld-19
#   # exclude: minbase binutils
#   # sources: benchmark
# `sources` names Debian source packages whose upstream tarball (.orig.tar.*) is pinned, for
# libraries Debian ships only as shared objects and the SDK builds from source.
# `minbase` stands for everything a minimal Debian system already has (the dependency
# closure of the Priority: required packages), so host-run tools carry only the shared
# libraries such a system lacks. Excluded packages are not entered when walking
# dependencies. Each row of the result: name, version, arch, sha256, file name.
set -euo pipefail

here=$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")
# Under `bazel run` the script sits in runfiles next to apt_state.sh; run directly it is
# found in the source tree.
for candidate in "$here/apt_state.sh" "$here/../../toolchains/debian/apt_state.sh" \
    "${RUNFILES_DIR:-/nonexistent}/tcpu_sdk/toolchains/debian/apt_state.sh"; do
  if [[ -f $candidate ]]; then source "$candidate"; break; fi
done
declare -F apt_state_init >/dev/null || { echo "lock: apt_state.sh not found" >&2; exit 2; }

usage() { echo "usage: bazel run //tools/lock -- LOCKFILE [LOCKFILE ...]" >&2; exit 2; }
[[ $# -ge 1 ]] || usage
[[ $1 != -h && $1 != --help ]] || usage

header_field() {  # header_field FILE NAME -> value of '# NAME: value'
  sed -n "s/^# $2:[[:space:]]*//p" "$1" | head -n 1
}

# deps_of PKGSPEC: the package names in Depends and Pre-Depends (all alternatives).
deps_of() {
  apt-cache "${APT_OPTS[@]}" show "$1" 2>/dev/null | awk '
    /^$/ { exit }
    /^(Depends|Pre-Depends):/ {
      sub(/^[A-Za-z-]+:[ ]*/, "")
      n = split($0, parts, /[,|]/)
      for (i = 1; i <= n; i++) {
        name = parts[i]; gsub(/\(.*\)/, "", name); gsub(/[ \t]/, "", name); sub(/:.*/, "", name)
        if (name != "") print name
      }
    }'
}

# source_row NAME: "name version source sha256 file" for the newest version of source package
# NAME, pinning its upstream tarball (or the whole tarball of a native package).
source_row() {
  apt-cache "${APT_OPTS[@]}" showsrc "$1" 2>/dev/null | awk -v name="$1" '
    function flush() {
      if (pkg == name && file != "" && (best == "" || newer(ver, best))) {
        best = ver; best_row = sprintf("%s\t%s\tsource\t%s\t%s", name, ver, sha, file)
      }
      pkg = ""; ver = ""; file = ""; sha = ""; in_sums = 0
    }
    function newer(a, b) { return system("dpkg --compare-versions \"" a "\" gt \"" b "\"") == 0 }
    /^$/ { flush(); next }
    /^Package:/ { pkg = $2 }
    /^Version:/ { ver = $2 }
    /^[A-Za-z0-9-]+:/ { in_sums = ($1 == "Checksums-Sha256:"); next }
    in_sums && $3 ~ /\.orig\.tar\./ { sha = $1; file = $3 }
    in_sums && file == "" && $3 ~ /\.tar\./ && $3 !~ /\.debian\.tar\./ { sha = $1; file = $3 }
    END { flush(); if (best_row == "") exit 1; print best_row }' ||
    { echo "lock: no source package '$1' with an upstream tarball (deb-src)" >&2; return 1; }
}

lock_one() {
  local lockfile=$1
  [[ -f $lockfile ]] || { echo "lock: no such lockfile: $lockfile" >&2; return 1; }
  local arch packages exclude sources
  arch=$(header_field "$lockfile" arch)
  packages=$(header_field "$lockfile" packages)
  exclude=$(header_field "$lockfile" exclude)
  sources=$(header_field "$lockfile" sources)
  [[ -n $arch ]] || { echo "lock: $lockfile has no '# arch:' header line" >&2; return 1; }
  [[ -n $packages || -n $sources ]] ||
    { echo "lock: $lockfile has neither a '# packages:' nor a '# sources:' header line" >&2; return 1; }

  local state
  state=$(mktemp -d "${TMPDIR:-/tmp}/tcpu-lock.XXXXXX")
  trap 'rm -rf "$state"' RETURN
  apt_state_init "$state" "$arch"
  [[ -z $sources ]] || apt_state_enable_sources
  apt_state_update

  local source_rows=""
  for pkg in $sources; do
    source_rows+=$(source_row "$pkg") || return 1
    source_rows+=$'\n'
  done

  declare -A keep=()
  if [[ -n $packages ]]; then
  # The full closure apt would install on an empty system, as name=version lines.
  local closure
  # shellcheck disable=SC2086
  if ! closure=$(apt-get "${APT_OPTS[@]}" -s install --no-install-recommends $packages 2>&1); then
    echo "lock: apt cannot resolve [$packages] for $arch:" >&2
    grep -E '^(E:| )' <<<"$closure" >&2 || echo "$closure" | tail -n 5 >&2
    return 1
  fi
  declare -A version=()
  while read -r _ name ver _; do
    version[$name]=${ver#(}
  done < <(grep '^Inst ' <<<"$closure")

  declare -A skip=()
  local e
  for e in $exclude; do
    if [[ $e == minbase ]]; then
      local required base
      required=$(apt-cache "${APT_OPTS[@]}" dumpavail | awk '/^Package:/{p=$2} /^Priority: required/{print p}' | sort -u)
      # shellcheck disable=SC2086
      base=$(apt-get "${APT_OPTS[@]}" -s install --no-install-recommends $required 2>/dev/null | awk '/^Inst /{print $2}')
      for e in $base; do skip[$e]=1; done
    else
      skip[$e]=1
    fi
  done

  # Walk from the requested packages through the closure, never entering excluded ones.
  local queue=($packages) pkg dep
  for pkg in $packages; do
    [[ -n ${version[$pkg]:-} ]] || { echo "lock: apt did not select requested package $pkg" >&2; return 1; }
  done
  while ((${#queue[@]})); do
    pkg=${queue[0]}; queue=("${queue[@]:1}")
    [[ -n ${keep[$pkg]:-} ]] && continue
    keep[$pkg]=1
    for dep in $(deps_of "$pkg:$arch=${version[$pkg]}" || deps_of "$pkg=${version[$pkg]}"); do
      [[ -n ${version[$dep]:-} && -z ${skip[$dep]:-} && -z ${keep[$dep]:-} ]] && queue+=("$dep")
    done
  done
  fi

  local tmp="$lockfile.tmp"
  {
    grep '^#' "$lockfile" | grep -v '^# name' || true
    printf '# name\tversion\tarch\tsha256\tfile\n'
    for pkg in $(printf '%s\n' "${!keep[@]}" | sort); do
      apt-cache "${APT_OPTS[@]}" show "$pkg:$arch=${version[$pkg]}" 2>/dev/null \
          || apt-cache "${APT_OPTS[@]}" show "$pkg=${version[$pkg]}"
    done | awk '
      /^Package:/ { name = $2 } /^Version:/ { ver = $2 } /^Architecture:/ { a = $2 }
      /^SHA256:/ { sha = $2 } /^Filename:/ { n = split($2, p, "/"); file = p[n] }
      /^$/ { if (name != "") printf "%s\t%s\t%s\t%s\t%s\n", name, ver, a, sha, file; name = "" }
      END { if (name != "") printf "%s\t%s\t%s\t%s\t%s\n", name, ver, a, sha, file }'
    printf '%s' "$source_rows"
  } >"$tmp"
  mv "$tmp" "$lockfile"
  echo "lock: $lockfile: $(grep -vc '^#' "$lockfile") packages for $arch"
}

cd "${BUILD_WORKSPACE_DIRECTORY:-.}"
for f in "$@"; do lock_one "$f"; done
