// W4A8 GEMV in SVE2 (-march=armv9-a+sve2), vector-length agnostic on the one packed format,
// one tile of 16 rows at a time. A unit of a tile is 64 bytes (4 slots of [4 row pairs x 4 k],
// q4_packed.h); SDOT by element on a slot's raw bytes sums 16 * qa + qb + 8 per pair, on its low
// nibbles (AND 0x0f) qb + 8, into accumulators `raw` and `low` that start at the group's
// -8 * sum(x) (LD1RW of the bias table): `low` is row b's sum, raw - low 16 times row a's.
// At 128 bits a vector is one slot (4 per unit), at 256 bits two slots at the same x quad (2
// per unit), with x one quadword replicated into every segment (LD1RQB). From 512 bits a vector
// holds 1, 2 or 4 whole units: each segment takes its own x quad (SEL of the two replicated
// quadwords at 512 bits, TBL beyond), and EXT + ADD fold the segments onto the first two (the
// 8 pairs) once per group. SVE's SCVTF has no fraction bits, so 16 * Da is shifted right by 4
// (exact) first; the fp16 scales are loaded into 32-bit lanes and widened by FCVT.
#include <arm_sve.h>

#include "kernels/q4/q4_kernels.h"

namespace tcpu::q4 {
namespace {

// The fp16 scales of `lanes` rows from `scales` widened to fp32: LD1H into 32-bit lanes (the
// half in each lane's low bits), then FCVT, exact.
__attribute__((always_inline)) inline svfloat32_t WidenScales(svbool_t lanes,
                                                              const uint16_t* scales) {
  const svuint32_t h = svld1uh_u32(lanes, scales);
  return svcvt_f32_f16_x(svptrue_b32(), svreinterpret_f16_u32(h));
}

// raw += SDOT(r, x quad `lane`), low += SDOT(l, same): svdot_lane needs an immediate lane,
// which `lane` becomes once the callers' loops are fully unrolled.
__attribute__((always_inline)) inline void DotPair(int lane, svint8_t r, svint8_t l, svint8_t x,
                                                   svint32_t& raw, svint32_t& low) {
  switch (lane) {
    case 0:
      raw = svdot_lane_s32(raw, r, x, 0);
      low = svdot_lane_s32(low, l, x, 0);
      break;
    case 1:
      raw = svdot_lane_s32(raw, r, x, 1);
      low = svdot_lane_s32(low, l, x, 1);
      break;
    case 2:
      raw = svdot_lane_s32(raw, r, x, 2);
      low = svdot_lane_s32(low, l, x, 2);
      break;
    default:
      raw = svdot_lane_s32(raw, r, x, 3);
      low = svdot_lane_s32(low, l, x, 3);
      break;
  }
}

// The group's fp32 step for the pairs in `lanes`: rows a (scales at scales_a) get
// (raw - low) >> 4, rows b (scales at scales_b) low.
__attribute__((always_inline)) inline void Step(svbool_t lanes, const uint16_t* scales_a,
                                                const uint16_t* scales_b, svint32_t raw,
                                                svint32_t low, svfloat32_t& fa, svfloat32_t& fb) {
  const svbool_t all = svptrue_b32();
  const svint32_t da = svasr_n_s32_x(all, svsub_s32_x(all, raw, low), 4);
  fa = svmla_f32_x(all, fa, svcvt_f32_s32_x(all, da), WidenScales(lanes, scales_a));
  fb = svmla_f32_x(all, fb, svcvt_f32_s32_x(all, low), WidenScales(lanes, scales_b));
}

// Stores `lanes`-row parts: fa at rows row0 + .., fb at row0 + 8 + ...
__attribute__((always_inline)) inline void StoreRowsOf(const W4GemvArgs& a, int64_t first,
                                                       int64_t count, svfloat32_t f) {
  const int64_t n = a.w.layout.n;
  const int64_t stop = first + count < n ? first + count : n;
  svst1_f32(svwhilelt_b32_s64(first, stop), a.y + first,
            svmul_n_f32_x(svptrue_b32(), f, a.x_scale));
}

// V = 4 (128 bits: a vector is slot v, pair quad v % 2) or 2 (256 bits: slots 2v, 2v + 1,
// all 8 pairs): vector v of a unit multiplies x quad u of xa (v < V / 2) or of xb.
template <int V>
void RunTiles(const W4GemvArgs& a, const int32_t* bias, int64_t begin, int64_t end) {
  constexpr int kAcc = V / 2;  // accumulator pairs (raw, low)
  const int64_t groups = a.w.layout.groups;
  const svbool_t all8 = svptrue_b8();
  const svbool_t lanes = svptrue_b32();  // 4 or 8 rows per vector
  const svuint8_t low_mask = svdup_n_u8(0x0f);
  const svfloat32_t fzero = svdup_n_f32(0.0f);
  for (int64_t t = begin; t < end; ++t) {
    const uint8_t* w = a.w.Tile(t);
    const int8_t* x = a.x;
    svfloat32_t fa0 = fzero, fa1 = fzero, fb0 = fzero, fb1 = fzero;
    for (int64_t g = 0; g < groups; ++g) {
      TCPU_Q4_MCA_LOOP("q4_gemv_sve2");
      const svint8_t xa = svld1rq_s8(all8, x), xb = svld1rq_s8(all8, x + 16);
      x += kGroup;
      const svint32_t b = svdup_n_s32(bias[kBiasCopies * g]);
      svint32_t raw0 = b, raw1 = b, low0 = b, low1 = b;
#pragma clang loop unroll(full)
      for (int u = 0; u < 4; ++u) {
#pragma clang loop unroll(full)
        for (int v = 0; v < V; ++v) {
          const svuint8_t bytes = svld1_vnum_u8(all8, w, u * V + v);
          const svint8_t xq = v < V / 2 ? xa : xb;
          const svint8_t raw = svreinterpret_s8_u8(bytes);
          const svint8_t low = svreinterpret_s8_u8(svand_u8_x(all8, bytes, low_mask));
          DotPair(u, raw, low, xq, v % kAcc == 0 ? raw0 : raw1, v % kAcc == 0 ? low0 : low1);
        }
      }
      const uint16_t* scales = reinterpret_cast<const uint16_t*>(w + kUnits * kUnitBytes);
      // Accumulator pair i: rows a from 4i (128 bits) or 0, rows b 8 further.
      Step(lanes, scales, scales + kPairs, raw0, low0, fa0, fb0);
      if constexpr (kAcc == 2) Step(lanes, scales + 4, scales + 4 + kPairs, raw1, low1, fa1, fb1);
      w += kTileGroupBytes;
    }
    const int64_t row0 = t * kTileRows, per = static_cast<int64_t>(svcntw());
    StoreRowsOf(a, row0, per, fa0);
    StoreRowsOf(a, row0 + kPairs, per, fb0);
    if constexpr (kAcc == 2) {
      StoreRowsOf(a, row0 + per, per, fa1);
      StoreRowsOf(a, row0 + kPairs + per, per, fb1);
    }
  }
}

// kPerVector whole units per vector (1, 2 or 4 at 512, 1024, 2048 bits): 4 / kPerVector vectors
// per group. Segment s of vector h is slot s % 4 of unit u = h * kPerVector + s / 4: x quad u of
// xa (slots 0, 1) or xb (slots 2, 3), pairs 4 * (s % 2) ...; `xq` is [xa, xa, xb, xb] at 512
// bits, index0/1 the TBL indexes wider. One tile's group from `w`; returns f plus its rows.
template <int kPerVector>
__attribute__((always_inline)) inline svfloat32_t WideGroup(const uint8_t* w, svint8_t xa,
                                                            svint8_t xb, svint8_t xq,
                                                            svint32_t start, svuint8_t low_mask,
                                                            svuint32_t index0, svuint32_t index1,
                                                            svbool_t pairs, svbool_t second_pairs,
                                                            svbool_t tile_rows, svfloat32_t f) {
  constexpr int kVectors = 4 / kPerVector;
  const svbool_t all8 = svptrue_b8();
  const svbool_t all32 = svptrue_b32();
  svint32_t raw = start, low = start;
#pragma clang loop unroll(full)
  for (int h = 0; h < kVectors; ++h) {
    const svuint8_t bytes = svld1_vnum_u8(all8, w, h);
    const svint8_t r = svreinterpret_s8_u8(bytes);
    const svint8_t l = svreinterpret_s8_u8(svand_u8_x(all8, bytes, low_mask));
    if constexpr (kPerVector == 1) {
      DotPair(h, r, l, xq, raw, low);
    } else {
      const svuint32x2_t xab = svcreate2_u32(svreinterpret_u32_s8(xa), svreinterpret_u32_s8(xb));
      const svint8_t x = svreinterpret_s8_u32(svtbl2_u32(xab, h == 0 ? index0 : index1));
      raw = svdot_lane_s32(raw, r, x, 0);
      low = svdot_lane_s32(low, l, x, 0);
    }
  }
  // 16 * Da in every lane of a pair (the biases cancel); low keeps Db + its bias.
  svint32_t d = svsub_s32_x(all32, raw, low);
  // Units onto the first (1024, 2048 bits); then lanes 0-15 hold segments 0-3.
  if constexpr (kPerVector == 4) {
    d = svadd_s32_x(all32, d, svext_s32(d, d, 32));
    low = svadd_s32_x(all32, low, svext_s32(low, low, 32));
  }
  if constexpr (kPerVector >= 2) {
    d = svadd_s32_x(all32, d, svext_s32(d, d, 16));
    low = svadd_s32_x(all32, low, svext_s32(low, low, 16));
  }
  // Rows in order: lanes 0-7 = d's segments 0-1 + 2-3 (rows a), lanes 8-15 = low's (rows b).
  // At 512 bits EXT of (d, low) and SEL give the two addends; wider, two SPLICEs.
  svint32_t rows;
  if constexpr (kPerVector == 1) {
    rows = svadd_s32_x(all32, svext_s32(d, low, 8), svsel_s32(pairs, d, low));
  } else {
    rows = svadd_s32_x(all32, svsplice_s32(pairs, d, low),
                       svsplice_s32(second_pairs, d, svext_s32(low, low, 8)));
  }
  rows = svasr_n_s32_m(pairs, rows, 4);
  const svfloat32_t s =
      WidenScales(tile_rows, reinterpret_cast<const uint16_t*>(w + kUnits * kUnitBytes));
  return svmla_f32_x(all32, f, svcvt_f32_s32_x(all32, rows), s);
}

// Tiles t .. t + kTiles - 1 (kTiles = 2 or 1): two tiles share each group's x, bias and the
// loop's compare and branch.
template <int kPerVector, int kTiles>
void RunTilesWide(const W4GemvArgs& a, const int32_t* bias, int64_t t) {
  const int64_t groups = a.w.layout.groups;
  const svbool_t all8 = svptrue_b8();
  const svbool_t all32 = svptrue_b32();
  const svbool_t pairs = svwhilelt_b32_s64(0, kPairs);  // lanes 0-7
  const svbool_t tile_rows = svwhilelt_b32_s64(0, kTileRows);
  const svbool_t second_pairs = svbic_b_z(tile_rows, tile_rows, pairs);  // lanes 8-15
  const svuint8_t low_mask = svdup_n_u8(0x0f);
  // At 512 bits: x = [xa, xa, xb, xb] by segment, SDOT lane u. Wider: TBL on 32-bit words
  // gives segment s word 0 its own quad (index u into xa, or u + VL words into xb).
  const svbool_t first_half = svwhilelt_b8_s64(0, 32);
  const svuint32_t lane = svindex_u32(0, 1);
  const svuint32_t unit = svlsr_n_u32_x(all32, lane, 4);  // 16 words per unit
  const svbool_t from_xb = svcmpge_n_u32(all32, svand_n_u32_x(all32, lane, 15), 8);
  const uint32_t words = static_cast<uint32_t>(svcntw());
  // Vector h's indexes (h < 2 whenever TBL runs: 2 vectors at 1024 bits, 1 at 2048).
  const svuint32_t index0 = svadd_n_u32_m(from_xb, unit, words);
  const svuint32_t index1 = svadd_n_u32_m(from_xb, svadd_n_u32_x(all32, unit, kPerVector), words);
  const uint8_t* w0 = a.w.Tile(t);
  const uint8_t* w1 = kTiles == 2 ? a.w.Tile(t + 1) : w0;
  const int8_t* x = a.x;
  svfloat32_t f0 = svdup_n_f32(0.0f), f1 = f0;  // rows 0-15 in lanes 0-15
  for (int64_t g = 0; g < groups; ++g) {
    TCPU_Q4_MCA_LOOP("q4_gemv_sve2_wide");
    const svint8_t xa = svld1rq_s8(all8, x), xb = svld1rq_s8(all8, x + 16);
    const svint8_t xq = kPerVector == 1 ? svsel_s8(first_half, xa, xb) : xa;
    x += kGroup;
    // The bias in lanes 0-7 only: the folds add the other lanes into them.
    const svint32_t start = svdup_n_s32_z(pairs, bias[kBiasCopies * g]);
    f0 = WideGroup<kPerVector>(w0, xa, xb, xq, start, low_mask, index0, index1, pairs, second_pairs,
                               tile_rows, f0);
    w0 += kTileGroupBytes;
    if constexpr (kTiles == 2) {
      f1 = WideGroup<kPerVector>(w1, xa, xb, xq, start, low_mask, index0, index1, pairs,
                                 second_pairs, tile_rows, f1);
      w1 += kTileGroupBytes;
    }
  }
  StoreRowsOf(a, t * kTileRows, kTileRows, f0);
  if constexpr (kTiles == 2) StoreRowsOf(a, (t + 1) * kTileRows, kTileRows, f1);
}

template <int kPerVector>
void RunTilesWide(const W4GemvArgs& a, const int32_t* bias, int64_t begin, int64_t end) {
  int64_t t = begin;
  for (; t + 2 <= end; t += 2) RunTilesWide<kPerVector, 2>(a, bias, t);
  if (t < end) RunTilesWide<kPerVector, 1>(a, bias, t);
}

}  // namespace

void GemvTilesSve2(const W4GemvArgs& a, int64_t begin, int64_t end) {
  const int64_t groups = a.w.layout.groups;
  if (groups > kMaxBiasGroups) return GemvTilesNeon(a, begin, end);
  int32_t bias[kBiasCopies * kMaxBiasGroups];
  GroupBiases(a.x, groups, bias);
  switch (svcntb()) {
    case 16:
      return RunTiles<4>(a, bias, begin, end);
    case 32:
      return RunTiles<2>(a, bias, begin, end);
    case 64:
      return RunTilesWide<1>(a, bias, begin, end);
    case 128:
      return RunTilesWide<2>(a, bias, begin, end);
    case 256:
      return RunTilesWide<4>(a, bias, begin, end);
    default:  // lengths that are not powers of two (allowed before SVE2.1)
      return GemvTilesNeon(a, begin, end);
  }
}

}  // namespace tcpu::q4
