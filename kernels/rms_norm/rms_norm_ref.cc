// Scalar reference of the RMSNorm passes. Eight interleaved partial sums bound the fp32
// rounding error like the vector kernels do (a single running sum loses accuracy as d grows).
#include "kernels/rms_norm/rms_norm_kernels.h"
#include "tcpu/bf16.h"

namespace tcpu::rms_norm {
namespace {

float SumSquaresRef(const uint16_t* x, int64_t d) {
  float partial[8] = {};
  int64_t i = 0;
  for (; i + 8 <= d; i += 8) {
    for (int lane = 0; lane < 8; ++lane) {
      const float v = tcpu_bf16_to_f32(x[i + lane]);
      partial[lane] += v * v;
    }
  }
  for (int lane = 0; i < d; ++i, ++lane) {
    const float v = tcpu_bf16_to_f32(x[i]);
    partial[lane] += v * v;
  }
  return ((partial[0] + partial[1]) + (partial[2] + partial[3])) +
         ((partial[4] + partial[5]) + (partial[6] + partial[7]));
}

void ScaleRef(const uint16_t* x, const uint16_t* w, uint16_t* out, int64_t d, float inv) {
  for (int64_t i = 0; i < d; ++i) {
    out[i] = tcpu_f32_to_bf16(tcpu_bf16_to_f32(x[i]) * inv * tcpu_bf16_to_f32(w[i]));
  }
}

}  // namespace

const RmsNormKernel kRmsNormRef = {SumSquaresRef, ScaleRef};

}  // namespace tcpu::rms_norm
