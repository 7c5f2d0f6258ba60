// Verifiers of the tcpu operations. Each error names the operand by its ODS name and says
// what type or shape was expected and what was found.
#include "tcpu/TcpuOps.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpImplementation.h"
#include "tcpu/TcpuDialect.h"

#define GET_OP_CLASSES
#include "tcpu/TcpuOps.cpp.inc"

namespace mlir::tcpu {
namespace tcpu_ops {
namespace {

enum class Layout { kContiguous, kUnitInnerStride };

// `value` must be a memref of `rank` and `element` type; kContiguous also asks for the
// identity layout, because the runtime takes a bare pointer and derives nothing else.
LogicalResult CheckMemRef(Operation* op, Value value, llvm::StringRef name, int64_t rank,
                          Type element, Layout layout = Layout::kContiguous) {
  auto type = cast<MemRefType>(value.getType());
  if (type.getRank() != rank || type.getElementType() != element) {
    return op->emitOpError() << "operand '" << name << "' must be a rank-" << rank << " memref of "
                             << element << ", got " << type;
  }
  if (layout == Layout::kContiguous && !type.getLayout().isIdentity()) {
    return op->emitOpError() << "operand '" << name
                             << "' must have the identity (contiguous row-major) layout, got "
                             << type;
  }
  if (layout == Layout::kUnitInnerStride) {
    SmallVector<int64_t> strides;
    int64_t offset;
    if (failed(getStridesAndOffset(type, strides, offset)) || strides.back() != 1) {
      return op->emitOpError() << "operand '" << name
                               << "' must be strided with a unit innermost stride, got " << type;
    }
  }
  return success();
}

// Dimension `a_dim` of `a` and `b_dim` of `b` must agree where both are static.
LogicalResult CheckSameDim(Operation* op, Value a, llvm::StringRef a_name, int64_t a_dim, Value b,
                           llvm::StringRef b_name, int64_t b_dim, llvm::StringRef meaning) {
  int64_t a_size = cast<MemRefType>(a.getType()).getDimSize(a_dim);
  int64_t b_size = cast<MemRefType>(b.getType()).getDimSize(b_dim);
  if (ShapedType::isDynamic(a_size) || ShapedType::isDynamic(b_size) || a_size == b_size) {
    return success();
  }
  return op->emitOpError() << "operand '" << b_name << "' has " << b_size << " in dimension "
                           << b_dim << " but '" << a_name << "' has " << a_size << " in dimension "
                           << a_dim << "; both are " << meaning;
}

LogicalResult CheckNonEmpty(Operation* op, Value value, llvm::StringRef name) {
  for (auto [dim, size] : llvm::enumerate(cast<MemRefType>(value.getType()).getShape())) {
    if (!ShapedType::isDynamic(size) && size <= 0) {
      return op->emitOpError() << "operand '" << name << "' has " << size << " in dimension " << dim
                               << "; the runtime needs sizes >= 1";
    }
  }
  return success();
}

LogicalResult CheckPositive(Operation* op, llvm::StringRef name, APFloat value) {
  if (!value.isFiniteNonZero() || value.isNegative()) {
    return op->emitOpError() << "attribute '" << name << "' = " << value.convertToDouble()
                             << "; expected a finite value > 0";
  }
  return success();
}

#define TCPU_CHECK(expr) \
  if (failed(expr)) return failure()

}  // namespace
}  // namespace tcpu_ops

LogicalResult PackWeightsOp::verify() {
  Builder b(getContext());
  TCPU_CHECK(tcpu_ops::CheckMemRef(*this, getW(), "w", 2, b.getI8Type()));
  TCPU_CHECK(tcpu_ops::CheckNonEmpty(*this, getW(), "w"));
  return tcpu_ops::CheckMemRef(*this, getPacked(), "packed", 1, b.getI8Type());
}

LogicalResult GemvI8Op::verify() {
  Builder b(getContext());
  TCPU_CHECK(tcpu_ops::CheckMemRef(*this, getPackedW(), "packed_w", 1, b.getI8Type()));
  TCPU_CHECK(tcpu_ops::CheckMemRef(*this, getX(), "x", 1, b.getI8Type()));
  TCPU_CHECK(tcpu_ops::CheckMemRef(*this, getY(), "y", 1, b.getI32Type()));
  TCPU_CHECK(tcpu_ops::CheckNonEmpty(*this, getX(), "x"));
  return tcpu_ops::CheckNonEmpty(*this, getY(), "y");
}

LogicalResult GemvBf16W8Op::verify() {
  Builder b(getContext());
  TCPU_CHECK(tcpu_ops::CheckMemRef(*this, getPackedW(), "packed_w", 1, b.getI8Type()));
  TCPU_CHECK(tcpu_ops::CheckMemRef(*this, getWScales(), "w_scales", 1, b.getF32Type()));
  TCPU_CHECK(tcpu_ops::CheckMemRef(*this, getX(), "x", 1, b.getBF16Type()));
  TCPU_CHECK(tcpu_ops::CheckMemRef(*this, getY(), "y", 1, b.getBF16Type()));
  TCPU_CHECK(tcpu_ops::CheckNonEmpty(*this, getX(), "x"));
  TCPU_CHECK(tcpu_ops::CheckNonEmpty(*this, getY(), "y"));
  return tcpu_ops::CheckSameDim(*this, getY(), "y", 0, getWScales(), "w_scales", 0,
                                "n (one scale per output)");
}

LogicalResult GemmI8Op::verify() {
  Builder b(getContext());
  TCPU_CHECK(tcpu_ops::CheckMemRef(*this, getPackedW(), "packed_w", 1, b.getI8Type()));
  TCPU_CHECK(tcpu_ops::CheckMemRef(*this, getX(), "x", 2, b.getI8Type()));
  TCPU_CHECK(tcpu_ops::CheckMemRef(*this, getY(), "y", 2, b.getI32Type()));
  TCPU_CHECK(tcpu_ops::CheckNonEmpty(*this, getX(), "x"));
  TCPU_CHECK(tcpu_ops::CheckNonEmpty(*this, getY(), "y"));
  return tcpu_ops::CheckSameDim(*this, getX(), "x", 0, getY(), "y", 0, "m (rows)");
}

LogicalResult RmsNormOp::verify() {
  Builder b(getContext());
  TCPU_CHECK(tcpu_ops::CheckMemRef(*this, getX(), "x", 1, b.getBF16Type()));
  TCPU_CHECK(tcpu_ops::CheckMemRef(*this, getW(), "w", 1, b.getBF16Type()));
  TCPU_CHECK(tcpu_ops::CheckMemRef(*this, getOut(), "out", 1, b.getBF16Type()));
  TCPU_CHECK(tcpu_ops::CheckNonEmpty(*this, getX(), "x"));
  TCPU_CHECK(tcpu_ops::CheckSameDim(*this, getX(), "x", 0, getW(), "w", 0, "d"));
  TCPU_CHECK(tcpu_ops::CheckSameDim(*this, getX(), "x", 0, getOut(), "out", 0, "d"));
  return tcpu_ops::CheckPositive(*this, "eps", getEps());
}

LogicalResult SwigluOp::verify() {
  Builder b(getContext());
  TCPU_CHECK(tcpu_ops::CheckMemRef(*this, getGate(), "gate", 1, b.getBF16Type()));
  TCPU_CHECK(tcpu_ops::CheckMemRef(*this, getUp(), "up", 1, b.getBF16Type()));
  TCPU_CHECK(tcpu_ops::CheckMemRef(*this, getOut(), "out", 1, b.getBF16Type()));
  TCPU_CHECK(tcpu_ops::CheckNonEmpty(*this, getGate(), "gate"));
  TCPU_CHECK(tcpu_ops::CheckSameDim(*this, getGate(), "gate", 0, getUp(), "up", 0, "n"));
  return tcpu_ops::CheckSameDim(*this, getGate(), "gate", 0, getOut(), "out", 0, "n");
}

LogicalResult FlashAttnDecodeOp::verify() {
  Builder b(getContext());
  Type bf16 = b.getBF16Type();
  TCPU_CHECK(tcpu_ops::CheckMemRef(*this, getQ(), "q", 2, bf16));
  TCPU_CHECK(tcpu_ops::CheckMemRef(*this, getKCache(), "k_cache", 3, bf16,
                                   tcpu_ops::Layout::kUnitInnerStride));
  TCPU_CHECK(tcpu_ops::CheckMemRef(*this, getVCache(), "v_cache", 3, bf16,
                                   tcpu_ops::Layout::kUnitInnerStride));
  TCPU_CHECK(tcpu_ops::CheckMemRef(*this, getOut(), "out", 2, bf16));
  for (auto [value, name] :
       {std::pair{getQ(), "q"}, {getKCache(), "k_cache"}, {getVCache(), "v_cache"}}) {
    TCPU_CHECK(tcpu_ops::CheckNonEmpty(*this, value, name));
  }
  TCPU_CHECK(tcpu_ops::CheckSameDim(*this, getQ(), "q", 1, getKCache(), "k_cache", 2, "head_dim"));
  TCPU_CHECK(tcpu_ops::CheckSameDim(*this, getQ(), "q", 1, getVCache(), "v_cache", 2, "head_dim"));
  TCPU_CHECK(tcpu_ops::CheckSameDim(*this, getKCache(), "k_cache", 0, getVCache(), "v_cache", 0,
                                    "num_kv_heads"));
  TCPU_CHECK(tcpu_ops::CheckSameDim(*this, getKCache(), "k_cache", 1, getVCache(), "v_cache", 1,
                                    "the cache capacity"));
  TCPU_CHECK(tcpu_ops::CheckSameDim(*this, getQ(), "q", 0, getOut(), "out", 0, "num_heads"));
  TCPU_CHECK(tcpu_ops::CheckSameDim(*this, getQ(), "q", 1, getOut(), "out", 1, "head_dim"));
  int64_t heads = getQ().getType().getDimSize(0);
  int64_t kv_heads = getKCache().getType().getDimSize(0);
  if (!ShapedType::isDynamic(heads) && !ShapedType::isDynamic(kv_heads) && heads % kv_heads) {
    return emitOpError() << "operand 'q' has " << heads << " heads, not a multiple of the "
                         << kv_heads << " KV heads of 'k_cache' (GQA)";
  }
  return tcpu_ops::CheckPositive(*this, "sm_scale", getSmScale());
}

LogicalResult FusedMlpOp::verify() {
  Builder b(getContext());
  Type i8 = b.getI8Type(), f32 = b.getF32Type(), bf16 = b.getBF16Type();
  TCPU_CHECK(tcpu_ops::CheckMemRef(*this, getPackedGate(), "packed_gate", 1, i8));
  TCPU_CHECK(tcpu_ops::CheckMemRef(*this, getGateScales(), "gate_scales", 1, f32));
  TCPU_CHECK(tcpu_ops::CheckMemRef(*this, getPackedUp(), "packed_up", 1, i8));
  TCPU_CHECK(tcpu_ops::CheckMemRef(*this, getUpScales(), "up_scales", 1, f32));
  TCPU_CHECK(tcpu_ops::CheckMemRef(*this, getPackedDown(), "packed_down", 1, i8));
  TCPU_CHECK(tcpu_ops::CheckMemRef(*this, getDownScales(), "down_scales", 1, f32));
  TCPU_CHECK(tcpu_ops::CheckMemRef(*this, getX(), "x", 1, bf16));
  TCPU_CHECK(tcpu_ops::CheckMemRef(*this, getY(), "y", 1, bf16));
  TCPU_CHECK(tcpu_ops::CheckNonEmpty(*this, getX(), "x"));
  TCPU_CHECK(tcpu_ops::CheckNonEmpty(*this, getGateScales(), "gate_scales"));
  TCPU_CHECK(tcpu_ops::CheckSameDim(*this, getX(), "x", 0, getY(), "y", 0, "hidden"));
  TCPU_CHECK(
      tcpu_ops::CheckSameDim(*this, getX(), "x", 0, getDownScales(), "down_scales", 0, "hidden"));
  return tcpu_ops::CheckSameDim(*this, getGateScales(), "gate_scales", 0, getUpScales(),
                                "up_scales", 0, "intermediate");
}

LogicalResult TransformerLayerOp::verify() {
  Builder b(getContext());
  TCPU_CHECK(tcpu_ops::CheckMemRef(*this, getKCache(), "k_cache", 1, b.getBF16Type()));
  TCPU_CHECK(tcpu_ops::CheckMemRef(*this, getVCache(), "v_cache", 1, b.getBF16Type()));
  TCPU_CHECK(tcpu_ops::CheckMemRef(*this, getHiddenState(), "hidden_state", 1, b.getBF16Type()));
  return tcpu_ops::CheckMemRef(*this, getWorkspace(), "workspace", 1, b.getI8Type());
}

LogicalResult DecodeStepOp::verify() {
  Builder b(getContext());
  TCPU_CHECK(tcpu_ops::CheckMemRef(*this, getKCache(), "k_cache", 1, b.getBF16Type()));
  TCPU_CHECK(tcpu_ops::CheckMemRef(*this, getVCache(), "v_cache", 1, b.getBF16Type()));
  TCPU_CHECK(tcpu_ops::CheckMemRef(*this, getLogits(), "logits", 1, b.getF32Type()));
  TCPU_CHECK(tcpu_ops::CheckMemRef(*this, getNextToken(), "next_token", 1, b.getI32Type()));
  int64_t next = getNextToken().getType().getDimSize(0);
  if (!ShapedType::isDynamic(next) && next != 1) {
    return emitOpError() << "operand 'next_token' must hold 1 element, got "
                         << getNextToken().getType();
  }
  return tcpu_ops::CheckMemRef(*this, getWorkspace(), "workspace", 1, b.getI8Type());
}

namespace tcpu_ops {
namespace {

// tcpu.sdot and tcpu.smmla: vector<4xi32> += vector<16xi8> x vector<16xi8>, or the
// scalable vector<[4]xi32> / vector<[16]xi8> forms.
LogicalResult VerifyInt8Mat(Operation* op, Value acc, Value a) {
  auto acc_type = cast<VectorType>(acc.getType());
  auto a_type = cast<VectorType>(a.getType());
  bool scalable = acc_type.isScalable();
  Builder b(op->getContext());
  auto expect_acc = VectorType::get({4}, b.getI32Type(), {scalable});
  auto expect_a = VectorType::get({16}, b.getI8Type(), {scalable});
  if (acc_type != expect_acc) {
    return op->emitOpError() << "operand 'acc' must be vector<4xi32> or vector<[4]xi32>, got "
                             << acc_type;
  }
  if (a_type != expect_a) {
    return op->emitOpError() << "operand 'a' must be " << expect_a << " to match the "
                             << (scalable ? "scalable" : "fixed") << " accumulator " << acc_type
                             << ", got " << a_type;
  }
  return success();
}

// tcpu.bfmmla and tcpu.fmlal: a vector<4xf32> accumulator and vector<8 x element> operands.
LogicalResult VerifyFloatMat(Operation* op, Value acc, Value a, Type element,
                             llvm::StringRef lanes) {
  auto expect_acc = VectorType::get({4}, Float32Type::get(op->getContext()));
  auto expect_a = VectorType::get({8}, element);
  if (acc.getType() != expect_acc) {
    return op->emitOpError() << "operand 'acc' must be " << expect_acc << ", got "
                             << acc.getType();
  }
  if (a.getType() != expect_a) {
    return op->emitOpError() << "operand 'a' must be " << expect_a << " (" << lanes << "), got "
                             << a.getType();
  }
  return success();
}

}  // namespace
}  // namespace tcpu_ops

LogicalResult LookupBytesOp::verify() {
  if (getTables().empty() || getTables().size() > 4) {
    return emitOpError() << "looks up in 1 to 4 tables (one TBL register list), got "
                         << getTables().size();
  }
  return success();
}

LogicalResult BfmmlaOp::verify() {
  Builder b(getContext());
  return tcpu_ops::VerifyFloatMat(*this, getAcc(), getA(), b.getBF16Type(), "two rows of 4 k");
}

LogicalResult FmlalOp::verify() {
  Builder b(getContext());
  return tcpu_ops::VerifyFloatMat(*this, getAcc(), getA(), b.getF16Type(),
                                  "lanes 0-3 or 4-7 used");
}

LogicalResult SdotOp::verify() { return tcpu_ops::VerifyInt8Mat(*this, getAcc(), getA()); }
LogicalResult SmmlaOp::verify() { return tcpu_ops::VerifyInt8Mat(*this, getAcc(), getA()); }

namespace tcpu_ops {
namespace {

// A register list (LD1-LD4, ST1): vectors of one fixed 128-bit type.
LogicalResult VerifyRegisterList(Operation* op, TypeRange vectors) {
  auto type = cast<VectorType>(vectors.front());
  if (llvm::any_of(vectors, [&](Type t) { return t != type; })) {
    return op->emitOpError() << "needs vectors of one type, got " << vectors.front() << " and "
                             << *llvm::find_if(vectors, [&](Type t) { return t != type; });
  }
  if (type.getRank() != 1 || type.isScalable() || !type.getElementType().isIntOrFloat() ||
      type.getNumElements() * type.getElementTypeBitWidth() != 128) {
    return op->emitOpError() << "needs fixed 128-bit vectors (NEON registers), got " << type;
  }
  return success();
}

// tcpu.load_vectors / tcpu.store_vectors: one to four vectors of one fixed 128-bit type, with
// the element type of a contiguous static buffer, inside it when the indices are constants.
LogicalResult VerifyVectorList(Operation* op, TypeRange vectors, Value base, ValueRange indices) {
  if (vectors.empty() || vectors.size() > 4) {
    return op->emitOpError() << "moves 1 to 4 vectors (one LD1/ST1 register list), got "
                             << vectors.size();
  }
  if (failed(VerifyRegisterList(op, vectors))) return failure();
  auto type = cast<VectorType>(vectors.front());
  if (isa<LLVM::LLVMPointerType>(base.getType())) {
    if (!indices.empty()) {
      return op->emitOpError() << "takes no indices with a pointer base, got " << indices.size();
    }
    return success();
  }
  auto buffer = dyn_cast<MemRefType>(base.getType());
  if (!buffer) {
    return op->emitOpError() << "needs a memref buffer or an !llvm.ptr, got " << base.getType();
  }
  if (buffer.getElementType() != type.getElementType()) {
    return op->emitOpError() << "buffer element type " << buffer.getElementType()
                             << " differs from the vectors' " << type.getElementType();
  }
  if (!buffer.hasStaticShape() || !buffer.getLayout().isIdentity()) {
    return op->emitOpError() << "needs a contiguous buffer of static shape, got " << buffer;
  }
  if (static_cast<int64_t>(indices.size()) != buffer.getRank()) {
    return op->emitOpError() << "has " << indices.size() << " indices for the rank-"
                             << buffer.getRank() << " buffer " << buffer;
  }
  int64_t first = 0;
  for (auto [index, size] : llvm::zip(indices, buffer.getShape())) {
    std::optional<int64_t> constant = getConstantIntValue(index);
    if (!constant) return success();  // checked only when every index is a constant
    if (*constant < 0 || *constant >= size) {
      return op->emitOpError() << "index " << *constant << " is outside " << buffer;
    }
    first = first * size + *constant;
  }
  int64_t end = first + static_cast<int64_t>(vectors.size()) * type.getNumElements();
  if (end > buffer.getNumElements()) {
    return op->emitOpError() << "reaches element " << end - 1 << " of the "
                             << buffer.getNumElements() << "-element buffer " << buffer;
  }
  return success();
}

}  // namespace
}  // namespace tcpu_ops

LogicalResult LoadVectorsOp::verify() {
  return tcpu_ops::VerifyVectorList(*this, getVectors().getTypes(), getBase(), getIndices());
}

LogicalResult StoreVectorsOp::verify() {
  return tcpu_ops::VerifyVectorList(*this, getVectors().getTypes(), getBase(), getIndices());
}

LogicalResult LoadLanesOp::verify() {
  TypeRange vectors = getVectors().getTypes();
  if (vectors.size() < 2 || vectors.size() > 4) {
    return emitOpError() << "fills one lane of 2 to 4 vectors (LD2, LD3 or LD4), got "
                         << vectors.size();
  }
  if (getResults().getTypes() != vectors) {
    return emitOpError() << "results must have the vectors' types";
  }
  if (failed(tcpu_ops::VerifyRegisterList(*this, vectors))) return failure();
  auto type = cast<VectorType>(vectors.front());
  Type element = type.getElementType();
  unsigned bits = type.getElementTypeBitWidth();
  bool lane_type = isa<IntegerType>(element)
                       ? bits == 8 || bits == 16 || bits == 32 || bits == 64
                       : element.isF16() || element.isBF16() || element.isF32() || element.isF64();
  if (!lane_type) {
    return emitOpError() << "loads lanes of i8, i16, i32, i64, f16, bf16, f32 or f64 (what LD2-LD4 "
                            "take), got "
                         << type;
  }
  if (getLane() < 0 || getLane() >= type.getNumElements()) {
    return emitOpError() << "lane " << getLane() << " is outside " << type;
  }
  return success();
}

namespace tcpu_ops {
namespace {

// tcpu.to_mmla_blocks / tcpu.from_mmla_blocks: `rows` is the row-major vector<MxNxT>, `blocks`
// the vector<(M/2)x(N/2)x4xT>.
LogicalResult VerifyMmlaLayout(Operation* op, VectorType rows, VectorType blocks, int64_t stride) {
  if (rows.isScalable() || blocks.isScalable() || rows.getRank() != 2) {
    return op->emitOpError() << "needs a fixed-length 2-D row-major tile, got " << rows;
  }
  int64_t m = rows.getDimSize(0), n = rows.getDimSize(1);
  if (stride < 1 || m % 2 != 0 || n % (2 * stride) != 0) {
    return op->emitOpError() << "needs M even and N a multiple of 2 x column_stride = "
                             << 2 * stride << ", got " << rows << " with column_stride " << stride;
  }
  auto expected = VectorType::get({m / 2, n / 2, 4}, rows.getElementType());
  if (blocks == expected) return success();
  // Tiles of R x C blocks: vector<TxRxCx4> with T = (M/2/R) * (N/2/C).
  if (blocks.getRank() == 4 && blocks.getElementType() == rows.getElementType() &&
      blocks.getDimSize(3) == 4) {
    int64_t r = blocks.getDimSize(1), c = blocks.getDimSize(2);
    if (r > 0 && c > 0 && (m / 2) % r == 0 && (n / 2) % c == 0 &&
        blocks.getDimSize(0) == (m / 2 / r) * (n / 2 / c)) {
      return success();
    }
  }
  return op->emitOpError() << "blocks of " << rows << " must be " << expected
                           << " or tiles of them, TxRxCx4 with R dividing " << m / 2
                           << ", C dividing " << n / 2 << " and T = " << m / 2 << "/R x " << n / 2
                           << "/C, got " << blocks;
}

}  // namespace
}  // namespace tcpu_ops

LogicalResult ToMmlaBlocksOp::verify() {
  return tcpu_ops::VerifyMmlaLayout(*this, getSource().getType(), getResult().getType(),
                                    getColumnStride());
}

LogicalResult FromMmlaBlocksOp::verify() {
  return tcpu_ops::VerifyMmlaLayout(*this, getResult().getType(), getSource().getType(),
                                    getColumnStride());
}

namespace tcpu_ops {
namespace {

// A conversion undone: to(from(x)) and from(to(x)) with the same stride are x.
template <typename Inverse, typename Op>
OpFoldResult FoldInverse(Op op) {
  auto inverse = op.getSource().template getDefiningOp<Inverse>();
  if (inverse && inverse.getColumnStride() == op.getColumnStride() &&
      inverse.getSource().getType() == op.getResult().getType()) {
    return inverse.getSource();
  }
  return {};
}

}  // namespace
}  // namespace tcpu_ops

OpFoldResult ToMmlaBlocksOp::fold(FoldAdaptor) {
  return tcpu_ops::FoldInverse<FromMmlaBlocksOp>(*this);
}
OpFoldResult FromMmlaBlocksOp::fold(FoldAdaptor) {
  return tcpu_ops::FoldInverse<ToMmlaBlocksOp>(*this);
}

LogicalResult PrintOp::verify() {
  for (auto [index, arg] : llvm::enumerate(getArgs())) {
    Type type = arg.getType();
    if (type.isIndex()) continue;
    if (!type.isIntOrFloat() || type.getIntOrFloatBitWidth() > 64) {
      return emitOpError() << "operand #" << index
                           << " must be a scalar integer, index or float of at most 64 bits, got "
                           << type;
    }
  }
  return success();
}

}  // namespace mlir::tcpu
