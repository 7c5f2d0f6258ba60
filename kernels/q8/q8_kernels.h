// The block-Q8 micro-kernels behind tcpu_gemv_q8 and tcpu_gemm_q8, one per file and ISA:
//   q8_gemv_ref.cc      portable scalar reference (the arithmetic of tcpu/gemv_q8.h)
//   q8_gemv_neon.cc     -march=armv8-a            SMULL/SMLAL of two units + SADALP
//   q8_gemv_dotprod.cc  -march=armv8.2-a+dotprod  a unit per 64-byte load, SDOT by element
//   q8_gemm_i8mm.cc     -march=armv8.6-a+i8mm     SMMLA on 2 x-rows x 2 weight rows x 8 k
//   q8_pack_neon.cc     -march=armv8-a            Q8_0 blocks into whole tiles: TRN/ZIP transposes
// The int4 kernels (kernels/q4) without the nibble unpack: the same tiles, groups and fp32 step.
#ifndef TCPU_KERNELS_Q8_Q8_KERNELS_H_
#define TCPU_KERNELS_Q8_Q8_KERNELS_H_

#include <cstdint>

#include "kernels/q8/q8_packed.h"

// Marks a loop body for llvm-mca (kernels/gemv/mca.sh compiles with -DTCPU_LLVM_MCA).
#if defined(TCPU_LLVM_MCA)
#define TCPU_Q8_MCA_LOOP(name) __asm__ volatile("// tcpu-mca-loop " name)
#else
#define TCPU_Q8_MCA_LOOP(name)
#endif

namespace tcpu::q8 {

// One GEMV (or one x row of a GEMM), shared read-only by the threads running its tiles.
struct Q8GemvArgs {
  Q8View w;
  const int8_t* x = nullptr;  // groups * 32 int8, zero past k (the caller pads)
  float x_scale = 0.0f;
  float* y = nullptr;  // n fp32
};

// Computes the rows of tiles [begin, end) of one GEMV.
using GemvTilesFn = void (*)(const Q8GemvArgs& args, int64_t begin, int64_t end);

void GemvTilesRef(const Q8GemvArgs& args, int64_t begin, int64_t end);
#if defined(__aarch64__)
void GemvTilesNeon(const Q8GemvArgs& args, int64_t begin, int64_t end);
void GemvTilesDotprod(const Q8GemvArgs& args, int64_t begin, int64_t end);
#endif

// Stores 4 rows of y from row `row` on, fewer at the end of the matrix.
inline void StoreRows(float* y, int64_t row, int64_t n, const float v[4]) {
  for (int64_t r = 0; r < 4 && row + r < n; ++r) y[row + r] = v[r];
}

// A GEMM: x in row pairs as grouped::ArrangeXPairs lays them out.
struct Q8GemmArgs {
  Q8View w;
  const int8_t* x_pairs = nullptr;
  const float* x_scales = nullptr;  // m
  int64_t m = 0;
  float* y = nullptr;  // [m, n]
};

// Tile t of GGUF Q8_0 blocks (rows of groups blocks of 34 bytes) packed into `out` (the tile's
// groups * 544 bytes): q and d as they are. Returns whether a block of the tile has a q of -128
// or a non-finite d (the caller then refuses the matrix). The NEON one takes whole tiles only.
bool PackTileFromQ8_0Scalar(const uint8_t* blocks, const Q8Layout& l, int64_t t, uint8_t* out);
#if defined(__aarch64__)
bool PackTileFromQ8_0Neon(const uint8_t* blocks, const Q8Layout& l, int64_t t, uint8_t* out);
#endif

#if defined(__aarch64__)
// Computes the rows of tiles [begin, end) for all m activation rows.
void GemmTilesI8mm(const Q8GemmArgs& args, int64_t begin, int64_t end);
#endif

}  // namespace tcpu::q8

#endif  // TCPU_KERNELS_Q8_Q8_KERNELS_H_
