// tcpu-drop-leading-unit-dims: vectors with leading dimensions of 1 become vectors of their
// remaining dimensions (MLIR's CastAwayVectorLeadingOneDim patterns: elementwise ops,
// broadcasts, strided slices, reductions, transfer ops; the value extracted or broadcast back
// where another op keeps the type), and vector.extract's canonicalizations (row 0 of a
// broadcast scalar is the scalar broadcast).
//
// Inductor's persistent reductions (triton_per_*) compute on tensor<1xRBLOCK> tiles (XBLOCK =
// 1): vector<1x256xf32> here. tcpu-slice-rows slices 1-D rows only, so such a row was left to
// the backend, which split every op in place with the whole row live: a log-softmax of 256
// lanes (its max, exp, sum and log) kept 64 registers of exponentials and spilled them at every
// op. As vector<256xf32> the row is sliced like a Triton row (corpus 0188: 107,348 -> 78,292
// instructions).
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/Vector/Transforms/VectorRewritePatterns.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "tt/TTToTcpuPasses.h"

namespace mlir::tt {

#define GEN_PASS_DEF_TCPUDROPLEADINGUNITDIMS
#include "tt/TTToTcpuPasses.h.inc"

namespace drop_leading_unit_dims {
namespace {

struct TcpuDropLeadingUnitDims : impl::TcpuDropLeadingUnitDimsBase<TcpuDropLeadingUnitDims> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    vector::populateCastAwayVectorLeadingOneDimPatterns(patterns);
    // Row 0 of a broadcast scalar is the scalar broadcast to the row (which stage 22 slices).
    vector::ExtractOp::getCanonicalizationPatterns(patterns, &getContext());
    if (failed(applyPatternsAndFoldGreedily(getOperation(), std::move(patterns)))) {
      getOperation().emitError() << "dropping vectors' leading unit dimensions did not converge";
      return signalPassFailure();
    }
  }
};

}  // namespace
}  // namespace drop_leading_unit_dims
}  // namespace mlir::tt
