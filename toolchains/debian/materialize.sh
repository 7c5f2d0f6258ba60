#!/usr/bin/env bash
# Materialises the packages of one lockfile into a directory: every file comes from the
# sha256-keyed cache, from $TCPU_DEB_DIR (air-gapped hosts) or from `apt-get download`
# through a private apt state; each is verified against the lockfile before `dpkg-deb -x`,
# and absolute symlinks are rewritten to stay inside the tree. The finished tree is kept in
# CACHE_DIR/trees/, keyed by the lockfile and this script, with a digest of its contents: the
# next output base (a fresh clone, a worktree, Bazel inside a test) copies it in a second or two
# instead of unpacking the packages again (tens of seconds of xz for clang or MLIR), after
# checking the digest; a tree that changed is unpacked again. Rows of architecture
# `source` are upstream tarballs of Debian source packages, unpacked into src/<name>/ (only
# the members matching the lockfile's `# extract:` patterns, if it has that header line).
#
#   materialize.sh LOCKFILE OUT_DIR CACHE_DIR
#
# Called by the debian_packages repository rule; usable by hand to debug a lockfile.
set -euo pipefail

lockfile=$1 out=$2 cache=$3
source "$(dirname "$0")/apt_state.sh"

fail() { echo "debian_packages($(basename "$lockfile")): $*" >&2; exit 1; }

sha256_of() { sha256sum "$1" | cut -d' ' -f1; }

# The cache file of row i: binary packages and source tarballs are kept apart by suffix.
cache_file() { if [[ ${archs[$1]} == source ]]; then echo "$cache/${shas[$1]}.src"; else echo "$cache/${shas[$1]}.deb"; fi; }

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

# The tree unpacked before from the same lockfile by the same script (step 3).
trees=$cache/trees
tree_key=$(cat "$lockfile" "${BASH_SOURCE[0]}" | sha256_of -)
tree=$trees/$tree_key
# The digest of a tree's names, modes, link targets and contents (not times or owners).
tree_digest() {
  (cd "$1" && tar --sort=name --mtime=@0 --owner=0 --group=0 --numeric-owner -cf - .) \
      | sha256_of -
}

# 1. Find what the cache and $TCPU_DEB_DIR already hold.
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
  missing+=("$i")
done

# 2. Download the rest with apt, then verify and move each into the cache.
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
  apt_state_init "$state" "$arch_of_set"
  if ((need_sources)); then apt_state_enable_sources; fi
  apt_state_update || fail "cannot update the private apt state (no network? set TCPU_DEB_DIR)"
  mkdir -p "$state/download"
  for i in "${missing[@]}"; do
    case ${archs[i]} in
      source) command=(source --download-only "${names[i]}=${versions[i]}") ;;
      all) command=(download "${names[i]}=${versions[i]}") ;;
      *) command=(download "${names[i]}:${archs[i]}=${versions[i]}") ;;
    esac
    if ! log=$(cd "$state/download" && apt-get "${APT_OPTS[@]}" -q "${command[@]}" 2>&1); then
      fail "package ${names[i]} ${versions[i]} (${archs[i]}) cannot be downloaded: $(grep -E '^E:' <<<"$log" | head -n 2)"
    fi
    if [[ ${archs[i]} == source ]]; then
      got="$state/download/${files[i]}"
      [[ -f $got ]] || fail "package ${names[i]} ${versions[i]}: the source package has no ${files[i]}"
    else
      got=$(ls "$state/download"/"${names[i]}"_*.deb 2>/dev/null | head -n 1)
      [[ -n $got ]] || fail "package ${names[i]}: apt-get download produced no file"
    fi
    actual=$(sha256_of "$got")
    [[ $actual == "${shas[i]}" ]] || fail "package ${names[i]} ${versions[i]}: sha256 mismatch:" \
        "expected ${shas[i]} (lockfile), got $actual (downloaded ${got##*/})"
    cached=$(cache_file "$i")
    mv "$got" "$cached.tmp.$$" && mv "$cached.tmp.$$" "$cached"
  done
  rm -rf "$state"
fi

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
    printf '%s\tsrc/%s/\n' "${names[i]}" "${names[i]}" >>"$owners.tmp"
  else
    # -X: extract and list; the list says which package each file of the tree came from.
    dpkg-deb -X "$cached" "$out" >"$out/.files" \
        || fail "package ${names[i]}: dpkg-deb -X failed on $cached"
    sed -n 's|^\./\(.*[^/]\)$|'"${names[i]}"'\t\1|p' "$out/.files" >>"$owners.tmp"
    rm -f "$out/.files"
  fi
done
# Which package owns each file (NAME<TAB>PATH; a source package owns its src/NAME/ folder): the
# SDK bundle's SBOM maps the files a link used to the packages they came from (//packaging).
LC_ALL=C sort -o "$owners" "$owners.tmp" && rm -f "$owners.tmp"

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
