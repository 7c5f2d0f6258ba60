// Writes a safetensors file (safetensors.h reads it) whose tensors start 64-byte aligned: the JSON
// header is padded with spaces so the data section starts aligned, and a tensor that would start
// unaligned is preceded by zero bytes. Tensors of 64-byte multiples written back to back leave no
// such gap, so the file stays contiguous (as Hugging Face's reader wants) when they are.
#ifndef TCPU_ENGINE_MODEL_SAFETENSORS_WRITER_H_
#define TCPU_ENGINE_MODEL_SAFETENSORS_WRITER_H_

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "engine/model/safetensors.h"

namespace tcpu::model {

inline constexpr int64_t kSafetensorsAlignment = 64;

struct TensorToWrite {
  std::string name;
  DType dtype;
  std::vector<int64_t> shape;
  const void* data;
  int64_t bytes;  // shape x dtype
};

// Writes `tensors` in the given order with `metadata` as __metadata__ to `path`; false with *error
// naming the path (or the tensor whose bytes do not match its shape).
bool WriteSafetensors(const std::string& path, const std::vector<TensorToWrite>& tensors,
                      const std::map<std::string, std::string>& metadata, std::string* error);

}  // namespace tcpu::model

#endif  // TCPU_ENGINE_MODEL_SAFETENSORS_WRITER_H_
