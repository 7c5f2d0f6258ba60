# Sourced by materialize.sh and tools/lock/relock: a private apt state (own lists, cache, sources
# and an empty dpkg status) so packages of any architecture are resolved and downloaded without
# root, without `dpkg --add-architecture`, and without touching the host's apt state.
#
# Sources: the host's own apt sources, or, when TCPU_APT_SOURCES names an apt sources file
# (one-line `deb ...` format or deb822 `Types:` stanzas), that file alone: an organisation's
# mirror, or an archive service that keeps every version. Nothing here names a mirror. apt checks
# every index against its source's signature (Signed-By, the host's trusted keys, or
# [trusted=yes] for a local archive the file marks so) and every download against its index.

# apt_state_init DIR ARCH: prepares DIR and sets APT_OPTS for ARCH (e.g. amd64, arm64). The
# package caches are kept in DIR even where the host's apt config turns them off (Docker images
# do): each apt-cache call would otherwise parse every list again (0.6 s instead of 0.04 s).
# Returns non-zero (with a message) when TCPU_APT_SOURCES is set but unusable.
apt_state_init() {
  local dir=$1 arch=$2
  APT_ARCH=$arch
  APT_STATE_DIR=$dir
  mkdir -p "$dir/lists/partial" "$dir/cache/archives/partial" "$dir/sources.list.d"
  [[ -f $dir/status ]] || : >"$dir/status"
  apt_state_copy_sources "$dir/sources.list.d" || return 1
  APT_OPTS=(
    -o "Dir::State::Lists=$dir/lists"
    -o "Dir::Cache=$dir/cache"
    -o "Dir::Cache::pkgcache=pkgcache.bin"
    -o "Dir::Cache::srcpkgcache=srcpkgcache.bin"
    -o "Dir::State::status=$dir/status"
    -o "Dir::Etc::SourceParts=$dir/sources.list.d"
    -o "Dir::Etc::SourceList=/dev/null"
    -o "APT::Architecture=$arch"
    -o "APT::Architectures=$arch"
    -o "Debug::NoLocking=1"
    -o "APT::Get::AllowUnauthenticated=false"
    -o "Acquire::Retries=3"
  )
}

# apt_state_describe_sources: one line naming where packages come from (for error messages).
apt_state_describe_sources() {
  if [[ -n ${TCPU_APT_SOURCES:-} ]]; then
    echo "the apt sources in TCPU_APT_SOURCES=$TCPU_APT_SOURCES"
  else
    echo "this host's apt sources (/etc/apt)"
  fi
}

# apt_state_copy_sources DIR: the sources apt reads, copied into DIR (so deb-src entries can be
# added without touching the originals).
apt_state_copy_sources() {
  local parts=$1 f
  if [[ -n ${TCPU_APT_SOURCES:-} ]]; then
    f=$TCPU_APT_SOURCES
    [[ $f == /* ]] || { echo "TCPU_APT_SOURCES=$f: give the sources file as an absolute path" >&2; return 1; }
    [[ -f $f && -r $f ]] || { echo "TCPU_APT_SOURCES=$f: no such readable file" >&2; return 1; }
    if grep -qE '^[[:space:]]*Types:' "$f"; then
      cp "$f" "$parts/tcpu.sources"
    elif grep -qE '^[[:space:]]*deb(-src)?[[:space:]]' "$f"; then
      cp "$f" "$parts/tcpu.list"
    else
      echo "TCPU_APT_SOURCES=$f: neither 'deb URI SUITE COMPONENT...' lines nor deb822 'Types:' stanzas" >&2
      return 1
    fi
    return 0
  fi
  for f in /etc/apt/sources.list.d/*.sources /etc/apt/sources.list.d/*.list; do
    [[ -f $f ]] && cp "$f" "$parts/${f##*/}"
  done
  if [[ -f /etc/apt/sources.list ]]; then cp /etc/apt/sources.list "$parts/00-sources.list.list"; fi
  return 0
}

# apt_state_enable_sources: adds deb-src entries for every deb entry of the private state's
# sources, so `apt-get source` and `apt-cache showsrc` work (for source packages).
apt_state_enable_sources() {
  local f
  for f in "$APT_STATE_DIR"/sources.list.d/*; do
    [[ -f $f ]] || continue
    case $f in
      *.sources) sed -i -E 's/^([[:space:]]*Types:[[:space:]]*)deb[[:space:]]*$/\1deb deb-src/' "$f" ;;
      *.list) sed -i -nE 's/^[[:space:]]*deb[[:space:]]+(.*)$/deb \1\ndeb-src \1/p' "$f" ;;
    esac
  done
}

# apt_state_update: downloads the package lists into the private state.
apt_state_update() {
  local log
  if ! log=$(apt-get "${APT_OPTS[@]}" -q update 2>&1); then
    echo "apt-get update failed (private state, architecture $APT_ARCH, $(apt_state_describe_sources)):" >&2
    echo "$log" | tail -n 5 >&2
    return 1
  fi
  if grep -qE '^(W|E): (Failed to fetch|.*is not signed|.*does not have a Release file)' <<<"$log"; then
    echo "apt-get update could not use every source ($(apt_state_describe_sources)):" >&2
    grep -E '^(W|E):' <<<"$log" >&2
    return 1
  fi
}

# apt_state_spec NAME ARCH: how apt names binary package NAME of ARCH (`all`: by name alone).
apt_state_spec() { if [[ $2 == all ]]; then echo "$1"; else echo "$1:$2"; fi; }

# apt_state_served_version NAME ARCH: the version of binary package NAME (ARCH, or `all`) that
# the sources serve now (apt's candidate: the newest); empty when none is served.
apt_state_served_version() {
  apt-cache "${APT_OPTS[@]}" policy "$(apt_state_spec "$1" "$2")" 2>/dev/null |
    awk '/^  Candidate:/ { if ($2 != "(none)") print $2; exit }'
}

# apt_state_is_served NAME ARCH VERSION: whether the sources serve exactly that version.
apt_state_is_served() {
  [[ -n $(apt-cache "${APT_OPTS[@]}" show "$(apt_state_spec "$1" "$2")=$3" 2>/dev/null) ]]
}

# apt_state_index_row NAME ARCH VERSION: "name version arch sha256 file" of that binary package
# as the (signed) index lists it.
apt_state_index_row() {
  apt-cache "${APT_OPTS[@]}" show "$(apt_state_spec "$1" "$2")=$3" 2>/dev/null | awk '
    /^Package:/ { name = $2 } /^Version:/ { ver = $2 } /^Architecture:/ { a = $2 }
    /^SHA256:/ { sha = $2 } /^Filename:/ { n = split($2, p, "/"); file = p[n] }
    /^$/ { exit }
    END { if (name != "") printf "%s\t%s\t%s\t%s\t%s\n", name, ver, a, sha, file }'
}

# apt_state_source_rows NAME: "name version source sha256 file" for every version of source
# package NAME the sources serve (deb-src), newest first: its upstream tarball (.orig.tar.*),
# or the whole tarball of a native package.
apt_state_source_rows() {
  apt-cache "${APT_OPTS[@]}" showsrc "$1" 2>/dev/null | awk -v name="$1" '
    function flush() {
      if (pkg == name && file != "") printf "%s\t%s\tsource\t%s\t%s\n", name, ver, sha, file
      pkg = ""; ver = ""; file = ""; sha = ""; in_sums = 0
    }
    /^$/ { flush(); next }
    /^Package:/ { pkg = $2 }
    /^Version:/ { ver = $2 }
    /^[A-Za-z0-9-]+:/ { in_sums = ($1 == "Checksums-Sha256:"); next }
    in_sums && $3 ~ /\.orig\.tar\./ { sha = $1; file = $3 }
    in_sums && file == "" && $3 ~ /\.tar\./ && $3 !~ /\.debian\.tar\./ { sha = $1; file = $3 }
    END { flush() }' | sort -t$'\t' -k2,2 -u | apt_state_sort_rows_newest_first
}

# Rows on stdin ordered by their version (field 2), newest first (Debian version order).
apt_state_sort_rows_newest_first() {
  local rows=() row i j
  while IFS= read -r row; do [[ -n $row ]] && rows+=("$row"); done
  for ((i = 1; i < ${#rows[@]}; i++)); do
    row=${rows[i]}
    for ((j = i - 1; j >= 0; j--)); do
      dpkg --compare-versions "$(cut -f2 <<<"${rows[j]}")" lt "$(cut -f2 <<<"$row")" || break
      rows[j + 1]=${rows[j]}
    done
    rows[j + 1]=$row
  done
  ((${#rows[@]} == 0)) || printf '%s\n' "${rows[@]}"
}
