// The shared TTIR type converter (TypeConverter.h).
#include "TypeConverter.h"
#include "mlir/Dialect/Arith/IR/Arith.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

#include "mlir/Dialect/LLVMIR/LLVMTypes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "tt/TTTypes.h"

namespace mlir::tt {

TensorToVectorTypeConverter::TensorToVectorTypeConverter(MLIRContext* context) {
  addConversion([](Type type) { return type; });
  // fp8 is storage only on Arm (no fp8 arithmetic): held as its bits, converted by FloatBits.h.
  addConversion([context](FloatType type) -> Type {
    if (type.getWidth() == 8) return IntegerType::get(context, 8);
    return type;
  });
  addConversion([context](PointerType type) -> Type {
    return LLVM::LLVMPointerType::get(context);
  });
  addConversion([context](RankedTensorType type) -> std::optional<Type> {
    Type element = type.getElementType();
    if (isa<PointerType>(element)) element = IntegerType::get(context, 64);
    if (isa<FloatType>(element) && element.getIntOrFloatBitWidth() == 8) {
      element = IntegerType::get(context, 8);
    }
    if (!VectorType::isValidElementType(element)) return std::nullopt;
    return VectorType::get(type.getShape(), element);
  });
  auto bridge = [](OpBuilder& builder, Type type, ValueRange inputs,
                   Location loc) -> std::optional<Value> {
    if (inputs.size() != 1) return std::nullopt;
    return builder.create<UnrealizedConversionCastOp>(loc, type, inputs).getResult(0);
  };
  addSourceMaterialization(bridge);
  addTargetMaterialization(bridge);
  addArgumentMaterialization(bridge);
}

void markEverythingLegal(ConversionTarget& target) {
  target.markUnknownOpDynamicallyLegal([](Operation*) { return true; });
}

bool hasLegalTypes(Operation* op, const TypeConverter& converter) {
  return converter.isLegal(op->getOperandTypes()) && converter.isLegal(op->getResultTypes());
}

LogicalResult convertOpTypes(Operation* op, ValueRange operands,
                             const TypeConverter& converter,
                             ConversionPatternRewriter& rewriter) {
  SmallVector<Type> results;
  if (failed(converter.convertTypes(op->getResultTypes(), results))) {
    return rewriter.notifyMatchFailure(op, "result types cannot be converted");
  }
  OperationState state(op->getLoc(), op->getName(), operands, results, op->getAttrs(),
                       op->getSuccessors());
  for (Region& region : op->getRegions()) {
    Region* moved = state.addRegion();
    rewriter.inlineRegionBefore(region, *moved, moved->end());
    if (failed(rewriter.convertRegionTypes(moved, converter))) return failure();
  }
  Operation* converted = rewriter.create(state);
  rewriter.replaceOp(op, converted->getResults());
  return success();
}

Value createEntryStackBuffer(OpBuilder& b, Operation* op, Type element, int64_t elements) {
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(&op->getParentOfType<FunctionOpInterface>().getFunctionBody().front());
  return b.create<memref::AllocaOp>(op->getLoc(), MemRefType::get({elements}, element),
                                    b.getI64IntegerAttr(16));
}

Type memoryElementType(Type element) {
  return element.isInteger(1) ? IntegerType::get(element.getContext(), 8) : element;
}

Value toMemoryElements(OpBuilder& b, Location loc, Value vector) {
  auto type = cast<VectorType>(vector.getType());
  Type in_memory = memoryElementType(type.getElementType());
  if (in_memory == type.getElementType()) return vector;
  return b.create<arith::ExtUIOp>(loc, type.clone(in_memory), vector);
}

Value fromMemoryElements(OpBuilder& b, Location loc, Value vector, Type element) {
  auto type = cast<VectorType>(vector.getType());
  if (type.getElementType() == element) return vector;
  return b.create<arith::TruncIOp>(loc, type.clone(element), vector);
}

}  // namespace mlir::tt
