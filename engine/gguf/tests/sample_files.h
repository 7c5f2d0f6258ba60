// Small GGUF files the tests and the fuzzer's seeds share, written by GgufWriter.
#ifndef TCPU_ENGINE_GGUF_TESTS_SAMPLE_FILES_H_
#define TCPU_ENGINE_GGUF_TESTS_SAMPLE_FILES_H_

#include <cstdint>
#include <vector>

#include "engine/gguf/gguf_writer.h"

namespace tcpu::gguf::testing {

// `bytes` deterministic pseudo-random bytes (a fixed linear congruential sequence).
std::vector<uint8_t> PatternBytes(size_t bytes, uint32_t seed);

// A Llama-like file: a few keys (string, uint32, float32, a string array, an int32 array)
// and two tensors (F32 then Q8_0), the last one ending at the end of the file.
GgufWriter SmallModelWriter(uint32_t alignment = 32);

// One entry of every value type, arrays of every element type, arrays of arrays, and one
// tensor of each of F32, F16, BF16, Q8_0, Q4_0, Q4_K and Q6_K.
GgufWriter EveryTypeWriter(uint32_t alignment = 32);
// A MiniCPM file shaped like llama.cpp's Q4_K_M, cut down: the config keys with muP's scales and
// LongRoPE (its factors as F32 tensors), and a few small tensors by llama.cpp's names (not of
// the config's shapes) in Q4_K, Q5_K, Q6_K and F32, of pattern bytes (so their fp16 scales may
// be anything, NaN included).
GgufWriter KQuantModelWriter();

}  // namespace tcpu::gguf::testing

#endif  // TCPU_ENGINE_GGUF_TESTS_SAMPLE_FILES_H_
