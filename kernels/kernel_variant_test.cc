// tcpu_kernel_variant knows every op of the C ABI and names the variant each runs.
#include <gtest/gtest.h>

#include <string>

#include "tcpu/cpu.h"
#include "tcpu/status.h"

namespace {

TEST(StatusTest, KernelVariantRejectsUnknownAndNullOps) {
  EXPECT_EQ(tcpu_kernel_variant("no_such_op"), nullptr);
  EXPECT_STREQ(tcpu_last_error_detail(), "tcpu_kernel_variant: unknown op 'no_such_op'");
  EXPECT_EQ(tcpu_kernel_variant(nullptr), nullptr);
  EXPECT_STREQ(tcpu_last_error_detail(), "tcpu_kernel_variant: op is NULL");
  const char* ops[] = {"pack_weights_i8",        "pack_weights_i8_kn",     "gemv_i8",
                       "gemv_bf16_w8",           "gemm_i8",                "quantize_weights_bf16",
                       "rms_norm_bf16",          "swiglu_bf16",            "sdot",
                       "flash_attn_decode_bf16", "fused_mlp_bf16",         "transformer_layer_bf16",
                       "decode_step",            "gemv_w4a8",              "gemm_w4a8",
                       "gemv_q8",                "gemm_q8"};
  for (const char* op : ops) {
    const char* variant = tcpu_kernel_variant(op);
    ASSERT_NE(variant, nullptr) << op;
    EXPECT_EQ(std::string(variant).rfind(std::string(op) + ":", 0), 0u) << variant;
  }
}

}  // namespace
