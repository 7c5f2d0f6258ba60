// Verifiers and custom assembly of the tt operations. Every error names the operand or
// attribute that is wrong and what was expected.
#include "tt/TTOps.h"

#include <numeric>

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallBitVector.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/Interfaces/FunctionImplementation.h"

#include "tt/TTEnums.cpp.inc"

#define GET_OP_CLASSES
#include "tt/TTOps.cpp.inc"

namespace mlir::tt {
namespace tt_ops {
namespace {

ArrayRef<int64_t> ShapeOf(Type type) {
  if (auto tensor = dyn_cast<RankedTensorType>(type)) return tensor.getShape();
  return {};
}

// "[64, 32]" for diagnostics.
std::string ShapeString(ArrayRef<int64_t> shape) {
  std::string text = "[";
  for (size_t i = 0; i < shape.size(); ++i) {
    if (i) text += ", ";
    text += std::to_string(shape[i]);
  }
  return text + "]";
}

unsigned BitWidth(Type type) {
  type = getElementTypeOrSelf(type);
  if (isa<PointerType>(type)) return 64;
  return type.getIntOrFloatBitWidth();
}

}  // namespace
}  // namespace tt_ops

//===----------------------------------------------------------------------===//
// tt.func, tt.return, tt.call
//===----------------------------------------------------------------------===//

ParseResult FuncOp::parse(OpAsmParser& parser, OperationState& result) {
  auto build_type = [](Builder& builder, ArrayRef<Type> inputs, ArrayRef<Type> results,
                       function_interface_impl::VariadicFlag, std::string&) {
    return builder.getFunctionType(inputs, results);
  };
  return function_interface_impl::parseFunctionOp(
      parser, result, /*allowVariadic=*/false, getFunctionTypeAttrName(result.name), build_type,
      getArgAttrsAttrName(result.name), getResAttrsAttrName(result.name));
}

void FuncOp::print(OpAsmPrinter& printer) {
  function_interface_impl::printFunctionOp(printer, *this, /*isVariadic=*/false,
                                           getFunctionTypeAttrName(), getArgAttrsAttrName(),
                                           getResAttrsAttrName());
}

LogicalResult FuncOp::verify() {
  if (isExternal()) return success();
  ArrayRef<Type> inputs = getFunctionType().getInputs();
  Block& entry = getBody().front();
  if (entry.getNumArguments() != inputs.size()) {
    return emitOpError() << "has " << inputs.size() << " parameters but its entry block has "
                         << entry.getNumArguments() << " arguments";
  }
  return success();
}

LogicalResult ReturnOp::verify() {
  auto function = cast<FuncOp>((*this)->getParentOp());
  ArrayRef<Type> results = function.getFunctionType().getResults();
  if (getNumOperands() != results.size()) {
    return emitOpError() << "returns " << getNumOperands() << " values but @"
                         << function.getName() << " declares " << results.size();
  }
  for (auto [index, pair] : llvm::enumerate(llvm::zip(getOperandTypes(), results))) {
    auto [actual, expected] = pair;
    if (actual != expected) {
      return emitOpError() << "value " << index << " has type " << actual << " but @"
                           << function.getName() << " returns " << expected;
    }
  }
  return success();
}

LogicalResult CallOp::verifySymbolUses(SymbolTableCollection& symbols) {
  auto callee = symbols.lookupNearestSymbolFrom<FuncOp>(*this, getCalleeAttr());
  if (!callee) {
    return emitOpError() << "calls @" << getCallee() << ", which is not a tt.func of the module";
  }
  FunctionType type = callee.getFunctionType();
  if (type.getNumInputs() != getNumOperands()) {
    return emitOpError() << "passes " << getNumOperands() << " arguments to @" << getCallee()
                         << ", which takes " << type.getNumInputs();
  }
  for (unsigned i = 0; i < type.getNumInputs(); ++i) {
    if (getOperand(i).getType() != type.getInput(i)) {
      return emitOpError() << "argument " << i << " has type " << getOperand(i).getType()
                           << " but @" << getCallee() << " takes " << type.getInput(i);
    }
  }
  if (!llvm::equal(type.getResults(), getResultTypes())) {
    return emitOpError() << "result types do not match those of @" << getCallee();
  }
  return success();
}

//===----------------------------------------------------------------------===//
// Tensor creation and shapes
//===----------------------------------------------------------------------===//

LogicalResult MakeRangeOp::verify() {
  int64_t start = getStartAttr().getInt();
  int64_t end = getEndAttr().getInt();
  auto type = cast<RankedTensorType>(getType());
  if (type.getRank() != 1 || !type.getElementType().isInteger(32)) {
    return emitOpError() << "result must be a 1-D tensor of i32, got " << type;
  }
  if (end <= start) {
    return emitOpError() << "end (" << end << ") must be greater than start (" << start << ")";
  }
  if (type.getDimSize(0) != end - start) {
    return emitOpError() << "result has " << type.getDimSize(0) << " elements but the range ["
                         << start << ", " << end << ") has " << end - start;
  }
  return success();
}

LogicalResult SplatOp::verify() {
  if (isa<RankedTensorType>(getSrc().getType())) {
    return emitOpError() << "source must be a scalar, got " << getSrc().getType();
  }
  return success();
}

LogicalResult BroadcastOp::verify() {
  ArrayRef<int64_t> from = tt_ops::ShapeOf(getSrc().getType());
  ArrayRef<int64_t> to = tt_ops::ShapeOf(getType());
  if (from.size() != to.size()) {
    return emitOpError() << "source rank " << from.size() << " differs from result rank "
                         << to.size() << " (use tt.expand_dims first)";
  }
  for (size_t i = 0; i < from.size(); ++i) {
    if (from[i] != to[i] && from[i] != 1) {
      return emitOpError() << "dimension " << i << " of the source is " << from[i]
                           << "; only size-1 dimensions can grow (to " << to[i] << ")";
    }
  }
  return success();
}

LogicalResult ExpandDimsOp::verify() {
  ArrayRef<int64_t> from = tt_ops::ShapeOf(getSrc().getType());
  ArrayRef<int64_t> to = tt_ops::ShapeOf(getType());
  // getAxis() is uint32_t: read the attribute signed, so axis = -1 is reported as -1.
  int64_t axis = getAxisAttr().getInt();
  if (axis < 0 || axis > static_cast<int64_t>(from.size())) {
    return emitOpError() << "axis " << axis << " is outside [0, " << from.size() << "]";
  }
  SmallVector<int64_t> expected(from.begin(), from.end());
  expected.insert(expected.begin() + axis, 1);
  if (ArrayRef<int64_t>(expected) != to) {
    return emitOpError() << "result shape " << tt_ops::ShapeString(to) << " should be "
                         << tt_ops::ShapeString(expected);
  }
  return success();
}

// `$src (allow_reorder)? (efficient_layout)? attr-dict : type -> type`; Triton 3.0's
// `{allow_reorder = false}` spelling is accepted too.
ParseResult ReshapeOp::parse(OpAsmParser& parser, OperationState& result) {
  OpAsmParser::UnresolvedOperand source;
  Type source_type, result_type;
  if (parser.parseOperand(source)) return failure();
  Builder& builder = parser.getBuilder();
  StringAttr allow_name = getAllowReorderAttrName(result.name);
  StringAttr layout_name = getEfficientLayoutAttrName(result.name);
  if (succeeded(parser.parseOptionalKeyword("allow_reorder"))) {
    result.addAttribute(allow_name, builder.getUnitAttr());
  }
  if (succeeded(parser.parseOptionalKeyword("efficient_layout"))) {
    result.addAttribute(layout_name, builder.getUnitAttr());
  }
  NamedAttrList attributes;
  if (parser.parseOptionalAttrDict(attributes)) return failure();
  for (StringAttr name : {allow_name, layout_name}) {
    if (auto flag = dyn_cast_or_null<BoolAttr>(attributes.get(name))) {
      attributes.erase(name);
      if (flag.getValue()) result.addAttribute(name, builder.getUnitAttr());
    }
  }
  result.addAttributes(attributes.getAttrs());
  if (parser.parseColonType(source_type) || parser.parseArrow() ||
      parser.parseType(result_type) ||
      parser.resolveOperand(source, source_type, result.operands)) {
    return failure();
  }
  result.addTypes(result_type);
  return success();
}

void ReshapeOp::print(OpAsmPrinter& printer) {
  printer << " " << getSrc();
  if (getAllowReorder()) printer << " allow_reorder";
  if (getEfficientLayout()) printer << " efficient_layout";
  printer.printOptionalAttrDict((*this)->getAttrs(),
                                {getAllowReorderAttrName(), getEfficientLayoutAttrName()});
  printer << " : " << getSrc().getType() << " -> " << getType();
}

LogicalResult ReshapeOp::verify() {
  auto from = cast<RankedTensorType>(getSrc().getType());
  auto to = cast<RankedTensorType>(getType());
  if (from.getNumElements() != to.getNumElements()) {
    return emitOpError() << "source has " << from.getNumElements() << " elements but result "
                         << to << " has " << to.getNumElements();
  }
  return success();
}

LogicalResult TransOp::verify() {
  ArrayRef<int64_t> from = tt_ops::ShapeOf(getSrc().getType());
  ArrayRef<int64_t> to = tt_ops::ShapeOf(getType());
  ArrayRef<int32_t> order = getOrder();
  if (order.size() != from.size()) {
    return emitOpError() << "order has " << order.size() << " entries for a rank-"
                         << from.size() << " tensor";
  }
  llvm::SmallBitVector seen(order.size());
  for (int32_t dim : order) {
    if (dim < 0 || dim >= static_cast<int32_t>(order.size()) || seen.test(dim)) {
      return emitOpError() << "order must be a permutation of 0.." << order.size() - 1;
    }
    seen.set(dim);
  }
  for (size_t i = 0; i < order.size(); ++i) {
    if (to[i] != from[order[i]]) {
      return emitOpError() << "result dimension " << i << " is " << to[i]
                           << " but source dimension " << order[i] << " is " << from[order[i]];
    }
  }
  return success();
}

LogicalResult CatOp::verify() {
  ArrayRef<int64_t> from = tt_ops::ShapeOf(getLhs().getType());
  ArrayRef<int64_t> to = tt_ops::ShapeOf(getType());
  if (from.size() != to.size() || from.empty() || to[0] != 2 * from[0] ||
      from.drop_front() != to.drop_front()) {
    return emitOpError() << "concatenating two " << tt_ops::ShapeString(from) << " tensors gives "
                         << "twice dimension 0, not " << tt_ops::ShapeString(to);
  }
  return success();
}

LogicalResult JoinOp::verify() {
  SmallVector<int64_t> expected(tt_ops::ShapeOf(getLhs().getType()));
  expected.push_back(2);
  if (ArrayRef<int64_t>(expected) != tt_ops::ShapeOf(getType())) {
    return emitOpError() << "result shape should be " << tt_ops::ShapeString(expected);
  }
  if (getElementTypeOrSelf(getLhs().getType()) != getElementTypeOrSelf(getType())) {
    return emitOpError() << "result element type differs from the operands'";
  }
  return success();
}

LogicalResult SplitOp::verify() {
  ArrayRef<int64_t> from = tt_ops::ShapeOf(getSrc().getType());
  if (from.empty() || from.back() != 2) {
    return emitOpError() << "source's last dimension must be 2, got " << tt_ops::ShapeString(from);
  }
  if (from.drop_back() != tt_ops::ShapeOf(getOutLHS().getType())) {
    return emitOpError() << "results should have shape " << tt_ops::ShapeString(from.drop_back());
  }
  return success();
}

//===----------------------------------------------------------------------===//
// Pointers and casts
//===----------------------------------------------------------------------===//

LogicalResult AdvanceOp::verify() {
  auto block = cast<RankedTensorType>(cast<PointerType>(getPtr().getType()).getPointeeType());
  if (getOffsets().size() != static_cast<size_t>(block.getRank())) {
    return emitOpError() << "has " << getOffsets().size() << " offsets for a rank-"
                         << block.getRank() << " block";
  }
  return success();
}

LogicalResult BitcastOp::verify() {
  if (tt_ops::BitWidth(getSrc().getType()) != tt_ops::BitWidth(getType())) {
    return emitOpError() << "cannot reinterpret " << getSrc().getType() << " as " << getType()
                         << ": element widths differ";
  }
  return success();
}

LogicalResult FpToFpOp::verify() {
  Type from = getElementTypeOrSelf(getSrc().getType());
  Type to = getElementTypeOrSelf(getType());
  bool narrowing = to.getIntOrFloatBitWidth() < from.getIntOrFloatBitWidth();
  if (narrowing && !getRounding()) {
    return emitOpError() << "narrowing " << from << " to " << to
                         << " needs a rounding mode (rounding = rtne or rtz)";
  }
  return success();
}

LogicalResult HistogramOp::verify() {
  auto source = cast<RankedTensorType>(getSrc().getType());
  auto result = cast<RankedTensorType>(getType());
  if (source.getRank() != 1 || result.getRank() != 1) {
    return emitOpError() << "source and result must be 1-D tensors";
  }
  if (getMask() && tt_ops::ShapeOf(getMask().getType()) != source.getShape()) {
    return emitOpError() << "mask must have the source's shape";
  }
  return success();
}

LogicalResult UnsplatOp::verify() {
  auto source = cast<RankedTensorType>(getSrc().getType());
  if (source.getNumElements() != 1) {
    return emitOpError() << "source must hold one element, " << source << " holds "
                         << source.getNumElements();
  }
  return success();
}

void ExternElementwiseOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>& effects) {
  if (getPure()) return;
  effects.emplace_back(MemoryEffects::Read::get(), SideEffects::DefaultResource::get());
  effects.emplace_back(MemoryEffects::Write::get(), SideEffects::DefaultResource::get());
}

Speculation::Speculatability ExternElementwiseOp::getSpeculatability() {
  return getPure() ? Speculation::Speculatable : Speculation::NotSpeculatable;
}

LogicalResult GatherOp::verify() {
  auto source = cast<RankedTensorType>(getSrc().getType());
  auto indices = cast<RankedTensorType>(getIndices().getType());
  auto result = cast<RankedTensorType>(getType());
  int64_t axis = getAxisAttr().getInt();
  if (source.getRank() != indices.getRank()) {
    return emitOpError() << "indices must have the source's rank " << source.getRank();
  }
  if (axis < 0 || axis >= source.getRank()) {
    return emitOpError() << "axis " << axis << " is outside [0, " << source.getRank() << ")";
  }
  if (result.getShape() != indices.getShape() ||
      result.getElementType() != source.getElementType()) {
    return emitOpError() << "result must have the indices' shape "
                         << tt_ops::ShapeString(indices.getShape())
                         << " and the source's element type";
  }
  for (int64_t dim = 0; dim < source.getRank(); ++dim) {
    if (dim != axis && indices.getDimSize(dim) > source.getDimSize(dim)) {
      return emitOpError() << "indices dimension " << dim << " (" << indices.getDimSize(dim)
                           << ") exceeds the source's (" << source.getDimSize(dim) << ")";
    }
  }
  return success();
}

//===----------------------------------------------------------------------===//
// Memory
//===----------------------------------------------------------------------===//

namespace tt_ops {
namespace {

// Loads and stores through block pointers take boundaryCheck dimensions in range.
LogicalResult VerifyBoundaryCheck(Operation* op, Type ptr, ArrayRef<int32_t> dims) {
  auto pointer = dyn_cast<PointerType>(ptr);
  auto block = pointer ? dyn_cast<RankedTensorType>(pointer.getPointeeType()) : nullptr;
  if (!block) {
    if (!dims.empty()) {
      return op->emitOpError() << "boundaryCheck applies only to block pointers";
    }
    return success();
  }
  for (int32_t dim : dims) {
    if (dim < 0 || dim >= block.getRank()) {
      return op->emitOpError() << "boundaryCheck dimension " << dim << " is outside [0, "
                               << block.getRank() << ")";
    }
  }
  return success();
}

}  // namespace
}  // namespace tt_ops

LogicalResult LoadOp::verify() {
  if (getOther() && !getMask()) return emitOpError() << "has 'other' without a mask";
  return tt_ops::VerifyBoundaryCheck(*this, getPtr().getType(), getBoundaryCheck());
}

LogicalResult StoreOp::verify() {
  return tt_ops::VerifyBoundaryCheck(*this, getPtr().getType(), getBoundaryCheck());
}

LogicalResult AtomicCASOp::verify() {
  Type pointee = getPointeeType(getPtr().getType());
  if (pointee != getCmp().getType() || pointee != getVal().getType() ||
      pointee != getType()) {
    return emitOpError() << "cmp, val and result must all be " << pointee;
  }
  return success();
}

LogicalResult MakeTensorPtrOp::verify() {
  auto block = cast<RankedTensorType>(cast<PointerType>(getType()).getPointeeType());
  size_t rank = block.getRank();
  if (getShape().size() != rank || getStrides().size() != rank || getOffsets().size() != rank ||
      getOrder().size() != rank) {
    return emitOpError() << "shape, strides, offsets and order need " << rank
                         << " entries each (the block's rank)";
  }
  return success();
}

LogicalResult MakeTensorDescOp::verify() {
  RankedTensorType block = getType().getBlockType();
  size_t rank = block.getRank();
  if (getShape().size() != rank || getStrides().size() != rank) {
    return emitOpError() << "shape and strides need " << rank << " entries each";
  }
  if (cast<PointerType>(getBase().getType()).getPointeeType() != block.getElementType()) {
    return emitOpError() << "base element type differs from the block's "
                         << block.getElementType();
  }
  return success();
}

namespace tt_ops {
namespace {

LogicalResult VerifyDescriptorAccess(Operation* op, TensorDescType desc, Type value,
                                     size_t num_indices) {
  RankedTensorType block = desc.getBlockType();
  auto tensor = cast<RankedTensorType>(value);
  if (num_indices != static_cast<size_t>(block.getRank())) {
    return op->emitOpError() << "needs " << block.getRank() << " indices, got " << num_indices;
  }
  if (tensor.getElementType() != block.getElementType() ||
      tensor.getNumElements() != block.getNumElements()) {
    return op->emitOpError() << "value " << value << " does not match the descriptor's block "
                             << block;
  }
  return success();
}

}  // namespace
}  // namespace tt_ops

LogicalResult DescriptorLoadOp::verify() {
  return tt_ops::VerifyDescriptorAccess(*this, getDesc().getType(), getType(), getIndices().size());
}

LogicalResult DescriptorStoreOp::verify() {
  return tt_ops::VerifyDescriptorAccess(*this, getDesc().getType(), getSrc().getType(),
                                        getIndices().size());
}

//===----------------------------------------------------------------------===//
// Reductions, scans, dot
//===----------------------------------------------------------------------===//

namespace tt_ops {
namespace {

// The combine region takes (acc_0..acc_n-1, x_0..x_n-1) scalars of the operands' element
// types and returns n of them.
LogicalResult VerifyCombineRegion(Operation* op, Region& region, ValueRange operands) {
  Block& block = region.front();
  size_t count = operands.size();
  if (block.getNumArguments() != 2 * count) {
    return op->emitOpError() << "combine region must take " << 2 * count
                             << " arguments (two per operand), got " << block.getNumArguments();
  }
  for (size_t i = 0; i < 2 * count; ++i) {
    Type expected = getElementTypeOrSelf(operands[i % count].getType());
    if (block.getArgument(i).getType() != expected) {
      return op->emitOpError() << "combine region argument " << i << " has type "
                               << block.getArgument(i).getType() << ", expected " << expected;
    }
  }
  Operation* terminator = block.getTerminator();
  if (terminator->getNumOperands() != count) {
    return op->emitOpError() << "combine region must return " << count << " values";
  }
  for (size_t i = 0; i < count; ++i) {
    Type expected = getElementTypeOrSelf(operands[i].getType());
    if (terminator->getOperand(i).getType() != expected) {
      return op->emitOpError() << "combine region result " << i << " has type "
                               << terminator->getOperand(i).getType() << ", expected "
                               << expected;
    }
  }
  return success();
}

}  // namespace
}  // namespace tt_ops

LogicalResult ReduceOp::verify() {
  if (getSrcs().empty()) return emitOpError() << "needs at least one operand";
  auto first = cast<RankedTensorType>(getSrcs()[0].getType());
  // getAxis() is uint32_t: read the attribute signed, so axis = -1 is reported as -1.
  int64_t axis = getAxisAttr().getInt();
  if (axis < 0 || axis >= first.getRank()) {
    return emitOpError() << "axis " << axis << " is outside [0, " << first.getRank() << ")";
  }
  if (getNumResults() != getSrcs().size()) {
    return emitOpError() << "has " << getSrcs().size() << " operands but " << getNumResults()
                         << " results";
  }
  SmallVector<int64_t> reduced(first.getShape());
  reduced.erase(reduced.begin() + axis);
  for (auto [index, pair] : llvm::enumerate(llvm::zip(getSrcs(), getResults()))) {
    auto [source, result] = pair;
    Type element = getElementTypeOrSelf(source.getType());
    Type expected = reduced.empty() ? element : RankedTensorType::get(reduced, element);
    if (result.getType() != expected) {
      return emitOpError() << "result " << index << " has type " << result.getType()
                           << ", expected " << expected;
    }
  }
  return success();
}

LogicalResult ReduceOp::verifyRegions() {
  return tt_ops::VerifyCombineRegion(*this, getCombineOp(), getSrcs());
}

LogicalResult ScanOp::verify() {
  if (getSrcs().empty()) return emitOpError() << "needs at least one operand";
  auto first = cast<RankedTensorType>(getSrcs()[0].getType());
  // getAxis() is uint32_t: read the attribute signed, so axis = -1 is reported as -1.
  int64_t axis = getAxisAttr().getInt();
  if (axis < 0 || axis >= first.getRank()) {
    return emitOpError() << "axis " << axis << " is outside [0, " << first.getRank() << ")";
  }
  if (getNumResults() != getSrcs().size()) {
    return emitOpError() << "has " << getSrcs().size() << " operands but " << getNumResults()
                         << " results";
  }
  for (auto [source, result] : llvm::zip(getSrcs(), getResults())) {
    if (source.getType() != result.getType()) {
      return emitOpError() << "result type " << result.getType() << " differs from operand type "
                           << source.getType();
    }
  }
  return success();
}

LogicalResult ScanOp::verifyRegions() {
  return tt_ops::VerifyCombineRegion(*this, getCombineOp(), getSrcs());
}

LogicalResult DotOp::verify() {
  auto a = cast<RankedTensorType>(getA().getType());
  auto b = cast<RankedTensorType>(getB().getType());
  auto c = cast<RankedTensorType>(getC().getType());
  if (a.getRank() != b.getRank() || a.getRank() != c.getRank() || a.getRank() < 2 ||
      a.getRank() > 3) {
    return emitOpError() << "a, b and c must all be 2-D (or batched 3-D) tensors";
  }
  int64_t rank = a.getRank();
  int64_t m = a.getDimSize(rank - 2), k = a.getDimSize(rank - 1);
  int64_t kb = b.getDimSize(rank - 2), n = b.getDimSize(rank - 1);
  if (k != kb) {
    return emitOpError() << "a is " << tt_ops::ShapeString(a.getShape()) << " and b is "
                         << tt_ops::ShapeString(b.getShape()) << ": their K dimensions differ";
  }
  if (c.getDimSize(rank - 2) != m || c.getDimSize(rank - 1) != n ||
      (rank == 3 && (a.getDimSize(0) != b.getDimSize(0) || a.getDimSize(0) != c.getDimSize(0)))) {
    return emitOpError() << "c is " << tt_ops::ShapeString(c.getShape()) << " but a x b is "
                         << tt_ops::ShapeString(rank == 3
                                                    ? SmallVector<int64_t>{a.getDimSize(0), m, n}
                                                    : SmallVector<int64_t>{m, n});
  }
  Type ea = a.getElementType(), eb = b.getElementType(), ec = c.getElementType();
  if (ea.isInteger(8) != eb.isInteger(8) || (ea.isInteger(8) && !ec.isInteger(32))) {
    return emitOpError() << "i8 x i8 accumulates into i32; got " << ea << " x " << eb << " -> "
                         << ec;
  }
  if (isa<FloatType>(ea) && !isa<FloatType>(ec)) {
    return emitOpError() << "float inputs accumulate into a float type, got " << ec;
  }
  return success();
}

}  // namespace mlir::tt
