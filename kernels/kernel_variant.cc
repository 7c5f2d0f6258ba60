// tcpu_kernel_variant(): which variant each op dispatches to.
#include <cstring>

#include "runtime/check.h"
#include "runtime/kernel_variants.h"
#include "tcpu/cpu.h"

namespace {

struct OpVariant {
  const char* op;
  const char* (*variant)();
};

constexpr OpVariant kOps[] = {
    {"pack_weights_i8", tcpu::PackWeightsI8Variant},
    {"pack_weights_i8_kn", tcpu::PackWeightsI8KnVariant},
    {"gemv_i8", tcpu::GemvI8Variant},
    {"gemv_bf16_w8", tcpu::GemvBf16W8Variant},
    {"gemm_i8", tcpu::GemmI8Variant},
    {"gemv_w4a8", tcpu::GemvW4A8Variant},
    {"gemm_w4a8", tcpu::GemmW4A8Variant},
    {"gemv_q8", tcpu::GemvQ8Variant},
    {"gemm_q8", tcpu::GemmQ8Variant},
    {"quantize_weights_bf16", tcpu::QuantizeWeightsBf16Variant},
    {"rms_norm_bf16", tcpu::RmsNormBf16Variant},
    {"swiglu_bf16", tcpu::SwigluBf16Variant},
    {"sdot", tcpu::SdotVariant},
    {"flash_attn_decode_bf16", tcpu::FlashAttnDecodeBf16Variant},
    {"fused_mlp_bf16", tcpu::FusedMlpBf16Variant},
    {"transformer_layer_bf16", tcpu::TransformerLayerBf16Variant},
    {"decode_step", tcpu::DecodeStepVariant},
};

}  // namespace

extern "C" const char* tcpu_kernel_variant(const char* op) {
  if (op == nullptr) {
    tcpu::Fail(TCPU_ERR_NULL_POINTER, "tcpu_kernel_variant: op is NULL");
    return nullptr;
  }
  for (const OpVariant& entry : kOps) {
    if (std::strcmp(op, entry.op) == 0) return entry.variant();
  }
  tcpu::Fail(TCPU_ERR_UNKNOWN_OP, "tcpu_kernel_variant: unknown op '%.64s'", op);
  return nullptr;
}
