// tcpu-compile: an .mlir file (tcpu + upstream dialects) or a Triton .ttir dump -> an aarch64 ELF
// object, in process:
// the tcpu-to-llvm pipeline, translation to LLVM IR, LLVM's O2 pipeline and the AArch64
// backend. Target features come from the module's #tcpu.target, from --target (which
// replaces it) or from --mattr (which overrides both); code is vector-length agnostic unless
// the target fixes vector_bits.
//
//   tcpu-compile kernel.mlir -o kernel.o [--target='#tcpu.target<...>'] [--mattr=+neon,+sve]
//                [--mcpu=generic] [--emit=obj|asm|llvm|header|replay] [-O0..-O3]
//                [--kernel-suffix=S]
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Verifier.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/TargetParser/Triple.h"
#include "mlir/AsmParser/AsmParser.h"
#include "mlir/Dialect/ArmNeon/ArmNeonDialect.h"
#include "mlir/Dialect/ArmSVE/IR/ArmSVEDialect.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/AsmState.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Target/LLVMIR/Dialect/ArmNeon/ArmNeonToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/ArmSVE/ArmSVEToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "tcpu/TcpuAttrs.h"
#include "tcpu/TcpuDialect.h"
#include "tcpu/TcpuPasses.h"
#include "tt/KernelAbi.h"
#include "tt/TTDialect.h"
#include "tt/TTGDialect.h"
#include "tt/TTToTcpuPasses.h"
#include "tt/TritonSource.h"
#include "dialect/tools/hide_library_options.h"
#include "dialect/tools/tcpu-compile/broadcast_folded_splats.h"

namespace {

namespace cl = llvm::cl;

// --help lists these; LLVM's own options stay accepted but only --help-hidden lists them.
cl::OptionCategory tool_options("tcpu-compile options");

cl::opt<std::string> input_file(cl::Positional, cl::desc("<input .mlir or .ttir>"), cl::Required,
                                cl::cat(tool_options));
cl::opt<std::string> output_file("o", cl::desc("Output file"), cl::value_desc("file"),
                                 cl::Required, cl::cat(tool_options));
cl::opt<std::string> target_text("target",
                                 cl::desc("A #tcpu.target<...> that replaces the module's"),
                                 cl::init(""), cl::cat(tool_options));
cl::opt<std::string> variant(
    "variant",
    cl::desc("TTIR: compile the kernels as variant S of another object's launcher "
             "(NAME__S and NAME__S__programs only)"),
    cl::init(""), cl::cat(tool_options));
cl::list<std::string> dispatch(
    "dispatch",
    cl::desc("TTIR: a variant S=#tcpu.target<...> the launcher may choose (repeat, best first); "
             "its object is compiled with --variant=S --target=<the same target>"), cl::cat(tool_options));
cl::opt<std::string> kernel_suffix(
    "kernel-suffix",
    cl::desc("TTIR: append S to every function the module defines (NAME -> NAMES, "
             "tcpu_launch_NAMES, ...), so same-named kernels of several modules link together"),
    cl::value_desc("S"), cl::init(""), cl::cat(tool_options));
cl::opt<bool> fp_fusion(
    "fp-fusion",
    cl::desc("TTIR: fuse float multiplies and adds into FMAs (one rounding), as Triton's "
             "enable_fp_fusion does by default; =false rounds every op"),
    cl::init(true), cl::cat(tool_options));
cl::opt<std::string> mattr("mattr", cl::desc("LLVM AArch64 features (override the target)"),
                           cl::init(""), cl::cat(tool_options));
cl::opt<std::string> mcpu("mcpu", cl::desc("LLVM CPU name"), cl::init("generic"), cl::cat(tool_options));
cl::opt<std::string> triple("mtriple", cl::desc("Target triple"),
                            cl::init("aarch64-unknown-linux-gnu"), cl::cat(tool_options));
cl::opt<unsigned> opt_level("O", cl::desc("Optimization level 0-3"), cl::Prefix, cl::init(2), cl::cat(tool_options));
enum class Emit { kObject, kAssembly, kLlvm, kHeader, kReplay };
cl::opt<Emit> emit("emit", cl::desc("What to write"), cl::init(Emit::kObject),
                   cl::values(clEnumValN(Emit::kObject, "obj", "an ELF object"),
                              clEnumValN(Emit::kAssembly, "asm", "assembly"),
                              clEnumValN(Emit::kLlvm, "llvm", "LLVM IR"),
                              clEnumValN(Emit::kHeader, "header",
                                         "a C header declaring a TTIR module's kernels"),
                              clEnumValN(Emit::kReplay, "replay",
                                         "a C source launching each kernel of a TTIR module "
                                         "from a list of values (tcpu/triton_replay.h)")),
                   cl::cat(tool_options));

int Fail(const llvm::Twine& message) {
  llvm::errs() << "tcpu-compile: " << message << "\n";
  return 1;
}

// Whether LLVM features `features` (as --mattr takes them, comma-separated) end with NEON off:
// the last of +neon / -neon decides.
bool TurnsNeonOff(llvm::StringRef features) {
  bool off = false;
  llvm::SmallVector<llvm::StringRef> entries;
  features.split(entries, ',', -1, /*KeepEmpty=*/false);
  for (llvm::StringRef entry : entries) {
    entry = entry.trim();
    if (entry == "-neon") off = true;
    if (entry == "+neon" || entry == "neon") off = false;
  }
  return off;
}

// The target's features that are instructions on vector registers (every one but neon), which
// the pipeline emits when the target lists them: with NEON off (--mattr=-neon, the scalar
// baseline objects) LLVM's backend cannot select them and aborts.
std::string VectorFeatures(mlir::tcpu::TargetAttr target) {
  std::string names;
  if (!target) return names;
  for (mlir::Attribute feature : target.getFeatures()) {
    llvm::StringRef name = llvm::cast<mlir::StringAttr>(feature).getValue();
    if (name == "neon") continue;
    names += (names.empty() ? "" : ", ") + name.str();
  }
  return names;
}

// The TCPU_FEATURE_* bits (tcpu/cpu.h) a target needs at run time.
uint32_t RequiredFeatures(mlir::tcpu::TargetAttr target) {
  uint32_t bits = 0;
  if (target.hasFeature("dotprod")) bits |= 1u << 0;
  if (target.hasFeature("i8mm")) bits |= 1u << 1;
  if (target.hasFeature("bf16")) bits |= 1u << 2;
  if (target.hasFeature("sve")) bits |= 1u << 3;
  if (target.hasFeature("sve2")) bits |= 1u << 4;
  if (target.hasFeature("fp16")) bits |= 1u << 5;
  if (target.hasFeature("fp16fml")) bits |= 1u << 6;
  return bits;
}

// --dispatch=S=#tcpu.target<...> entries as the launcher pass's S=BITS (kept in `storage`,
// which the options refer to).
bool LauncherOptions(mlir::MLIRContext& context, std::vector<std::string>& storage,
                     mlir::tt::TcpuEmitTritonLaunchersOptions& options) {
  options.variant = variant;
  for (const std::string& entry : dispatch) {
    auto [name, text] = llvm::StringRef(entry).split('=');
    auto target =
        llvm::dyn_cast_or_null<mlir::tcpu::TargetAttr>(mlir::parseAttribute(text, &context));
    if (name.empty() || !target) {
      Fail("--dispatch='" + entry + "': expected NAME=#tcpu.target<...>");
      return false;
    }
    storage.push_back((name + "=" + llvm::Twine(RequiredFeatures(target))).str());
  }
  options.dispatch = storage;
  return true;
}

// A Triton kernel's multiplies and adds fuse into FMAs where the backend finds them, as Triton
// compiles them for a GPU (its `enable_fp_fusion`, on by default): one rounding instead of two
// (--fp-fusion=false: none). descriptor_scale's `2 * x + 1`: 16 -> 8 vector ops a program.
llvm::TargetOptions TritonTargetOptions(bool triton) {
  llvm::TargetOptions options;
  if (triton && fp_fusion) options.AllowFPOpFusion = llvm::FPOpFusion::Fast;
  return options;
}

llvm::CodeGenOptLevel CodeGenLevel(unsigned level) {
  switch (level) {
    case 0:
      return llvm::CodeGenOptLevel::None;
    case 1:
      return llvm::CodeGenOptLevel::Less;
    case 3:
      return llvm::CodeGenOptLevel::Aggressive;
    default:
      return llvm::CodeGenOptLevel::Default;
  }
}

llvm::OptimizationLevel OptLevel(unsigned level) {
  switch (level) {
    case 0:
      return llvm::OptimizationLevel::O0;
    case 1:
      return llvm::OptimizationLevel::O1;
    case 3:
      return llvm::OptimizationLevel::O3;
    default:
      return llvm::OptimizationLevel::O2;
  }
}

void Optimize(llvm::Module& module, llvm::TargetMachine& machine, unsigned level) {
  llvm::LoopAnalysisManager lam;
  llvm::FunctionAnalysisManager fam;
  llvm::CGSCCAnalysisManager cgam;
  llvm::ModuleAnalysisManager mam;
  llvm::PassBuilder builder(&machine);
  builder.registerModuleAnalyses(mam);
  builder.registerCGSCCAnalyses(cgam);
  builder.registerFunctionAnalyses(fam);
  builder.registerLoopAnalyses(lam);
  builder.crossRegisterProxies(lam, fam, cgam, mam);
  llvm::ModulePassManager passes = level == 0
                                       ? builder.buildO0DefaultPipeline(llvm::OptimizationLevel::O0)
                                       : builder.buildPerModuleDefaultPipeline(OptLevel(level));
  passes.run(module, mam);
}

// --emit=header: the C declarations of a TTIR module's kernels and launchers.
int WriteHeader(mlir::ModuleOp module) {
  if (!mlir::tt::isTritonModule(module)) {
    return Fail("--emit=header needs a TTIR module (tt.func kernels); '" + input_file +
                "' has none");
  }
  std::string guard = "TCPU_TRITON_" + llvm::sys::path::stem(output_file).upper() + "_H_";
  for (char& c : guard) {
    if (!llvm::isAlnum(c)) c = '_';
  }
  // Tensor descriptor arguments are passed as their base, sizes and strides (tcpu/triton.h):
  // declare the kernel as the pipeline compiles it.
  mlir::PassManager expand(module.getContext());
  expand.addPass(mlir::tt::createTTLowerBlockPointers());
  if (mlir::failed(expand.run(module))) {
    return Fail("cannot declare the kernels of '" + input_file + "' (see above)");
  }
  std::error_code ec;
  llvm::ToolOutputFile output(output_file, ec, llvm::sys::fs::OF_Text);
  if (ec) return Fail("cannot write '" + output_file + "': " + ec.message());
  if (mlir::failed(mlir::tt::writeKernelHeader(module, guard, output.os()))) {
    return Fail("cannot declare the kernels of '" + input_file + "' (see above)");
  }
  output.keep();
  return 0;
}

// --emit=replay: tcpu_replay_NAME and tcpu_replay_kernel_NAME for each kernel, read from the
// TTIR signature as Triton wrote it (a descriptor is one argument there).
int WriteReplay(mlir::ModuleOp module) {
  if (!mlir::tt::isTritonModule(module)) {
    return Fail("--emit=replay needs a TTIR module (tt.func kernels); '" + input_file +
                "' has none");
  }
  // Written whole or not at all: a kernel the ABI cannot pass leaves no partial file.
  std::string text;
  llvm::raw_string_ostream entries(text);
  if (mlir::failed(mlir::tt::writeReplayEntries(module, entries))) {
    return Fail("cannot write the replay entries of '" + input_file + "' (see above)");
  }
  std::error_code ec;
  llvm::ToolOutputFile output(output_file, ec, llvm::sys::fs::OF_Text);
  if (ec) return Fail("cannot write '" + output_file + "': " + ec.message());
  output.os() << text;
  output.keep();
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  llvm::InitLLVM init(argc, argv);
  tcpu_tools::HideLibraryOptions(&tool_options);
  cl::ParseCommandLineOptions(argc, argv, "tcpu-compile: a TTIR (.ttir) or tcpu (.mlir) module -> an aarch64 object\n");
  if (opt_level > 3) return Fail("-O" + llvm::Twine(opt_level.getValue()) + ": expected 0 to 3");

  mlir::DialectRegistry registry;
  mlir::tcpu::registerTcpuToolDialects(registry);
  // TTIR, and what Triton dumps may also hold: gpu.barrier and ttg.barrier.
  registry.insert<mlir::tt::TTDialect, mlir::ttg::TTGDialect, mlir::gpu::GPUDialect>();
  mlir::registerBuiltinDialectTranslation(registry);
  mlir::registerLLVMDialectTranslation(registry);
  mlir::registerArmNeonDialectTranslation(registry);
  mlir::registerArmSVEDialectTranslation(registry);
  mlir::MLIRContext context(registry);

  llvm::SourceMgr sources;
  mlir::SourceMgrDiagnosticHandler diagnostics(sources, &context);
  auto buffer = llvm::MemoryBuffer::getFileOrSTDIN(input_file);
  if (!buffer) {
    return Fail("cannot read '" + input_file + "': " + buffer.getError().message());
  }
  // Triton defines location aliases after their first use inside other locations and prints
  // llvm.intr.assume in MLIR 20's form: normalize both so MLIR 19's parser accepts the dump as
  // Triton wrote it (line numbers unchanged).
  std::string text = mlir::tt::normalizeTritonSource((*buffer)->getBuffer());
  sources.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBufferCopy(text, (*buffer)->getBufferIdentifier()),
      llvm::SMLoc());
  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::parseSourceFile<mlir::ModuleOp>(sources, &context);
  if (!module) return Fail("'" + input_file + "' is not a valid MLIR module (see above)");
  if (!kernel_suffix.empty()) {
    if (!mlir::tt::isTritonModule(*module)) {
      return Fail("--kernel-suffix applies to TTIR modules (Triton kernels) only");
    }
    if (mlir::failed(mlir::tt::addKernelSuffix(*module, kernel_suffix))) {
      return Fail("--kernel-suffix=" + kernel_suffix + ": cannot rename the kernels (see above)");
    }
  }
  if (emit == Emit::kHeader) return WriteHeader(*module);
  if (emit == Emit::kReplay) return WriteReplay(*module);

  if (!target_text.empty()) {
    mlir::Attribute attribute = mlir::parseAttribute(target_text, &context);
    auto target = llvm::dyn_cast_or_null<mlir::tcpu::TargetAttr>(attribute);
    if (!target) return Fail("--target='" + target_text + "': expected a #tcpu.target<...>");
    (*module)->setAttr(mlir::tcpu::TcpuDialect::kTargetAttrName, target);
    if (mlir::failed(mlir::verify(*module))) {
      return Fail("--target='" + target_text + "' does not fit the module (see above)");
    }
  }
  mlir::tcpu::TargetAttr target = mlir::tcpu::getEnclosingTarget(*module);
  if (TurnsNeonOff(mattr)) {
    if (std::string features = VectorFeatures(target); !features.empty()) {
      return Fail("--mattr=" + mattr + " turns NEON off, but the target's features (" + features +
                  ") are instructions on vector registers: compile with a target without them "
                  "(--target='#tcpu.target<arch = \"armv8-a\", features = [], vector_bits = 0>') "
                  "or without -neon");
    }
  }

  mlir::PassManager pm(&context);
  // TTIR (Triton's printed IR) runs the whole Triton pipeline, launchers included.
  const bool triton = mlir::tt::isTritonModule(*module);
  if (triton) {
    mlir::tt::TcpuEmitTritonLaunchersOptions launchers;
    std::vector<std::string> dispatch_entries;
    if (!LauncherOptions(context, dispatch_entries, launchers)) return 1;
    mlir::tt::buildTritonToLlvmPipeline(pm, launchers);
  } else {
    if (!variant.empty() || !dispatch.empty()) {
      return Fail("--variant and --dispatch apply to TTIR modules (Triton kernels) only");
    }
    mlir::tcpu::buildTcpuToLlvmPipeline(pm);
  }
  if (mlir::failed(pm.run(*module))) return Fail("lowering to the LLVM dialect failed (see above)");
  // tcpu-slice-rows emitted each slice's chain before the next, tcpu-zip-lane-loads each row
  // pair's operands just before their SMMLAs; the machine scheduler would interleave hundreds
  // of independent chains again, or hoist every load, and spill. (The scheduler reads the
  // option only when it was given, hence an occurrence.)
  if ((*module)->removeAttr(mlir::tt::kKeepOpOrderAttrName)) {
    if (cl::Option* misched = cl::getRegisteredOptions().lookup("enable-misched")) {
      if (misched->getNumOccurrences() == 0) misched->addOccurrence(0, "enable-misched", "false");
    }
  }

  llvm::LLVMContext llvm_context;
  std::unique_ptr<llvm::Module> llvm_module =
      mlir::translateModuleToLLVMIR(*module, llvm_context, input_file);
  if (!llvm_module) return Fail("translation to LLVM IR failed (see above)");

  LLVMInitializeAArch64TargetInfo();
  LLVMInitializeAArch64Target();
  LLVMInitializeAArch64TargetMC();
  LLVMInitializeAArch64AsmPrinter();
  std::string error;
  const llvm::Target* backend = llvm::TargetRegistry::lookupTarget(triple, error);
  if (!backend) return Fail("--mtriple=" + triple + ": " + error);
  std::string features = !mattr.empty() ? mattr.getValue()
                         : target       ? target.getLlvmFeatureString()
                                        : std::string("+neon");
  // Kernel libraries are linked into position-independent executables.
  std::unique_ptr<llvm::TargetMachine> machine(
      backend->createTargetMachine(triple, mcpu, features, TritonTargetOptions(triton), llvm::Reloc::PIC_,
                                   std::nullopt, CodeGenLevel(opt_level)));
  if (!machine) return Fail("cannot create a target machine for " + triple + " " + features);
  llvm_module->setTargetTriple(triple);
  llvm_module->setDataLayout(machine->createDataLayout());

  // A fixed SVE vector length becomes vscale_range(n, n) on every function, as clang's
  // -msve-vector-bits does; without it the code works at any vector length.
  if (target && target.getVectorBits() != 0) {
    unsigned vscale = static_cast<unsigned>(target.getVectorBits() / 128);
    for (llvm::Function& function : *llvm_module) {
      if (!function.isDeclaration()) {
        function.addFnAttr(llvm::Attribute::getWithVScaleRangeArgs(llvm_context, vscale, vscale));
      }
    }
  }
  for (llvm::Function& function : *llvm_module) {
    if (function.isDeclaration()) continue;
    function.addFnAttr("target-cpu", mcpu);
    function.addFnAttr("target-features", features);
  }
  if (llvm::verifyModule(*llvm_module, &llvm::errs())) return Fail("invalid LLVM IR (see above)");
  Optimize(*llvm_module, *machine, opt_level);

  std::error_code ec;
  auto output = std::make_unique<llvm::ToolOutputFile>(
      output_file, ec, emit == Emit::kObject ? llvm::sys::fs::OF_None : llvm::sys::fs::OF_Text);
  if (ec) return Fail("cannot write '" + output_file + "': " + ec.message());
  if (emit == Emit::kLlvm) {
    llvm_module->print(output->os(), nullptr);
  } else {
    for (llvm::Function& function : *llvm_module) {
      tcpu_tools::BroadcastFoldedSplats(function, *machine);
    }
    llvm::legacy::PassManager codegen;
    auto file_type = emit == Emit::kObject ? llvm::CodeGenFileType::ObjectFile
                                           : llvm::CodeGenFileType::AssemblyFile;
    if (machine->addPassesToEmitFile(codegen, output->os(), nullptr, file_type)) {
      return Fail("the AArch64 backend cannot emit this file type");
    }
    codegen.run(*llvm_module);
  }
  output->keep();
  return 0;
}
