#!/usr/bin/env bash
# shard.py check in the source tree: for N = 1..8 the shards of `bazel query 'tests(//...)'`
# cover the suite exactly once, do not depend on the query's order, and stay balanced.
# Bazel runs inside the test (its own output root under TEST_TMPDIR): tagged local and
# requires-bazel.
set -euo pipefail
python=$PWD/$1 shard=$PWD/$2
sdk=$(dirname "$(readlink -f "$TEST_SRCDIR/tcpu_sdk/README.md")")
cat >"$TEST_TMPDIR/bazel" <<WRAP
#!/usr/bin/env bash
exec $(command -v bazel) --batch --output_user_root="$TEST_TMPDIR/bazel_root" "\$@"
WRAP
chmod +x "$TEST_TMPDIR/bazel"
cd "$sdk"
BAZEL=$TEST_TMPDIR/bazel BUILD_WORKSPACE_DIRECTORY=$sdk "$python" "$shard" check --max-shards 8
