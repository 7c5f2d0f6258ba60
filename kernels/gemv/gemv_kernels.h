// The GEMV micro-kernels behind tcpu_gemv_i8 and tcpu_gemv_bf16_w8, one per file and ISA:
//   gemv_ref.cc      portable scalar reference
//   gemv_neon.cc     -march=armv8-a             SMULL + SADALP (exact for -128 * -128)
//   gemv_dotprod.cc  -march=armv8.2-a+dotprod   SDOT on 2 rows x 8 k per 16-byte load
//   gemv_sve2.cc     -march=armv9-a+sve2        SVE SDOT over the packed stream, any VL
// Each computes whole 4-row blocks of the packed matrix (kernels/pack/packed_weights.h) and
// hands every block's 4 int32 sums to StoreBlock, which writes the int32 or the bf16 output.
#ifndef TCPU_KERNELS_GEMV_GEMV_KERNELS_H_
#define TCPU_KERNELS_GEMV_GEMV_KERNELS_H_

#include <cstdint>

#include "tcpu/bf16.h"

// Marks a loop body for llvm-mca (kernels/gemv/mca.sh compiles with -DTCPU_LLVM_MCA); empty
// in real builds so the markers never constrain code generation.
#if defined(TCPU_LLVM_MCA)
#define TCPU_MCA_LOOP(name) __asm__ volatile("// tcpu-mca-loop " name)
#elif defined(TCPU_PERF_EXTRA_LOOP_INSTRUCTION)
// One instruction more per iteration: the deliberately slower kernel that proves the
// instruction-count gate fails (tools/perf/tests).
#define TCPU_MCA_LOOP(name) __asm__ volatile("nop")
#else
#define TCPU_MCA_LOOP(name)
#endif

namespace tcpu::gemv {

// One call, shared read-only by the threads that run its blocks.
struct I8GemvArgs {
  const int8_t* w = nullptr;           // packed data: block b at w + b * chunks * 32
  int64_t chunks = 0;                  // 8-byte k chunks per block (k_padded / 8)
  int64_t n = 0;                       // rows of y (the last block may be partial)
  int64_t k = 0;                       // bytes of x
  const int8_t* x = nullptr;           // k int8 activations
  const int8_t* x_prepared = nullptr;  // the kernel's prepare_x output, if it has one
  int32_t* y_i32 = nullptr;            // int32 output (tcpu_gemv_i8), or
  uint16_t* y_bf16 = nullptr;          // bf16 output (tcpu_gemv_bf16_w8), or
  float* y_f32 = nullptr;              // fp32 output (the decode step's logits), with
  const float* w_scales = nullptr;     //   per-row weight scales and
  float x_scale = 0.0f;                //   the activation scale absmax / 127
};

// Writes block `block`'s row sums: int32 as they are, or the W8A8 epilogue of tcpu/gemv.h,
// y = bf16_rne((float)acc * x_scale * w_scale): two roundings in that order on every variant
// (fp32 output: the same without the bf16 rounding).
inline void StoreBlock(const I8GemvArgs& a, int64_t block, const int32_t acc[4]) {
  const int64_t row0 = block * 4;
  const int64_t rows = a.n - row0 < 4 ? a.n - row0 : 4;
  if (a.y_i32 != nullptr) {
    if (rows == 4) {  // Whole blocks spelled out: clang turns the loop into a memcpy call.
      int32_t* y = a.y_i32 + row0;
      y[0] = acc[0];
      y[1] = acc[1];
      y[2] = acc[2];
      y[3] = acc[3];
      return;
    }
    for (int64_t r = 0; r < rows; ++r) a.y_i32[row0 + r] = acc[r];
  } else if (a.y_f32 != nullptr) {
    for (int64_t r = 0; r < rows; ++r) {
      a.y_f32[row0 + r] = static_cast<float>(acc[r]) * a.x_scale * a.w_scales[row0 + r];
    }
  } else {
    for (int64_t r = 0; r < rows; ++r) {
      const float scaled = static_cast<float>(acc[r]) * a.x_scale;
      a.y_bf16[row0 + r] = tcpu_f32_to_bf16(scaled * a.w_scales[row0 + r]);
    }
  }
}

struct GemvKernel {
  // Computes blocks [begin, end) into the output of `args`.
  void (*run_blocks)(const I8GemvArgs& args, int64_t begin, int64_t end);
  // Scratch bytes prepare_x writes for `chunks` chunks (0: the kernel reads x directly).
  int64_t prepared_x_bytes_per_chunk;
  // Rewrites x (k bytes) into the layout run_blocks reads as x_prepared, or nullptr.
  void (*prepare_x)(const int8_t* x, int64_t k, int64_t chunks, int8_t* out);
  // W8A8 activation quantization (bit-identical on every kernel): max |x| over the non-NaN
  // values (0 if none), and q[j] = clamp(rint(x[j] * inv), -127, 127), a NaN product -> 0.
  float (*absmax_bf16)(const uint16_t* x, int64_t k);
  void (*quantize_bf16)(const uint16_t* x, int64_t k, float inv, int8_t* q);
};

// prepare_x layouts (gemv_ref.cc, portable copies): x chunk c (8 bytes, zero past k) repeated
// 2 times at out + 16c (for 16-byte loads of 2 rows x 8 k), or 4 times at out + 32c (the
// 32-byte (4 rows x 8 k) tile of the packed stream, for SVE loads of any length).
void DuplicateXChunks(const int8_t* x, int64_t k, int64_t chunks, int8_t* out);
void QuadruplicateXChunks(const int8_t* x, int64_t k, int64_t chunks, int8_t* out);

// Scalar quantization (gemv_ref.cc), the model the vector versions must match bit for bit.
float AbsmaxBf16Ref(const uint16_t* x, int64_t k);
void QuantizeBf16Ref(const uint16_t* x, int64_t k, float inv, int8_t* q);

extern const GemvKernel kGemvRef;
#if defined(__aarch64__)
// NEON quantization (gemv_quantize_neon.cc, armv8-a), used by every aarch64 kernel.
float AbsmaxBf16Neon(const uint16_t* x, int64_t k);
void QuantizeBf16Neon(const uint16_t* x, int64_t k, float inv, int8_t* q);

extern const GemvKernel kGemvNeon;
extern const GemvKernel kGemvDotprod;
extern const GemvKernel kGemvSve2;
#endif

}  // namespace tcpu::gemv

#endif  // TCPU_KERNELS_GEMV_GEMV_KERNELS_H_
