/* The Llama MLP of one decode token, fused: y = down(silu(gate(x)) * up(x)). */
#ifndef TCPU_FUSED_MLP_H_
#define TCPU_FUSED_MLP_H_

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* x, y: [hidden] bf16. gate, up: packed [intermediate, hidden] int8 weights with per-row
 * fp32 scales; down: packed [hidden, intermediate] with per-row scales (tcpu/gemv.h). Any of
 * the three may instead be an int4 matrix from tcpu_pack_q4 or a block-Q8 one from
 * tcpu_pack_q8 with its scales NULL (as tcpu_linear in tcpu/transformer.h;
 * tcpu_gemv_bf16_w4 / tcpu_gemv_bf16_q8 below then stand for its GEMV).
 * Equal, bit for bit, to the composition of the unfused ops:
 *   g = tcpu_gemv_bf16_w8(gate, x); u = tcpu_gemv_bf16_w8(up, x);
 *   h = tcpu_swiglu_bf16(g, u);     y = tcpu_gemv_bf16_w8(down, h)
 * but x is quantized once for gate and up, and both GEMVs run in one parallel region.
 * Scratch from the calling thread's arena (tcpu_fused_mlp_bf16_scratch_size). */
int tcpu_fused_mlp_bf16(const void* packed_gate, const float* gate_scales, const void* packed_up,
                        const float* up_scales, const void* packed_down,
                        const float* down_scales, const uint16_t* x, uint16_t* y,
                        int64_t hidden, int64_t intermediate);

/* Scratch bytes tcpu_fused_mlp_bf16 needs, or a negative tcpu_status. */
int64_t tcpu_fused_mlp_bf16_scratch_size(int64_t hidden, int64_t intermediate);

#ifdef __cplusplus
}
#endif

#endif /* TCPU_FUSED_MLP_H_ */
