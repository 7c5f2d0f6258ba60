/* Checks the runtime from an installed SDK bundle: RMSNorm against a float64 reference
 * computed here, argument errors reported by status (not by aborting), and which kernel
 * variant the CPU (qemu's -cpu) selected. Exit status 0 means every check passed. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "tcpu/bf16.h"
#include "tcpu/cpu.h"
#include "tcpu/rms_norm.h"
#include "tcpu/status.h"

enum { kDim = 67 }; /* not a multiple of any vector length: covers the tail */

int main(void) {
  tcpu_cpu_info info;
  int status = tcpu_cpu_info_get(&info);
  if (status != TCPU_OK) {
    fprintf(stderr, "tcpu_cpu_info_get: %s\n", tcpu_status_string(status));
    return 1;
  }
  printf("features 0x%x, SVE %d bits, rms_norm variant %s\n", (unsigned)info.features,
         (int)info.sve_vl_bits, tcpu_kernel_variant("rms_norm_bf16"));

  uint16_t x[kDim], w[kDim], out[kDim];
  double sum_sq = 0.0;
  for (int i = 0; i < kDim; ++i) {
    x[i] = tcpu_f32_to_bf16((float)((i * 37) % 23 - 11) / 8.0f);
    w[i] = tcpu_f32_to_bf16(0.5f + (float)(i % 5) / 4.0f);
    double xi = tcpu_bf16_to_f32(x[i]);
    sum_sq += xi * xi;
  }
  const float eps = 1e-5f;
  status = tcpu_rms_norm_bf16(x, w, out, kDim, eps);
  if (status != TCPU_OK) {
    fprintf(stderr, "tcpu_rms_norm_bf16: %s (%s)\n", tcpu_status_string(status),
            tcpu_last_error_detail());
    return 1;
  }
  const double inv_rms = 1.0 / sqrt(sum_sq / kDim + eps);
  for (int i = 0; i < kDim; ++i) {
    double expected = tcpu_bf16_to_f32(x[i]) * inv_rms * tcpu_bf16_to_f32(w[i]);
    double got = tcpu_bf16_to_f32(out[i]);
    /* One bf16 ulp (8 bits of mantissa) relative, as the header promises. */
    if (fabs(got - expected) > fabs(expected) / 128.0 + 1e-6) {
      fprintf(stderr, "rms_norm[%d] = %g, expected %g\n", i, got, expected);
      return 1;
    }
  }

  status = tcpu_rms_norm_bf16(NULL, w, out, kDim, eps);
  if (status != TCPU_ERR_NULL_POINTER) {
    fprintf(stderr, "NULL x gave status %d, expected TCPU_ERR_NULL_POINTER\n", status);
    return 1;
  }
  status = tcpu_rms_norm_bf16(x, w, out, kDim, -1.0f);
  if (status != TCPU_ERR_INVALID_ARGUMENT) {
    fprintf(stderr, "eps = -1 gave status %d, expected TCPU_ERR_INVALID_ARGUMENT\n", status);
    return 1;
  }
  printf("rms_norm_bf16 over %d values matches the float64 reference; errors reported: %s\n", kDim,
         tcpu_last_error_detail());
  return 0;
}
