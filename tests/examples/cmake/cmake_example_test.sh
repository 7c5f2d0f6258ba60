#!/usr/bin/env bash
# Builds tests/examples/cmake as a CMake user would: the SDK bundle unpacked, the toolchain
# file of //toolchains/cmake:export, CMake and Ninja from pinned Debian packages; then ctest
# runs its programs, static and shared, through qemu-aarch64 (the toolchain's
# CMAKE_CROSSCOMPILING_EMULATOR). generate_text's expected text is the host reference
# decoder's greedy ids for the same prompt (tokenized as the session does, BOS added), decoded
# by the host tcpu-tokenize with special tokens skipped.
#
#   cmake_example_test.sh BUNDLE EXPORT CMAKE CTEST NINJA SOURCE_DIR \
#       MODEL_CONFIG_JSON TOKENIZER_JSON REFERENCE_DECODER TCPU_TOKENIZE
set -euo pipefail

absolute() { [[ $1 == /* ]] && echo "$1" || echo "$PWD/$1"; }
bundle=$(absolute "$1") export_tool=$(absolute "$2") cmake=$(absolute "$3")
ctest=$(absolute "$4") ninja=$(absolute "$5") source=$(absolute "$6")
model=$(dirname "$(absolute "$7")") tokenizer=$(dirname "$(absolute "$8")")
reference_decoder=$(absolute "$9") tokenize=$(absolute "${10}")
work=${TEST_TMPDIR:?}/cmake_example
rm -rf "$work" && mkdir -p "$work/sdk" "$work/src"

prompt="Once upon a time, in a small town by the sea,"
new_tokens=6
prompt_ids=$(printf '%s' "$prompt" | "$tokenize" --tokenizer "$tokenizer" --add-special-tokens)
reference_ids=$("$reference_decoder" --model "$model" --prompt-ids "$prompt_ids" \
    --max-new-tokens "$new_tokens")
printf '%s' "$reference_ids" | "$tokenize" --tokenizer "$tokenizer" --decode \
    --skip-special-tokens > "$work/expected.txt"
echo "reference: ids $reference_ids, text '$(cat "$work/expected.txt")'"

tar -xzf "$bundle" -C "$work/sdk"
prefix=("$work"/sdk/tcpu-sdk-*-aarch64)
"$export_tool" "$work/toolchain" --variant vl256 --link
cp -L "$source"/CMakeLists.txt "$source"/*.c "$work/src/"

"$cmake" -G Ninja -S "$work/src" -B "$work/build" \
    -DCMAKE_MAKE_PROGRAM="$ninja" \
    -DCMAKE_TOOLCHAIN_FILE="$work/toolchain/tcpu-aarch64.cmake" \
    -Dtcpu_DIR="${prefix[0]}/lib/cmake/tcpu" \
    -DCMAKE_BUILD_TYPE=Release \
    -DTCPU_EXAMPLE_MODEL="$model" -DTCPU_EXAMPLE_TOKENIZER="$tokenizer" \
    -DTCPU_EXAMPLE_PROMPT="$prompt" -DTCPU_EXAMPLE_NEW_TOKENS="$new_tokens" \
    -DTCPU_EXAMPLE_EXPECTED="$work/expected.txt"
"$cmake" --build "$work/build"

# Every program CMake chose (archivers incl. the IPO ones, linker, binutils: its FILEPATH cache
# entries) is the exported toolchain's, none from the host; Ninja is the one given above.
toolchain=$work/toolchain
programs=$(grep -E '^CMAKE_[A-Z0-9_]*:FILEPATH=' "$work/build/CMakeCache.txt" \
    | grep -v '^CMAKE_MAKE_PROGRAM:')
for name in CMAKE_AR CMAKE_RANLIB CMAKE_C_COMPILER_AR CMAKE_CXX_COMPILER_AR \
    CMAKE_C_COMPILER_RANLIB CMAKE_CXX_COMPILER_RANLIB CMAKE_LINKER CMAKE_NM CMAKE_STRIP; do
  grep -q "^$name:" <<<"$programs" || { echo "FAIL: CMakeCache.txt has no $name"; exit 1; }
done
while IFS='=' read -r key value; do
  [[ -z $value || $value == *-NOTFOUND || $value == "$toolchain"/* ]] \
      || { echo "FAIL: $key is $value, not a tool of the exported toolchain ($toolchain)"; exit 1; }
done <<<"$programs"

# The programs are aarch64: they can only have run through the emulator.
for program in rms_norm_check rms_norm_check_shared generate_text generate_text_shared; do
  machine=$(od -An -tu2 -j18 -N2 "$work/build/$program" | tr -d ' ')
  [[ $machine == 183 ]] || { echo "FAIL: $program is not aarch64 (e_machine $machine)"; exit 1; }
done

(cd "$work/build" && "$ctest" --output-on-failure -V) | tee "$work/ctest.log"
grep -q "100% tests passed, 0 tests failed out of 4" "$work/ctest.log" \
    || { echo "FAIL: ctest did not run and pass all four tests"; exit 1; }
grep -q "qemu-aarch64" "$work/build/CTestTestfile.cmake" \
    || { echo "FAIL: ctest did not run the tests through qemu"; exit 1; }
echo PASS
