// The variant each op dispatches to ("op:variant"), defined by the kernel folders and
// collected by tcpu_kernel_variant() (kernel_variant.cc).
#ifndef TCPU_RUNTIME_KERNEL_VARIANTS_H_
#define TCPU_RUNTIME_KERNEL_VARIANTS_H_

#include <string>

namespace tcpu {

const char* PackWeightsI8Variant();        // kernels/pack
const char* PackWeightsI8KnVariant();      // kernels/pack
const char* GemvI8Variant();               // kernels/gemv
const char* GemvBf16W8Variant();           // kernels/gemv
const char* GemmI8Variant();               // kernels/gemm
const char* GemvW4A8Variant();             // kernels/q4
const char* GemmW4A8Variant();             // kernels/q4
const char* GemvQ8Variant();               // kernels/q8
const char* GemmQ8Variant();               // kernels/q8
const char* QuantizeWeightsBf16Variant();  // kernels/quantize
const char* RmsNormBf16Variant();          // kernels/rms_norm
const char* SwigluBf16Variant();           // kernels/swiglu
const char* SdotVariant();                 // kernels/sdot
const char* FlashAttnDecodeBf16Variant();  // kernels/flash_attn
const char* FusedMlpBf16Variant();         // kernels/fused_mlp
const char* TransformerLayerBf16Variant(); // kernels/transformer_layer
const char* DecodeStepVariant();           // kernels/decode_step

// "op:<variant of base>", for the fused ops, which run other ops' kernels and are named after
// the W8A8 GEMV variant that dominates their cost (e.g. "fused_mlp_bf16:sve2").
std::string ComposedVariant(const char* op, const char* base_variant);

}  // namespace tcpu

#endif  // TCPU_RUNTIME_KERNEL_VARIANTS_H_
