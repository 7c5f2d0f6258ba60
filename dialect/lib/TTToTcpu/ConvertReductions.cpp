// tt-to-tcpu-reductions: tt.reduce and tt.scan on vectors, applying the combine region to
// whole vectors at a time (its ops are elementwise, so they apply lane by lane).
//   reduce: halve the reduced dimension log2(n) times, combining the two halves.
//   scan:   Hillis-Steele along the last dimension: log2(n) steps, each combining every lane
//           with the one 2^s before it (lanes below 2^s keep their value); another axis is
//           transposed to the last first; reverse scans run on the reversed lanes. Rows over
//           256 lanes: a loop over 64-lane chunks in scan order, each scanned so and combined
//           with the carry from the chunks before it.
//   histogram: one pass over the lanes in order, adding 1 to the bin of each lane whose value
//           lies in [0, bins) and whose mask is on (other values are not counted).
// Dimensions are powers of two, as Triton requires.
#include "StackBuffer.h"
#include "TypeConverter.h"
#include "llvm/ADT/STLExtras.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/IRMapping.h"
#include "tt/TTOps.h"
#include "tt/TTToTcpuPasses.h"

namespace mlir::tt {

#define GEN_PASS_DEF_TTTOTCPUREDUCTIONS
#include "tt/TTToTcpuPasses.h.inc"

namespace convert_reductions {
namespace {

// Applies `region` (2n scalar arguments, n results) to n vectors `lhs` and n `rhs` of
// `shape`, lane by lane. Fails (with a diagnostic) on an op that is not elementwise.
FailureOr<SmallVector<Value>> ApplyCombine(OpBuilder& b, Operation* owner, Region& region,
                                           ValueRange lhs, ValueRange rhs,
                                           ArrayRef<int64_t> shape) {
  Block& block = region.front();
  IRMapping mapping;
  SmallVector<Value> arguments(lhs.begin(), lhs.end());
  arguments.append(rhs.begin(), rhs.end());
  for (auto [argument, value] : llvm::zip(block.getArguments(), arguments)) {
    mapping.map(argument, value);
  }
  auto vector_of = [&](Type scalar) { return VectorType::get(shape, scalar); };
  // A value of the region, or one from outside it (a scalar constant that canonicalization
  // hoisted out of the region, a kernel argument): the latter applies to every lane.
  auto lookup = [&](Value value) -> Value {
    if (Value mapped = mapping.lookupOrNull(value)) return mapped;
    if (!value.getType().isIntOrIndexOrFloat()) return Value();
    Value splat = b.create<vector::BroadcastOp>(value.getLoc(), vector_of(value.getType()), value);
    mapping.map(value, splat);
    return splat;
  };
  for (Operation& op : block.without_terminator()) {
    if (auto constant = dyn_cast<arith::ConstantOp>(op)) {
      auto type = vector_of(constant.getType());
      auto value = DenseElementsAttr::get(type, constant.getValue());
      mapping.map(constant.getResult(), b.create<arith::ConstantOp>(op.getLoc(), type, value));
      continue;
    }
    StringRef dialect = op.getDialect() ? op.getDialect()->getNamespace() : "";
    bool elementwise = op.hasTrait<OpTrait::Elementwise>() || dialect == "arith" ||
                       dialect == "math";
    if (!elementwise || op.getNumRegions() != 0) {
      return owner->emitError() << "combine region op '" << op.getName()
                                << "' is not elementwise; the CPU lowering applies the "
                                   "combine function to whole vectors";
    }
    SmallVector<Value> operands;
    for (Value operand : op.getOperands()) {
      operands.push_back(lookup(operand));
      if (!operands.back()) {
        return owner->emitError() << "combine region op '" << op.getName()
                                  << "' uses a " << operand.getType()
                                  << " from outside the region; only scalars apply lane by lane";
      }
    }
    SmallVector<Type> results;
    for (Type type : op.getResultTypes()) results.push_back(vector_of(type));
    OperationState state(op.getLoc(), op.getName(), operands, results, op.getAttrs());
    Operation* clone = b.create(state);
    mapping.map(op.getResults(), clone->getResults());
  }
  SmallVector<Value> combined;
  for (Value value : block.getTerminator()->getOperands()) {
    combined.push_back(lookup(value));
    if (!combined.back()) {
      return owner->emitError() << "combine region returns a " << value.getType()
                                << " from outside the region; only scalars apply lane by lane";
    }
  }
  return combined;
}

bool IsPowerOfTwo(int64_t n) { return n > 0 && (n & (n - 1)) == 0; }

struct Reduce : OpConversionPattern<ReduceOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(ReduceOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter& rewriter) const override {
    Location loc = op.getLoc();
    SmallVector<Value> values(adaptor.getSrcs().begin(), adaptor.getSrcs().end());
    SmallVector<int64_t> shape(cast<VectorType>(values[0].getType()).getShape());
    int64_t axis = op.getAxis();
    if (!IsPowerOfTwo(shape[axis])) {
      return op.emitError() << "reduction over a dimension of " << shape[axis]
                            << " elements; Triton tensors have power-of-two dimensions";
    }
    SmallVector<int64_t> strides(shape.size(), 1);
    while (shape[axis] > 1) {
      int64_t half = shape[axis] / 2;
      SmallVector<int64_t> sizes = shape, low(shape.size(), 0), high(shape.size(), 0);
      sizes[axis] = half;
      high[axis] = half;
      SmallVector<Value> lhs, rhs;
      for (Value value : values) {
        lhs.push_back(rewriter.create<vector::ExtractStridedSliceOp>(loc, value, low, sizes,
                                                                     strides));
        rhs.push_back(rewriter.create<vector::ExtractStridedSliceOp>(loc, value, high, sizes,
                                                                     strides));
      }
      FailureOr<SmallVector<Value>> combined =
          ApplyCombine(rewriter, op, op.getCombineOp(), lhs, rhs, sizes);
      if (failed(combined)) return failure();
      values = *combined;
      shape = sizes;
    }
    SmallVector<Value> results;
    for (auto [value, result] : llvm::zip(values, op.getResults())) {
      if (shape.size() == 1) {
        results.push_back(rewriter.create<vector::ExtractOp>(loc, value, 0));
      } else {
        auto type = cast<VectorType>(getTypeConverter()->convertType(result.getType()));
        results.push_back(rewriter.create<vector::ShapeCastOp>(loc, type, value));
      }
    }
    rewriter.replaceOp(op, results);
    return success();
  }
};

// Lane i of the result is lane indices[i] of `row`.
Value Shuffle(OpBuilder& b, Location loc, Value row, ArrayRef<int64_t> indices) {
  return b.create<vector::ShuffleOp>(loc, row, row, indices);
}

// Hillis-Steele on rows of one length: log2(length) steps of one shuffle and one combine.
FailureOr<SmallVector<Value>> ScanShortRows(OpBuilder& b, ScanOp op, SmallVector<Value> rows) {
  Location loc = op.getLoc();
  int64_t length = cast<VectorType>(rows[0].getType()).getDimSize(0);
  SmallVector<int64_t> reversed;
  for (int64_t i = length - 1; i >= 0; --i) reversed.push_back(i);
  if (op.getReverse()) {
    for (Value& row : rows) row = Shuffle(b, loc, row, reversed);
  }
  for (int64_t step = 1; step < length; step *= 2) {
    SmallVector<int64_t> earlier;
    SmallVector<bool> active;
    for (int64_t i = 0; i < length; ++i) {
      earlier.push_back(i >= step ? i - step : i);
      active.push_back(i >= step);
    }
    SmallVector<Value> previous;
    for (Value row : rows) previous.push_back(Shuffle(b, loc, row, earlier));
    FailureOr<SmallVector<Value>> combined =
        ApplyCombine(b, op, op.getCombineOp(), previous, rows, {length});
    if (failed(combined)) return failure();
    auto mask_type = VectorType::get({length}, b.getI1Type());
    Value mask = b.create<arith::ConstantOp>(loc, mask_type,
                                             DenseElementsAttr::get(mask_type, active));
    for (auto [row, next] : llvm::zip(rows, *combined)) {
      row = b.create<arith::SelectOp>(loc, mask, next, row);
    }
  }
  if (op.getReverse()) {
    for (Value& row : rows) row = Shuffle(b, loc, row, reversed);
  }
  return rows;
}

// Rows longer than this are scanned chunk by chunk (a 4096-lane row as one Hillis-Steele
// scan is twelve 4096-lane shuffles, which the backend did not compile in five minutes; 1024
// lanes took 10 s).
constexpr int64_t kMaxWholeScan = 256;
constexpr int64_t kScanChunk = 64;

// A long row: stored to a stack buffer, then a loop over its 64-lane chunks in scan order,
// each scanned alone and combined with the carry (the scan of everything before it, a
// broadcast of the previous chunk's last lane in scan order) as `combine(carry, lane)`,
// written back; the row is read back whole. Triton's scans are associative, so this is the
// same scan; the code does not grow with the row.
FailureOr<SmallVector<Value>> ScanLongRows(OpBuilder& b, ScanOp op, SmallVector<Value> rows) {
  Location loc = op.getLoc();
  auto row_type = cast<VectorType>(rows[0].getType());
  int64_t length = row_type.getDimSize(0);
  int64_t chunks = length / kScanChunk;
  bool reverse = op.getReverse();
  SmallVector<Value> buffers;
  SmallVector<Type> elements;
  Value zero = b.create<arith::ConstantIndexOp>(loc, 0);
  for (Value row : rows) {
    Type element = cast<VectorType>(row.getType()).getElementType();
    Value buffer = createEntryStackBuffer(b, op, memoryElementType(element), length);
    b.create<vector::StoreOp>(loc, toMemoryElements(b, loc, row), buffer, ValueRange{zero});
    buffers.push_back(buffer);
    elements.push_back(element);
  }
  auto load_chunk = [&](OpBuilder& builder, Value offset) {
    SmallVector<Value> chunk;
    for (auto [buffer, element] : llvm::zip(buffers, elements)) {
      Value value = builder.create<vector::LoadOp>(
          loc, VectorType::get({kScanChunk}, memoryElementType(element)), buffer,
          ValueRange{offset});
      chunk.push_back(fromMemoryElements(builder, loc, value, element));
    }
    return chunk;
  };
  auto store_chunk = [&](OpBuilder& builder, ValueRange chunk, Value offset) {
    for (auto [value, buffer] : llvm::zip(chunk, buffers)) {
      builder.create<vector::StoreOp>(loc, toMemoryElements(builder, loc, value), buffer,
                                      ValueRange{offset});
    }
  };
  // The lane the next chunk continues from: the last in scan order.
  int64_t last = reverse ? 0 : kScanChunk - 1;
  auto carry_of = [&](OpBuilder& builder, ValueRange chunk) {
    SmallVector<Value> carry;
    for (Value value : chunk) carry.push_back(builder.create<vector::ExtractOp>(loc, value, last));
    return carry;
  };

  Value first_offset = b.create<arith::ConstantIndexOp>(loc, reverse ? length - kScanChunk : 0);
  FailureOr<SmallVector<Value>> first = ScanShortRows(b, op, load_chunk(b, first_offset));
  if (failed(first)) return failure();
  store_chunk(b, *first, first_offset);
  SmallVector<Value> carry = carry_of(b, *first);

  LogicalResult status = success();
  b.create<scf::ForOp>(
      loc, b.create<arith::ConstantIndexOp>(loc, 1), b.create<arith::ConstantIndexOp>(loc, chunks),
      b.create<arith::ConstantIndexOp>(loc, 1), carry,
      [&](OpBuilder& body, Location, Value j, ValueRange carried) {
        Value k = j;
        if (reverse) {
          k = body.create<arith::SubIOp>(loc, body.create<arith::ConstantIndexOp>(loc, chunks - 1),
                                         j);
        }
        Value offset =
            body.create<arith::MulIOp>(loc, k, body.create<arith::ConstantIndexOp>(loc, kScanChunk));
        FailureOr<SmallVector<Value>> scanned = ScanShortRows(body, op, load_chunk(body, offset));
        SmallVector<Value> before;
        for (Value value : carried) {
          before.push_back(body.create<vector::BroadcastOp>(
              loc, VectorType::get({kScanChunk}, value.getType()), value));
        }
        FailureOr<SmallVector<Value>> combined =
            failed(scanned) ? FailureOr<SmallVector<Value>>(failure())
                            : ApplyCombine(body, op, op.getCombineOp(), before, *scanned,
                                           {kScanChunk});
        if (failed(combined)) {
          status = failure();
          body.create<scf::YieldOp>(loc, carried);
          return;
        }
        store_chunk(body, *combined, offset);
        body.create<scf::YieldOp>(loc, carry_of(body, *combined));
      });
  if (failed(status)) return failure();
  SmallVector<Value> results;
  for (auto [buffer, element] : llvm::zip(buffers, elements)) {
    Value row = b.create<vector::LoadOp>(
        loc, VectorType::get({length}, memoryElementType(element)), buffer, ValueRange{zero});
    results.push_back(fromMemoryElements(b, loc, row, element));
  }
  return results;
}

FailureOr<SmallVector<Value>> ScanRows(OpBuilder& b, ScanOp op, SmallVector<Value> rows) {
  int64_t length = cast<VectorType>(rows[0].getType()).getDimSize(0);
  if (length > kMaxWholeScan) return ScanLongRows(b, op, std::move(rows));
  return ScanShortRows(b, op, std::move(rows));
}

struct Scan : OpConversionPattern<ScanOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(ScanOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter& rewriter) const override {
    Location loc = op.getLoc();
    SmallVector<Value> values(adaptor.getSrcs().begin(), adaptor.getSrcs().end());
    auto type = cast<VectorType>(values[0].getType());
    int64_t rank = type.getRank();
    int64_t axis = op.getAxis();
    if (!IsPowerOfTwo(type.getDimSize(axis))) {
      return op.emitError() << "scan over a dimension of " << type.getDimSize(axis)
                            << " elements; Triton tensors have power-of-two dimensions";
    }
    // Move the scanned axis last.
    SmallVector<int64_t> permutation;
    for (int64_t d = 0; d < rank; ++d) {
      if (d != axis) permutation.push_back(d);
    }
    permutation.push_back(axis);
    bool transposed = axis != rank - 1;
    if (transposed) {
      for (Value& value : values) {
        value = rewriter.create<vector::TransposeOp>(loc, value, permutation);
      }
    }
    ArrayRef<int64_t> shape = cast<VectorType>(values[0].getType()).getShape();
    SmallVector<SmallVector<int64_t>> positions(1);
    for (int64_t size : shape.drop_back()) {
      SmallVector<SmallVector<int64_t>> next;
      for (const auto& prefix : positions) {
        for (int64_t i = 0; i < size; ++i) {
          next.push_back(prefix);
          next.back().push_back(i);
        }
      }
      positions = std::move(next);
    }
    SmallVector<Value> results = values;
    for (const SmallVector<int64_t>& position : positions) {
      SmallVector<Value> rows;
      for (Value value : values) {
        rows.push_back(position.empty() ? value
                                        : rewriter.create<vector::ExtractOp>(loc, value, position));
      }
      FailureOr<SmallVector<Value>> scanned = ScanRows(rewriter, op, rows);
      if (failed(scanned)) return failure();
      for (auto [result, row] : llvm::zip(results, *scanned)) {
        result = position.empty() ? row
                                  : rewriter.create<vector::InsertOp>(loc, row, result, position);
      }
    }
    if (transposed) {
      SmallVector<int64_t> inverse(rank);
      for (int64_t d = 0; d < rank; ++d) inverse[permutation[d]] = d;
      for (Value& result : results) {
        result = rewriter.create<vector::TransposeOp>(loc, result, inverse);
      }
    }
    rewriter.replaceOp(op, results);
    return success();
  }
};

// tt.histogram: a loop over the source's lanes counting each in-range value in its bin (and
// every other lane in a bin past the last, which the result leaves out). The
// source, the mask and the counts go through stack buffers (StackBuffer.h): read and updated
// lane by lane as vectors, each lane stored and reloaded the whole source and counts (126
// instructions per value of a 256-value, 32-bin histogram).
struct Histogram : OpConversionPattern<HistogramOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(HistogramOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter& rewriter) const override {
    Location loc = op.getLoc();
    auto result_type = cast<VectorType>(getTypeConverter()->convertType(op.getType()));
    auto source_type = cast<VectorType>(adaptor.getSrc().getType());
    Type value_type = source_type.getElementType();
    Type count_type = result_type.getElementType();
    int64_t bins = result_type.getNumElements();
    int64_t lanes = source_type.getNumElements();
    Value zero = rewriter.create<arith::ConstantIntOp>(loc, 0, value_type);
    // Without an upper test when every non-negative value of the type has a bin.
    unsigned width = value_type.getIntOrFloatBitWidth();
    bool needs_limit = width > 32 || bins < (int64_t{1} << (width - 1));
    Value limit =
        needs_limit ? rewriter.create<arith::ConstantIntOp>(loc, bins, value_type).getResult()
                    : Value();
    Value one = rewriter.create<arith::ConstantIntOp>(loc, 1, count_type);
    auto pointer = LLVM::LLVMPointerType::get(rewriter.getContext());
    auto element = [&](OpBuilder& b, Location l, Value buffer, Type type, Value index) {
      Value at = b.create<arith::IndexCastOp>(l, b.getI64Type(), index);
      return b.create<LLVM::GEPOp>(l, pointer, type, buffer, ValueRange{at}).getResult();
    };
    Value values = buildEntryBuffer(rewriter, op, value_type, lanes);
    rewriter.create<LLVM::StoreOp>(loc, adaptor.getSrc(), values);
    Value mask_bytes;
    if (Value mask = adaptor.getMask()) {
      mask_bytes = buildEntryBuffer(rewriter, op, rewriter.getI8Type(), lanes);
      auto bytes = VectorType::get(source_type.getShape(), rewriter.getI8Type());
      rewriter.create<LLVM::StoreOp>(loc, rewriter.create<arith::ExtUIOp>(loc, bytes, mask),
                                     mask_bytes);
    }
    // One more count than bins: the values out of range (or masked off) count there, so that
    // every lane takes the same branchless path (a select of the bin, not a branch per lane:
    // the histogram kernel's two histograms 22.9 -> 13.5 instructions per element).
    Value counts = buildEntryBuffer(rewriter, op, count_type, bins + 1);
    Value empty =
        rewriter.create<arith::ConstantOp>(loc, result_type, rewriter.getZeroAttr(result_type));
    rewriter.create<LLVM::StoreOp>(loc, empty, counts);
    Value overflow_bin = rewriter.create<arith::ConstantIndexOp>(loc, bins);
    // Counts one lane: its bin (or the overflow bin) goes up by one.
    auto count_lane = [&](OpBuilder& b, Location l, Value lane) {
      Value value = b.create<LLVM::LoadOp>(l, value_type, element(b, l, values, value_type, lane));
      Value in_range = b.create<arith::CmpIOp>(l, arith::CmpIPredicate::sge, value, zero);
      if (limit) {
        in_range = b.create<arith::AndIOp>(
            l, in_range, b.create<arith::CmpIOp>(l, arith::CmpIPredicate::slt, value, limit));
      }
      if (mask_bytes) {
        Value byte =
            b.create<LLVM::LoadOp>(l, b.getI8Type(), element(b, l, mask_bytes, b.getI8Type(), lane));
        in_range = b.create<arith::AndIOp>(
            l, in_range,
            b.create<arith::CmpIOp>(l, arith::CmpIPredicate::ne, byte,
                                    b.create<arith::ConstantIntOp>(l, 0, 8)));
      }
      Value bin = b.create<arith::SelectOp>(
          l, in_range, b.create<arith::IndexCastOp>(l, b.getIndexType(), value), overflow_bin);
      Value place = element(b, l, counts, count_type, bin);
      Value count = b.create<LLVM::LoadOp>(l, count_type, place);
      b.create<LLVM::StoreOp>(l, b.create<arith::AddIOp>(l, count, one), place);
    };
    // kUnroll lanes an iteration (the backend left the loop rolled: its counter and branch were
    // a third of each lane's instructions).
    constexpr int64_t kUnroll = 4;
    const int64_t per_iteration = lanes % kUnroll == 0 ? kUnroll : 1;
    Value lower = rewriter.create<arith::ConstantIndexOp>(loc, 0);
    Value upper = rewriter.create<arith::ConstantIndexOp>(loc, lanes);
    Value step = rewriter.create<arith::ConstantIndexOp>(loc, per_iteration);
    rewriter.create<scf::ForOp>(
        loc, lower, upper, step, ValueRange{},
        [&](OpBuilder& b, Location l, Value first, ValueRange) {
          for (int64_t k = 0; k < per_iteration; ++k) {
            Value lane = k == 0 ? first
                                : b.create<arith::AddIOp>(
                                       l, first, b.create<arith::ConstantIndexOp>(l, k))
                                      .getResult();
            count_lane(b, l, lane);
          }
          b.create<scf::YieldOp>(l);
        });
    rewriter.replaceOp(op, rewriter.create<LLVM::LoadOp>(loc, result_type, counts).getResult());
    return success();
  }
};

struct TTToTcpuReductions : impl::TTToTcpuReductionsBase<TTToTcpuReductions> {
  void runOnOperation() override {
    MLIRContext* context = &getContext();
    TensorToVectorTypeConverter converter(context);
    ConversionTarget target(*context);
    markEverythingLegal(target);
    target.addIllegalOp<ReduceOp, ScanOp, HistogramOp>();
    RewritePatternSet patterns(context);
    patterns.add<Reduce, Scan, Histogram>(converter, context);
    if (failed(applyPartialConversion(getOperation(), target, std::move(patterns)))) {
      signalPassFailure();
    }
  }
};

}  // namespace
}  // namespace convert_reductions
}  // namespace mlir::tt
