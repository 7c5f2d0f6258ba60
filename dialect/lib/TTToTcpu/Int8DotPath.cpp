// The int8 dot paths (Int8DotPath.h).
#include "Int8DotPath.h"

#include "SmmlaTiles.h"
#include "tcpu/TcpuAttrs.h"
#include "tcpu/TcpuDialect.h"

namespace mlir::tt {

FailureOr<Int8Path> chooseInt8Path(DotOp op, bool diagnose) {
  auto a = cast<RankedTensorType>(op.getA().getType());
  auto b = cast<RankedTensorType>(op.getB().getType());
  bool int8 =
      a.getElementType().isInteger(8) && b.getElementType().isInteger(8) && a.getRank() == 2;
  int64_t m = a.getDimSize(a.getRank() - 2), k = a.getDimSize(a.getRank() - 1);
  int64_t n = b.getDimSize(b.getRank() - 1);
  bool smmla_fits = int8 && m % 2 == 0 && n % 2 == 0 && k % 8 == 0;
  bool sdot_fits = int8 && n % 4 == 0 && k % 4 == 0;
  if (auto hints = op->getAttrOfType<DictionaryAttr>(tcpu::TcpuDialect::kHintsAttrName)) {
    if (auto kind = hints.getAs<StringAttr>("dot")) {
      if (kind.getValue() == "fma") return Int8Path::kOuterProducts;
      bool smmla = kind.getValue() == "smmla";
      if (!(smmla ? smmla_fits : sdot_fits)) {
        if (!diagnose) return failure();
        return op.emitError() << "hint dot = \"" << kind.getValue() << "\" needs 2-D i8 operands "
                              << (smmla ? "with M and N even and K a multiple of 8"
                                        : "with N and K multiples of 4")
                              << "; got " << m << "x" << k << " x " << k << "x" << n;
      }
      return smmla ? Int8Path::kSmmla : Int8Path::kSdot;
    }
  }
  tcpu::TargetAttr target = tcpu::getEnclosingTarget(op);
  if (target && target.hasFeature("i8mm") && smmla_fits) return Int8Path::kSmmla;
  if (target && target.hasFeature("dotprod") && sdot_fits) return Int8Path::kSdot;
  return Int8Path::kOuterProducts;
}

bool accumulatesSmmlaInMemory(DotOp op) {
  FailureOr<Int8Path> path = chooseInt8Path(op, /*diagnose=*/false);
  if (failed(path) || *path != Int8Path::kSmmla) return false;
  auto c = cast<RankedTensorType>(op.getC().getType());
  return smmlaBlocksInMemory(c.getDimSize(0), c.getDimSize(1));
}

}  // namespace mlir::tt
