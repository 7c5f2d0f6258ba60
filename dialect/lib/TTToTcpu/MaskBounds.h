// Whether a whole Triton mask is on (or off), as one scalar condition. Triton programs build masks by
// comparing index ranges (tt.make_range plus splat offsets, through expand_dims and broadcast)
// with splat bounds and ANDing the comparisons: `offs_k[None, :] < K - k * BLOCK_K`. Such a
// mask is all on exactly when the comparison holds for the ranges' extreme values, a few scalar
// instructions, where the vector test widens, ANDs and reduces every lane of the mask. Block
// pointers and tensor descriptors compare such ranges, sign-extended to i64, with i64 sizes.
#ifndef TCPU_DIALECT_LIB_TTTOTCPU_MASKBOUNDS_H_
#define TCPU_DIALECT_LIB_TTTOTCPU_MASKBOUNDS_H_

#include <optional>

#include "mlir/IR/Builders.h"
#include "mlir/IR/Value.h"

namespace mlir::tt {

// True when `mask` (a TTIR tensor of i1, before the conversion) is built from such
// comparisons, splats of an i1 and constant true masks, combined with andi.
bool hasScalarAllOn(Value mask);

// An i1 that is true exactly when every lane of `mask` is on (hasScalarAllOn(mask) must hold),
// built at `b`'s insertion point from the scalars the mask's splats take.
Value buildScalarAllOn(OpBuilder& b, Location loc, Value mask);

// The same test for the lanes [first, last] of the row at `position` (the leading
// dimensions' coordinates) only: a run of a partial tile.
Value buildScalarAllOn(OpBuilder& b, Location loc, Value mask, ArrayRef<int64_t> position,
                       int64_t first, int64_t last);

// An i1 that is true only when every lane of `mask` is off (hasScalarAllOn(mask) must hold):
// one of the ANDed comparisons fails at the ranges' extremes. It may be false for a mask that
// is off in every lane for other reasons (one comparison failing in some lanes, another in the
// rest); it is never true for a mask with a lane on.
Value buildScalarAllOff(OpBuilder& b, Location loc, Value mask);

// The lanes of a row that a mask has on, as one interval: [low, high) (i64, 0 <= low and
// high <= the row's width; empty when high <= low), and `exact`, an i1 that holds when those
// are exactly the lanes on (no index of the row wraps around i32 within it). A row whose mask
// is `offs < n` (a range plus splats, against a splat) has the lanes [0, n - offs) on: a loop
// over them copies them with no test per lane.
struct LaneInterval {
  Value low, high, exact;
};

// The LaneInterval of lanes [first, first + width) of the 1-D `mask` (TTIR, before the
// conversion), relative to `first`, when the mask is an and of signed comparisons of i32 index
// tensors that step by 0 or 1 per lane (LaneValues.h), splats of an i1 and constant masks;
// nullopt otherwise (and for masks of several dimensions). Built at `b`'s insertion point.
std::optional<LaneInterval> buildLaneInterval(OpBuilder& b, Location loc, Value mask,
                                              int64_t first, int64_t width);

}  // namespace mlir::tt

#endif  // TCPU_DIALECT_LIB_TTTOTCPU_MASKBOUNDS_H_
