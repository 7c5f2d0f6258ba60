#!/usr/bin/env bash
# The committed corpora are make_corpus.py's output: regenerated here from the same kernels and
# seed, good/ and broken/ must be the same bytes (`bazel run :make_corpus` rewrites them).
# Usage: corpus_up_to_date_test.sh PYTHON3 MAKE_CORPUS.py
set -euo pipefail
python3="$1"
make_corpus="$2"
out="${TEST_TMPDIR:-$(mktemp -d)}/corpora"
"$python3" -I -S "$make_corpus" --root . --out "$out" >/dev/null
status=0
for corpus in good broken; do
  for file in manifest.json corpus.tar.xz; do
    if ! cmp -s "$out/$corpus/$file" "tests/triton_replay/synthetic/$corpus/$file"; then
      echo "FAIL: tests/triton_replay/synthetic/$corpus/$file is not what make_corpus.py writes;" \
        "run: bazel run //tests/triton_replay/synthetic:make_corpus"
      status=1
    fi
  done
done
[[ $status -eq 0 ]] && echo "PASS: good/ and broken/ are make_corpus.py's output"
exit "$status"
