// Scalar reference of tcpu_swiglu_bf16: silu in float64 with std::exp, in the form that
// never divides Inf by Inf (e^g / (1 + e^g) for g < 0), rounded to fp32 then to bf16.
#include <cmath>

#include "kernels/swiglu/swiglu_kernels.h"
#include "tcpu/bf16.h"

namespace tcpu::swiglu {

void SwigluRef(const uint16_t* gate, const uint16_t* up, uint16_t* out, int64_t n) {
  for (int64_t i = 0; i < n; ++i) {
    const double g = tcpu_bf16_to_f32(gate[i]);
    const double u = tcpu_bf16_to_f32(up[i]);
    double silu;
    if (g >= 0.0) {
      silu = g / (1.0 + std::exp(-g));  // +Inf: Inf / 1.
    } else {
      // Below -kMaxArg, silu(g) * u rounds to 0 in bf16 for every finite u; clamping keeps
      // -Inf * 0 from making a NaN.
      const double gc = std::fmax(g, -static_cast<double>(kMaxArg));
      const double e = std::exp(gc);
      silu = gc * e / (1.0 + e);  // NaN stays NaN (fmax returns the number, so test g).
      if (std::isnan(g)) silu = g;
    }
    out[i] = tcpu_f32_to_bf16(static_cast<float>(silu * u));
  }
}

}  // namespace tcpu::swiglu
