// A plain scalar decoder of the same model, written from the math, not from the kernels: it
// is what tcpu-decode is checked against. It reads the checkpoint through the same strict
// loader (engine/model), quantizes weights and activations with the documented W8A8 rules
// (tcpu/gemv.h; the int8 values and scales are defined bit for bit) or W4A8 rules
// (tcpu/gemv_q4.h: groups of 32, fp32 group sums in order; a GGUF Q8_0 matrix with int8
// weights keeps its own q and d in those groups, tcpu/gemv_q8.h), stores activations as
// bf16 at the same points as the fused kernels, and computes everything else (norms, RoPE,
// softmax, SiLU, logits) in float64. The families' extras are applied where transformers
// applies them: q/k/v (o) biases on the dequantized fp32 sum before its bf16 rounding, the
// scaled RoPE frequencies of rope_scaling, MiniCPM's muP scales (embeddings, residual branches,
// the final normed hidden state), each scalar op rounded as the engine's C ABI defines it.
#ifndef TCPU_TOOLS_REFERENCE_DECODER_REFERENCE_DECODER_H_
#define TCPU_TOOLS_REFERENCE_DECODER_REFERENCE_DECODER_H_

#include <cstdint>
#include <string>
#include <vector>

#include "engine/model/checkpoint.h"

namespace tcpu::reference {

class ReferenceDecoder {
 public:
  // Loads `dir` with int8 (W8A8) or int4 (W4A8, `int4`) linear weights; false with *error.
  // With int8, a GGUF Q8_0 matrix keeps the file's q and d in groups of 32 (tcpu/gemv_q8.h).
  bool Load(const std::string& dir, int64_t max_tokens, bool int4, std::string* error);

  // Feeds `token` at the next position; fills logits (float64, vocab_size) and returns the
  // greedy token (first index of the maximum).
  int32_t Step(int32_t token, std::vector<double>* logits);

  int64_t vocab_size() const { return config_.vocab_size; }

 private:
  struct Linear {
    int64_t n = 0, k = 0;
    int64_t groups = 0;         // int4, Q8_0: groups of 32 along k per row; 0 for int8
    std::vector<int8_t> q;      // [n, k]
    std::vector<float> scales;  // int8: [n]; int4, Q8_0: [n, groups]
    std::vector<float> bias;    // [n] or empty
  };
  struct Layer {
    std::vector<uint16_t> input_norm, post_norm, q_norm, k_norm;
    Linear q, k, v, o, gate, up, down;
    std::vector<uint16_t> k_cache, v_cache;  // [kv_heads, max_tokens, head_dim]
  };
  bool LoadBf16(const std::string& name, const std::vector<int64_t>& shape,
                std::vector<uint16_t>* out, std::string* error);
  bool LoadLinear(const std::string& name, int64_t n, int64_t k, Linear* out, std::string* error);
  // Row i's dequantized fp32 sum on x (before any bias and bf16 rounding).
  float Sum(const Linear& w, int64_t i, const std::vector<int8_t>& x, float x_scale) const;
  bool LoadBias(const std::string& name, Linear* out, std::string* error);
  std::vector<uint16_t> Gemv(const Linear& w, const std::vector<uint16_t>& x) const;
  std::vector<uint16_t> RmsNorm(const uint16_t* x, const uint16_t* w, int64_t d) const;

  model::Checkpoint checkpoint_;
  model::ModelConfig config_;
  std::vector<uint16_t> embed_, final_norm_;
  Linear lm_head_;
  std::vector<Layer> layers_;
  int64_t max_tokens_ = 0;
  int64_t position_ = 0;
  bool int4_ = false;
};

}  // namespace tcpu::reference

#endif  // TCPU_TOOLS_REFERENCE_DECODER_REFERENCE_DECODER_H_
