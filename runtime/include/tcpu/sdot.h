/* The vector micro-op the TritonCPU dialect lowers tcpu.sdot to when it calls the runtime:
 * a 4-lane int8 x int8 -> int32 dot product (one SDOT). */
#ifndef TCPU_SDOT_H_
#define TCPU_SDOT_H_

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* out[i] = acc[i] + sum_{j<4} a[4i+j] * b[4i+j] for i < 4 (exact, wrapping like SDOT).
 * out may alias acc. */
int tcpu_sdot_i8x16(const int32_t* acc, const int8_t* a, const int8_t* b, int32_t* out);

#ifdef __cplusplus
}
#endif

#endif /* TCPU_SDOT_H_ */
