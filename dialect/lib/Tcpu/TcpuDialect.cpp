// The tcpu dialect: registration, and the attributes it owns on other operations
// (tcpu.target on modules, tcpu.hints on runtime ops).
#include "tcpu/TcpuDialect.h"

#include "llvm/ADT/TypeSwitch.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectImplementation.h"
#include "tcpu/Hints.h"
#include "tcpu/TcpuAttrs.h"
#include "tcpu/TcpuOps.h"

#include "tcpu/TcpuDialect.cpp.inc"

namespace mlir::tcpu {

void TcpuDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "tcpu/TcpuOps.cpp.inc"
      >();
  registerAttributes();
  // tcpu.transformer_layer and tcpu.decode_step take !llvm.ptr operands.
  getContext()->loadDialect<LLVM::LLVMDialect>();
}

LogicalResult TcpuDialect::verifyOperationAttribute(Operation* op, NamedAttribute attribute) {
  if (attribute.getName() == kTargetAttrName) {
    if (!isa<ModuleOp>(op)) {
      return op->emitError() << "'" << kTargetAttrName << "' belongs on a builtin.module, not on '"
                             << op->getName() << "'";
    }
    if (!isa<TargetAttr>(attribute.getValue())) {
      return op->emitError() << "'" << kTargetAttrName << "' must be a #tcpu.target<...>, got "
                             << attribute.getValue();
    }
    return success();
  }
  if (attribute.getName() == kHintsAttrName) return verifyHints(op, attribute.getValue());
  if (attribute.getName() == kTritonKernelAttrName) {
    if (!isa<UnitAttr, DictionaryAttr>(attribute.getValue()) || !isa<SymbolOpInterface>(op)) {
      return op->emitError() << "'" << kTritonKernelAttrName
                             << "' marks the function a Triton kernel became (unit, or its "
                                "launch hints as a dictionary)";
    }
    return success();
  }
  return op->emitError() << "unknown tcpu attribute '" << attribute.getName().getValue()
                         << "'; expected '" << kTargetAttrName << "', '" << kHintsAttrName
                         << "' or '" << kTritonKernelAttrName << "'";
}

}  // namespace mlir::tcpu
