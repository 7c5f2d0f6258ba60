// libFuzzer target over TTIR: any bytes, read as tcpu-compile reads them and parsed as an MLIR
// module with the tt dialect and the dialects real Triton dumps and the lowering use, verified,
// printed, reparsed, and — when it verifies — put through the TTIR lowering (tcpu-opt
// --triton-to-tcpu, stages 1-23). Malformed TTIR and constructs the lowering refuses must end in a
// diagnostic, never a crash, a hang, an out-of-bounds access or undefined behaviour.
#include <cstddef>
#include <cstdint>
#include <string>

#include "llvm/Support/raw_ostream.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "tcpu/TcpuPasses.h"
#include "tt/TTDialect.h"
#include "tt/TTGDialect.h"
#include "tt/TTToTcpuPasses.h"
#include "tt/TritonSource.h"

namespace {

// Shapes past this many elements are legal TTIR, but the lowering unrolls tensors into
// vectors and the fuzzer would spend its time (and memory) on one input; real kernels stay
// far below it.
constexpr int64_t kMaxElements = 1 << 14;

bool HasHugeTensor(mlir::ModuleOp module) {
  bool huge = false;
  auto check = [&](mlir::Type type) {
    if (auto shaped = llvm::dyn_cast<mlir::ShapedType>(type)) {
      if (!shaped.hasStaticShape() || shaped.getNumElements() > kMaxElements) huge = true;
    }
  };
  module.walk([&](mlir::Operation* op) {
    for (mlir::Type type : op->getResultTypes()) check(type);
    for (mlir::Region& region : op->getRegions()) {
      for (mlir::Block& block : region) {
        for (mlir::BlockArgument argument : block.getArguments()) check(argument.getType());
      }
    }
    return huge ? mlir::WalkResult::interrupt() : mlir::WalkResult::advance();
  });
  return huge;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  mlir::DialectRegistry registry;
  mlir::tcpu::registerTcpuToolDialects(registry);
  // TTIR, and what Triton dumps may also hold: gpu.barrier and ttg.barrier (as tcpu-compile).
  registry.insert<mlir::tt::TTDialect, mlir::ttg::TTGDialect, mlir::gpu::GPUDialect>();
  // A fresh single-threaded context per input: nothing uniqued by one input affects the next.
  mlir::MLIRContext context(registry, mlir::MLIRContext::Threading::DISABLED);
  // Diagnostics are the expected outcome for most inputs; swallow them.
  mlir::ScopedDiagnosticHandler quiet(&context, [](mlir::Diagnostic&) { return mlir::success(); });
  // tcpu-compile's reading: location aliases hoisted, llvm.intr.assume spelled generically.
  std::string text =
      mlir::tt::normalizeTritonSource(llvm::StringRef(reinterpret_cast<const char*>(data), size));
  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::parseSourceString<mlir::ModuleOp>(text, &context);
  if (!module) return 0;
  if (mlir::failed(mlir::verify(*module))) return 0;
  // What the printer writes must parse back (custom assembly of tt ops and types).
  std::string printed;
  llvm::raw_string_ostream os(printed);
  module->print(os);
  mlir::OwningOpRef<mlir::ModuleOp> reparsed =
      mlir::parseSourceString<mlir::ModuleOp>(printed, &context);
  if (!reparsed || mlir::failed(mlir::verify(*reparsed))) __builtin_trap();
  if (!mlir::tt::isTritonModule(*module) || HasHugeTensor(*module)) return 0;
  // The lowering must cope with anything the verifier accepts: it may refuse (a diagnostic),
  // never crash.
  mlir::PassManager pm(&context);
  mlir::tt::buildTritonToTcpuPipeline(pm);
  (void)pm.run(*module);
  return 0;
}
