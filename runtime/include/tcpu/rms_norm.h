/* RMSNorm on bf16 vectors. */
#ifndef TCPU_RMS_NORM_H_
#define TCPU_RMS_NORM_H_

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* out[i] = bf16(x[i] / sqrt(mean(x^2) + eps) * w[i]) with fp32 accumulation; any d >= 1;
 * eps > 0 and finite. out may alias x. Within 1 bf16 ulp of a float64 reference. */
int tcpu_rms_norm_bf16(const uint16_t* x, const uint16_t* w, uint16_t* out, int64_t d,
                       float eps);

#ifdef __cplusplus
}
#endif

#endif /* TCPU_RMS_NORM_H_ */
