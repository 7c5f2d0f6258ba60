#!/usr/bin/env bash
# End-to-end test of the shared remote cache (--config=remote_cache) against a real nginx
# (pinned Debian package) with WebDAV PUT on a loopback port:
#   1. clone A (fresh clone, fresh output base, no disk cache) builds and runs one QEMU test
#      (the RMSNorm kernels' in one variant: the runtime core, the kernels, the test, all for
#      aarch64) and uploads to nginx;
#   2. clone B at another path, with another fresh output base, does the same: >= 99% of its
#      actions must be remote-cache hits and the test result must come from the cache;
#   3. stored blobs are corrupted (one truncated, one overwritten) and clone B builds again
#      after `bazel clean` (run "c"): Bazel must notice (digest mismatch), execute those
#      actions, and still pass.
# Bazel runs inside the test, so it is tagged local and requires-bazel (skip with
# --test_tag_filters=-requires-bazel). Clones are of the committed HEAD.
#
#   remote_cache_e2e_test.sh NGINX
set -euo pipefail

nginx=$(readlink -f "$1")
sdk=$(dirname "$(readlink -f "$TEST_SRCDIR/tcpu_sdk/README.md")")
bazel=$(command -v bazel) || { echo "FAIL: bazel is not on PATH"; exit 1; }
user_home=$(getent passwd "$(id -u)" | cut -d: -f6)
export TCPU_DEB_CACHE=${TCPU_SHARED_CACHE:-$user_home/.cache/tcpu-sdk}/debs
# The pin policy and package sources of the outer build (TCPU_STRICT_LOCK, TCPU_APT_SOURCES,
# TCPU_DEB_DIR: .bazelrc passes them to tests) reach the inner Bazel's repository rules as they
# are, through the environment.
for var in TCPU_STRICT_LOCK TCPU_APT_SOURCES TCPU_DEB_DIR; do
  [[ -z ${!var:-} ]] || echo "inner Bazel: $var=${!var}"
done
work=$TEST_TMPDIR/remote_cache
rm -rf "$work" && mkdir -p "$work/nginx/store/cache" "$work/nginx/tmp"

# Only the test: building //runtime:core and //kernels/rms_norm as well compiled them once more
# for x86-64, doubling what each clone builds for no case the aarch64 build does not cover.
SLICE_TEST=//kernels/rms_norm:rms_norm_test_vl256

# --- nginx on a free loopback port ---------------------------------------------------------
start_nginx() {
  local port=$1
  cat >"$work/nginx/nginx.conf" <<CONF
user $(id -un) $(id -gn);
worker_processes 1;
pid $work/nginx/nginx.pid;
error_log $work/nginx/error.log warn;
events { worker_connections 256; }
http {
  access_log $work/nginx/access.log;
  client_body_temp_path $work/nginx/tmp/body;
  proxy_temp_path $work/nginx/tmp/proxy;
  fastcgi_temp_path $work/nginx/tmp/fastcgi;
  uwsgi_temp_path $work/nginx/tmp/uwsgi;
  scgi_temp_path $work/nginx/tmp/scgi;
  server {
    listen 127.0.0.1:$port;
    client_max_body_size 0;
    location /cache/ {
      root $work/nginx/store;
      dav_methods PUT;
      create_full_put_path on;
      dav_access user:rw group:r all:r;
    }
  }
}
CONF
  "$nginx" -p "$work/nginx" -e "$work/nginx/error.log" -c "$work/nginx/nginx.conf"
}
port=""
for attempt in 1 2 3 4 5 6 7 8; do
  candidate=$((20000 + (RANDOM * 7 + attempt) % 40000))
  if start_nginx "$candidate" 2>>"$work/nginx/start.log"; then port=$candidate; break; fi
done
[[ -n $port ]] || { echo "FAIL: nginx did not start"; cat "$work/nginx/start.log"; exit 1; }
trap 'kill "$(cat "$work/nginx/nginx.pid" 2>/dev/null)" 2>/dev/null || true' EXIT
endpoint=http://127.0.0.1:$port/cache

# --- one clone's build and test --------------------------------------------------------------
build_in_clone() {  # build_in_clone NAME [CLONE]: build and test in a fresh clone of HEAD
  # ($work/NAME-src), or again in CLONE's tree after `bazel clean` (no outputs, no action
  # cache; the external repositories stay extracted).
  local name=$1 src=$work/$1-src/tcpu-sdk root=$work/$1-root
  if [[ -n ${2:-} ]]; then
    src=$work/$2-src/tcpu-sdk root=$work/$2-root
    (cd "$src" && "$bazel" --batch --output_user_root="$root" clean) >"$work/$name-clean.log" 2>&1
  else
    git clone --quiet "$sdk" "$src"
  fi
  local start=$(date +%s) status=0
  (cd "$src" && "$bazel" --batch --output_user_root="$root" \
      test --config=remote_cache --remote_cache="$endpoint" --disk_cache= \
      --jobs=2 --local_test_jobs=1 --symlink_prefix=/ \
      "$SLICE_TEST") >"$work/$name.log" 2>&1 \
      || status=$?
  local seconds=$(($(date +%s) - start))
  echo "$name: exit $status after $seconds s; $(grep -E '^INFO: [0-9]+ processes' "$work/$name.log" || echo 'no process summary')"
  if ((status != 0)); then tail -n 40 "$work/$name.log"; return 1; fi
}

# "INFO: 312 processes: 300 remote cache hit, 12 internal." -> hits and cacheable processes.
hit_ratio() {
  local line total hits internal
  line=$(grep -E '^INFO: [0-9]+ processes' "$1" | tail -n 1)
  total=$(sed -E 's/^INFO: ([0-9]+) processes.*/\1/' <<<"$line")
  hits=$(grep -oE '[0-9]+ remote cache hit' <<<"$line" | cut -d' ' -f1)
  internal=$(grep -oE '[0-9]+ internal' <<<"$line" | cut -d' ' -f1)
  echo "${hits:-0} $((total - ${internal:-0}))"
}

build_in_clone a
uploaded=$(find "$work/nginx/store/cache" -type f | wc -l)
echo "after clone a: $uploaded blobs in the cache"
((uploaded > 0)) || { echo "FAIL: nothing was uploaded"; exit 1; }

build_in_clone b
read -r hits cacheable < <(hit_ratio "$work/b.log")
echo "clone b: $hits of $cacheable cacheable actions were remote-cache hits"
((cacheable > 0 && hits * 100 >= cacheable * 99)) \
    || { echo "FAIL: fewer than 99% remote-cache hits in clone b"; exit 1; }
grep -Eq "$SLICE_TEST +\(cached\) PASSED" "$work/b.log" \
    || { echo "FAIL: clone b's test result was not taken from the cache"; grep -E "PASSED|FAILED" "$work/b.log"; exit 1; }

# --- corrupted entries: truncate the biggest CAS blob, overwrite the second biggest ------------
mapfile -t blobs < <(find "$work/nginx/store/cache/cas" -type f -printf '%s %p\n' | sort -rn | head -n 2 | cut -d' ' -f2)
((${#blobs[@]} == 2)) || { echo "FAIL: expected CAS blobs in the store"; exit 1; }
truncate -s $(($(stat -c %s "${blobs[0]}") / 2)) "${blobs[0]}"
size=$(stat -c %s "${blobs[1]}")
head -c "$size" /dev/zero | tr '\0' 'x' >"${blobs[1]}"
echo "corrupted: ${blobs[0]##*/} (truncated), ${blobs[1]##*/} (overwritten, $size bytes)"

build_in_clone c b
read -r hits cacheable < <(hit_ratio "$work/c.log")
echo "run c (clone b after bazel clean): $hits of $cacheable cacheable actions were remote-cache hits"
((hits < cacheable)) || { echo "FAIL: corrupted blobs were accepted as hits"; exit 1; }
grep -Eq "$SLICE_TEST +(\(cached\) )?PASSED" "$work/c.log" \
    || { echo "FAIL: run c's test did not pass"; exit 1; }
echo PASS
