// A loaded model: the checkpoint's linear weights quantized once, per output channel
// (int8, absmax/127) or per group of 32 along k (int4, tcpu/gemv_q4.h), and packed — or, from a
// pre-quantized checkpoint, mapped as stored; norms and embeddings as bf16, arranged as the
// tcpu_model_weights the decode step runs. Keeps the checkpoint mapped while it points into it.
#ifndef TCPU_ENGINE_MODEL_MODEL_H_
#define TCPU_ENGINE_MODEL_MODEL_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "engine/model/checkpoint.h"
#include "engine/model/weight_format.h"
#include "tcpu/transformer.h"

namespace tcpu::model {

// The C ABI's TCPU_WEIGHTS_* value `weights` (argument `argument` of `fn`) as a WeightFormat;
// TCPU_ERR_INVALID_ARGUMENT naming the argument for any other value.
int WeightFormatFromC(const char* fn, const char* argument, int32_t weights, WeightFormat* format);

// 64-byte aligned bytes (packed weights, bf16 copies).
class AlignedBuffer {
 public:
  AlignedBuffer() = default;
  AlignedBuffer(AlignedBuffer&& other) noexcept;
  AlignedBuffer& operator=(AlignedBuffer&& other) noexcept;
  AlignedBuffer(const AlignedBuffer&) = delete;
  AlignedBuffer& operator=(const AlignedBuffer&) = delete;
  ~AlignedBuffer();
  bool Allocate(int64_t bytes);  // false if out of memory
  uint8_t* data() const { return data_; }
  int64_t size() const { return size_; }

 private:
  uint8_t* data_ = nullptr;
  int64_t size_ = 0;
};

// TCPU_ERR_INVALID_MODEL, the last error's detail (a kernel's) prefixed with tensor `name`.
int FailForTensor(const std::string& name);

class Model {
 public:
  // Loads `dir`; returns a tcpu_status with the detail set (TCPU_ERR_IO for files that cannot
  // be read, TCPU_ERR_INVALID_MODEL for bad content, naming file, tensor and problem).
  static int Load(const std::string& dir, WeightFormat format, std::unique_ptr<Model>* model);

  const ModelConfig& config() const { return checkpoint_.config(); }
  const tcpu_model_weights& weights() const { return weights_; }
  // Bytes of weights one decode step reads: every packed matrix with its scales, the norms
  // and one embedding row.
  int64_t weight_bytes_per_token() const { return bytes_per_token_; }

  // A tensor as the model holds it, under the name a pre-quantized checkpoint stores it by
  // (prequantized_format.h): packed matrices as U8 (the lm_head as "lm_head.weight" even when
  // tied), int8 scales and biases as F32, norms and the embedding table as BF16.
  struct HeldTensor {
    std::string name;
    DType dtype;
    std::vector<int64_t> shape;
    const void* data;
    int64_t bytes;
  };
  // Every tensor the decode step reads, in load order; valid while the model lives.
  const std::vector<HeldTensor>& held_tensors() const { return held_; }

 private:
  struct Linear {
    AlignedBuffer packed;
    std::vector<float> scales;  // int8 only (int4 and block-Q8 pack their scales)
  };
  int Build(const std::string& dir);
  int QuantizeInt8(const std::string& name, const uint16_t* w, int64_t n, int64_t k,
                   Linear* linear);
  // A GGUF Q4_0 tensor packed as it is for int4 (tcpu_pack_q4_from_q4_0), or a Q8_0 one for
  // int8 (tcpu_pack_q8_from_q8_0, block-Q8): no rounding.
  int PackBlocks(const std::string& name, const TensorView& blocks, int64_t n, int64_t k,
                 Linear* linear);
  int QuantizeInt4(const std::string& name, const uint16_t* w, int64_t n, int64_t k,
                   Linear* linear);
  // The matrix `name` (held as `held_name`) quantized and packed into a new Linear or, from a
  // pre-quantized checkpoint, mapped (MapLinear).
  int LoadLinear(const std::string& name, const std::string& held_name, int64_t n, int64_t k,
                 tcpu_linear* out);
  // model_prequantized.cc: the packed matrix and int8 scales of `name` in place, validated.
  int MapLinear(const std::string& name, int64_t n, int64_t k, tcpu_linear* out);
  void Hold(const std::string& name, DType dtype, std::vector<int64_t> shape, const void* data,
            int64_t bytes);
  int LoadBf16(const std::string& name, const std::vector<int64_t>& shape, const uint16_t** out);
  int LoadBias(const std::string& name, int64_t n, const float** out);
  // The token embedding table: GGUF Q4_0 / Q8_0 blocks used in place (TCPU_EMBED_Q4_0 /
  // _Q8_0, one row converted per token), anything else as bf16 (LoadBf16).
  int LoadEmbeddings(int64_t vocab_size, int64_t hidden);

  Checkpoint checkpoint_;
  WeightFormat format_ = WeightFormat::kInt8;
  std::vector<std::unique_ptr<Linear>> linears_;
  std::vector<AlignedBuffer> bf16_copies_;
  std::vector<std::vector<float>> biases_;  // fp32, exactly the checkpoint's values
  std::vector<tcpu_layer_weights> layers_;
  std::vector<HeldTensor> held_;
  tcpu_model_weights weights_{};
  int64_t bytes_per_token_ = 0;
};

}  // namespace tcpu::model

#endif  // TCPU_ENGINE_MODEL_MODEL_H_
