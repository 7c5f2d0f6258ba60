// The gemv family of perf_kernels (--shapes=gate: the same regions, the same warm-up), linked
// with a dotprod GEMV that executes one instruction more per inner-loop iteration. Held to the
// real baseline (baselines/gemv.json) it must fail the gate: gemv_gate_catches_slower_kernel.
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "tcpu/gemv.h"
#include "tcpu/perf.h"
#include "tcpu/status.h"
#include "tcpu/threads.h"

namespace {

bool Gemv(int64_t n, int64_t k) {
  std::vector<int8_t> w(static_cast<size_t>(n * k)), x(static_cast<size_t>(k));
  for (size_t i = 0; i < w.size(); ++i) w[i] = static_cast<int8_t>(i * 7 % 255 - 127);
  for (size_t i = 0; i < x.size(); ++i) x[i] = static_cast<int8_t>(i * 13 % 255 - 127);
  std::vector<uint8_t> packed(static_cast<size_t>(tcpu_packed_weights_size(n, k)));
  std::vector<int32_t> y(static_cast<size_t>(n));
  if (tcpu_pack_weights_i8(w.data(), n, k, packed.data(), static_cast<int64_t>(packed.size())) !=
          0 ||
      tcpu_gemv_i8(packed.data(), x.data(), y.data(), n, k) != 0) {
    std::fprintf(stderr, "gemv_extra_instruction: %s\n", tcpu_last_error_detail());
    return false;
  }
  const std::string name = "gemv_i8 n=" + std::to_string(n) + " k=" + std::to_string(k);
  tcpu_perf_region_begin(name.c_str());
  const int status = tcpu_gemv_i8(packed.data(), x.data(), y.data(), n, k);
  tcpu_perf_region_end(name.c_str());
  return status == 0;
}

}  // namespace

int main() {
  if (tcpu_set_num_threads(1) != 0) return 1;
  return Gemv(64, 512) && Gemv(36, 200) ? 0 : 1;
}
