// The dot paths (DotPath.h).
#include "DotPath.h"

#include "FloatBits.h"
#include "MmlaTiles.h"
#include "tcpu/TcpuAttrs.h"
#include "tcpu/TcpuDialect.h"

namespace mlir::tt {
namespace dot_path {
namespace {

// A path other than the outer products: its hint, the target feature it needs, and whether
// the dot's operands and shape fit it (else what it needs, for the hint's error).
struct Candidate {
  DotPath path;
  llvm::StringLiteral hint, feature;
  bool fits;
  const char* needs;
};

}  // namespace
}  // namespace dot_path

FailureOr<DotPath> chooseDotPath(DotOp op, bool diagnose) {
  auto a = cast<RankedTensorType>(op.getA().getType());
  auto b = cast<RankedTensorType>(op.getB().getType());
  Type c = cast<RankedTensorType>(op.getC().getType()).getElementType();
  Type element = a.getElementType();
  bool two_d = a.getRank() == 2 && b.getElementType() == element;
  bool int8 = two_d && element.isInteger(8) && c.isInteger(32);
  bool bf16 = two_d && element.isBF16() && c.isF32();
  // fp8 operands (either format each) are exact in bf16: BFMMLA on their widened tiles.
  bool fp8 = a.getRank() == 2 && isFp8(element) && isFp8(b.getElementType()) && c.isF32();
  bool f16_into_f32 = two_d && element.isF16() && c.isF32();
  int64_t m = a.getDimSize(a.getRank() - 2), k = a.getDimSize(a.getRank() - 1);
  int64_t n = b.getDimSize(b.getRank() - 1);
  bool blocks_fit = m % 2 == 0 && n % 2 == 0;
  // Best first: the order the target's features are tried in.
  const dot_path::Candidate candidates[] = {
      {DotPath::kSmmla, "smmla", "i8mm", int8 && blocks_fit && k % 8 == 0,
       "i8 x i8 -> i32 with M and N even and K a multiple of 8"},
      {DotPath::kBfmmla, "bfmmla", "bf16", (bf16 || fp8) && blocks_fit && k % 4 == 0,
       "bf16 x bf16 or fp8 x fp8 -> f32 with M and N even and K a multiple of 4"},
      {DotPath::kSdot, "sdot", "dotprod", int8 && n % 4 == 0 && k % 4 == 0,
       "i8 x i8 -> i32 with N and K multiples of 4"},
      // No hint names it (the verifier allows none): the target alone chooses FMLAL.
      {DotPath::kFmlal, "fmlal", "fp16fml", f16_into_f32 && n % 8 == 0,
       "f16 x f16 -> f32 with N a multiple of 8"},
  };
  if (auto hints = op->getAttrOfType<DictionaryAttr>(tcpu::TcpuDialect::kHintsAttrName)) {
    if (auto kind = hints.getAs<StringAttr>("dot")) {
      for (const dot_path::Candidate& candidate : candidates) {
        if (kind.getValue() != candidate.hint) continue;
        if (candidate.fits) return candidate.path;
        if (!diagnose) return failure();
        return op.emitError() << "hint dot = \"" << candidate.hint << "\" needs 2-D "
                              << candidate.needs << "; got " << m << "x" << k << " x " << k << "x"
                              << n << " of " << element << " into " << c;
      }
      return DotPath::kOuterProducts;  // "fma" (the verifier allows no other)
    }
  }
  tcpu::TargetAttr target = tcpu::getEnclosingTarget(op);
  for (const dot_path::Candidate& candidate : candidates) {
    if (target && target.hasFeature(candidate.feature) && candidate.fits) return candidate.path;
  }
  return DotPath::kOuterProducts;
}

bool accumulatesMmlaInMemory(DotOp op) {
  FailureOr<DotPath> path = chooseDotPath(op, /*diagnose=*/false);
  if (failed(path) || (*path != DotPath::kSmmla && *path != DotPath::kBfmmla)) return false;
  auto c = cast<RankedTensorType>(op.getC().getType());
  return mmlaBlocksInMemory(c.getDimSize(0), c.getDimSize(1));
}

}  // namespace mlir::tt
