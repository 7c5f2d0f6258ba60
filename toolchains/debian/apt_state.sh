# Sourced by materialize.sh and //tools/lock: a private apt state (own lists, cache and an
# empty dpkg status) so packages of any architecture are resolved and downloaded without
# root, without `dpkg --add-architecture`, and without touching the host's apt state.
# The sources are the host's own apt sources; nothing here names a mirror.

# apt_state_init DIR ARCH: prepares DIR and sets APT_OPTS for ARCH (e.g. amd64, arm64).
apt_state_init() {
  local dir=$1 arch=$2
  APT_ARCH=$arch
  APT_STATE_DIR=$dir
  mkdir -p "$dir/lists/partial" "$dir/cache/archives/partial"
  : >"$dir/status"
  APT_OPTS=(
    -o "Dir::State::Lists=$dir/lists"
    -o "Dir::Cache=$dir/cache"
    -o "Dir::State::status=$dir/status"
    -o "APT::Architecture=$arch"
    -o "APT::Architectures=$arch"
    -o "Debug::NoLocking=1"
    -o "APT::Get::AllowUnauthenticated=false"
    -o "Acquire::Retries=3"
  )
}

# apt_state_enable_sources: adds deb-src entries for the host's own apt sources to the
# private state, so `apt-get source` and `apt-cache showsrc` work (for source packages).
apt_state_enable_sources() {
  local dir=$APT_STATE_DIR
  mkdir -p "$dir/sources.list.d"
  local f
  for f in /etc/apt/sources.list.d/*.sources; do
    [[ -f $f ]] || continue
    sed -E 's/^Types:[[:space:]]*deb[[:space:]]*$/Types: deb deb-src/' "$f" >"$dir/sources.list.d/${f##*/}"
  done
  for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
    [[ -f $f ]] || continue
    sed -nE 's/^[[:space:]]*deb[[:space:]]+(.*)$/deb \1\ndeb-src \1/p' "$f" >"$dir/sources.list.d/${f##*/}.list"
  done
  APT_OPTS+=(
    -o "Dir::Etc::SourceParts=$dir/sources.list.d"
    -o "Dir::Etc::SourceList=/dev/null"
  )
}

# apt_state_update: downloads the package lists into the private state.
apt_state_update() {
  local log
  if ! log=$(apt-get "${APT_OPTS[@]}" -q update 2>&1); then
    echo "apt-get update failed (private state, architecture $APT_ARCH):" >&2
    echo "$log" | tail -n 5 >&2
    return 1
  fi
  if grep -qE '^(W|E): Failed to fetch' <<<"$log"; then
    echo "apt-get update could not reach every source:" >&2
    grep -E '^(W|E):' <<<"$log" >&2
    return 1
  fi
}
