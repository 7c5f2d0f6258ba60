// tcpu_fused_mlp_bf16: the Llama MLP of one decode token on the W8A8 GEMV kernels. x is
// quantized once and the gate and up rows run in one parallel region (gemv_w8a8.h); silu(g)*u
// is the swiglu kernel; the down projection quantizes h and runs like tcpu_gemv_bf16_w8. Every
// step is the unfused op's own code, so the result equals the composition bit for bit.
#include "tcpu/fused_mlp.h"

#include <string>

#include "kernels/fused_mlp/fused_mlp_internal.h"
#include "kernels/gemv/gemv_w8a8.h"
#include "kernels/linear/linear.h"
#include "kernels/q4/q4_packed.h"
#include "kernels/q8/q8_packed.h"
#include "runtime/check.h"
#include "runtime/kernel_variants.h"
#include "runtime/scratch_arena.h"
#include "tcpu/swiglu.h"

namespace tcpu {
namespace fused_mlp {
int ViewMlpWeights(const char* fn, const void* packed_gate, const float* gate_scales,
                   const void* packed_up, const float* up_scales, const void* packed_down,
                   const float* down_scales, int64_t hidden, int64_t intermediate,
                   MlpWeights* weights) {
  TCPU_CHECK_NOT_NULL(fn, packed_gate);
  TCPU_CHECK_NOT_NULL(fn, packed_up);
  TCPU_CHECK_NOT_NULL(fn, packed_down);
  // Scales may be NULL only for int4 and block-Q8 matrices (linear::View); name the argument
  // here.
  const struct {
    const void* packed;
    const float* scales;
    const char* name;
  } matrices[3] = {{packed_gate, gate_scales, "gate_scales"},
                   {packed_up, up_scales, "up_scales"},
                   {packed_down, down_scales, "down_scales"}};
  for (const auto& m : matrices) {
    if (m.scales == nullptr && !q4::IsQ4Packed(m.packed) && !q8::IsQ8Packed(m.packed)) {
      return Fail(TCPU_ERR_NULL_POINTER, "%s: %s is NULL (an int8 matrix needs its scales)", fn,
                  m.name);
    }
  }
  TCPU_CHECK_POSITIVE(fn, hidden);
  TCPU_CHECK_POSITIVE(fn, intermediate);
  // The views name the matrix in their errors through fn; say which one it was (formatted
  // only on failure: the decode step validates every layer on every call).
  if (int s = CheckNamed(
          [&](const char* gate) {
            return linear::View(gate, packed_gate, gate_scales, intermediate, hidden,
                                &weights->gate);
          },
          "%s (gate)", fn);
      s != TCPU_OK) {
    return s;
  }
  if (int s = CheckNamed(
          [&](const char* up) {
            return linear::View(up, packed_up, up_scales, intermediate, hidden, &weights->up);
          },
          "%s (up)", fn);
      s != TCPU_OK) {
    return s;
  }
  return CheckNamed(
      [&](const char* down) {
        return linear::View(down, packed_down, down_scales, hidden, intermediate,
                            &weights->down);
      },
      "%s (down)", fn);
}

// Layout: [quantized x][g: intermediate bf16][u: intermediate bf16][quantized h][fp32 sums:
// 2 * intermediate (gate, up), hidden (down) reuses them], each slot 64-byte aligned;
// h = swiglu(g, u) is written over g. The fp32 slot serves int4 layers (linear::Output).
int MlpScratchBytes(const char* fn, int64_t hidden, int64_t intermediate, int64_t* bytes) {
  TCPU_CHECK_POSITIVE(fn, hidden);
  TCPU_CHECK_POSITIVE(fn, intermediate);
  const gemv::GemvKernel& kernel = gemv::Bf16W8Kernel();
  int64_t x_bytes = 0, h_bytes = 0, gu_bytes = 0, f32_bytes = 0;
  if (int s = gemv::ActivationScratchBytes(fn, kernel, hidden, &x_bytes); s != TCPU_OK) return s;
  if (int s = gemv::ActivationScratchBytes(fn, kernel, intermediate, &h_bytes); s != TCPU_OK) {
    return s;
  }
  TCPU_CHECK_MUL(fn, intermediate, int64_t{2}, &gu_bytes);
  const int64_t f32_elems = intermediate > hidden / 2 ? 2 * intermediate : hidden;
  TCPU_CHECK_MUL(fn, f32_elems, int64_t{4}, &f32_bytes);
  if (gu_bytes > INT64_MAX / 2 - 64 || f32_bytes > INT64_MAX - 64 ||
      __builtin_add_overflow(x_bytes, 2 * AlignScratch(gu_bytes), bytes) ||
      __builtin_add_overflow(*bytes, h_bytes, bytes) ||
      __builtin_add_overflow(*bytes, AlignScratch(f32_bytes), bytes)) {
    return Fail(TCPU_ERR_SIZE_OVERFLOW, "%s: scratch for hidden = %lld, intermediate = %lld "
                "overflows int64", fn, static_cast<long long>(hidden),
                static_cast<long long>(intermediate));
  }
  return TCPU_OK;
}

int Run(const MlpWeights& w, const uint16_t* x, uint16_t* y, int8_t* scratch) {
  const gemv::GemvKernel& kernel = gemv::Bf16W8Kernel();
  const int64_t hidden = w.down.n();
  const int64_t intermediate = w.gate.n();
  int64_t x_bytes = 0, h_bytes = 0;
  gemv::ActivationScratchBytes("fused_mlp", kernel, hidden, &x_bytes);  // checked by caller
  gemv::ActivationScratchBytes("fused_mlp", kernel, intermediate, &h_bytes);
  uint16_t* g = reinterpret_cast<uint16_t*>(scratch + x_bytes);
  uint16_t* u = g + AlignScratch(intermediate * 2) / 2;
  int8_t* h_scratch = reinterpret_cast<int8_t*>(u + AlignScratch(intermediate * 2) / 2);
  float* f32 = reinterpret_cast<float*>(h_scratch + h_bytes);

  const gemv::QuantizedActivation qx = gemv::QuantizeActivation(kernel, x, hidden, scratch);
  const linear::Output gate_up[2] = {{w.gate, g, f32}, {w.up, u, f32 + intermediate}};
  if (int s = linear::Run(qx, gate_up, 2); s != TCPU_OK) return s;
  if (int s = tcpu_swiglu_bf16(g, u, g, intermediate); s != TCPU_OK) return s;
  const gemv::QuantizedActivation qh = gemv::QuantizeActivation(kernel, g, intermediate,
                                                                h_scratch);
  const linear::Output down = {w.down, y, f32};
  return linear::Run(qh, &down, 1);
}

}  // namespace fused_mlp

// Named after the GEMV kernel it runs (the MLP's cost); swiglu reports its own.
const char* FusedMlpBf16Variant() {
  static const std::string name = ComposedVariant("fused_mlp_bf16", GemvBf16W8Variant());
  return name.c_str();
}

}  // namespace tcpu

extern "C" int tcpu_fused_mlp_bf16(const void* packed_gate, const float* gate_scales,
                                   const void* packed_up, const float* up_scales,
                                   const void* packed_down, const float* down_scales,
                                   const uint16_t* x, uint16_t* y, int64_t hidden,
                                   int64_t intermediate) {
  constexpr const char* kFn = "tcpu_fused_mlp_bf16";
  TCPU_CHECK_NOT_NULL(kFn, x);
  TCPU_CHECK_NOT_NULL(kFn, y);
  tcpu::fused_mlp::MlpWeights weights;
  if (int s = tcpu::fused_mlp::ViewMlpWeights(kFn, packed_gate, gate_scales, packed_up,
                                              up_scales, packed_down, down_scales, hidden,
                                              intermediate, &weights);
      s != TCPU_OK) {
    return s;
  }
  int64_t bytes = 0;
  if (int s = tcpu::fused_mlp::MlpScratchBytes(kFn, hidden, intermediate, &bytes); s != TCPU_OK) {
    return s;
  }
  void* scratch = tcpu::ScratchBytes(bytes);
  if (scratch == nullptr) {
    return tcpu::Fail(TCPU_ERR_OUT_OF_MEMORY, "%s: cannot allocate %lld bytes of scratch", kFn,
                      static_cast<long long>(bytes));
  }
  if (int s = tcpu::fused_mlp::Run(weights, x, y, static_cast<int8_t*>(scratch)); s != TCPU_OK) {
    return s;
  }
  return tcpu::Succeed();
}

extern "C" int64_t tcpu_fused_mlp_bf16_scratch_size(int64_t hidden, int64_t intermediate) {
  int64_t bytes = 0;
  if (int s = tcpu::fused_mlp::MlpScratchBytes("tcpu_fused_mlp_bf16_scratch_size", hidden,
                                            intermediate, &bytes);
      s != TCPU_OK) {
    return s;
  }
  tcpu::Succeed();
  return bytes;
}
