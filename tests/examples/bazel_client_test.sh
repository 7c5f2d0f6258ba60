#!/usr/bin/env bash
# Runs `bazel test //...` in tests/examples/bazel_client, a separate workspace that uses this
# checkout as @tcpu_sdk exactly as the README tells other projects to. Bazel inside a test:
# its own output root under TEST_TMPDIR (a fresh output base, shut down with the test), the
# user's .deb cache for the pinned packages (only read: they are all there after the outer
# build) and the shared disk cache, so a second run only replays cached actions. The client's
# kernel is compiled by this build's tcpu-compile (argument 1), handed over as a prebuilt tool:
# a repository of its own and --@tcpu_sdk//dialect:tcpu_compile_tool.
# Tagged local (it reads the source tree the runfiles point at) and requires-bazel.
set -euo pipefail

compiler=$(readlink -f "${1:?usage: bazel_client_test.sh TCPU_COMPILE}")
[[ -x $compiler ]] || { echo "FAIL: no tcpu-compile at $1"; exit 1; }
tools=$TEST_TMPDIR/prebuilt_tools
mkdir -p "$tools/bin"
cp "$compiler" "$tools/bin/tcpu-compile"
echo 'workspace(name = "prebuilt_tools")' >"$tools/WORKSPACE"
cat >"$tools/BUILD.bazel" <<'BUILD'
sh_binary(
    name = "tcpu-compile",
    srcs = ["bin/tcpu-compile"],
    visibility = ["//visibility:public"],
)
BUILD

sdk=$(dirname "$(readlink -f "$TEST_SRCDIR/tcpu_sdk/README.md")")
client=$sdk/tests/examples/bazel_client
[[ -f $client/WORKSPACE ]] || { echo "FAIL: no client workspace at $client"; exit 1; }
bazel=$(command -v bazel) || { echo "FAIL: bazel is not on PATH ($PATH)"; exit 1; }

# Bazel gives tests HOME=TEST_TMPDIR; the caches live in the real user's home.
user_home=$(getent passwd "$(id -u)" | cut -d: -f6)
cache=${TCPU_SHARED_CACHE:-$user_home/.cache/tcpu-sdk}
export TCPU_DEB_CACHE=$cache/debs
# The pin policy and package sources of the outer build (TCPU_STRICT_LOCK, TCPU_APT_SOURCES,
# TCPU_DEB_DIR: .bazelrc passes them to tests) reach the inner Bazel's repository rules as they
# are, through the environment.
for var in TCPU_STRICT_LOCK TCPU_APT_SOURCES TCPU_DEB_DIR; do
  [[ -z ${!var:-} ]] || echo "inner Bazel: $var=${!var}"
done

log=$TEST_TMPDIR/client.log
start=$(date +%s)
status=0
(cd "$client" && "$bazel" --batch --output_user_root="$TEST_TMPDIR/bazel_root" \
    test //... --announce_rc --symlink_prefix=/ \
    --override_repository=prebuilt_tools="$tools" \
    --@tcpu_sdk//dialect:tcpu_compile_tool=@prebuilt_tools//:tcpu-compile \
    --disk_cache="$cache/disk" --repository_cache="$TEST_TMPDIR/repository_cache" \
    --jobs=2 --local_test_jobs=1) >"$log" 2>&1 || status=$?
echo "client workspace: bazel test //... exited $status after $(($(date +%s) - start)) s"
if ((status != 0)); then
  tail -n 60 "$log"
  exit 1
fi

grep -E "PASSED|cached" "$log" || true
for variant in vl128 vl512 vl2048; do
  grep -Eq "//:sve_client_test_$variant +(\(cached\) )?PASSED" "$log" \
      || { echo "FAIL: sve_client_test_$variant did not pass"; tail -n 40 "$log"; exit 1; }
done
# The prebuilt compiler was used: nothing of MLIR or the dialect was compiled.
if find "$TEST_TMPDIR/bazel_root" -path '*/bin/external/tcpu_sdk/dialect/_objs' | grep -q .; then
  echo "FAIL: the client compiled the dialect instead of using the prebuilt tcpu-compile"
  exit 1
fi
grep -q -- "--nosandbox_debug" "$log" \
    || { echo "FAIL: the client's .bazelrc does not turn off --sandbox_debug"; exit 1; }
echo PASS
