// tcpu-emit-triton-launchers (on the LLVM dialect): for each function marked
// tcpu.triton_kernel, NAME(args..., pid_x, pid_y, pid_z, grid_x, grid_y, grid_z), adds
//   NAME__program(const void* args, pid_x, pid_y, pid_z, grid_x, grid_y, grid_z)
//       unpacks the argument struct and calls NAME for one program;
//   int32_t tcpu_launch_NAME(args..., grid_x, grid_y, grid_z)
//       packs the arguments on its stack and returns
//       tcpu_triton_launch("NAME", NAME__program, &args, grid_x, grid_y, grid_z),
// the runtime's grid check and thread-pool loop (runtime/include/tcpu/triton.h).
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "tt/TTToTcpuPasses.h"

namespace mlir::tt {

#define GEN_PASS_DEF_TCPUEMITTRITONLAUNCHERS
#include "tt/TTToTcpuPasses.h.inc"

namespace {

constexpr unsigned kProgramArgs = 6;
constexpr llvm::StringLiteral kLaunchRuntime = "tcpu_triton_launch";

LLVM::LLVMFuncOp DeclareRuntime(ModuleOp module, OpBuilder& b) {
  if (auto existing = module.lookupSymbol<LLVM::LLVMFuncOp>(kLaunchRuntime)) return existing;
  auto ptr = LLVM::LLVMPointerType::get(b.getContext());
  auto i32 = b.getI32Type();
  auto type = LLVM::LLVMFunctionType::get(i32, {ptr, ptr, ptr, i32, i32, i32});
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToEnd(module.getBody());
  return b.create<LLVM::LLVMFuncOp>(module.getLoc(), kLaunchRuntime, type);
}

LogicalResult EmitLauncher(ModuleOp module, LLVM::LLVMFuncOp kernel) {
  MLIRContext* context = module.getContext();
  OpBuilder b(context);
  Location loc = kernel.getLoc();
  auto ptr = LLVM::LLVMPointerType::get(context);
  auto i32 = b.getI32Type();
  LLVM::LLVMFunctionType kernel_type = kernel.getFunctionType();
  unsigned total = kernel_type.getNumParams();
  if (total < kProgramArgs) return kernel.emitError() << "lacks the program arguments";
  unsigned count = total - kProgramArgs;
  SmallVector<Type> arg_types(kernel_type.getParams().begin(),
                              kernel_type.getParams().begin() + count);
  auto args_struct = LLVM::LLVMStructType::getLiteral(context, arg_types);
  std::string name = kernel.getName().str();
  LLVM::LLVMFuncOp runtime = DeclareRuntime(module, b);
  b.setInsertionPointToEnd(module.getBody());

  // The kernel's name, for the runtime's error details.
  std::string text = name + '\0';
  auto name_global = b.create<LLVM::GlobalOp>(
      loc, LLVM::LLVMArrayType::get(b.getI8Type(), text.size()), /*isConstant=*/true,
      LLVM::Linkage::Internal, name + "__name", b.getStringAttr(text));

  // NAME__program(args*, pid_x, pid_y, pid_z, grid_x, grid_y, grid_z)
  SmallVector<Type> program_params{ptr};
  program_params.append(kProgramArgs, i32);
  auto program = b.create<LLVM::LLVMFuncOp>(
      loc, name + "__program",
      LLVM::LLVMFunctionType::get(LLVM::LLVMVoidType::get(context), program_params),
      LLVM::Linkage::Internal);
  {
    OpBuilder::InsertionGuard guard(b);
    Block* entry = program.addEntryBlock(b);
    b.setInsertionPointToStart(entry);
    SmallVector<Value> call_args;
    for (unsigned i = 0; i < count; ++i) {
      Value field = b.create<LLVM::GEPOp>(loc, ptr, args_struct, entry->getArgument(0),
                                          ArrayRef<LLVM::GEPArg>{0, static_cast<int32_t>(i)});
      call_args.push_back(b.create<LLVM::LoadOp>(loc, arg_types[i], field));
    }
    for (unsigned i = 0; i < kProgramArgs; ++i) call_args.push_back(entry->getArgument(1 + i));
    b.create<LLVM::CallOp>(loc, kernel, call_args);
    b.create<LLVM::ReturnOp>(loc, ValueRange{});
  }

  // int32_t tcpu_launch_NAME(args..., grid_x, grid_y, grid_z)
  SmallVector<Type> launch_params = arg_types;
  launch_params.append(3, i32);
  auto launch = b.create<LLVM::LLVMFuncOp>(loc, "tcpu_launch_" + name,
                                           LLVM::LLVMFunctionType::get(i32, launch_params));
  {
    OpBuilder::InsertionGuard guard(b);
    Block* entry = launch.addEntryBlock(b);
    b.setInsertionPointToStart(entry);
    Value one = b.create<LLVM::ConstantOp>(loc, b.getI64Type(), b.getI64IntegerAttr(1));
    Value args = b.create<LLVM::AllocaOp>(loc, ptr, args_struct, one, /*alignment=*/16);
    for (unsigned i = 0; i < count; ++i) {
      Value field = b.create<LLVM::GEPOp>(loc, ptr, args_struct, args,
                                          ArrayRef<LLVM::GEPArg>{0, static_cast<int32_t>(i)});
      b.create<LLVM::StoreOp>(loc, entry->getArgument(i), field);
    }
    Value kernel_name = b.create<LLVM::AddressOfOp>(loc, name_global);
    Value program_address = b.create<LLVM::AddressOfOp>(loc, program);
    SmallVector<Value> runtime_args{kernel_name, program_address, args};
    for (unsigned i = 0; i < 3; ++i) runtime_args.push_back(entry->getArgument(count + i));
    Value status = b.create<LLVM::CallOp>(loc, runtime, runtime_args).getResult();
    b.create<LLVM::ReturnOp>(loc, status);
  }
  return success();
}

struct TcpuEmitTritonLaunchers : impl::TcpuEmitTritonLaunchersBase<TcpuEmitTritonLaunchers> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<LLVM::LLVMFuncOp> kernels;
    for (auto func : module.getOps<LLVM::LLVMFuncOp>()) {
      if (func->hasAttr(kTritonKernelAttrName)) kernels.push_back(func);
    }
    for (LLVM::LLVMFuncOp kernel : kernels) {
      if (failed(EmitLauncher(module, kernel))) return signalPassFailure();
      kernel->removeAttr(kTritonKernelAttrName);
    }
  }
};

}  // namespace
}  // namespace mlir::tt
