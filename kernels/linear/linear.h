// The decode engine's linear layers, int8, int4 or block-Q8 behind one interface: a layer is a
// packed matrix with per-row scales (tcpu/gemv.h, W8A8), a packed int4 matrix whose group
// scales are inside it (tcpu/gemv_q4.h, W4A8) or a packed block-Q8 matrix, GGUF Q8_0's numbers,
// likewise (tcpu/gemv_q8.h), told apart by the packed header. All run on the same int8
// activation (gemv::QuantizeActivation, quantized once per vector), so the engine (transformer
// layer, fused MLP, decode step, prefill) never asks which format it runs. Above kernels/gemv,
// kernels/q4 and kernels/q8: q4 and q8 already depend on gemv for the shared quantizer, so none
// of them can call the others' kernels.
#ifndef TCPU_KERNELS_LINEAR_LINEAR_H_
#define TCPU_KERNELS_LINEAR_LINEAR_H_

#include <cstdint>

#include "kernels/gemv/gemv_w8a8.h"
#include "kernels/pack/packed_weights.h"
#include "kernels/q4/q4_packed.h"
#include "kernels/q8/q8_packed.h"

namespace tcpu::linear {

// The formats a linear layer can be packed in.
enum class Format { kInt8, kInt4, kBlockQ8 };

// A validated [n, k] linear layer.
struct LinearView {
  const void* packed = nullptr;  // the buffer as packed (header first)
  Format format = Format::kInt8;
  PackedWeightsView w8;           // int8: the matrix
  const float* scales = nullptr;  // int8: per-row scales [n]
  q4::Q4View w4;                  // int4: the matrix, scales inside
  q8::Q8View q8;                  // block-Q8: the matrix, scales inside
  int64_t n() const {
    return format == Format::kInt4      ? w4.layout.n
           : format == Format::kBlockQ8 ? q8.layout.n
                                        : w8.layout.n;
  }
};

// Checks one layer for [n, k]: an int8 matrix needs its scales, an int4 or block-Q8 matrix must
// come with scales == NULL (its scales are packed with it: a second set would be silently
// ignored).
// Errors (TCPU_ERR_NULL_POINTER, TCPU_ERR_INVALID_ARGUMENT, the packed views' own) start with
// `context`, which should name the layer.
int View(const char* context, const void* packed, const float* scales, int64_t n, int64_t k,
         LinearView* view);

// One layer of a Run call: y = W . x, bf16 (y) or fp32 (y_f32 when y is NULL). With y set,
// y_f32 must still point to n floats for an int4 or block-Q8 layer: its kernels produce fp32 that
// is rounded to bf16 once (so a bias can be added to the fp32 sum first, as for int8).
struct Output {
  LinearView weights;
  uint16_t* y = nullptr;
  float* y_f32 = nullptr;
};

// Runs `count` (<= kMaxUnitJobs, runtime/parallel_units.h) layers on x (every k equal to x.k),
// of any format, in one parallel region. Each output is bit-identical to its own
// tcpu_gemv_bf16_w8 / _w4 / _q8 call (fp32: before the bf16 rounding); a zero x gives zeros.
// With int4 or block-Q8 layers, zero-fills x's scratch past k to whole groups of 32.
// Returns a tcpu_status (only the thread pool can fail).
int Run(const gemv::QuantizedActivation& x, const Output* outputs, int count);

// Batched (prefill, batched decode) form: y[r][i] for m activation rows xq[m][k] (int8, row
// stride k) with scales x_scales[m] (0 for a row that quantized to all zeros), fp32, each row
// exactly the fp32 value Run computes for that row alone: int8 (float)acc * x_scale * w_scale
// in that order (tcpu_gemm_w8a8), int4 and block-Q8 the arithmetic of tcpu/gemv_q4.h
// (tcpu_gemm_w4a8, tcpu_gemm_q8). y: [m, n].
// Uses the calling thread's scratch arena (RowsScratchBytes).
int RunRows(const LinearView& w, const int8_t* xq, const float* x_scales, int64_t m, int64_t k,
            float* y);

// The same rounded to bf16 once, after adding bias[i] (or nothing, bias NULL) to the fp32
// value: each row bit-identical to Run's bf16 output for it (with a bias: Run's fp32 output,
// + bias, rounded). int8 rounds in the GEMM's tile epilogue (tcpu_gemm_bf16_w8a8); int4 and
// block-Q8 write fp32 to y_f32 ([m, n], unused for int8) and round it in a second pass.
int RunRowsBf16(const LinearView& w, const int8_t* xq, const float* x_scales, int64_t m, int64_t k,
                const float* bias, uint16_t* y, float* y_f32);

// Arena bytes RunRows needs for m rows of k, either format, or a negative tcpu_status.
int64_t RowsScratchBytes(int64_t m, int64_t k);

}  // namespace tcpu::linear

#endif  // TCPU_KERNELS_LINEAR_LINEAR_H_
