// Model::MapLinear: a linear layer of a pre-quantized checkpoint used where it lies in the mapped
// file. Validation reads the packed header and the n int8 scales, never the weights, so loading
// costs far less than an instruction per weight.
#include <cmath>
#include <cstdint>

#include "engine/model/model.h"
#include "engine/model/prequantized_format.h"
#include "runtime/check.h"
#include "tcpu/gemv.h"
#include "tcpu/gemv_q4.h"

namespace tcpu::model {
namespace {

// The kernels stream packed matrices in 64-byte lines; the writer aligns every tensor so.
constexpr uintptr_t kPackedAlignment = 64;

}  // namespace

int Model::MapLinear(const std::string& name, int64_t n, int64_t k, tcpu_linear* out) {
  const bool int4 = format_ == WeightFormat::kInt4;
  const int64_t bytes = int4 ? tcpu_q4_packed_size(n, k) : tcpu_packed_weights_size(n, k);
  if (bytes < 0) return FailForTensor(name);
  const TensorView* packed = nullptr;
  std::string error;
  if (!checkpoint_.Find(name, {bytes}, &packed, &error)) {
    return Fail(TCPU_ERR_INVALID_MODEL, "%s (the %s packing of a [%lld, %lld] matrix)",
                error.c_str(), WeightFormatName(format_), static_cast<long long>(n),
                static_cast<long long>(k));
  }
  if (packed->dtype != DType::kU8) {
    return Fail(TCPU_ERR_INVALID_MODEL, "tensor '%s' has dtype %s, expected U8 (packed %s)",
                name.c_str(), DTypeName(packed->dtype), WeightFormatName(format_));
  }
  if (reinterpret_cast<uintptr_t>(packed->data) % kPackedAlignment != 0) {
    return Fail(TCPU_ERR_INVALID_MODEL, "tensor '%s' is not 64-byte aligned in the file",
                name.c_str());
  }
  const int checked = int4 ? tcpu_check_q4_packed(packed->data, packed->bytes, n, k)
                           : tcpu_check_packed_weights(packed->data, packed->bytes, n, k);
  if (checked != TCPU_OK) return FailForTensor(name);
  bytes_per_token_ += bytes;
  *out = {packed->data, nullptr};
  if (int4) return TCPU_OK;  // the group scales are inside the packed matrix

  const std::string scale_name = ScaleTensorName(name);
  const TensorView* scales = nullptr;
  if (!checkpoint_.Find(scale_name, {n}, &scales, &error)) {
    return Fail(TCPU_ERR_INVALID_MODEL, "%s", error.c_str());
  }
  if (scales->dtype != DType::kF32 || reinterpret_cast<uintptr_t>(scales->data) % 4 != 0) {
    return Fail(TCPU_ERR_INVALID_MODEL, "tensor '%s' has dtype %s, expected F32, 4-byte aligned",
                scale_name.c_str(), DTypeName(scales->dtype));
  }
  const float* s = reinterpret_cast<const float*>(scales->data);
  for (int64_t i = 0; i < n; ++i) {
    if (!std::isfinite(s[i])) {
      return Fail(TCPU_ERR_INVALID_MODEL, "tensor '%s': element %lld is not finite",
                  scale_name.c_str(), static_cast<long long>(i));
    }
  }
  bytes_per_token_ += n * static_cast<int64_t>(sizeof(float));
  out->scales = s;
  return TCPU_OK;
}

}  // namespace tcpu::model
