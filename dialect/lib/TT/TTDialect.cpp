// The tt dialect: registration of its types and operations.
#include "tt/TTDialect.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"  // a dependent dialect
#include "tt/TTOps.h"
#include "tt/TTTypes.h"

#include "tt/TTDialect.cpp.inc"

namespace mlir::tt {

void TTDialect::initialize() {
  registerTypes();
  addOperations<
#define GET_OP_LIST
#include "tt/TTOps.cpp.inc"
      >();
}

}  // namespace mlir::tt
