// The W4A8 micro-kernels behind tcpu_gemv_w4a8 and tcpu_gemm_w4a8, one per file and ISA:
//   q4_gemv_ref.cc      portable scalar reference (the arithmetic of tcpu/gemv_q4.h)
//   q4_gemv_neon.cc     -march=armv8-a            nibbles sign-extended, SMULL/SMLAL + SADALP
//   q4_gemv_dotprod.cc  -march=armv8.2-a+dotprod  a tile's unit per 64-byte load, SDOT by element
//   q4_gemv_sve2.cc     -march=armv9-a+sve2       1, 2 slots or 1-4 units per vector, any VL
//   q4_gemm_i8mm.cc     -march=armv8.6-a+i8mm     SMMLA on 2 x-rows x 2 weight rows x 8 k
// The SDOT kernels take a byte of a row pair as it is (16 * qa + qb + 8) and its low nibble
// (qb + 8) with accumulators started at -8 * sum(x) (q4_packed.h); the exact int32 sum of row a
// is then 16 * acc, and SCVTF with 4 fraction bits (or an arithmetic shift) gives (float)acc
// exactly. The GEMM unpacks each nibble to 16 * q.
#ifndef TCPU_KERNELS_Q4_Q4_KERNELS_H_
#define TCPU_KERNELS_Q4_Q4_KERNELS_H_

#include <cstdint>

#include "kernels/q4/q4_packed.h"

// Marks a loop body for llvm-mca (kernels/gemv/mca.sh compiles with -DTCPU_LLVM_MCA).
#if defined(TCPU_LLVM_MCA)
#define TCPU_Q4_MCA_LOOP(name) __asm__ volatile("// tcpu-mca-loop " name)
#else
#define TCPU_Q4_MCA_LOOP(name)
#endif

namespace tcpu::q4 {

// One GEMV (or one x row of a GEMM), shared read-only by the threads running its tiles.
struct W4GemvArgs {
  Q4View w;
  const int8_t* x = nullptr;  // groups * 32 int8, zero past k (the caller pads)
  float x_scale = 0.0f;
  float* y = nullptr;  // n fp32
};

// Computes the rows of tiles [begin, end) of one GEMV.
using GemvTilesFn = void (*)(const W4GemvArgs& args, int64_t begin, int64_t end);

// The scalar model, and the vector kernels.
void GemvTilesRef(const W4GemvArgs& args, int64_t begin, int64_t end);
#if defined(__aarch64__)
void GemvTilesNeon(const W4GemvArgs& args, int64_t begin, int64_t end);
void GemvTilesDotprod(const W4GemvArgs& args, int64_t begin, int64_t end);
void GemvTilesSve2(const W4GemvArgs& args, int64_t begin, int64_t end);
#endif

#if defined(__aarch64__)
// The SDOT kernels start each group's accumulators at -8 * the sum of its x: a table per call,
// on the stack for up to this many groups (k <= 32768: 16 KB); longer rows run GemvTilesNeon.
inline constexpr int64_t kMaxBiasGroups = 1024;
inline constexpr int64_t kBiasCopies = 4;  // per group: one LD4R sets a tile's 4 accumulators

// bias[4g .. 4g + 3] = -8 * the sum of x[32g .. 32g + 31], g < groups (x zero-padded to whole
// groups).
void GroupBiases(const int8_t* x, int64_t groups, int32_t* bias);
#endif

// Stores 4 rows of y from row `row` on, fewer at the end of the matrix.
inline void StoreRows(float* y, int64_t row, int64_t n, const float v[4]) {
  for (int64_t r = 0; r < 4 && row + r < n; ++r) y[row + r] = v[r];
}

// A GEMM's x: m rows in pairs (the last pair's second row zero when m is odd); pair p, group
// g, 8-k chunk c at x + ((p * groups + g) * 4 + c) * 16 holds row 2p's 8 bytes then row
// 2p + 1's (one SMMLA operand).
struct GemmArgs {
  Q4View w;
  const int8_t* x_pairs = nullptr;
  const float* x_scales = nullptr;  // m
  int64_t m = 0;
  float* y = nullptr;  // [m, n]
};

#if defined(__aarch64__)
// Computes the rows of tiles [begin, end) for all m activation rows.
void GemmTilesI8mm(const GemmArgs& args, int64_t begin, int64_t end);
#endif

// Tile t of a GGUF Q4_0 matrix (rows of l.groups blocks of 18 bytes, already checked) in this
// format, byte for byte what tcpu_pack_q4 writes for the same numbers: any tile (q4_pack.cc),
// and a whole tile of 16 rows with NEON (q4_pack_neon.cc).
void PackTileFromQ4_0(const uint8_t* blocks, const Q4Layout& l, int64_t t, uint8_t* out);
#if defined(__aarch64__)
void PackTileFromQ4_0Neon(const uint8_t* blocks, const Q4Layout& l, int64_t t, uint8_t* out);
#endif

}  // namespace tcpu::q4

#endif  // TCPU_KERNELS_Q4_Q4_KERNELS_H_
