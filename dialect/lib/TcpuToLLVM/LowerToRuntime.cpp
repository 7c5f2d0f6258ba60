// --tcpu-lower-to-runtime: memref-level tcpu ops become func.call of the runtime's C ABI
// (runtime/include/tcpu/), with the exact C signatures: pointers are !llvm.ptr, int64_t is
// i64, float is f32, the int status is i32. tcpu.hints wrap the call; tcpu.print becomes
// printf and tcpu.assert cf.assert.
#include <map>
#include <string>

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "tcpu/Hints.h"
#include "tcpu/TcpuOps.h"
#include "tcpu/TcpuPasses.h"

namespace mlir::tcpu {

#define GEN_PASS_DEF_TCPULOWERTORUNTIME
#include "tcpu/TcpuPasses.h.inc"

namespace lower_to_runtime {
namespace {

// tcpu_status codes the lowering itself returns (runtime/include/tcpu/status.h).
constexpr int32_t kStatusInvalidArgument = -5;  // a pinned variant is not the one dispatched
constexpr int32_t kStatusUnknownOp = -6;        // the runtime does not know the op

// Builds runtime calls at one insertion point and declares what they need in the module.
class RuntimeLowering {
 public:
  explicit RuntimeLowering(ModuleOp module) : module_(module) {}

  // func.func private @name with `type`, declared once; an existing declaration must match.
  FailureOr<func::FuncOp> Declare(Operation* user, llvm::StringRef name, FunctionType type) {
    if (auto existing = module_.lookupSymbol<func::FuncOp>(name)) {
      if (existing.getFunctionType() != type) {
        return user->emitError() << "the module declares @" << name << " as "
                                 << existing.getFunctionType()
                                 << " but the runtime's C signature is " << type;
      }
      return existing;
    }
    if (Operation* other = module_.lookupSymbol(name)) {
      return user->emitError() << "symbol @" << name << " is a '" << other->getName()
                               << "'; the lowering needs it for the runtime function " << type;
    }
    OpBuilder b = OpBuilder::atBlockEnd(module_.getBody());
    auto func = b.create<func::FuncOp>(module_.getLoc(), name, type);
    func.setPrivate();
    return func;
  }

  FailureOr<Value> Call(OpBuilder& b, Location loc, Operation* user, llvm::StringRef name,
                        ValueRange args, Type result) {
    auto type = b.getFunctionType(args.getTypes(), result ? TypeRange{result} : TypeRange{});
    FailureOr<func::FuncOp> func = Declare(user, name, type);
    if (failed(func)) return failure();
    auto call = b.create<func::CallOp>(loc, *func, args);
    return result ? call.getResult(0) : Value();
  }

  // The address of element 0 of `memref` (aligned base + offset) as !llvm.ptr.
  static Value Pointer(OpBuilder& b, Location loc, Value memref) {
    auto type = cast<MemRefType>(memref.getType());
    auto meta = b.create<memref::ExtractStridedMetadataOp>(loc, memref);
    Value base = b.create<memref::ExtractAlignedPointerAsIndexOp>(loc, memref);
    Value bytes = b.create<arith::ConstantIndexOp>(loc, type.getElementTypeBitWidth() / 8);
    Value offset = b.create<arith::MulIOp>(loc, meta.getOffset(), bytes);
    Value address = b.create<arith::AddIOp>(loc, base, offset);
    Value as_i64 = b.create<arith::IndexCastOp>(loc, b.getI64Type(), address);
    return b.create<LLVM::IntToPtrOp>(loc, LLVM::LLVMPointerType::get(b.getContext()), as_i64);
  }

  static Value I64(OpBuilder& b, Location loc, Value index) {
    return b.create<arith::IndexCastOp>(loc, b.getI64Type(), index);
  }

  static Value Dim(OpBuilder& b, Location loc, Value memref, int64_t dim) {
    return I64(b, loc, b.createOrFold<memref::DimOp>(loc, memref, dim));
  }

  static Value Stride(OpBuilder& b, Location loc, Value memref, int64_t dim) {
    auto meta = b.create<memref::ExtractStridedMetadataOp>(loc, memref);
    return I64(b, loc, meta.getStrides()[dim]);
  }

  static Value I32(OpBuilder& b, Location loc, int32_t value) {
    return b.create<arith::ConstantIntOp>(loc, value, 32);
  }

  // The address of a NUL-terminated constant string, one global per distinct text.
  Value String(OpBuilder& b, Location loc, llvm::StringRef text) {
    LLVM::GlobalOp& global = strings_[text.str()];
    if (!global) {
      OpBuilder module_builder = OpBuilder::atBlockBegin(module_.getBody());
      std::string name;
      for (int i = static_cast<int>(strings_.size());; ++i) {
        name = "__tcpu_str_" + std::to_string(i);
        if (!module_.lookupSymbol(name)) break;
      }
      std::string value = text.str() + '\0';
      auto type = LLVM::LLVMArrayType::get(b.getI8Type(), value.size());
      global = module_builder.create<LLVM::GlobalOp>(loc, type, /*isConstant=*/true,
                                                     LLVM::Linkage::Internal, name,
                                                     b.getStringAttr(value), /*alignment=*/0);
    }
    return b.create<LLVM::AddressOfOp>(loc, global);
  }

  // printf, declared once as a variadic llvm.func.
  LLVM::LLVMFuncOp Printf(Location loc) {
    if (auto existing = module_.lookupSymbol<LLVM::LLVMFuncOp>("printf")) return existing;
    OpBuilder b = OpBuilder::atBlockEnd(module_.getBody());
    auto ptr = LLVM::LLVMPointerType::get(b.getContext());
    auto type = LLVM::LLVMFunctionType::get(b.getI32Type(), {ptr}, /*isVarArg=*/true);
    return b.create<LLVM::LLVMFuncOp>(loc, "printf", type);
  }

 private:
  ModuleOp module_;
  std::map<std::string, LLVM::GlobalOp> strings_;
};

// The runtime function and its arguments for one memref-level op.
struct RuntimeCall {
  llvm::StringRef name;
  SmallVector<Value> args;
};

FailureOr<RuntimeCall> ArgumentsOf(Operation* op, OpBuilder& b) {
  Location loc = op->getLoc();
  using R = RuntimeLowering;
  auto ptr = [&](Value v) { return R::Pointer(b, loc, v); };
  auto dim = [&](Value v, int64_t d) { return R::Dim(b, loc, v, d); };
  auto f32 = [&](APFloat value) {
    return b.create<arith::ConstantFloatOp>(loc, value, b.getF32Type()).getResult();
  };
  if (auto pack = dyn_cast<PackWeightsOp>(op)) {
    return RuntimeCall{"tcpu_pack_weights_i8",
                       {ptr(pack.getW()), dim(pack.getW(), 0), dim(pack.getW(), 1),
                        ptr(pack.getPacked()), dim(pack.getPacked(), 0)}};
  }
  if (auto gemv = dyn_cast<GemvI8Op>(op)) {
    return RuntimeCall{"tcpu_gemv_i8",
                       {ptr(gemv.getPackedW()), ptr(gemv.getX()), ptr(gemv.getY()),
                        dim(gemv.getY(), 0), dim(gemv.getX(), 0)}};
  }
  if (auto gemv = dyn_cast<GemvBf16W8Op>(op)) {
    return RuntimeCall{"tcpu_gemv_bf16_w8",
                       {ptr(gemv.getPackedW()), ptr(gemv.getWScales()), ptr(gemv.getX()),
                        ptr(gemv.getY()), dim(gemv.getY(), 0), dim(gemv.getX(), 0)}};
  }
  if (auto gemm = dyn_cast<GemmI8Op>(op)) {
    return RuntimeCall{"tcpu_gemm_i8",
                       {ptr(gemm.getPackedW()), ptr(gemm.getX()), ptr(gemm.getY()),
                        dim(gemm.getX(), 0), dim(gemm.getY(), 1), dim(gemm.getX(), 1)}};
  }
  if (auto norm = dyn_cast<RmsNormOp>(op)) {
    return RuntimeCall{"tcpu_rms_norm_bf16",
                       {ptr(norm.getX()), ptr(norm.getW()), ptr(norm.getOut()),
                        dim(norm.getX(), 0), f32(norm.getEps())}};
  }
  if (auto swiglu = dyn_cast<SwigluOp>(op)) {
    return RuntimeCall{"tcpu_swiglu_bf16",
                       {ptr(swiglu.getGate()), ptr(swiglu.getUp()), ptr(swiglu.getOut()),
                        dim(swiglu.getGate(), 0)}};
  }
  if (auto attn = dyn_cast<FlashAttnDecodeOp>(op)) {
    Value k = attn.getKCache(), v = attn.getVCache();
    return RuntimeCall{"tcpu_flash_attn_decode_bf16",
                       {ptr(attn.getQ()), ptr(k), ptr(v), ptr(attn.getOut()),
                        dim(attn.getQ(), 0), dim(k, 0), dim(attn.getQ(), 1),
                        R::I64(b, loc, attn.getSeqLen()), R::Stride(b, loc, k, 0),
                        R::Stride(b, loc, k, 1), R::Stride(b, loc, v, 0),
                        R::Stride(b, loc, v, 1), f32(attn.getSmScale())}};
  }
  // The fused kernels (tcpu/fused_mlp.h, tcpu/transformer.h). Model and layer descriptions
  // are the runtime's C structs, passed through as !llvm.ptr.
  if (auto mlp = dyn_cast<FusedMlpOp>(op)) {
    return RuntimeCall{"tcpu_fused_mlp_bf16",
                       {ptr(mlp.getPackedGate()), ptr(mlp.getGateScales()), ptr(mlp.getPackedUp()),
                        ptr(mlp.getUpScales()), ptr(mlp.getPackedDown()),
                        ptr(mlp.getDownScales()), ptr(mlp.getX()), ptr(mlp.getY()),
                        dim(mlp.getX(), 0), dim(mlp.getGateScales(), 0)}};
  }
  if (auto layer = dyn_cast<TransformerLayerOp>(op)) {
    return RuntimeCall{"tcpu_transformer_layer_bf16",
                       {layer.getShape(), layer.getWeights(), ptr(layer.getKCache()),
                        ptr(layer.getVCache()), R::I64(b, loc, layer.getCacheCapacity()),
                        R::I64(b, loc, layer.getPosition()), ptr(layer.getHiddenState()),
                        ptr(layer.getWorkspace()), dim(layer.getWorkspace(), 0)}};
  }
  if (auto step = dyn_cast<DecodeStepOp>(op)) {
    return RuntimeCall{"tcpu_decode_step",
                       {step.getModel(), ptr(step.getKCache()), ptr(step.getVCache()),
                        R::I64(b, loc, step.getCacheCapacity()), R::I64(b, loc, step.getPosition()),
                        step.getToken(), ptr(step.getLogits()), ptr(step.getNextToken()),
                        ptr(step.getWorkspace()), dim(step.getWorkspace(), 0)}};
  }
  return op->emitError() << "no runtime lowering for '" << op->getName() << "'";
}

class LowerToRuntimePass : public impl::TcpuLowerToRuntimeBase<LowerToRuntimePass> {
 public:
  void runOnOperation() override {
    ModuleOp module = getOperation();
    RuntimeLowering lowering(module);
    SmallVector<Operation*> ops;
    module.walk([&](Operation* op) {
      if (getRuntimeOpInfo(op) || isa<PrintOp, AssertOp>(op)) ops.push_back(op);
    });
    for (Operation* op : ops) {
      LogicalResult result = success();
      if (auto print = dyn_cast<PrintOp>(op)) {
        result = LowerPrint(print, lowering);
      } else if (auto assert_op = dyn_cast<AssertOp>(op)) {
        result = LowerAssert(assert_op);
      } else {
        result = LowerRuntimeOp(op, lowering);
      }
      if (failed(result)) return signalPassFailure();
    }
  }

 private:
  static LogicalResult LowerRuntimeOp(Operation* op, RuntimeLowering& lowering) {
    OpBuilder b(op);
    Location loc = op->getLoc();
    FailureOr<RuntimeCall> call = ArgumentsOf(op, b);
    if (failed(call)) return failure();
    Hints hints = getHints(op);
    Type i32 = b.getI32Type();
    bool failed_declaration = false;
    auto checked = [&](FailureOr<Value> value, OpBuilder& nested) -> Value {
      if (succeeded(value)) return *value;
      failed_declaration = true;
      return RuntimeLowering::I32(nested, loc, kStatusInvalidArgument);
    };

    // The kernel call, run with hints.threads runtime threads (the old count is restored).
    auto threaded = [&](OpBuilder& b) -> Value {
      if (!hints.threads) {
        return checked(lowering.Call(b, loc, op, call->name, call->args, i32), b);
      }
      Value old = checked(lowering.Call(b, loc, op, "tcpu_get_num_threads", {}, i32), b);
      Value zero = RuntimeLowering::I32(b, loc, 0);
      Value old_ok = b.create<arith::CmpIOp>(loc, arith::CmpIPredicate::sge, old, zero);
      auto if_old = b.create<scf::IfOp>(
          loc, old_ok,
          [&](OpBuilder& b, Location loc) {
            Value n = RuntimeLowering::I32(b, loc, static_cast<int32_t>(*hints.threads));
            Value set = checked(lowering.Call(b, loc, op, "tcpu_set_num_threads", {n}, i32), b);
            Value set_ok = b.create<arith::CmpIOp>(loc, arith::CmpIPredicate::eq, set, zero);
            auto if_set = b.create<scf::IfOp>(
                loc, set_ok,
                [&](OpBuilder& b, Location loc) {
                  Value status = checked(lowering.Call(b, loc, op, call->name, call->args, i32), b);
                  checked(lowering.Call(b, loc, op, "tcpu_set_num_threads", {old}, i32), b);
                  b.create<scf::YieldOp>(loc, status);
                },
                [&](OpBuilder& b, Location loc) { b.create<scf::YieldOp>(loc, set); });
            b.create<scf::YieldOp>(loc, if_set.getResult(0));
          },
          [&](OpBuilder& b, Location loc) { b.create<scf::YieldOp>(loc, old); });
      return if_old.getResult(0);
    };

    Value status;
    if (!hints.variant) {
      status = threaded(b);
    } else {
      // Runs the kernel only if the runtime dispatches this op to the pinned variant.
      llvm::StringRef op_name = getRuntimeOpInfo(op)->runtime_name;
      auto ptr = LLVM::LLVMPointerType::get(b.getContext());
      Value name = lowering.String(b, loc, op_name);
      Value want = lowering.String(b, loc, (op_name + ":" + *hints.variant).str());
      Value got = checked(lowering.Call(b, loc, op, "tcpu_kernel_variant", {name}, ptr), b);
      Value null = b.create<LLVM::ZeroOp>(loc, ptr);
      Value is_null = b.create<LLVM::ICmpOp>(loc, LLVM::ICmpPredicate::eq, got, null);
      auto if_null = b.create<scf::IfOp>(
          loc, is_null,
          [&](OpBuilder& b, Location loc) {
            b.create<scf::YieldOp>(loc, RuntimeLowering::I32(b, loc, kStatusUnknownOp));
          },
          [&](OpBuilder& b, Location loc) {
            Value diff = checked(lowering.Call(b, loc, op, "strcmp", {got, want}, i32), b);
            Value same = b.create<arith::CmpIOp>(loc, arith::CmpIPredicate::eq, diff,
                                                 RuntimeLowering::I32(b, loc, 0));
            auto if_same = b.create<scf::IfOp>(
                loc, same,
                [&](OpBuilder& b, Location loc) { b.create<scf::YieldOp>(loc, threaded(b)); },
                [&](OpBuilder& b, Location loc) {
                  b.create<scf::YieldOp>(loc, RuntimeLowering::I32(b, loc, kStatusInvalidArgument));
                });
            b.create<scf::YieldOp>(loc, if_same.getResult(0));
          });
      status = if_null.getResult(0);
    }
    if (failed_declaration) return failure();
    op->getResult(0).replaceAllUsesWith(status);
    op->erase();
    return success();
  }

  static LogicalResult LowerPrint(PrintOp print, RuntimeLowering& lowering) {
    OpBuilder b(print);
    Location loc = print.getLoc();
    std::string format;
    for (char c : print.getPrefix()) format += c == '%' ? std::string("%%") : std::string(1, c);
    SmallVector<Value> args;
    for (Value arg : print.getArgs()) {
      Type type = arg.getType();
      if (type.isIndex()) {
        args.push_back(b.create<arith::IndexCastOp>(loc, b.getI64Type(), arg));
        format += " %lld";
      } else if (auto int_type = dyn_cast<IntegerType>(type)) {
        unsigned width = int_type.getWidth();
        Type wide = width <= 32 ? b.getI32Type() : b.getI64Type();
        if (width == 1) {
          arg = b.create<arith::ExtUIOp>(loc, wide, arg);
        } else if (width != 32 && width != 64) {
          arg = b.create<arith::ExtSIOp>(loc, wide, arg);
        }
        args.push_back(arg);
        format += width <= 32 ? " %d" : " %lld";
      } else {
        // C varargs promote float to double; %.9g prints an f32 exactly enough to round-trip.
        if (!type.isF64()) arg = b.create<arith::ExtFOp>(loc, b.getF64Type(), arg);
        args.push_back(arg);
        format += type.isF64() ? " %.17g" : " %.9g";
      }
    }
    format += "\n";
    args.insert(args.begin(), lowering.String(b, loc, format));
    b.create<LLVM::CallOp>(loc, lowering.Printf(loc), args);
    print.erase();
    return success();
  }

  static LogicalResult LowerAssert(AssertOp assert_op) {
    OpBuilder b(assert_op);
    std::string message = "tcpu.assert failed: " + assert_op.getMessage().str();
    if (auto file_loc = dyn_cast<FileLineColLoc>(assert_op.getLoc())) {
      message += " at " + file_loc.getFilename().str() + ":" + std::to_string(file_loc.getLine());
    }
    b.create<cf::AssertOp>(assert_op.getLoc(), assert_op.getCondition(), message);
    assert_op.erase();
    return success();
  }
};

}  // namespace
}  // namespace lower_to_runtime
}  // namespace mlir::tcpu
