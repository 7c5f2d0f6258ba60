// ttg.barrier: `ttg.barrier local` or several memories joined by `|`.
#include "tt/TTGDialect.h"

#include "llvm/ADT/STLExtras.h"
#include "mlir/IR/Builders.h"
#include "tt/TTGDialect.cpp.inc"

#define GET_OP_CLASSES
#include "tt/TTGOps.cpp.inc"

namespace mlir::ttg {
namespace ttg_dialect {
namespace {
constexpr llvm::StringLiteral kSpaces[] = {"local", "global_read", "global_write", "tensor_read",
                                           "tensor_write"};
}  // namespace
}  // namespace ttg_dialect

void TTGDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "tt/TTGOps.cpp.inc"
      >();
}

ParseResult BarrierOp::parse(OpAsmParser& parser, OperationState& result) {
  SmallVector<StringRef> spaces;
  do {
    StringRef space;
    if (parser.parseKeyword(&space)) return failure();
    spaces.push_back(space);
  } while (succeeded(parser.parseOptionalVerticalBar()));
  result.addAttribute(getSpacesAttrName(result.name), parser.getBuilder().getStrArrayAttr(spaces));
  NamedAttrList attributes;
  if (parser.parseOptionalAttrDict(attributes)) return failure();
  result.addAttributes(attributes.getAttrs());
  return success();
}

void BarrierOp::print(OpAsmPrinter& printer) {
  printer << " ";
  llvm::interleave(
      getSpaces().getAsValueRange<StringAttr>(), [&](StringRef space) { printer << space; },
      [&] { printer << "|"; });
  printer.printOptionalAttrDict((*this)->getAttrs(), {getSpacesAttrName()});
}

LogicalResult BarrierOp::verify() {
  if (getSpaces().empty()) return emitOpError() << "needs at least one memory (e.g. local)";
  for (StringRef space : getSpaces().getAsValueRange<StringAttr>()) {
    if (!llvm::is_contained(ttg_dialect::kSpaces, space)) {
      return emitOpError() << "unknown memory '" << space
                           << "'; expected local, global_read, global_write, tensor_read or "
                              "tensor_write";
    }
  }
  return success();
}

}  // namespace mlir::ttg
