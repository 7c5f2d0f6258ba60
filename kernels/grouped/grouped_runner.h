// How the GEMVs and GEMMs of the grouped formats (grouped_format.h) split their tiles over the
// thread pool and prepare x: shared by every format, so that each splits the same way.
#ifndef TCPU_KERNELS_GROUPED_GROUPED_RUNNER_H_
#define TCPU_KERNELS_GROUPED_GROUPED_RUNNER_H_

#include <cstdint>
#include <cstring>

#include "kernels/grouped/grouped_format.h"
#include "runtime/check.h"
#include "runtime/parallel_units.h"
#include "runtime/scratch_arena.h"
#include "tcpu/bf16.h"

namespace tcpu::grouped {

// A task unit holds 4 tiles (64 rows): the unit the dotprod kernels run fastest.
inline constexpr int64_t kTilesPerUnit = 4;

inline int64_t TileUnits(const Layout& layout) {
  return (layout.tiles + kTilesPerUnit - 1) / kTilesPerUnit;
}

inline int64_t MacsPerTileUnit(const Layout& layout) {
  return layout.groups * kGroup * kTileRows * kTilesPerUnit;
}

// Tiles [unit_begin * 4, unit_end * 4) clipped to the matrix.
inline void UnitTiles(const Layout& layout, int64_t unit_begin, int64_t unit_end,
                      int64_t* tile_begin, int64_t* tile_end) {
  *tile_begin = unit_begin * kTilesPerUnit;
  const int64_t last = unit_end * kTilesPerUnit;
  *tile_end = last < layout.tiles ? last : layout.tiles;
}

// Runs body(tile_begin, tile_end) over all tiles through ParallelForUnits; a row costs
// macs_per_row multiply-accumulates.
template <typename Body>
int ForEachTile(const Layout& layout, int64_t macs_per_row, Body&& body) {
  const int64_t units = TileUnits(layout);
  const int64_t macs_per_unit = macs_per_row * kTileRows * kTilesPerUnit;
  return ParallelForUnits(&units, &macs_per_unit, 1, [&](int, int64_t begin, int64_t end) {
    int64_t tile_begin = 0, tile_end = 0;
    UnitTiles(layout, begin, end, &tile_begin, &tile_end);
    body(tile_begin, tile_end);
  });
}

// One matrix's GEMV over the tiles of task units [unit_begin, unit_end), for the linear layers'
// shared activation: `gemv(args, tile_begin, tile_end)` with args {w, x, x_scale, y_f32} (Args:
// the format's GEMV arguments), then, when y is set, those tiles' rows rounded to bf16 while
// they are in cache.
template <typename Args, typename GemvFn>
void RunGemvUnits(GemvFn gemv, const View& w, const int8_t* x, float x_scale, float* y_f32,
                  uint16_t* y, int64_t unit_begin, int64_t unit_end) {
  int64_t tile_begin = 0, tile_end = 0;
  UnitTiles(w.layout, unit_begin, unit_end, &tile_begin, &tile_end);
  Args args;
  args.w = w;
  args.x = x;
  args.x_scale = x_scale;
  args.y = y_f32;
  gemv(args, tile_begin, tile_end);
  if (y == nullptr) return;
  const int64_t n = w.layout.n;
  const int64_t row_end = tile_end * kTileRows < n ? tile_end * kTileRows : n;
  for (int64_t r = tile_begin * kTileRows; r < row_end; ++r) y[r] = tcpu_f32_to_bf16(y_f32[r]);
}

// x[k] copied into `out` and zero-filled to whole groups.
inline void PadX(const int8_t* x, int64_t k, int64_t groups, int8_t* out) {
  std::memcpy(out, x, static_cast<size_t>(k));
  std::memset(out + k, 0, static_cast<size_t>(groups * kGroup - k));
}

// `bytes` of the calling thread's scratch arena, or NULL with *status set naming `fn`.
inline int8_t* Scratch(const char* fn, int64_t bytes, int* status) {
  void* scratch = ScratchBytes(bytes);
  if (scratch == nullptr) {
    *status = Fail(TCPU_ERR_OUT_OF_MEMORY, "%s: cannot allocate %lld bytes of scratch", fn,
                   static_cast<long long>(bytes));
  }
  return static_cast<int8_t*>(scratch);
}

// A GEMM's x for SMMLA: m rows in pairs (the last pair's second row zero when m is odd); pair
// p, group g, 8-k chunk c at out + ((p * groups + g) * 4 + c) * 16 holds row 2p's 8 bytes then
// row 2p + 1's (one SMMLA operand), zero past k. out: pairs * groups * 128 bytes.
void ArrangeXPairs(const int8_t* x, int64_t m, int64_t k, int64_t groups, int8_t* out);

}  // namespace tcpu::grouped

#endif  // TCPU_KERNELS_GROUPED_GROUPED_RUNNER_H_
