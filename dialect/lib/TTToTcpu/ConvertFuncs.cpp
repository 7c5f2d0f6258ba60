// tt-to-tcpu-funcs: functions, calls, program ids and control flow.
//
// First, in place: every tt.func gains six trailing i32 parameters (pid_x, pid_y, pid_z,
// grid_x, grid_y, grid_z); tt.get_program_id / tt.get_num_programs read them and tt.call
// passes the caller's along. Then the dialect conversion turns tt.func / tt.call / tt.return
// into func.*, with vector types, and retypes scf and cf. Last, each kernel takes its scalar
// arguments as C passes them (i1/i8/i16 as i32, f16/bf16 as f32, narrowed on entry) and is
// marked for tcpu-emit-triton-launchers.
#include "RefusedOps.h"
#include "TypeConverter.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Func/Transforms/FuncConversions.h"
#include "mlir/Dialect/SCF/Transforms/Patterns.h"
#include "tt/KernelAbi.h"
#include "tt/TTDialect.h"
#include "tt/TTOps.h"
#include "tt/TTToTcpuPasses.h"

namespace mlir::tt {

#define GEN_PASS_DEF_TTTOTCPUFUNCS
#include "tt/TTToTcpuPasses.h.inc"

namespace convert_funcs {
namespace {

constexpr unsigned kProgramArgs = 6;  // pid_x, pid_y, pid_z, grid_x, grid_y, grid_z

LogicalResult AddProgramArguments(ModuleOp module) {
  MLIRContext* context = module.getContext();
  Type i32 = IntegerType::get(context, 32);
  for (FuncOp func : module.getOps<FuncOp>()) {
    if (func.isExternal()) {
      return func.emitError() << "tt.func @" << func.getName()
                              << " has no body; a kernel module must define every function";
    }
    unsigned first = func.getNumArguments();
    SmallVector<unsigned> positions(kProgramArgs, first);
    SmallVector<Type> types(kProgramArgs, i32);
    SmallVector<DictionaryAttr> attrs(kProgramArgs, DictionaryAttr::get(context));
    SmallVector<Location> locs(kProgramArgs, func.getLoc());
    func.insertArguments(positions, types, attrs, locs);
    func.walk([&](Operation* op) {
      if (auto pid = dyn_cast<GetProgramIdOp>(op)) {
        pid.replaceAllUsesWith(func.getArgument(first + static_cast<unsigned>(pid.getAxis())));
        pid.erase();
      } else if (auto grid = dyn_cast<GetNumProgramsOp>(op)) {
        grid.replaceAllUsesWith(func.getArgument(first + 3 + static_cast<unsigned>(grid.getAxis())));
        grid.erase();
      } else if (auto call = dyn_cast<CallOp>(op)) {
        for (unsigned i = 0; i < kProgramArgs; ++i) {
          call->insertOperands(call->getNumOperands(), func.getArgument(first + i));
        }
      }
    });
  }
  return success();
}

struct Func : OpConversionPattern<FuncOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(FuncOp op, OpAdaptor,
                                ConversionPatternRewriter& rewriter) const override {
    const TypeConverter& converter = *getTypeConverter();
    TypeConverter::SignatureConversion signature(op.getNumArguments());
    for (auto [index, type] : llvm::enumerate(op.getArgumentTypes())) {
      Type converted = converter.convertType(type);
      if (!converted) return op.emitError() << "argument " << index << " has type " << type
                                            << ", which the CPU lowering does not support";
      signature.addInputs(index, converted);
    }
    SmallVector<Type> results;
    if (failed(converter.convertTypes(op.getResultTypes(), results))) {
      return op.emitError() << "a result type is not supported by the CPU lowering";
    }
    auto func = rewriter.create<func::FuncOp>(
        op.getLoc(), op.getName(),
        rewriter.getFunctionType(signature.getConvertedTypes(), results));
    func.setVisibility(op.isPublic() ? SymbolTable::Visibility::Public
                                     : SymbolTable::Visibility::Private);
    rewriter.inlineRegionBefore(op.getBody(), func.getBody(), func.end());
    if (failed(rewriter.convertRegionTypes(&func.getBody(), converter, &signature))) {
      return failure();
    }
    rewriter.eraseOp(op);
    return success();
  }
};

struct Return : OpConversionPattern<ReturnOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(ReturnOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter& rewriter) const override {
    rewriter.replaceOpWithNewOp<func::ReturnOp>(op, adaptor.getSrcs());
    return success();
  }
};

struct Call : OpConversionPattern<CallOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(CallOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter& rewriter) const override {
    SmallVector<Type> results;
    if (failed(getTypeConverter()->convertTypes(op.getResultTypes(), results))) return failure();
    rewriter.replaceOpWithNewOp<func::CallOp>(op, op.getCallee(), results,
                                              adaptor.getOperands());
    return success();
  }
};

// Kernel scalars arrive as C passes them; narrow them on entry.
void ApplyKernelAbi(func::FuncOp kernel, ArrayRef<Type> original) {
  OpBuilder b = OpBuilder::atBlockBegin(&kernel.front());
  SmallVector<Type> inputs(kernel.getArgumentTypes());
  for (auto [index, type] : llvm::enumerate(original)) {
    Type abi = getKernelAbiType(type);
    if (abi == type) continue;
    BlockArgument arg = kernel.getArgument(index);
    arg.setType(abi);
    Value narrow = isa<FloatType>(type) ? b.create<arith::TruncFOp>(kernel.getLoc(), type, arg)
                                        : b.create<arith::TruncIOp>(kernel.getLoc(), type, arg)
                                              .getResult();
    arg.replaceAllUsesExcept(narrow, narrow.getDefiningOp());
    inputs[index] = abi;
  }
  kernel.setType(FunctionType::get(kernel.getContext(), inputs, kernel.getResultTypes()));
}

// The kernel's tcpu.triton_kernel dictionary: its tcpu.hints and, under kUnitStrideArgsKey,
// its tt.unit_stride_args; null when it has neither.
DictionaryAttr LaunchAttributes(FuncOp func) {
  SmallVector<NamedAttribute> entries;
  if (auto hints = func->getAttrOfType<DictionaryAttr>(tcpu::TcpuDialect::kHintsAttrName)) {
    llvm::append_range(entries, hints.getValue());
  }
  if (auto unit = func->getAttrOfType<DenseI64ArrayAttr>(kUnitStrideArgsAttrName)) {
    entries.push_back(NamedAttribute(StringAttr::get(func.getContext(), kUnitStrideArgsKey), unit));
  }
  if (entries.empty()) return nullptr;
  return DictionaryAttr::get(func.getContext(), entries);
}

// Stage 14 runs after every stage that lowers a tt op. Any tt op still here other than the
// functions, calls and program ids this stage handles has no lowering: refuse it by name,
// location and reason (RefusedOps.h) now, rather than let it reach LLVM translation as an
// unnamed cast.
LogicalResult RefuseUnloweredOps(ModuleOp module) {
  // Pre-order: an op with a region is named before its terminator.
  WalkResult result = module.walk<WalkOrder::PreOrder>([](Operation* op) {
    if (!isa<TTDialect>(op->getDialect()) ||
        isa<FuncOp, ReturnOp, CallOp, GetProgramIdOp, GetNumProgramsOp>(op)) {
      return WalkResult::advance();
    }
    op->emitError() << "'" << op->getName() << "' is not supported by the CPU backend: "
                    << refusalReason(op) << " (see dialect/README.md)";
    return WalkResult::interrupt();
  });
  return failure(result.wasInterrupted());
}

struct TTToTcpuFuncs : impl::TTToTcpuFuncsBase<TTToTcpuFuncs> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext* context = &getContext();
    if (failed(RefuseUnloweredOps(module))) return signalPassFailure();
    SmallVector<FuncOp> kernel_funcs = getTritonKernels(module);
    if (kernel_funcs.empty() && !module.getOps<FuncOp>().empty()) {
      module.emitError() << "no public tt.func: mark the kernel `tt.func public`";
      return signalPassFailure();
    }
    // Original argument types of each kernel (before the program arguments), and what its
    // launcher needs: its hints (tcpu.hints = {threads = N}) and the arguments every launch
    // passes as 1 (tt.unit_stride_args).
    llvm::StringMap<SmallVector<Type>> kernels;
    llvm::StringMap<DictionaryAttr> launch_attrs;
    for (FuncOp func : kernel_funcs) {
      StringRef name = func.getName();
      kernels[name] = SmallVector<Type>(func.getArgumentTypes());
      launch_attrs[name] = LaunchAttributes(func);
      for (auto [index, type] : llvm::enumerate(func.getArgumentTypes())) {
        if (getKernelCType(type).empty()) {
          func.emitError() << "kernel argument " << index << " has type " << type
                           << "; kernels take pointers and scalars";
          return signalPassFailure();
        }
      }
      if (func.getNumResults() != 0) {
        func.emitError() << "a kernel returns nothing; @" << name << " returns "
                         << func.getNumResults() << " values";
        return signalPassFailure();
      }
    }
    if (failed(AddProgramArguments(module))) return signalPassFailure();

    TensorToVectorTypeConverter converter(context);
    ConversionTarget target(*context);
    markEverythingLegal(target);
    target.addIllegalOp<FuncOp, ReturnOp, CallOp>();
    RewritePatternSet patterns(context);
    patterns.add<Func, Return, Call>(converter, context);
    scf::populateSCFStructuralTypeConversionsAndLegality(converter, patterns, target);
    populateBranchOpInterfaceTypeConversionPattern(patterns, converter);
    target.addDynamicallyLegalDialect<cf::ControlFlowDialect>(
        [&converter](Operation* op) { return hasLegalTypes(op, converter); });
    if (failed(applyPartialConversion(module, target, std::move(patterns)))) {
      return signalPassFailure();
    }
    for (auto& [name, original] : kernels) {
      auto kernel = module.lookupSymbol<func::FuncOp>(name);
      ApplyKernelAbi(kernel, original);
      DictionaryAttr launch = launch_attrs.lookup(name);
      kernel->setAttr(kTritonKernelAttrName,
                      launch ? Attribute(launch) : Attribute(UnitAttr::get(context)));
    }
  }
};

}  // namespace
}  // namespace convert_funcs
}  // namespace mlir::tt
