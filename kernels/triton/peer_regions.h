// The counted peers of the Triton kernels' regions in triton_table.cc and triton_perf.cc (table
// shapes): a kernel's computation by a hand-written kernel of the project or as a plain C loop
// (plain_loops.h, clang -O3), each in its own region, checked against the kernel's results, and
// announced to //tools/perf:triton_table by two lines on stdout:
//   work "<peer region>" <N> <unit>       the kernel's work: the same problem, so kernel / peer
//                                         per unit is the ratio of their instructions
//   peer "<kernel region>" KIND "<peer region>"
// KIND: hand (the hand-written kernel from the kernel's own inputs), prepacked (the int8 GEMM
// on weights packed ahead of time, as a model's are when it loads: an easier problem than the
// kernel's, which gets them unpacked at every launch) or clang (the plain loop).
#ifndef TCPU_KERNELS_TRITON_PEER_REGIONS_H_
#define TCPU_KERNELS_TRITON_PEER_REGIONS_H_

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <functional>
#include <initializer_list>
#include <string>
#include <vector>

#include "tcpu/perf.h"
#include "tcpu/status.h"

namespace tcpu::triton_peers {

// Pairs the counted region `peer` with the kernel's region (`kind` as above).
inline void PrintPeer(const std::string& kernel, const char* kind, const std::string& peer) {
  std::printf("peer \"%s\" %s \"%s\"\n", kernel.c_str(), kind, peer.c_str());
}

// Runs `run` (a peer of `kernels` of kind `kind`; returns a tcpu_status) in `region`,
// then `agrees` (its results against the kernels'); if both succeed, prints its `work` line and
// a `peer` line for each of `kernels`. A region never counts a wrong run: false stops the table.
inline bool CountPeer(const char* kind, const std::string& region, int64_t work, const char* unit,
                      std::initializer_list<std::string> kernels, const std::function<int()>& run,
                      const std::function<bool()>& agrees) {
  tcpu_perf_region_begin(region.c_str());
  const int status = run();
  tcpu_perf_region_end(region.c_str());
  if (status != TCPU_OK) {
    std::fprintf(stderr, "%s: %s\n", region.c_str(), tcpu_status_string(status));
    return false;
  }
  if (!agrees()) return false;
  std::printf("work \"%s\" %lld %s\n", region.c_str(), static_cast<long long>(work), unit);
  for (const std::string& kernel : kernels) PrintPeer(kernel, kind, region);
  return true;
}

// The kernels' computation as a plain C loop (plain_loops.h), in the region "clang -O3 WHAT".
inline bool CountPlainLoop(const std::string& what, int64_t work, const char* unit,
                           std::initializer_list<std::string> kernels,
                           const std::function<void()>& plain,
                           const std::function<bool()>& agrees) {
  return CountPeer(
      "clang", "clang -O3 " + what, work, unit, kernels,
      [&] {
        plain();
        return static_cast<int>(TCPU_OK);
      },
      agrees);
}

// A peer's name in a disagreement's message: "... is X from Triton, Y <peer>".
constexpr const char* kPlainLoop = "from the clang -O3 loop";

// The kernel's and a peer's results are as many (or says so).
template <typename T>
bool SameCount(const char* what, const std::vector<T>& kernel, const std::vector<T>& peer,
               const char* peer_name) {
  if (kernel.size() == peer.size()) return true;
  std::fprintf(stderr, "%s: %zu results from Triton, %zu %s\n", what, kernel.size(), peer.size(),
               peer_name);
  return false;
}

// Says that element i differs.
template <typename T>
bool Differs(const char* what, size_t i, T kernel, T peer, const char* peer_name) {
  std::fprintf(stderr, "%s: element %zu is %.9g from Triton, %.9g %s\n", what, i,
               static_cast<double>(kernel), static_cast<double>(peer), peer_name);
  return false;
}

// The kernel's and a peer's results are the same: bit for bit (rel 0), or within `rel` of the
// larger magnitude, at least of `floor` (1: sums that cancel; 0: relative only), where float
// operations may be contracted or reassociated differently (NaN equal to NaN). On the first
// difference, says which element.
template <typename T>
bool Agree(const char* what, const std::vector<T>& kernel, const std::vector<T>& peer, double rel,
           const char* peer_name, double floor = 1.0) {
  if (!SameCount(what, kernel, peer, peer_name)) return false;
  for (size_t i = 0; i < kernel.size(); ++i) {
    if (std::memcmp(&kernel[i], &peer[i], sizeof(T)) == 0) continue;
    const double x = static_cast<double>(kernel[i]), y = static_cast<double>(peer[i]);
    const bool near =
        rel > 0.0 &&
        ((std::isnan(x) && std::isnan(y)) ||
         std::fabs(x - y) <= rel * std::fmax(floor, std::fmax(std::fabs(x), std::fabs(y))));
    if (!near) return Differs(what, i, kernel[i], peer[i], peer_name);
  }
  return true;
}

// Equal as numbers (any NaN to any NaN, +0 to -0): where two correct results may differ only in
// a NaN's payload or a zero's sign.
template <typename T>
bool AgreeAsValues(const char* what, const std::vector<T>& kernel, const std::vector<T>& peer,
                   const char* peer_name) {
  if (!SameCount(what, kernel, peer, peer_name)) return false;
  for (size_t i = 0; i < kernel.size(); ++i) {
    const double x = static_cast<double>(kernel[i]), y = static_cast<double>(peer[i]);
    if (x != y && !(std::isnan(x) && std::isnan(y))) {
      return Differs(what, i, kernel[i], peer[i], peer_name);
    }
  }
  return true;
}

// The values of f16 or bf16 bits (tcpu_f16_to_f32, tcpu_bf16_to_f32).
inline std::vector<float> Decoded(const std::vector<uint16_t>& bits, float (*decode)(uint16_t)) {
  std::vector<float> values(bits.size());
  for (size_t i = 0; i < bits.size(); ++i) values[i] = decode(bits[i]);
  return values;
}

}  // namespace tcpu::triton_peers

#endif  // TCPU_KERNELS_TRITON_PEER_REGIONS_H_
