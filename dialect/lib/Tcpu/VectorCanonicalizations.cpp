// Canonicalization patterns the tcpu dialect adds to every canonicalize run where it is loaded
// (the Triton pipeline's), ahead of upstream ones that MLIR 19 gets wrong.
//
// extract_strided_slice(broadcast(x)): MLIR 19's StridedSliceBroadcast slices x with the
// slice's sizes even along a dimension x has as 1 and the broadcast stretches, which is
// invalid IR (a [1, 8] row broadcast to [2, 8] and halved along its columns by a reduction
// becomes a [2, 4] slice of the [1, 8] row; Inductor's argmax over a row index does that).
// Here the slice of x keeps such a dimension whole (offset 0, size 1), and the broadcast
// stretches it again. Benefit 2, so it runs before the upstream pattern (benefit 1).
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/PatternMatch.h"
#include "tcpu/TcpuDialect.h"

namespace mlir::tcpu {
namespace vector_canonicalizations {
namespace {

struct SliceOfStretchedBroadcast : OpRewritePattern<vector::ExtractStridedSliceOp> {
  SliceOfStretchedBroadcast(MLIRContext* context)
      : OpRewritePattern<vector::ExtractStridedSliceOp>(context, /*benefit=*/2) {}

  LogicalResult matchAndRewrite(vector::ExtractStridedSliceOp op,
                                PatternRewriter& rewriter) const override {
    auto broadcast = op.getVector().getDefiningOp<vector::BroadcastOp>();
    if (!broadcast) return failure();
    auto source = dyn_cast<VectorType>(broadcast.getSourceType());
    if (!source || source.getRank() == 0 || source.getNumElements() == 1) return failure();
    auto result = cast<VectorType>(op.getType());
    int64_t lead = result.getRank() - source.getRank();
    // The slice's attributes cover its leading dimensions only; the rest are whole.
    auto at = [](ArrayAttr attr, int64_t d, int64_t whole) {
      return d < static_cast<int64_t>(attr.size()) ? cast<IntegerAttr>(attr[d]).getInt() : whole;
    };
    bool stretched = false;
    SmallVector<int64_t> offsets, sizes, strides;
    for (int64_t d = 0; d < source.getRank(); ++d) {
      int64_t dim = d + lead;
      int64_t size = at(op.getSizes(), dim, result.getDimSize(dim));
      if (source.getDimSize(d) == 1 && size != 1) {
        stretched = true;
        offsets.push_back(0);
        sizes.push_back(1);
      } else {
        offsets.push_back(at(op.getOffsets(), dim, 0));
        sizes.push_back(size);
      }
      strides.push_back(1);
    }
    if (!stretched) return failure();  // the upstream pattern is right
    Value sliced = broadcast.getSource();
    if (ArrayRef<int64_t>(sizes) != source.getShape()) {
      sliced = rewriter.create<vector::ExtractStridedSliceOp>(op.getLoc(), sliced, offsets, sizes,
                                                              strides);
    }
    rewriter.replaceOpWithNewOp<vector::BroadcastOp>(op, result, sliced);
    return success();
  }
};

}  // namespace
}  // namespace vector_canonicalizations

void TcpuDialect::getCanonicalizationPatterns(RewritePatternSet& results) const {
  results.add<vector_canonicalizations::SliceOfStretchedBroadcast>(getContext());
}

}  // namespace mlir::tcpu
