// The GEMM micro-kernels behind tcpu_gemm_i8, one per file and ISA:
//   gemm_ref.cc      portable scalar reference (and the portable x packing routines)
//   gemm_neon.cc     -march=armv8-a             2 x rows x 8 w rows, SMULL + SADALP
//   gemm_dotprod.cc  -march=armv8.2-a+dotprod   4 x rows x 8 w rows, SDOT
//   gemm_i8mm.cc     -march=armv8.6-a+i8mm      8 x rows x 8 w rows, SMMLA
// A tile is up to m_tile rows of x (y) by up to 2 blocks (8 rows of w, 8 columns of y); the
// kernel handles partial tiles itself and never writes y outside [0, m) x [0, n). Every kernel
// hands its int32 sums to the same store (StoreElement here, StoreTile in gemm_store_neon.h),
// which writes them as they are (tcpu_gemm_i8) or through the W8A8 epilogue (tcpu_gemm_w8a8,
// tcpu_gemm_bf16_w8a8): the scaling and bf16 rounding happen while the tile is in registers.
#ifndef TCPU_KERNELS_GEMM_GEMM_KERNELS_H_
#define TCPU_KERNELS_GEMM_GEMM_KERNELS_H_

#include <cstdint>

#include "tcpu/bf16.h"

// Marks a loop for llvm-mca (kernels/gemm/mca.sh compiles with -DTCPU_LLVM_MCA); empty in
// real builds so the marker never constrains code generation.
#if defined(TCPU_LLVM_MCA)
#define TCPU_MCA_LOOP(name) __asm__ volatile("// tcpu-mca-loop " name)
#else
#define TCPU_MCA_LOOP(name)
#endif

namespace tcpu::gemm {

inline constexpr int64_t kTileBlocks = 2;  // blocks of 4 w rows per tile

// What a GEMM writes for the int32 sum acc of row r, column i.
enum class Output {
  kInt32,  // y[r][i] = acc
  kF32,    // y_f32[r][i] = (float)acc * x_scales[r] * w_scales[i]  (two roundings, that order)
  kBf16,   // y_bf16[r][i] = bf16_rne(that fp32 value [+ bias[i], one more rounding])
};

// One call, shared read-only by the threads that run its tiles.
struct GemmArgs {
  const int8_t* w = nullptr;         // packed data: block b at w + b * chunks * 32
  int64_t chunks = 0;                // 8-byte k chunks per block (k_padded / 8)
  int64_t m = 0;                     // rows of x and y
  int64_t n = 0;                     // rows of w, columns of y
  int64_t k = 0;                     // columns of x
  const int8_t* x = nullptr;         // [m, k] row-major
  const int8_t* x_packed = nullptr;  // the kernel's pack_x output, if it has one
  Output output = Output::kInt32;
  int32_t* y = nullptr;             // kInt32: [m, n] row-major
  float* y_f32 = nullptr;           // kF32: [m, n] row-major
  uint16_t* y_bf16 = nullptr;       // kBf16: [m, n] row-major
  const float* x_scales = nullptr;  // kF32, kBf16: [m]
  const float* w_scales = nullptr;  // kF32, kBf16: [n]
  const float* bias = nullptr;      // kBf16: [n], or nullptr
};

// Writes the sum acc of y[row][col] (inside y) as args.output says: the scalar form of
// StoreTile, the same arithmetic (no FMA: the product and the bias are separate statements).
inline void StoreElement(const GemmArgs& a, int64_t row, int64_t col, int32_t acc) {
  const int64_t at = row * a.n + col;
  if (a.output == Output::kInt32) {
    a.y[at] = acc;
    return;
  }
  const float scaled = static_cast<float>(acc) * a.x_scales[row];
  float value = scaled * a.w_scales[col];
  if (a.output == Output::kF32) {
    a.y_f32[at] = value;
    return;
  }
  if (a.bias != nullptr) value += a.bias[col];
  a.y_bf16[at] = tcpu_f32_to_bf16(value);
}

// Stores y[row][col0 + i] = v[i] for the i < 4 that lie inside y.
inline void StoreRowClipped(const GemmArgs& a, int64_t row, int64_t col0, const int32_t v[4]) {
  if (row >= a.m) return;
  for (int64_t i = 0; i < 4 && col0 + i < a.n; ++i) StoreElement(a, row, col0 + i, v[i]);
}

struct GemmKernel {
  int64_t m_tile;  // rows of x per tile
  // Computes y[row0, row0 + rows) x [4 * block0, 4 * (block0 + blocks)) (clipped to y);
  // rows <= m_tile, blocks <= kTileBlocks.
  void (*run_tile)(const GemmArgs& args, int64_t row0, int64_t rows, int64_t block0,
                   int64_t blocks);
  // Bytes pack_x writes for m rows of `chunks` chunks (false if it overflows int64).
  bool (*packed_x_bytes)(int64_t m, int64_t chunks, int64_t* bytes);
  // Rewrites x into the layout run_tile reads as x_packed, or nullptr.
  void (*pack_x)(const int8_t* x, int64_t m, int64_t k, int64_t chunks, int8_t* out);
};

// Portable x packings (gemm_ref.cc). Rows are zero past k (and past m for tiles):
//   tiles: 8-row tile t, chunk c at out + (t * chunks + c) * 64 as rows 8t .. 8t+7, 8 bytes
//          each: 4 pairs (2p, 2p+1), each the 2x8 SMMLA operand with the weights'
//          interleave, side by side so one 64-byte load fetches all 4.
//   duplicated: row r, chunk c at out + (r * chunks + c) * 16 as [x[r] 8 bytes] twice: the
//          SDOT / SMULL2 operand against 16 bytes of 2 weight rows.
bool PackedXTilesBytes(int64_t m, int64_t chunks, int64_t* bytes);
void PackXTiles(const int8_t* x, int64_t m, int64_t k, int64_t chunks, int8_t* out);
bool PackedXDuplicatedBytes(int64_t m, int64_t chunks, int64_t* bytes);
void PackXDuplicated(const int8_t* x, int64_t m, int64_t k, int64_t chunks, int8_t* out);

extern const GemmKernel kGemmRef;
#if defined(__aarch64__)
extern const GemmKernel kGemmNeon;
extern const GemmKernel kGemmDotprod;
extern const GemmKernel kGemmI8mm;
#endif

}  // namespace tcpu::gemm

#endif  // TCPU_KERNELS_GEMM_GEMM_KERNELS_H_
