// tcpu.hints: which variants each runtime op has, and the checks against the module target.
#include "tcpu/Hints.h"

#include "llvm/ADT/StringExtras.h"
#include "tcpu/TcpuAttrs.h"
#include "tcpu/TcpuOps.h"

namespace mlir::tcpu {
namespace hints {
namespace {

// The variants the runtime's kernel folders build (their tcpu_kernel_variant names).
constexpr llvm::StringRef kGemvVariants[] = {"ref", "neon", "dotprod", "sve2"};
constexpr llvm::StringRef kGemmVariants[] = {"ref", "neon", "dotprod", "i8mm"};
constexpr llvm::StringRef kBf16Variants[] = {"ref", "neon", "sve2"};
constexpr llvm::StringRef kPackVariants[] = {"ref"};

std::string Quoted(llvm::ArrayRef<llvm::StringRef> names) {
  std::string out;
  for (llvm::StringRef name : names) out += (out.empty() ? "\"" : ", \"") + name.str() + "\"";
  return out;
}

}  // namespace
}  // namespace hints

std::optional<RuntimeOpInfo> getRuntimeOpInfo(Operation* op) {
  if (isa<PackWeightsOp>(op)) return RuntimeOpInfo{"pack_weights_i8", hints::kPackVariants};
  if (isa<GemvI8Op>(op)) return RuntimeOpInfo{"gemv_i8", hints::kGemvVariants};
  if (isa<GemvBf16W8Op>(op)) return RuntimeOpInfo{"gemv_bf16_w8", hints::kGemvVariants};
  if (isa<GemmI8Op>(op)) return RuntimeOpInfo{"gemm_i8", hints::kGemmVariants};
  if (isa<RmsNormOp>(op)) return RuntimeOpInfo{"rms_norm_bf16", hints::kBf16Variants};
  if (isa<SwigluOp>(op)) return RuntimeOpInfo{"swiglu_bf16", hints::kBf16Variants};
  if (isa<FlashAttnDecodeOp>(op))
    return RuntimeOpInfo{"flash_attn_decode_bf16", hints::kBf16Variants};
  // The fused ops run several kernels; they take a thread count but no single variant.
  if (isa<FusedMlpOp, TransformerLayerOp, DecodeStepOp>(op)) return RuntimeOpInfo{"", {}};
  return std::nullopt;
}

llvm::StringRef featureForVariant(llvm::StringRef variant) {
  if (variant == "dotprod" || variant == "i8mm" || variant == "sve2") return variant;
  return "";
}

namespace hints {
namespace {

// A `threads` hint: an integer in 1..kMaxThreads, checked on its full width.
LogicalResult VerifyThreads(Operation* op, Attribute value) {
  auto threads = dyn_cast<IntegerAttr>(value);
  if (!threads || !threads.getType().isSignlessInteger()) {
    return op->emitError() << "hint 'threads' must be an integer, got " << value;
  }
  const llvm::APInt& n = threads.getValue();
  // Checked on the full-width value: an i128 hint must not wrap into range.
  if (n.getSignificantBits() > 64 || n.getSExtValue() < 1 || n.getSExtValue() > kMaxThreads) {
    return op->emitError() << "hint 'threads' = " << llvm::toString(n, 10, /*Signed=*/true)
                           << "; expected 1 to " << kMaxThreads;
  }
  return success();
}

InFlightDiagnostic LacksFeature(Operation* op, llvm::StringRef what, llvm::StringRef feature) {
  TargetAttr target = getEnclosingTarget(op);
  InFlightDiagnostic diag = op->emitError() << what << " needs target feature \"" << feature
                                            << "\", which ";
  if (target) {
    diag << "the module's " << Attribute(target) << " lacks";
  } else {
    diag << "the Armv8-A baseline lacks (the module has no 'tcpu.target')";
  }
  return diag;
}

// Hints on Triton ops (FlagTree's flagtree_hints), by op name so that tcpu does not depend
// on the tt dialect:
//   tt.func               threads = N            the launcher runs the grid with N threads
//   tt.load / tt.store    vector_width = N       the addresses come in runs of N (2^k) consecutive elements
//   tt.dot                dot = "smmla" | "sdot" | "bfmmla" | "fma"   the product's instructions
LogicalResult VerifyTritonHints(Operation* op, DictionaryAttr hints) {
  llvm::StringRef name = op->getName().getStringRef();
  for (NamedAttribute hint : hints) {
    llvm::StringRef key = hint.getName().getValue();
    if (name == "tt.func" && key == "threads") {
      if (failed(VerifyThreads(op, hint.getValue()))) return failure();
    } else if ((name == "tt.load" || name == "tt.store") && key == "vector_width") {
      auto width = dyn_cast<IntegerAttr>(hint.getValue());
      if (!width || !width.getType().isSignlessInteger() ||
          width.getValue().getSignificantBits() > 32 || width.getValue().getSExtValue() < 1 ||
          !llvm::isPowerOf2_64(width.getValue().getSExtValue())) {
        return op->emitError() << "hint 'vector_width' must be a power of two >= 1, got "
                               << hint.getValue();
      }
    } else if (name == "tt.dot" && key == "dot") {
      auto kind = dyn_cast<StringAttr>(hint.getValue());
      if (!kind || !llvm::is_contained({"smmla", "sdot", "bfmmla", "fma"}, kind.getValue())) {
        return op->emitError()
               << "hint 'dot' must be \"smmla\", \"sdot\", \"bfmmla\" or \"fma\", got "
               << hint.getValue();
      }
      llvm::StringRef feature = kind.getValue() == "smmla"    ? "i8mm"
                                : kind.getValue() == "sdot"   ? "dotprod"
                                : kind.getValue() == "bfmmla" ? "bf16"
                                                              : "";
      if (!targetHasFeature(getEnclosingTarget(op), feature)) {
        return LacksFeature(op, ("hint dot = \"" + kind.getValue() + "\"").str(), feature);
      }
    } else {
      return op->emitError() << "unknown hint '" << key << "' on '" << name
                             << "'; Triton ops take threads (tt.func), vector_width (tt.load, "
                                "tt.store) and dot (tt.dot)";
    }
  }
  return success();
}

}  // namespace
}  // namespace hints

LogicalResult verifyHints(Operation* op, Attribute hints_attr) {
  auto hints = dyn_cast<DictionaryAttr>(hints_attr);
  if (!hints) {
    return op->emitError() << "'tcpu.hints' must be a dictionary such as {variant = \"dotprod\", "
                              "threads = 4 : i64}, got "
                           << hints_attr;
  }
  if (op->getName().getStringRef().starts_with("tt.")) return hints::VerifyTritonHints(op, hints);
  std::optional<RuntimeOpInfo> info = getRuntimeOpInfo(op);
  if (!info) {
    return op->emitError() << "'tcpu.hints' applies to tcpu runtime ops (tcpu.gemv_i8, "
                              "tcpu.rms_norm, ...) and to tt.func, tt.load, tt.store and tt.dot, "
                              "not to '"
                           << op->getName() << "'";
  }
  for (NamedAttribute hint : hints) {
    llvm::StringRef key = hint.getName().getValue();
    if (key == "threads") {
      if (failed(hints::VerifyThreads(op, hint.getValue()))) return failure();
    } else if (key == "variant") {
      auto variant = dyn_cast<StringAttr>(hint.getValue());
      if (!variant) {
        return op->emitError() << "hint 'variant' must be a string, got " << hint.getValue();
      }
      if (info->variants.empty()) {
        return op->emitError() << "hint 'variant' is not supported on '" << op->getName()
                               << "' (it runs several kernels); use 'threads' only";
      }
      if (!llvm::is_contained(info->variants, variant.getValue())) {
        return op->emitError() << "hint variant = \"" << variant.getValue() << "\" is not a "
                               << "runtime variant of '" << op->getName() << "'; expected one of "
                               << hints::Quoted(info->variants);
      }
      llvm::StringRef feature = featureForVariant(variant.getValue());
      if (!targetHasFeature(getEnclosingTarget(op), feature)) {
        return hints::LacksFeature(op, ("hint variant = \"" + variant.getValue() + "\"").str(),
                                   feature);
      }
    } else {
      return op->emitError() << "unknown hint '" << key << "'; expected 'variant' or 'threads'";
    }
  }
  return success();
}

Hints getHints(Operation* op) {
  Hints result;
  auto hints = op->getAttrOfType<DictionaryAttr>(TcpuDialect::kHintsAttrName);
  if (!hints) return result;
  if (auto variant = hints.getAs<StringAttr>("variant")) result.variant = variant.str();
  if (auto threads = hints.getAs<IntegerAttr>("threads")) {
    result.threads = threads.getValue().getSExtValue();
  }
  return result;
}

}  // namespace mlir::tcpu
