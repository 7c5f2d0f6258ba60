// Test data: a simple, correct encoder of ggml's k-quant super-blocks (Q4_K, Q5_K, Q6_K; the
// layouts of engine/model/gguf_kquants.h), written from the format's definition. Not
// llama.cpp's optimising quantizer: each sub-block's min and scale are rounded up so that its
// values fit the integer range, then every weight is rounded to the nearest step.
#ifndef TCPU_ENGINE_MODEL_TESTS_KQUANT_ENCODER_H_
#define TCPU_ENGINE_MODEL_TESTS_KQUANT_ENCODER_H_

#include <cstdint>
#include <vector>

#include "engine/gguf/gguf_types.h"

namespace tcpu::testing {

// Appends one super-block of `type` (Q4_K, Q5_K or Q6_K; nothing is encoded for another type)
// holding x[0..255] to *out, and writes to values[0..255] the numbers it holds, computed here
// from the chosen factors and integers as the format defines them (d * sc * q - dmin * m in
// double rounded once to fp32, or d * sc * (q - 32)). Inputs must be finite and small enough
// for fp16 factors (|x| < 60000).
// Error bound: per weight of a sub-block whose values span [min(0, lo), hi], at most half a
// step, the step being below (hi - min(0, lo) + dmin) / L + d for Q4_K (L = 15) and Q5_K
// (L = 31), and below max|x| / 31 + d for Q6_K (d and dmin: the super-block's fp16 factors).
void EncodeKQuantBlock(gguf::TensorType type, const float* x, std::vector<uint8_t>* out,
                       float* values);

}  // namespace tcpu::testing

#endif  // TCPU_ENGINE_MODEL_TESTS_KQUANT_ENCODER_H_
