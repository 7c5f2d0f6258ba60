#!/usr/bin/env bash
# Runs Debian's node (the launcher @nodejs//:bin/node, first argument) with the remaining
# arguments. Debian builds node with some of its JavaScript builtins (cjs-module-lexer,
# undici, acorn) read at start-up from fixed /usr/share/nodejs paths, which the pinned tree
# holds but the host need not. So node runs in a private user and mount namespace whose
# /usr/share is the tree's own; nothing outside the process sees it.
set -euo pipefail
launcher=$1
shift
root=$(cd "$(dirname "$(readlink -f "$launcher")")/.." && pwd)
share="$root/usr/share"
exec unshare --user --map-root-user --mount bash -c '
  set -e
  mount --bind "$1" /usr/share
  launcher=$2
  shift 2
  exec "$launcher" "$@"' run_node "$share" "$launcher" "$@"
