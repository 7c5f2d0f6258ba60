/* SwiGLU activation on bf16 vectors. */
#ifndef TCPU_SWIGLU_H_
#define TCPU_SWIGLU_H_

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* out[i] = bf16(silu(gate[i]) * up[i]), silu(g) = g / (1 + exp(-g)); any n >= 1. out may
 * alias gate or up. Within 2 bf16 ulp of a float64 reference; measured maximum 0.500027 ulp
 * over all 65536 bf16 gate values x 11 up values, at every SVE vector length. */
int tcpu_swiglu_bf16(const uint16_t* gate, const uint16_t* up, uint16_t* out, int64_t n);

#ifdef __cplusplus
}
#endif

#endif /* TCPU_SWIGLU_H_ */
