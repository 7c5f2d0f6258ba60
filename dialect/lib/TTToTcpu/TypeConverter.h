// The one type converter every TTIR lowering pass shares: tensors become vectors of the same
// shape, !tt.ptr<T> becomes !llvm.ptr, a tensor of pointers a vector of i64 addresses, and fp8
// (scalar or element) i8, its bits.
// Values crossing between converted and unconverted ops are bridged with
// unrealized_conversion_cast, which later passes fold away.
#ifndef TCPU_DIALECT_LIB_TTTOTCPU_TYPECONVERTER_H_
#define TCPU_DIALECT_LIB_TTTOTCPU_TYPECONVERTER_H_

#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Transforms/DialectConversion.h"

namespace mlir::tt {

class TensorToVectorTypeConverter : public TypeConverter {
 public:
  explicit TensorToVectorTypeConverter(MLIRContext* context);
};

// A conversion target where every op is legal (casts included); each pass then marks
// illegal exactly the ops it converts, so later passes' ops are left alone.
void markEverythingLegal(ConversionTarget& target);

// True when none of `op`'s operand or result types needs converting.
bool hasLegalTypes(Operation* op, const TypeConverter& converter);

// A pattern that converts any op of type OpTy by changing only its types (operands come
// from the adaptor; attributes, regions and successors are kept).
LogicalResult convertOpTypes(Operation* op, ValueRange operands,
                             const TypeConverter& converter,
                             ConversionPatternRewriter& rewriter);

// A memref stack buffer of `elements` values of `element`, 16-byte aligned, allocated in the
// entry block of `op`'s function (once, not per loop iteration).
Value createEntryStackBuffer(OpBuilder& b, Operation* op, Type element, int64_t elements);

// Stack buffers keep i1 lanes as bytes: the element type in memory, a vector with its i1 lanes
// widened to bytes (others unchanged), and a vector read back as `element`.
Type memoryElementType(Type element);
Value toMemoryElements(OpBuilder& b, Location loc, Value vector);
Value fromMemoryElements(OpBuilder& b, Location loc, Value vector, Type element);

}  // namespace mlir::tt

#endif  // TCPU_DIALECT_LIB_TTTOTCPU_TYPECONVERTER_H_
