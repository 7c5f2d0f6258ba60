// W4A8 GEMV in SVE2 (-march=armv9-a+sve2), vector-length agnostic on the one packed format,
// one tile of 16 rows at a time. A unit of a tile is 64 bytes (4 row quads, q4_packed.h): V =
// 4, 2 or 1 vectors per unit at 128, 256 or 512 bits, with x one quadword replicated into
// every segment (LD1RQB), so SDOT by element leaves one row per 32-bit lane and the fp32 step
// needs no reduction. At 1024 and 2048 bits a vector holds 2 or 4 units: TBL gives each
// segment the x quads of its own unit, and EXT + ADD fold the units' partial sums onto the
// first 16 lanes once per group. SVE's SCVTF has no fraction bits, so the sums of 16 * q * x
// are shifted right by 4 (exact) first; the fp16 scales are loaded into 32-bit lanes and
// widened by FCVT. Sizeless SVE types cannot form arrays, so the V
// accumulators are the parts of 4-vector tuples.
#include <arm_sve.h>

#include "kernels/q4/q4_kernels.h"

namespace tcpu::q4 {
namespace {

// Vector v of unit u (V > 1: the unit is exactly V vectors; V == 1: one vector from its start,
// predicated to 64 bytes from 1024 bits on) into accumulator v.
template <int V, int u, int v>
__attribute__((always_inline)) inline void UnitPart(svbool_t bytes, const uint8_t* w, svint8_t xa,
                                                    svint8_t xb, svint32x4_t& acc) {
  if constexpr (v < V) {
    const svbool_t all = svptrue_b8();
    const svuint8_t raw = V > 1 ? svld1_vnum_u8(bytes, w, u * V + v) : svld1_u8(bytes, w + 64 * u);
    svint32_t a = svget4_s32(acc, v);
    a = svdot_lane_s32(a, svreinterpret_s8_u8(svlsl_n_u8_x(all, raw, 4)), xa, u);
    a = svdot_lane_s32(a, svreinterpret_s8_u8(svand_n_u8_x(all, raw, 0xf0)), xb, u);
    acc = svset4_s32(acc, v, a);
  }
}

template <int V, int u>
__attribute__((always_inline)) inline void Unit(svbool_t bytes, const uint8_t* w, svint8_t xa,
                                                svint8_t xb, svint32x4_t& acc) {
  UnitPart<V, u, 0>(bytes, w, xa, xb, acc);
  UnitPart<V, u, 1>(bytes, w, xa, xb, acc);
  UnitPart<V, u, 2>(bytes, w, xa, xb, acc);
  UnitPart<V, u, 3>(bytes, w, xa, xb, acc);
}

// Vector v of the group's fp16 scales widened to fp32: LD1H into 32-bit lanes (the half in
// each lane's low bits), then FCVT, exact.
template <int v>
__attribute__((always_inline)) inline svfloat32_t WidenScales(svbool_t rows,
                                                              const uint16_t* scales) {
  const svuint32_t h = svld1uh_vnum_u32(rows, scales, v);
  return svcvt_f32_f16_x(svptrue_b32(), svreinterpret_f16_u32(h));
}

// f[v] += (float)(acc[v] >> 4) * scales[v]: the group's fp32 step for vector v.
template <int V, int v>
__attribute__((always_inline)) inline void Scale(svbool_t rows, const uint16_t* scales,
                                                 svint32x4_t acc, svfloat32x4_t& f) {
  if constexpr (v < V) {
    const svbool_t all = svptrue_b32();
    const svfloat32_t s = WidenScales<v>(rows, scales);
    const svfloat32_t sum = svcvt_f32_s32_x(all, svasr_n_s32_x(all, svget4_s32(acc, v), 4));
    f = svset4_f32(f, v, svmla_f32_x(all, svget4_f32(f, v), sum, s));
  }
}

template <int V, int v>
__attribute__((always_inline)) inline void Store(const W4GemvArgs& a, int64_t row0, int64_t stop,
                                                 svfloat32x4_t f) {
  if constexpr (v < V) {
    const int64_t first = row0 + v * static_cast<int64_t>(svcntw());
    svst1_f32(svwhilelt_b32_s64(first, stop), a.y + first,
              svmul_n_f32_x(svptrue_b32(), svget4_f32(f, v), a.x_scale));
  }
}

template <int V>
void RunTiles(const W4GemvArgs& a, int64_t begin, int64_t end) {
  const int64_t groups = a.w.layout.groups, n = a.w.layout.n;
  const svbool_t bytes = svwhilelt_b8_s64(0, kUnitBytes);  // all, or 64 bytes from 1024 bits
  const svbool_t rows = svwhilelt_b32_s64(0, kTileRows);   // all, or 16 lanes
  const svbool_t all8 = svptrue_b8();
  const svint32_t zero = svdup_n_s32(0);
  const svfloat32_t fzero = svdup_n_f32(0.0f);
  for (int64_t t = begin; t < end; ++t) {
    const uint8_t* w = a.w.Tile(t);
    const int8_t* x = a.x;
    svfloat32x4_t f = svcreate4_f32(fzero, fzero, fzero, fzero);
    for (int64_t g = 0; g < groups; ++g) {
      TCPU_Q4_MCA_LOOP("q4_gemv_sve2");
      const svint8_t xa = svld1rq_s8(all8, x), xb = svld1rq_s8(all8, x + 16);
      x += kGroup;
      svint32x4_t acc = svcreate4_s32(zero, zero, zero, zero);
      Unit<V, 0>(bytes, w, xa, xb, acc);
      Unit<V, 1>(bytes, w, xa, xb, acc);
      Unit<V, 2>(bytes, w, xa, xb, acc);
      Unit<V, 3>(bytes, w, xa, xb, acc);
      const uint16_t* scales = reinterpret_cast<const uint16_t*>(w + kUnits * kUnitBytes);
      Scale<V, 0>(rows, scales, acc, f);
      Scale<V, 1>(rows, scales, acc, f);
      Scale<V, 2>(rows, scales, acc, f);
      Scale<V, 3>(rows, scales, acc, f);
      w += kTileGroupBytes;
    }
    const int64_t row0 = t * kTileRows;
    const int64_t stop = row0 + kTileRows < n ? row0 + kTileRows : n;
    Store<V, 0>(a, row0, stop, f);
    Store<V, 1>(a, row0, stop, f);
    Store<V, 2>(a, row0, stop, f);
    Store<V, 3>(a, row0, stop, f);
  }
}

// kPerVector units per vector (2 at 1024 bits, 4 at 2048): 4 / kPerVector vectors per group.
template <int kPerVector>
void RunTilesWide(const W4GemvArgs& a, int64_t begin, int64_t end) {
  constexpr int kVectors = 4 / kPerVector;
  const int64_t groups = a.w.layout.groups, n = a.w.layout.n;
  const svbool_t all8 = svptrue_b8();
  const svbool_t all32 = svptrue_b32();
  const svbool_t rows = svwhilelt_b32_s64(0, kTileRows);
  // TBL on 32-bit words: in vector h, segment s belongs to unit u = h * kPerVector + s / 4 (16
  // words per unit); its word 0 takes x quad u (xa), word 1 quad u + 4 (xb, the second table
  // vector: index + VL words); words 2 and 3 are never read by SDOT lanes 0 and 1.
  const svuint32_t lane = svindex_u32(0, 1);
  const svuint32_t unit = svlsr_n_u32_x(all32, lane, 4);
  const svbool_t second = svcmpeq_n_u32(all32, svand_n_u32_x(all32, lane, 3), 1);
  const uint32_t words = static_cast<uint32_t>(svcntw());
  const svuint32_t index0 = svadd_n_u32_m(second, unit, words);
  const svuint32_t index1 = svadd_n_u32_m(second, svadd_n_u32_x(all32, unit, kPerVector), words);
  const svint32_t zero = svdup_n_s32(0);
  for (int64_t t = begin; t < end; ++t) {
    const uint8_t* w = a.w.Tile(t);
    const int8_t* x = a.x;
    svfloat32_t f = svdup_n_f32(0.0f);
    for (int64_t g = 0; g < groups; ++g) {
      TCPU_Q4_MCA_LOOP("q4_gemv_sve2_wide");
      const svuint32x2_t xab = svcreate2_u32(svreinterpret_u32_s8(svld1rq_s8(all8, x)),
                                             svreinterpret_u32_s8(svld1rq_s8(all8, x + 16)));
      x += kGroup;
      svint32_t acc = zero;
#pragma clang loop unroll(full)
      for (int h = 0; h < kVectors; ++h) {
        const svint8_t xh = svreinterpret_s8_u32(svtbl2_u32(xab, h == 0 ? index0 : index1));
        const svuint8_t raw = svld1_vnum_u8(all8, w, h);
        acc = svdot_lane_s32(acc, svreinterpret_s8_u8(svlsl_n_u8_x(all8, raw, 4)), xh, 0);
        acc = svdot_lane_s32(acc, svreinterpret_s8_u8(svand_n_u8_x(all8, raw, 0xf0)), xh, 1);
      }
      if constexpr (kPerVector == 4) acc = svadd_s32_x(all32, acc, svext_s32(acc, acc, 32));
      acc = svadd_s32_x(all32, acc, svext_s32(acc, acc, 16));  // lanes 0-15: the 16 rows
      const svfloat32_t s =
          WidenScales<0>(rows, reinterpret_cast<const uint16_t*>(w + kUnits * kUnitBytes));
      f = svmla_f32_x(all32, f, svcvt_f32_s32_x(all32, svasr_n_s32_x(all32, acc, 4)), s);
      w += kTileGroupBytes;
    }
    const int64_t row0 = t * kTileRows;
    const int64_t stop = row0 + kTileRows < n ? row0 + kTileRows : n;
    svst1_f32(svwhilelt_b32_s64(row0, stop), a.y + row0, svmul_n_f32_x(all32, f, a.x_scale));
  }
}

}  // namespace

void GemvTilesSve2(const W4GemvArgs& a, int64_t begin, int64_t end) {
  switch (svcntb()) {
    case 16:
      return RunTiles<4>(a, begin, end);
    case 32:
      return RunTiles<2>(a, begin, end);
    case 64:
      return RunTiles<1>(a, begin, end);
    case 128:
      return RunTilesWide<2>(a, begin, end);
    case 256:
      return RunTilesWide<4>(a, begin, end);
    default:  // lengths that are not powers of two (allowed before SVE2.1)
      return svcntb() > 64 ? RunTiles<1>(a, begin, end) : GemvTilesRef(a, begin, end);
  }
}

}  // namespace tcpu::q4
