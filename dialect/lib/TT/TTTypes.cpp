// !tt.ptr and !tt.tensordesc: parsing and printing in every spelling Triton 3.x uses, and the
// type helpers of the tt ops.
#include "tt/TTTypes.h"

#include "llvm/ADT/TypeSwitch.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "tt/TTDialect.h"

#define GET_TYPEDEF_CLASSES
#include "tt/TTTypes.cpp.inc"

namespace mlir::tt {

void TTDialect::registerTypes() {
  addTypes<
#define GET_TYPEDEF_LIST
#include "tt/TTTypes.cpp.inc"
      >();
}

// `<f32>` or `<f32, 1>`; address space 1 (global memory) is the default and is not printed.
Type PointerType::parse(AsmParser& parser) {
  Type pointee;
  int address_space = 1;
  if (parser.parseLess() || parser.parseType(pointee)) return {};
  if (succeeded(parser.parseOptionalComma()) && parser.parseInteger(address_space)) return {};
  if (parser.parseGreater()) return {};
  return PointerType::get(pointee, address_space);
}

void PointerType::print(AsmPrinter& printer) const {
  printer << "<" << getPointeeType();
  if (getAddressSpace() != 1) printer << ", " << getAddressSpace();
  printer << ">";
}

// `<tensor<64x64xf16>>` (Triton 3.2-3.4) or `<64x64xf16>` (later); printed the later way.
Type TensorDescType::parse(AsmParser& parser) {
  if (parser.parseLess()) return {};
  RankedTensorType block;
  llvm::SMLoc location = parser.getCurrentLocation();
  if (succeeded(parser.parseOptionalKeyword("tensor"))) {
    SmallVector<int64_t> shape;
    Type element;
    if (parser.parseLess() || parser.parseDimensionList(shape, /*allowDynamic=*/false) ||
        parser.parseType(element) || parser.parseGreater()) {
      return {};
    }
    block = RankedTensorType::get(shape, element);
  } else {
    SmallVector<int64_t> shape;
    Type element;
    if (parser.parseDimensionList(shape, /*allowDynamic=*/false) || parser.parseType(element)) {
      return {};
    }
    block = RankedTensorType::get(shape, element);
  }
  if (parser.parseGreater()) return {};
  if (block.getRank() == 0) {
    parser.emitError(location, "a tensor descriptor's block needs at least one dimension");
    return {};
  }
  return TensorDescType::get(parser.getContext(), block);
}

void TensorDescType::print(AsmPrinter& printer) const {
  printer << "<";
  for (int64_t size : getBlockType().getShape()) printer << size << "x";
  printer << getBlockType().getElementType() << ">";
}

Type getPointeeType(Type ptr_like) {
  if (auto tensor = dyn_cast<RankedTensorType>(ptr_like)) {
    auto pointer = dyn_cast<PointerType>(tensor.getElementType());
    if (!pointer) return {};
    return RankedTensorType::get(tensor.getShape(), pointer.getPointeeType());
  }
  if (auto pointer = dyn_cast<PointerType>(ptr_like)) return pointer.getPointeeType();
  return {};
}

Type getI1SameShape(Type type) {
  if (!type) return {};
  auto i1 = IntegerType::get(type.getContext(), 1);
  if (auto tensor = dyn_cast<RankedTensorType>(type)) {
    return RankedTensorType::get(tensor.getShape(), i1);
  }
  return i1;
}

Type getPointerTypeSameShape(Type type) {
  if (auto tensor = dyn_cast<RankedTensorType>(type)) {
    return RankedTensorType::get(tensor.getShape(), PointerType::get(tensor.getElementType()));
  }
  return PointerType::get(type);
}

Type getBlockBaseType(Type block_pointer) {
  auto pointer = cast<PointerType>(block_pointer);
  Type element = cast<RankedTensorType>(pointer.getPointeeType()).getElementType();
  return PointerType::get(element, pointer.getAddressSpace());
}

bool isPointerLike(Type type) {
  auto pointer = dyn_cast<PointerType>(getElementTypeOrSelf(type));
  return pointer && !isa<RankedTensorType>(pointer.getPointeeType());
}

}  // namespace mlir::tt
