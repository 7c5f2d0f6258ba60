// How a corpus peer's output (corpus_peers_main.cc) is held to the GPU's captured bytes: the
// corpus's own tolerance for f32 (tools/triton_capture/FORMAT.md, "Comparing"), the only element
// type the peers write: |clang - gpu| <= 1e-4 + 1e-4 |gpu|, NaN equal to NaN, infinities exact.
#ifndef TCPU_TOOLS_PERF_CORPUS_PEER_CHECK_H_
#define TCPU_TOOLS_PERF_CORPUS_PEER_CHECK_H_

#include <cmath>
#include <cstddef>
#include <cstdio>
#include <string>

namespace tcpu::corpus_peers {

constexpr double kF32Atol = 1e-4;
constexpr double kF32Rtol = 1e-4;

inline bool WithinF32(float gpu, float clang) {
  if (std::isnan(gpu) || std::isnan(clang)) return std::isnan(gpu) && std::isnan(clang);
  if (std::isinf(gpu) || std::isinf(clang)) return gpu == clang;
  const double g = gpu, c = clang;
  return std::fabs(c - g) <= kF32Atol + kF32Rtol * std::fabs(g);
}

// "" when all n elements agree; else the first that does not, its values and how many differ:
// "element 37: gpu 0.25 clang 0.2503 (beyond 1e-4 + 1e-4 |gpu|), 2 of 1600 elements differ".
inline std::string CompareF32(const float* gpu, const float* clang, size_t n) {
  size_t first = n, differing = 0;
  for (size_t i = 0; i < n; ++i) {
    if (WithinF32(gpu[i], clang[i])) continue;
    if (differing++ == 0) first = i;
  }
  if (differing == 0) return "";
  char message[200];
  std::snprintf(message, sizeof message,
                "element %zu: gpu %.9g clang %.9g (beyond %g + %g |gpu|), %zu of %zu elements "
                "differ",
                first, gpu[first], clang[first], kF32Atol, kF32Rtol, differing, n);
  return message;
}

}  // namespace tcpu::corpus_peers

#endif  // TCPU_TOOLS_PERF_CORPUS_PEER_CHECK_H_
