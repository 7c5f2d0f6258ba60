// A GGUF tensor as the loader's TensorView (safetensors.h): F32, F16, BF16, Q8_0 and Q4_0 (their
// blocks, DType::kQ8_0 and kQ4_0) point into the mapped file (shape = the GGUF dims reversed,
// so [rows, row length] as in safetensors); Q4_K, Q5_K and Q6_K are dequantized exactly
// (gguf_kquants.h) then rounded to BF16, as the loader rounds every float weight, into storage
// the caller keeps. Llama's and MiniCPM's
// q/k rows are put back in Hugging Face order (UndoRopePermutation).
#ifndef TCPU_ENGINE_MODEL_GGUF_TENSOR_H_
#define TCPU_ENGINE_MODEL_GGUF_TENSOR_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "engine/gguf/gguf_reader.h"
#include "engine/model/safetensors.h"

namespace tcpu::model {

// Converts `info`; dequantized or copied bytes go to a new buffer appended to *storage.
// False with *error naming the file, the tensor and its type if the type is not one of F32,
// F16, BF16, Q8_0, Q4_0, Q4_K, Q5_K, Q6_K, or if a k-quant super-block's fp16 scale is not
// finite.
bool GgufTensorView(const gguf::TensorInfo& info, const std::string& file,
                    std::vector<std::unique_ptr<uint8_t[]>>* storage, TensorView* view,
                    std::string* error);

// llama.cpp's convert_hf_to_gguf.py stores Llama's q_proj and k_proj (weights and biases)
// with the rows of every head permuted for its interleaved RoPE: head row 2j + s holds
// Hugging Face row s * head_dim / 2 + j (s in {0, 1}). This puts them back (the engine's
// RoPE rotates halves, as transformers does), into a copy in *storage. The caller checked
// that view->shape[0] == heads * head_dim.
void UndoRopePermutation(int64_t heads, int64_t head_dim, TensorView* view,
                         std::vector<std::unique_ptr<uint8_t[]>>* storage);

}  // namespace tcpu::model

#endif  // TCPU_ENGINE_MODEL_GGUF_TENSOR_H_
