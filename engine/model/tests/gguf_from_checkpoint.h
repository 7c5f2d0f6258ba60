// Test data: a generated Hugging Face checkpoint (//tools/checkpoint) rewritten as a GGUF file
// the way llama.cpp's convert_hf_to_gguf.py lays one out, written with the test-only GGUF
// writer: llama.cpp's tensor names, metadata keys and dims order, 1-D tensors (norms,
// biases) as F32, Llama's q/k rows permuted for interleaved RoPE, an untied lm_head as
// `output.weight` (none when tied), MiniCPM's muP scales and LongRoPE factors. Matrices keep
// the checkpoint's dtype unless asked for another type; Q8_0 and Q4_0 are quantized here from
// the format's definition, Q4_K, Q5_K and Q6_K by kquant_encoder.h.
#ifndef TCPU_ENGINE_MODEL_TESTS_GGUF_FROM_CHECKPOINT_H_
#define TCPU_ENGINE_MODEL_TESTS_GGUF_FROM_CHECKPOINT_H_

#include <cstdint>
#include <optional>
#include <string>

#include "engine/gguf/gguf_types.h"

namespace tcpu::testing {

struct GgufExport {
  // The type of every 2-D tensor (embeddings and linear layers): F32, F16, BF16, Q8_0, Q4_0,
  // Q4_K, Q5_K or Q6_K (k-quants need rows of a multiple of 256); the checkpoint's own dtype
  // when unset.
  std::optional<gguf::TensorType> matrix_type;
  // The mix of llama.cpp's Q4_K_M / Q5_K_M files: `output.weight` and every `attn_v` and
  // `ffn_down` as Q6_K, the other matrices as matrix_type.
  bool k_quant_mix = false;
  // Block types only: write the values the blocks hold (d x q ...) as F32 instead of the
  // blocks, the same numbers in a float type.
  bool dequantized_as_f32 = false;
  // Q4_0 only: every d truncated to 5 significant bits (toward zero, so the group's largest
  // magnitude still maps to -8), which makes every d x q a bf16 number. A file of those values
  // then reaches the int4 quantizer unrounded (the loader converts matrices to bf16) and
  // quantizes back to exactly these d and q: the same numbers on both paths.
  bool q4_0_bf16_exact = false;
  // A tokenizer.json whose tokenizer the file carries (gguf_from_tokenizer_json.h, as gpt2
  // with `tokenizer_pre`); by default placeholder tokens "<tN>" give the vocabulary size.
  std::string tokenizer_json;
  std::string tokenizer_pre = "qwen2";
};

// Reads checkpoint directory `dir` (config.json, *.safetensors) and writes `path`. False
// with *error saying what failed.
bool WriteGgufFromCheckpoint(const std::string& dir, const std::string& path,
                             const GgufExport& options, std::string* error);

}  // namespace tcpu::testing

#endif  // TCPU_ENGINE_MODEL_TESTS_GGUF_FROM_CHECKPOINT_H_
