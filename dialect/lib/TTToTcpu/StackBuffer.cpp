#include "StackBuffer.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

namespace mlir::tt {

Value buildEntryBuffer(OpBuilder& b, Operation* op, Type element, int64_t elements) {
  OpBuilder::InsertionGuard guard(b);
  Block& entry = op->getParentOfType<FunctionOpInterface>().getFunctionBody().front();
  b.setInsertionPointToStart(&entry);
  Location loc = op->getLoc();
  Value count = b.create<LLVM::ConstantOp>(loc, b.getI64Type(), elements);
  return b.create<LLVM::AllocaOp>(loc, LLVM::LLVMPointerType::get(b.getContext()), element, count,
                                  /*alignment=*/16);
}

}  // namespace mlir::tt
