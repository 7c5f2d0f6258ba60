/* CPU features and kernel dispatch. Features come from HWCAP/HWCAP2 and the SVE vector
 * length from prctl, read once. TCPU_DISABLE=sve2,sve,i8mm,dotprod,bf16,fp16,fp16fml (any
 * subset) hides features from dispatch, forcing fallbacks; each op picks its variant once. */
#ifndef TCPU_CPU_H_
#define TCPU_CPU_H_

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

enum {
  TCPU_FEATURE_DOTPROD = 1u << 0,
  TCPU_FEATURE_I8MM = 1u << 1,
  TCPU_FEATURE_BF16 = 1u << 2,
  TCPU_FEATURE_SVE = 1u << 3,
  TCPU_FEATURE_SVE2 = 1u << 4,
  /* Half-precision arithmetic (FEAT_FP16: HWCAP_FPHP and HWCAP_ASIMDHP, both needed). */
  TCPU_FEATURE_FP16 = 1u << 5,
  /* FMLAL/FMLSL, f16 products accumulated in f32 (FEAT_FHM: HWCAP_ASIMDFHM; needs FP16). */
  TCPU_FEATURE_FP16FML = 1u << 6,
};

typedef struct tcpu_cpu_info {
  uint32_t features;     /* TCPU_FEATURE_* bits in use, after TCPU_DISABLE */
  uint32_t hw_features;  /* TCPU_FEATURE_* bits the hardware reports */
  int32_t sve_vl_bits;   /* SVE vector length in bits, 0 without SVE */
} tcpu_cpu_info;

/* Fills *info. TCPU_ERR_INVALID_ENV if TCPU_DISABLE names an unknown feature. */
int tcpu_cpu_info_get(tcpu_cpu_info* info);

/* The variant an op dispatches to, as "op:variant" (e.g. "gemv_i8:sve2"), or NULL if the
 * op is unknown. Ops: pack_weights_i8, pack_weights_i8_kn, gemv_i8, gemv_bf16_w8, gemm_i8,
 * quantize_weights_bf16, rms_norm_bf16, swiglu_bf16, sdot, flash_attn_decode_bf16,
 * fused_mlp_bf16, transformer_layer_bf16, decode_step (the fused ops are named after the
 * W8A8 GEMV variant they run; their other ops report their own). */
const char* tcpu_kernel_variant(const char* op);

#ifdef __cplusplus
}
#endif

#endif /* TCPU_CPU_H_ */
