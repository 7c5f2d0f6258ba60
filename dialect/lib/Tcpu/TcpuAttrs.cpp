// #tcpu.target: verification, feature queries and the AArch64 -mattr string.
#include "tcpu/TcpuAttrs.h"

#include "llvm/ADT/StringSwitch.h"
#include "llvm/ADT/TypeSwitch.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"

#define GET_ATTRDEF_CLASSES
#include "tcpu/TcpuAttrs.cpp.inc"

namespace mlir::tcpu {

void TcpuDialect::registerAttributes() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "tcpu/TcpuAttrs.cpp.inc"
      >();
}

namespace tcpu_attrs {
namespace {

constexpr llvm::StringLiteral kArchs[] = {"armv8-a",   "armv8.2-a", "armv8.4-a", "armv8.6-a",
                                          "armv9-a",   "armv9.2-a"};
constexpr llvm::StringLiteral kFeatures[] = {"neon", "dotprod", "i8mm", "bf16",
                                             "sve",  "sve2",    "fp16", "fp16fml"};

// LLVM's name of a feature where it differs: FEAT_FP16 is `fullfp16` (LLVM's `fp16` would be
// the storage-only conversions every AArch64 CPU has).
llvm::StringRef LlvmFeatureName(llvm::StringRef feature) {
  return feature == "fp16" ? "fullfp16" : feature;
}

template <typename Range>
std::string Join(const Range& names) {
  std::string out;
  for (llvm::StringRef name : names) out += (out.empty() ? "\"" : ", \"") + name.str() + "\"";
  return out;
}

}  // namespace
}  // namespace tcpu_attrs

LogicalResult TargetAttr::verify(llvm::function_ref<InFlightDiagnostic()> emitError,
                                 StringAttr arch, ArrayAttr features, int64_t vector_bits) {
  if (!llvm::is_contained(tcpu_attrs::kArchs, arch.getValue())) {
    return emitError() << "#tcpu.target: unknown arch \"" << arch.getValue()
                       << "\"; expected one of " << tcpu_attrs::Join(tcpu_attrs::kArchs);
  }
  bool has_sve = false;
  for (auto [index, feature] : llvm::enumerate(features)) {
    auto name = llvm::dyn_cast<StringAttr>(feature);
    if (!name) {
      return emitError() << "#tcpu.target: features[" << index << "] must be a string, got "
                         << feature;
    }
    if (!llvm::is_contained(tcpu_attrs::kFeatures, name.getValue())) {
      return emitError() << "#tcpu.target: unknown feature \"" << name.getValue()
                         << "\"; expected one of " << tcpu_attrs::Join(tcpu_attrs::kFeatures);
    }
    has_sve |= name.getValue() == "sve" || name.getValue() == "sve2";
  }
  if (vector_bits != 0) {
    if (vector_bits < 128 || vector_bits > 2048 || vector_bits % 128 != 0) {
      return emitError() << "#tcpu.target: vector_bits = " << vector_bits
                         << "; expected 0 (scalable) or a multiple of 128 from 128 to 2048";
    }
    if (!has_sve) {
      return emitError() << "#tcpu.target: vector_bits = " << vector_bits
                         << " fixes the SVE vector length but features has neither \"sve\" nor "
                            "\"sve2\"";
    }
  }
  return success();
}

bool TargetAttr::hasFeature(llvm::StringRef feature) const {
  if (feature == "neon" || feature.empty()) return true;  // every AArch64 CPU has Advanced SIMD
  for (Attribute listed : getFeatures()) {
    llvm::StringRef name = llvm::cast<StringAttr>(listed).getValue();
    // SVE2 includes SVE, and FEAT_FHM needs FEAT_FP16.
    if (name == feature || (feature == "sve" && name == "sve2") ||
        (feature == "fp16" && name == "fp16fml")) {
      return true;
    }
  }
  return false;
}

std::string TargetAttr::getLlvmFeatureString() const {
  std::string mattr = "+neon";
  for (llvm::StringRef feature : tcpu_attrs::kFeatures) {
    if (feature != "neon" && hasFeature(feature)) {
      mattr += ",+" + tcpu_attrs::LlvmFeatureName(feature).str();
    }
  }
  // The large system extensions are part of every architecture after Armv8.0: atomics are
  // single LDADD/SWP/CAS instructions there instead of LDXR/STXR loops.
  if (getArch().getValue() != "armv8-a") mattr += ",+lse";
  return mattr;
}

TargetAttr getEnclosingTarget(Operation* op) {
  auto module = isa<ModuleOp>(op) ? cast<ModuleOp>(op) : op->getParentOfType<ModuleOp>();
  for (; module; module = module->getParentOfType<ModuleOp>()) {
    if (auto target = module->getAttrOfType<TargetAttr>(TcpuDialect::kTargetAttrName)) {
      return target;
    }
  }
  return nullptr;
}

bool targetHasFeature(TargetAttr target, llvm::StringRef feature) {
  if (target) return target.hasFeature(feature);
  return feature.empty() || feature == "neon";
}

}  // namespace mlir::tcpu
