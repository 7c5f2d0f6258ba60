#include "engine/model/gguf_tensor.h"

#include <cstring>

#include "engine/model/gguf_kquants.h"

namespace tcpu::model {
namespace {

using gguf::TensorType;

uint8_t* NewBuffer(int64_t bytes, std::vector<std::unique_ptr<uint8_t[]>>* storage) {
  storage->push_back(std::make_unique<uint8_t[]>(static_cast<size_t>(bytes)));
  return storage->back().get();
}

}  // namespace

bool GgufTensorView(const gguf::TensorInfo& info, const std::string& file,
                    std::vector<std::unique_ptr<uint8_t[]>>* storage, TensorView* view,
                    std::string* error) {
  TensorView v;
  v.shape.assign(info.dims.rbegin(), info.dims.rend());
  v.elements = info.elements;
  switch (info.type->type) {
    case TensorType::kF32:
    case TensorType::kF16:
    case TensorType::kBF16:
      v.dtype = info.type->type == TensorType::kF32   ? DType::kF32
                : info.type->type == TensorType::kF16 ? DType::kF16
                                                      : DType::kBF16;
      v.data = info.data;
      v.bytes = info.bytes;
      break;
    case TensorType::kQ8_0:  // kept as blocks: int8 packs them as they are (block-Q8)
    case TensorType::kQ4_0:  // kept as blocks: int4 packs them as they are
      // The reader checked that the row length is a whole number of blocks.
      v.dtype = info.type->type == TensorType::kQ8_0 ? DType::kQ8_0 : DType::kQ4_0;
      v.data = info.data;
      v.bytes = info.bytes;
      break;
    case TensorType::kQ4_K:
    case TensorType::kQ5_K:
    case TensorType::kQ6_K: {
      // The reader checked that rows are whole super-blocks and that the bytes are there.
      // BF16, as the loader rounds every float weight: half the memory of F32, no second pass.
      v.dtype = DType::kBF16;
      v.bytes = 2 * info.elements;
      auto* out = reinterpret_cast<uint16_t*>(NewBuffer(v.bytes, storage));
      const int64_t blocks = info.elements / kKQuantBlock;
      const int64_t bad = DequantizeKQuantToBf16(info.type->type, info.data, blocks, out);
      if (bad >= 0) {
        *error = file + ": tensor '" + std::string(info.name) + "' of type " + info.type->name +
                 ": super-block " + std::to_string(bad) + " (of " + std::to_string(blocks) +
                 ") has an fp16 scale that is infinite or NaN";
        return false;
      }
      v.data = reinterpret_cast<const uint8_t*>(out);
      break;
    }
    default:
      *error = file + ": tensor '" + std::string(info.name) + "' has type " + info.type->name +
               ", which the engine does not load (F32, F16, BF16, Q8_0, Q4_0, Q4_K, Q5_K, Q6_K)";
      return false;
  }
  *view = std::move(v);
  return true;
}

void UndoRopePermutation(int64_t heads, int64_t head_dim, TensorView* view,
                         std::vector<std::unique_ptr<uint8_t[]>>* storage) {
  const int64_t rows = heads * head_dim, half = head_dim / 2;
  const int64_t row_bytes = view->bytes / rows;
  uint8_t* out = NewBuffer(view->bytes, storage);
  for (int64_t h = 0; h < heads; ++h) {
    for (int64_t s = 0; s < 2; ++s) {
      for (int64_t j = 0; j < half; ++j) {
        const int64_t hf_row = h * head_dim + s * half + j;
        const int64_t gguf_row = h * head_dim + 2 * j + s;
        std::memcpy(out + hf_row * row_bytes, view->data + gguf_row * row_bytes,
                    static_cast<size_t>(row_bytes));
      }
    }
  }
  view->data = out;
}

}  // namespace tcpu::model
