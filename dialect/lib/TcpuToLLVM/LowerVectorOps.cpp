// --tcpu-lower-vector-ops: tcpu.sdot and tcpu.smmla become MLIR's own Arm intrinsic ops,
// arm_neon.intr.sdot / arm_neon.intr.smmla (fixed vector<16xi8>) or arm_sve.sdot /
// arm_sve.smmla (scalable vector<[16]xi8>), once the module's #tcpu.target is known to have
// the instruction; tcpu.bfmmla becomes llvm.aarch64.neon.bfmmla (MLIR 19's arm_neon has no
// BFMMLA op), tcpu.fmlal llvm.aarch64.neon.fmlal / fmlal2 (nor FMLAL);
// tcpu.to_mmla_blocks / tcpu.from_mmla_blocks become shuffles.
#include <array>

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ArmNeon/ArmNeonDialect.h"
#include "mlir/Dialect/ArmSVE/IR/ArmSVEDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "tcpu/MmlaLayout.h"
#include "tcpu/TcpuAttrs.h"
#include "tcpu/TcpuOps.h"
#include "tcpu/TcpuPasses.h"
#include "tcpu/VectorConcat.h"

namespace mlir::tcpu {

#define GEN_PASS_DEF_TCPULOWERVECTOROPS
#include "tcpu/TcpuPasses.h.inc"

namespace lower_vector_ops {
namespace {

// Fails with a diagnostic on `op` unless the module's target has every feature in `needs`.
LogicalResult RequireFeatures(Operation* op, llvm::ArrayRef<llvm::StringRef> needs) {
  TargetAttr target = getEnclosingTarget(op);
  for (llvm::StringRef feature : needs) {
    if (targetHasFeature(target, feature)) continue;
    InFlightDiagnostic diag = op->emitError()
                              << "'" << op->getName() << "' on " << op->getOperand(1).getType()
                              << " needs target feature \"" << feature << "\", which ";
    if (target) return diag << "the module's " << Attribute(target) << " lacks";
    return diag << "the Armv8-A baseline lacks (the module has no 'tcpu.target')";
  }
  return success();
}

// Block (p, t) is a shuffle of rows 2p and 2p + 1.
Value ToMmlaBlocks(OpBuilder& b, Location loc, ToMmlaBlocksOp op) {
  VectorType rows = op.getSource().getType();
  int64_t m = rows.getDimSize(0), n = rows.getDimSize(1), stride = op.getColumnStride();
  Value blocks = b.create<arith::ConstantOp>(loc, b.getZeroAttr(op.getResult().getType()));
  for (int64_t p = 0; p < m / 2; ++p) {
    Value top = b.create<vector::ExtractOp>(loc, op.getSource(), 2 * p);
    Value bottom = b.create<vector::ExtractOp>(loc, op.getSource(), 2 * p + 1);
    for (int64_t t = 0; t < n / 2; ++t) {
      int64_t c0 = MmlaBlockColumn(t, 0, stride), c1 = MmlaBlockColumn(t, 1, stride);
      Value block =
          b.create<vector::ShuffleOp>(loc, top, bottom, ArrayRef<int64_t>{c0, c1, n + c0, n + c1});
      blocks = b.create<vector::InsertOp>(
          loc, block, blocks, MmlaBlockPosition(op.getResult().getType().getShape(), n, p, t));
    }
  }
  return blocks;
}

// Rows 2p and 2p + 1 of four blocks t .. t + 3 (t a multiple of 4) whose columns are `stride`
// apart, stride a multiple of 4: a 4x4 transpose, TRN1/TRN2 of 32-bit lanes then ZIP1/ZIP2 of
// 64-bit lanes (8 instructions per four row quads; LLVM lowers the gather of one quad from four
// blocks as a wide shuffle in about twice as many, and spilled a tile's rows). Quad q of the
// result: row 2p + q / 2, columns MmlaBlockColumn(t, q % 2) .. + 3.
std::array<Value, 4> TransposeBlockQuad(OpBuilder& b, Location loc, ArrayRef<Value> blocks) {
  auto shuffle = [&](Value x, Value y, ArrayRef<int64_t> lanes) {
    return b.create<vector::ShuffleOp>(loc, x, y, lanes).getResult();
  };
  Value even01 = shuffle(blocks[0], blocks[1], {0, 4, 2, 6});  // TRN1 .4s
  Value odd01 = shuffle(blocks[0], blocks[1], {1, 5, 3, 7});   // TRN2 .4s
  Value even23 = shuffle(blocks[2], blocks[3], {0, 4, 2, 6});
  Value odd23 = shuffle(blocks[2], blocks[3], {1, 5, 3, 7});
  return {shuffle(even01, even23, {0, 1, 4, 5}), shuffle(odd01, odd23, {0, 1, 4, 5}),
          shuffle(even01, even23, {2, 3, 6, 7}), shuffle(odd01, odd23, {2, 3, 6, 7})};
}

// Rows 2p and 2p + 1 are gathered from the blocks of row pair p.
Value FromMmlaBlocks(OpBuilder& b, Location loc, FromMmlaBlocksOp op) {
  VectorType type = op.getResult().getType();
  int64_t m = type.getDimSize(0), n = type.getDimSize(1), stride = op.getColumnStride();
  Value rows = b.create<arith::ConstantOp>(loc, b.getZeroAttr(type));
  for (int64_t p = 0; p < m / 2; ++p) {
    SmallVector<Value> blocks;
    for (int64_t t = 0; t < n / 2; ++t) {
      blocks.push_back(b.create<vector::ExtractOp>(
          loc, op.getSource(), MmlaBlockPosition(op.getSource().getType().getShape(), n, p, t)));
    }
    if (stride % 4 == 0 && (n / 2) % stride == 0) {
      // Each row's quads in column order: quad c / 4 holds columns c .. c + 3.
      SmallVector<SmallVector<Value>> quads(2, SmallVector<Value>(n / 4));
      for (int64_t t = 0; t < n / 2; t += 4) {
        std::array<Value, 4> transposed =
            TransposeBlockQuad(b, loc, ArrayRef<Value>(blocks).slice(t, 4));
        for (int64_t q = 0; q < 4; ++q) {
          quads[q / 2][MmlaBlockColumn(t, q % 2, stride) / 4] = transposed[q];
        }
      }
      for (int64_t r = 0; r < 2; ++r) {
        rows = b.create<vector::InsertOp>(loc, ConcatVectors(b, loc, quads[r]), rows, 2 * p + r);
      }
      continue;
    }
    Value pair = ConcatVectors(b, loc, blocks);
    for (int64_t r = 0; r < 2; ++r) {
      SmallVector<int64_t> lanes(n);
      for (int64_t t = 0; t < n / 2; ++t) {
        for (int64_t j = 0; j < 2; ++j) lanes[MmlaBlockColumn(t, j, stride)] = 4 * t + 2 * r + j;
      }
      Value row = b.create<vector::ShuffleOp>(loc, pair, pair, lanes);
      rows = b.create<vector::InsertOp>(loc, row, rows, 2 * p + r);
    }
  }
  return rows;
}

class LowerVectorOpsPass : public impl::TcpuLowerVectorOpsBase<LowerVectorOpsPass> {
 public:
  void runOnOperation() override {
    SmallVector<Operation*> ops;
    getOperation().walk([&](Operation* op) {
      if (isa<SdotOp, SmmlaOp, BfmmlaOp, FmlalOp, ToMmlaBlocksOp, FromMmlaBlocksOp,
              LookupBytesOp>(op)) {
        ops.push_back(op);
      }
    });
    for (Operation* op : ops) {
      if (failed(Lower(op))) return signalPassFailure();
    }
  }

 private:
  static LogicalResult Lower(Operation* op) {
    OpBuilder b(op);
    Location loc = op->getLoc();
    if (auto to = dyn_cast<ToMmlaBlocksOp>(op)) {
      to.getResult().replaceAllUsesWith(ToMmlaBlocks(b, loc, to));
      to->erase();
      return success();
    }
    if (auto from = dyn_cast<FromMmlaBlocksOp>(op)) {
      from.getResult().replaceAllUsesWith(FromMmlaBlocks(b, loc, from));
      from->erase();
      return success();
    }
    if (auto lookup = dyn_cast<LookupBytesOp>(op)) {
      // TBL of a list of 1-4 registers (base NEON).
      SmallVector<Value> operands(lookup.getTables());
      operands.push_back(lookup.getIndices());
      std::string name =
          "llvm.aarch64.neon.tbl" + std::to_string(lookup.getTables().size()) + ".v16i8";
      auto call = b.create<LLVM::CallIntrinsicOp>(loc, lookup.getType(), name, operands);
      lookup.getResult().replaceAllUsesWith(call.getResult(0));
      lookup->erase();
      return success();
    }
    if (auto bfmmla = dyn_cast<BfmmlaOp>(op)) {
      if (failed(RequireFeatures(op, {"bf16"}))) return failure();
      auto call = b.create<LLVM::CallIntrinsicOp>(
          loc, bfmmla.getType(), "llvm.aarch64.neon.bfmmla",
          ValueRange{bfmmla.getAcc(), bfmmla.getA(), bfmmla.getB()});
      bfmmla.getResult().replaceAllUsesWith(call.getResult(0));
      bfmmla->erase();
      return success();
    }
    if (auto fmlal = dyn_cast<FmlalOp>(op)) {
      if (failed(RequireFeatures(op, {"fp16fml"}))) return failure();
      auto call = b.create<LLVM::CallIntrinsicOp>(
          loc, fmlal.getType(),
          fmlal.getHigh() ? "llvm.aarch64.neon.fmlal2" : "llvm.aarch64.neon.fmlal",
          ValueRange{fmlal.getAcc(), fmlal.getA(), fmlal.getB()});
      fmlal.getResult().replaceAllUsesWith(call.getResult(0));
      fmlal->erase();
      return success();
    }
    Value acc = op->getOperand(0), lhs = op->getOperand(1), rhs = op->getOperand(2);
    Type type = acc.getType();
    bool scalable = cast<VectorType>(type).isScalable();
    Value result;
    if (isa<SdotOp>(op)) {
      // SVE SDOT is in base SVE; the NEON form needs FEAT_DotProd.
      if (failed(RequireFeatures(op, {scalable ? "sve" : "dotprod"}))) return failure();
      result = scalable ? b.create<arm_sve::SdotOp>(loc, type, acc, lhs, rhs).getResult()
                        : b.create<arm_neon::SdotOp>(loc, type, acc, lhs, rhs).getResult();
    } else {
      llvm::SmallVector<llvm::StringRef, 2> needs = {"i8mm"};
      if (scalable) needs.push_back("sve");
      if (failed(RequireFeatures(op, needs))) return failure();
      result = scalable ? b.create<arm_sve::SmmlaOp>(loc, type, acc, lhs, rhs).getResult()
                        : b.create<arm_neon::SmmlaOp>(loc, type, acc, lhs, rhs).getResult();
    }
    op->getResult(0).replaceAllUsesWith(result);
    op->erase();
    return success();
  }
};

}  // namespace
}  // namespace lower_vector_ops
}  // namespace mlir::tcpu
