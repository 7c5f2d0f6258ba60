#!/usr/bin/env bash
# Materialises the packages of one lockfile into a directory: every file comes from the
# sha256-keyed cache, from $TCPU_DEB_DIR (air-gapped hosts) or from `apt-get download`
# through a private apt state (apt_state.sh; TCPU_APT_SOURCES replaces the host's sources); each
# is verified against the lockfile before `dpkg-deb -x`, and absolute symlinks are rewritten to
# stay inside the tree. Rows of architecture `source` are upstream tarballs of Debian source
# packages, unpacked into src/<name>/ (only the members matching the lockfile's `# extract:`
# patterns, if it has that header line).
#
# A pinned version the archive no longer serves (Debian replaces superseded versions within
# days): by default the version the archive serves now is used instead, downloaded and checked
# by apt against the archive's signed index like any other, with one warning per package that
# names the lockfile, both versions and the command that re-pins; the choice is remembered in
# CACHE_DIR/substitutes/<pinned sha256>, so the next clone needs no network for it. With
# TCPU_STRICT_LOCK=1 the same case fails with that text before anything is downloaded or
# written. A pinned version that is served is checked against its sha256 as ever. The rows
# actually used are written to OUT_DIR/debian_packages.lock, and the owner and version of every
# file to OUT_DIR/debian_package_files.tsv (the SDK bundle's SBOM reads both).
#
# The finished tree is kept in CACHE_DIR/trees/, keyed by the rows used and this script, with a
# digest of its contents: the next output base (a fresh clone, a worktree, Bazel inside a test)
# copies it in a second or two instead of unpacking the packages again (tens of seconds of xz
# for clang or MLIR), after checking the digest; a tree that changed is unpacked again.
#
#   materialize.sh LOCKFILE OUT_DIR CACHE_DIR [SHOWN_PATH]
#
# SHOWN_PATH: the lockfile as messages name it (its path in the workspace). Called by the
# debian_packages repository rule; usable by hand to debug a lockfile.
set -euo pipefail

lockfile=$1 out=$2 cache=$3 shown=${4:-$1}
source "$(dirname "$0")/apt_state.sh"

fail() { echo "debian_packages($(basename "$lockfile")): $*" >&2; exit 1; }
warn() { echo "WARNING: debian_packages($(basename "$lockfile")): $*" >&2; }

sha256_of() { sha256sum "$1" | cut -d' ' -f1; }

case ${TCPU_STRICT_LOCK:-0} in
  1) strict=1 ;;
  0 | "") strict=0 ;;
  *) fail "TCPU_STRICT_LOCK='$TCPU_STRICT_LOCK': set it to 1 (fail on a pin the archive no longer serves) or 0" ;;
esac
relock="tools/lock/relock $shown"

# The cache file of a package (ARCH SHA256) and of row i: binary packages and source tarballs
# are kept apart by suffix.
cache_path() { if [[ $1 == source ]]; then echo "$cache/$2.src"; else echo "$cache/$2.deb"; fi; }
cache_file() { cache_path "${archs[$1]}" "${shas[$1]}"; }

mkdir -p "$cache" "$out"
names=() versions=() archs=() shas=() files=()
while IFS=$'\t' read -r name version arch sha file; do
  [[ -z $name || $name == \#* ]] && continue
  [[ $sha =~ ^[0-9a-f]{64}$ ]] || fail "package $name: malformed sha256 '$sha' in the lockfile"
  names+=("$name") versions+=("$version") archs+=("$arch") shas+=("$sha") files+=("$file")
done <"$lockfile"
((${#names[@]})) || fail "the lockfile lists no packages"
# Tar wildcards of the source members to unpack (e.g. */include/qemu/qemu-plugin.h): a big
# upstream tree of which the build needs one header is not unpacked whole.
read -r -a extract <<<"$(sed -n 's/^# extract:[[:space:]]*//p' "$lockfile" | head -n 1)"

# Rows whose pinned version the archive no longer serves: row index -> the pinned version and
# its sha256, and one message each.
declare -A pinned_version=() pinned_sha=()
stale_messages=()
substitutes=$cache/substitutes

# substitute_row I ROW: row I is now ROW ("name version arch sha256 file") instead of its pin.
substitute_row() {
  local i=$1 name version arch sha file
  IFS=$'\t' read -r name version arch sha file <<<"$2"
  pinned_version[$i]=${versions[i]} pinned_sha[$i]=${shas[i]}
  versions[i]=$version shas[i]=$sha files[i]=$file
}
stale_message() {  # stale_message I SERVED_VERSION
  local what="; using $2, the version it serves (checked by apt against the archive's index, as every download is)"
  ((!strict)) || what=" (it serves $2), and TCPU_STRICT_LOCK=1 forbids using another version"
  echo "${names[$1]} ${versions[$1]} (${archs[$1]}) is pinned in $shown, but the archive no" \
      "longer serves it$what. Re-pin: $relock"
}

# 1. Find what the cache and $TCPU_DEB_DIR already hold: the pinned file, or (outside strict
# mode) the file that replaced a pin the archive stopped serving, chosen by an earlier build.
missing=()
for i in "${!names[@]}"; do
  cached=$(cache_file "$i")
  [[ -f $cached ]] && continue
  if [[ -n ${TCPU_DEB_DIR:-} && -f $TCPU_DEB_DIR/${files[i]} ]]; then
    actual=$(sha256_of "$TCPU_DEB_DIR/${files[i]}")
    [[ $actual == "${shas[i]}" ]] || fail "package ${names[i]} ${versions[i]}: sha256 mismatch" \
        "for $TCPU_DEB_DIR/${files[i]}: expected ${shas[i]}, got $actual"
    cp "$TCPU_DEB_DIR/${files[i]}" "$cached.tmp.$$" && mv "$cached.tmp.$$" "$cached"
    continue
  fi
  record=$substitutes/${shas[i]}
  if ((!strict)) && [[ -f $record ]]; then
    row=$(head -n 1 "$record")
    if [[ -f $(cache_path "${archs[i]}" "$(cut -f4 <<<"$row")") ]]; then
      stale_messages+=("$(stale_message "$i" "$(cut -f2 <<<"$row")")")
      substitute_row "$i" "$row"
      continue
    fi
  fi
  missing+=("$i")
done

# 2. Ask the archive about the rest, then download them with apt, verify each and move it into
# the cache. In strict mode nothing is downloaded if any pin is no longer served.
state=""
trap '[[ -z $state ]] || rm -rf "$state"' EXIT
if ((${#missing[@]})); then
  [[ -z ${TCPU_DEB_DIR:-} ]] || echo "note: not in TCPU_DEB_DIR, downloading:" \
      "$(for i in "${missing[@]}"; do printf '%s ' "${files[i]}"; done)" >&2
  state="$out/.apt"
  arch_of_set=amd64
  need_sources=0
  for i in "${missing[@]}"; do
    case ${archs[i]} in
      all) ;;
      source) need_sources=1 ;;
      *) arch_of_set=${archs[i]} ;;
    esac
  done
  apt_state_init "$state" "$arch_of_set" || fail "cannot set up the private apt state"
  if ((need_sources)); then apt_state_enable_sources; fi
  apt_state_update || fail "cannot update the private apt state (no network? set TCPU_DEB_DIR or TCPU_APT_SOURCES)"
  for i in "${missing[@]}"; do
    if [[ ${archs[i]} == source ]]; then
      rows=$(apt_state_source_rows "${names[i]}")
      grep -q "^${names[i]}"$'\t'"${versions[i]}"$'\t' <<<"$rows" && continue
      row=$(head -n 1 <<<"$rows")
    else
      apt_state_is_served "${names[i]}" "${archs[i]}" "${versions[i]}" && continue
      served=$(apt_state_served_version "${names[i]}" "${archs[i]}")
      row=""
      [[ -z $served ]] || row=$(apt_state_index_row "${names[i]}" "${archs[i]}" "$served")
    fi
    [[ -n $row ]] || fail "package ${names[i]} ${versions[i]} (${archs[i]}) is pinned, but" \
        "$(apt_state_describe_sources) serve no version of it. Re-pin: $relock"
    served=$(cut -f2 <<<"$row")
    stale_messages+=("$(stale_message "$i" "$served")")
    substitute_row "$i" "$row"
  done
  if ((strict && ${#pinned_version[@]})); then
    {
      for message in "${stale_messages[@]}"; do echo "debian_packages($(basename "$lockfile")): $message"; done
      echo "TCPU_STRICT_LOCK=1: no version is used in place of a pinned one; no package of $shown was downloaded or unpacked."
    } >&2
    exit 1
  fi
  mkdir -p "$state/download"
  # Binary packages in one apt-get call (it fetches them in parallel, 8x faster than one call
  # each); if that fails, one at a time, so the error names the package. Source packages one each.
  apt_spec() {  # apt_spec I: row I as apt-get names it (a source package by name alone)
    local arch=${archs[$1]}
    [[ $arch != source ]] || arch=all
    echo "$(apt_state_spec "${names[$1]}" "$arch")=${versions[$1]}"
  }
  apt_download() {  # apt_download I: one package into $state/download, or fail naming it
    local command=(download "$(apt_spec "$1")") log
    [[ ${archs[$1]} != source ]] || command=(source --download-only "$(apt_spec "$1")")
    log=$(cd "$state/download" && apt-get "${APT_OPTS[@]}" -q "${command[@]}" 2>&1) ||
      fail "package ${names[$1]} ${versions[$1]} (${archs[$1]}) cannot be downloaded: $(grep -E '^E:' <<<"$log" | head -n 2)"
  }
  binaries=()
  for i in "${missing[@]}"; do
    if [[ ${archs[i]} == source ]]; then apt_download "$i"; else binaries+=("$(apt_spec "$i")"); fi
  done
  if ((${#binaries[@]})) &&
      ! (cd "$state/download" && apt-get "${APT_OPTS[@]}" -q download "${binaries[@]}" >/dev/null 2>&1); then
    rm -f "$state/download"/*.deb
    for i in "${missing[@]}"; do [[ ${archs[i]} == source ]] || apt_download "$i"; done
  fi
  for i in "${missing[@]}"; do
    if [[ ${archs[i]} == source ]]; then
      got="$state/download/${files[i]}"
      [[ -f $got ]] || fail "package ${names[i]} ${versions[i]}: the source package has no ${files[i]}"
    else
      got=$(ls "$state/download"/"${names[i]}"_*.deb 2>/dev/null | head -n 1)
      [[ -n $got ]] || fail "package ${names[i]}: apt-get download produced no file"
    fi
    actual=$(sha256_of "$got")
    from="lockfile"
    [[ -z ${pinned_version[$i]:-} ]] || from="the archive's index"
    [[ $actual == "${shas[i]}" ]] || fail "package ${names[i]} ${versions[i]}: sha256 mismatch:" \
        "expected ${shas[i]} ($from), got $actual (downloaded ${got##*/})"
    cached=$(cache_file "$i")
    mv "$got" "$cached.tmp.$$" && mv "$cached.tmp.$$" "$cached"
    if [[ -n ${pinned_version[$i]:-} ]]; then
      record=$substitutes/${pinned_sha[$i]}
      mkdir -p "$substitutes"
      printf '%s\t%s\t%s\t%s\t%s\n' "${names[i]}" "${versions[i]}" "${archs[i]}" "${shas[i]}" \
          "${files[i]}" >"$record.tmp.$$" && mv "$record.tmp.$$" "$record"
    fi
  done
  rm -rf "$state"
  state=""
fi
for message in "${stale_messages[@]}"; do warn "$message"; done

# The rows used (the lockfile's, with any substitutes), for the SBOM and as the tree's key.
used_rows() {
  local i
  for i in "${!names[@]}"; do
    printf '%s\t%s\t%s\t%s\t%s\n' "${names[i]}" "${versions[i]}" "${archs[i]}" "${shas[i]}" "${files[i]}"
  done
}
write_used_lockfile() {
  local i
  echo "# The packages this repository was made from: the rows of the lockfile below, where a"
  echo "# pinned version the archive no longer serves is replaced by the version it served."
  echo "# lockfile: $shown"
  for i in "${!names[@]}"; do
    [[ -z ${pinned_version[$i]:-} ]] ||
      printf '# substituted: %s %s -> %s (%s)\n' "${names[i]}" "${pinned_version[$i]}" "${versions[i]}" "${archs[i]}"
  done
  printf '# name\tversion\tarch\tsha256\tfile\n'
  used_rows
}

# The tree unpacked before from the same rows by the same script (step 3).
trees=$cache/trees
tree_key=$( { echo "$shown"; used_rows; grep '^# extract:' "$lockfile" || true; cat "${BASH_SOURCE[0]}"; } | sha256_of -)
tree=$trees/$tree_key
# The digest of a tree's names, modes, link targets and contents (not times or owners).
tree_digest() {
  (cd "$1" && tar --sort=name --mtime=@0 --owner=0 --group=0 --numeric-owner -cf - .) \
      | sha256_of -
}

# 3. Verify every cached file again (a cache can rot); then copy the tree unpacked before, if
# its digest still holds, or extract.
for i in "${!names[@]}"; do
  cached=$(cache_file "$i")
  actual=$(sha256_of "$cached")
  [[ $actual == "${shas[i]}" ]] || fail "package ${names[i]} ${versions[i]}: sha256 mismatch for" \
      "cached $cached: expected ${shas[i]}, got $actual (delete the file to download it again)"
done
if [[ -d $tree && -f $tree.sha256 ]]; then
  if [[ $(tree_digest "$tree") == "$(cat "$tree.sha256")" ]]; then
    cp -a "$tree/." "$out/"
    exit 0
  fi
  echo "note: $tree changed since it was unpacked; unpacking the packages again" >&2
  rm -rf "$tree" "$tree.sha256"
elif [[ -d $tree ]]; then  # left without its digest by a build that stopped while publishing
  rm -rf "$tree"
fi
owners=$out/debian_package_files.tsv
rm -f "$owners.tmp"
for i in "${!names[@]}"; do
  cached=$(cache_file "$i")
  if [[ ${archs[i]} == source ]]; then
    mkdir -p "$out/src/${names[i]}"
    members=()
    if ((${#extract[@]})); then members=(--wildcards "${extract[@]}"); fi
    tar -xf "$cached" -C "$out/src/${names[i]}" --strip-components=1 "${members[@]}" \
        || fail "package ${names[i]}: cannot unpack ${files[i]} ($cached)${members:+ (extract: ${extract[*]})}"
    # Upstream Bazel files would split the tree into packages: the SDK's BUILD file rules.
    find "$out/src/${names[i]}" -type f \( -name BUILD -o -name BUILD.bazel -o -name WORKSPACE \
        -o -name WORKSPACE.bazel \) -delete
    printf '%s\t%s\tsrc/%s/\n' "${names[i]}" "${versions[i]}" "${names[i]}" >>"$owners.tmp"
  else
    # -X: extract and list; the list says which package each file of the tree came from.
    dpkg-deb -X "$cached" "$out" >"$out/.files" \
        || fail "package ${names[i]}: dpkg-deb -X failed on $cached"
    sed -n 's|^\./\(.*[^/]\)$|'"${names[i]}\t${versions[i]}"'\t\1|p' "$out/.files" >>"$owners.tmp"
    rm -f "$out/.files"
  fi
done
# Which package, at which version, owns each file (NAME<TAB>VERSION<TAB>PATH; a source package
# owns its src/NAME/ folder), and the rows used: the SDK bundle's SBOM maps the files a link used
# to the packages they came from (//packaging).
LC_ALL=C sort -o "$owners" "$owners.tmp" && rm -f "$owners.tmp"
write_used_lockfile >"$out/debian_packages.lock"

# 4. Absolute symlinks point into the host's filesystem: make them relative to the tree.
while IFS= read -r -d '' link; do
  target=$(readlink "$link")
  [[ $target == /* ]] || continue
  rel=$(realpath -m --relative-to="$(dirname "$link")" "$out$target")
  ln -sfn "$rel" "$link"
done < <(find "$out" -type l -print0)

# 5. Keep the tree for the next output base (published by rename: a concurrent build that
# unpacked the same lockfile keeps its own copy and discards this one).
if mkdir -p "$trees" 2>/dev/null && staging=$(mktemp -d "$trees/.new.XXXXXX" 2>/dev/null); then
  if cp -a "$out/." "$staging/" && tree_digest "$staging" >"$staging.sha256" &&
      mv -T "$staging" "$tree" 2>/dev/null; then
    mv "$staging.sha256" "$tree.sha256"
  else
    rm -rf "$staging" "$staging.sha256"
  fi
fi
