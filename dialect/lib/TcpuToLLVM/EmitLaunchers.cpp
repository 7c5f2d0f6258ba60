// tcpu-emit-triton-launchers (on the LLVM dialect), for each function marked
// tcpu.triton_kernel, NAME(args..., pid_x, pid_y, pid_z, grid_x, grid_y, grid_z):
//   NAME__program(const void* args, pid_x, pid_y, pid_z, grid_x, grid_y, grid_z)
//       unpacks the argument struct and calls NAME for one program;
//   NAME__variants, a constant tcpu_triton_variant table: the variants of `dispatch` (compiled
//       into other objects as NAME__S__program), best first, then this baseline;
//   int32_t tcpu_launch_NAME(args..., grid_x, grid_y, grid_z)
//       packs the arguments on its stack and returns tcpu_triton_launch("NAME", table, count,
//       &args, grid...): the runtime's grid check, variant choice and thread-pool loop;
//   const char* tcpu_variant_NAME(void), the name of the variant the launcher picks here.
// With `variant=S` the kernel is renamed NAME__S and only NAME__S__program is emitted.
#include <optional>

#include "llvm/ADT/StringExtras.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "tt/TTToTcpuPasses.h"

namespace mlir::tt {

#define GEN_PASS_DEF_TCPUEMITTRITONLAUNCHERS
#include "tt/TTToTcpuPasses.h.inc"

namespace emit_launchers {
namespace {

constexpr unsigned kProgramArgs = 6;
constexpr llvm::StringLiteral kLaunchRuntime = "tcpu_triton_launch";
constexpr llvm::StringLiteral kSelectRuntime = "tcpu_triton_select";

struct Variant {
  std::string suffix;
  uint32_t required_features;
};

class LauncherBuilder {
 public:
  explicit LauncherBuilder(ModuleOp module)
      : module_(module), b_(module.getContext()),
        ptr_(LLVM::LLVMPointerType::get(module.getContext())), i32_(b_.getI32Type()) {}

  // tcpu_triton_variant as LLVM sees it: {const char*, uint32_t, program pointer}.
  LLVM::LLVMStructType VariantType() {
    return LLVM::LLVMStructType::getLiteral(b_.getContext(), {ptr_, i32_, ptr_});
  }

  LLVM::LLVMFuncOp Declare(StringRef name, LLVM::LLVMFunctionType type) {
    if (auto existing = module_.lookupSymbol<LLVM::LLVMFuncOp>(name)) return existing;
    OpBuilder::InsertionGuard guard(b_);
    b_.setInsertionPointToEnd(module_.getBody());
    return b_.create<LLVM::LLVMFuncOp>(module_.getLoc(), name, type);
  }

  LLVM::GlobalOp String(Location loc, StringRef symbol, StringRef text) {
    OpBuilder::InsertionGuard guard(b_);
    b_.setInsertionPointToEnd(module_.getBody());
    std::string bytes = text.str() + '\0';
    return b_.create<LLVM::GlobalOp>(loc, LLVM::LLVMArrayType::get(b_.getI8Type(), bytes.size()),
                                     /*isConstant=*/true, LLVM::Linkage::Internal, symbol,
                                     b_.getStringAttr(bytes));
  }

  // NAME__program: unpacks the argument struct and calls the kernel.
  LLVM::LLVMFuncOp Program(LLVM::LLVMFuncOp kernel, StringRef name, LLVM::Linkage linkage,
                           LLVM::LLVMStructType args_struct) {
    SmallVector<Type> params{ptr_};
    params.append(kProgramArgs, i32_);
    OpBuilder::InsertionGuard guard(b_);
    b_.setInsertionPointToEnd(module_.getBody());
    Location loc = kernel.getLoc();
    auto program = b_.create<LLVM::LLVMFuncOp>(
        loc, name, LLVM::LLVMFunctionType::get(LLVM::LLVMVoidType::get(b_.getContext()), params),
        linkage);
    Block* entry = program.addEntryBlock(b_);
    b_.setInsertionPointToStart(entry);
    SmallVector<Value> call_args;
    for (unsigned i = 0; i < args_struct.getBody().size(); ++i) {
      Value field = b_.create<LLVM::GEPOp>(loc, ptr_, args_struct, entry->getArgument(0),
                                           ArrayRef<LLVM::GEPArg>{0, static_cast<int32_t>(i)});
      call_args.push_back(b_.create<LLVM::LoadOp>(loc, args_struct.getBody()[i], field));
    }
    for (unsigned i = 0; i < kProgramArgs; ++i) call_args.push_back(entry->getArgument(1 + i));
    b_.create<LLVM::CallOp>(loc, kernel, call_args);
    b_.create<LLVM::ReturnOp>(loc, ValueRange{});
    return program;
  }

  // The constant table of variants, best first, the baseline `program` last.
  LLVM::GlobalOp Table(Location loc, StringRef name, ArrayRef<Variant> variants,
                       LLVM::LLVMFuncOp program) {
    SmallVector<std::pair<Variant, Operation*>> entries;
    SmallVector<Type> program_params{ptr_};
    program_params.append(kProgramArgs, i32_);
    auto program_type =
        LLVM::LLVMFunctionType::get(LLVM::LLVMVoidType::get(b_.getContext()), program_params);
    for (const Variant& variant : variants) {
      std::string symbol = (name + "__" + variant.suffix + "__program").str();
      entries.push_back({variant, Declare(symbol, program_type)});
    }
    entries.push_back({Variant{"baseline", 0}, program});
    SmallVector<LLVM::GlobalOp> names;
    for (auto& [variant, op] : entries) {
      names.push_back(String(loc, (name + "__variant_" + variant.suffix).str(),
                             (name + ":" + variant.suffix).str()));
    }
    auto table_type = LLVM::LLVMArrayType::get(VariantType(), entries.size());
    OpBuilder::InsertionGuard guard(b_);
    b_.setInsertionPointToEnd(module_.getBody());
    auto table = b_.create<LLVM::GlobalOp>(loc, table_type, /*isConstant=*/true,
                                           LLVM::Linkage::Internal, (name + "__variants").str(),
                                           Attribute());
    Block* init = b_.createBlock(&table.getInitializerRegion());
    b_.setInsertionPointToStart(init);
    Value value = b_.create<LLVM::UndefOp>(loc, table_type);
    for (auto [index, entry] : llvm::enumerate(entries)) {
      auto& [variant, op] = entry;
      int64_t i = static_cast<int64_t>(index);
      Value text = b_.create<LLVM::AddressOfOp>(loc, names[index]);
      Value bits = b_.create<LLVM::ConstantOp>(loc, i32_, b_.getI32IntegerAttr(
                                                                static_cast<int32_t>(variant.required_features)));
      Value entry_program =
          b_.create<LLVM::AddressOfOp>(loc, ptr_, cast<LLVM::LLVMFuncOp>(op).getSymName());
      value = b_.create<LLVM::InsertValueOp>(loc, value, text, ArrayRef<int64_t>{i, 0});
      value = b_.create<LLVM::InsertValueOp>(loc, value, bits, ArrayRef<int64_t>{i, 1});
      value = b_.create<LLVM::InsertValueOp>(loc, value, entry_program, ArrayRef<int64_t>{i, 2});
    }
    b_.create<LLVM::ReturnOp>(loc, value);
    return table;
  }

  // With `threads` (the kernel's tcpu.hints), the grid runs with that many threads and the
  // caller's count is restored: tcpu_get_num_threads / tcpu_set_num_threads around the launch.
  void Launcher(LLVM::LLVMFuncOp kernel, StringRef name, LLVM::LLVMStructType args_struct,
                LLVM::GlobalOp table, int32_t count, std::optional<int64_t> threads) {
    Location loc = kernel.getLoc();
    ArrayRef<Type> arg_types = args_struct.getBody();
    auto runtime = Declare(kLaunchRuntime, LLVM::LLVMFunctionType::get(
                                               i32_, {ptr_, ptr_, i32_, ptr_, i32_, i32_, i32_}));
    LLVM::GlobalOp kernel_name = String(loc, (name + "__name").str(), name);
    SmallVector<Type> params(arg_types.begin(), arg_types.end());
    params.append(3, i32_);
    OpBuilder::InsertionGuard guard(b_);
    b_.setInsertionPointToEnd(module_.getBody());
    auto launch = b_.create<LLVM::LLVMFuncOp>(loc, ("tcpu_launch_" + name).str(),
                                              LLVM::LLVMFunctionType::get(i32_, params));
    Block* entry = launch.addEntryBlock(b_);
    b_.setInsertionPointToStart(entry);
    Value one = b_.create<LLVM::ConstantOp>(loc, b_.getI64Type(), b_.getI64IntegerAttr(1));
    Value args = b_.create<LLVM::AllocaOp>(loc, ptr_, args_struct, one, /*alignment=*/16);
    for (unsigned i = 0; i < arg_types.size(); ++i) {
      Value field = b_.create<LLVM::GEPOp>(loc, ptr_, args_struct, args,
                                           ArrayRef<LLVM::GEPArg>{0, static_cast<int32_t>(i)});
      b_.create<LLVM::StoreOp>(loc, entry->getArgument(i), field);
    }
    SmallVector<Value> call_args{
        b_.create<LLVM::AddressOfOp>(loc, kernel_name), b_.create<LLVM::AddressOfOp>(loc, table),
        b_.create<LLVM::ConstantOp>(loc, i32_, b_.getI32IntegerAttr(count)), args};
    for (unsigned i = 0; i < 3; ++i) call_args.push_back(entry->getArgument(arg_types.size() + i));
    if (!threads) {
      Value status = b_.create<LLVM::CallOp>(loc, runtime, call_args).getResult();
      b_.create<LLVM::ReturnOp>(loc, status);
      return;
    }
    auto get_threads = Declare("tcpu_get_num_threads", LLVM::LLVMFunctionType::get(i32_, {}));
    auto set_threads = Declare("tcpu_set_num_threads", LLVM::LLVMFunctionType::get(i32_, {i32_}));
    Value zero = b_.create<LLVM::ConstantOp>(loc, i32_, b_.getI32IntegerAttr(0));
    Value previous = b_.create<LLVM::CallOp>(loc, get_threads, ValueRange{}).getResult();
    Value wanted =
        b_.create<LLVM::ConstantOp>(loc, i32_, b_.getI32IntegerAttr(static_cast<int32_t>(*threads)));
    Value set = b_.create<LLVM::CallOp>(loc, set_threads, ValueRange{wanted}).getResult();
    // A failed get or set is returned as is, before anything runs.
    Value failed_get = b_.create<LLVM::ICmpOp>(loc, LLVM::ICmpPredicate::slt, previous, zero);
    Value failed_set = b_.create<LLVM::ICmpOp>(loc, LLVM::ICmpPredicate::slt, set, zero);
    Block* run = launch.addBlock();
    Block* fail_set = launch.addBlock();
    Block* fail_get = launch.addBlock();
    Block* check_set = launch.addBlock();
    b_.create<LLVM::CondBrOp>(loc, failed_get, fail_get, check_set);
    b_.setInsertionPointToStart(fail_get);
    b_.create<LLVM::ReturnOp>(loc, previous);
    b_.setInsertionPointToStart(check_set);
    b_.create<LLVM::CondBrOp>(loc, failed_set, fail_set, run);
    b_.setInsertionPointToStart(fail_set);
    b_.create<LLVM::ReturnOp>(loc, set);
    b_.setInsertionPointToStart(run);
    Value status = b_.create<LLVM::CallOp>(loc, runtime, call_args).getResult();
    b_.create<LLVM::CallOp>(loc, set_threads, ValueRange{previous});
    b_.create<LLVM::ReturnOp>(loc, status);
  }

  // const char* tcpu_variant_NAME(void): table[tcpu_triton_select(table, count)].name.
  void VariantQuery(Location loc, StringRef name, LLVM::GlobalOp table, int32_t count) {
    auto select = Declare(kSelectRuntime, LLVM::LLVMFunctionType::get(i32_, {ptr_, i32_}));
    OpBuilder::InsertionGuard guard(b_);
    b_.setInsertionPointToEnd(module_.getBody());
    auto query = b_.create<LLVM::LLVMFuncOp>(loc, ("tcpu_variant_" + name).str(),
                                             LLVM::LLVMFunctionType::get(ptr_, {}));
    Block* entry = query.addEntryBlock(b_);
    b_.setInsertionPointToStart(entry);
    Value address = b_.create<LLVM::AddressOfOp>(loc, table);
    Value size = b_.create<LLVM::ConstantOp>(loc, i32_, b_.getI32IntegerAttr(count));
    Value index = b_.create<LLVM::CallOp>(loc, select, ValueRange{address, size}).getResult();
    Value field = b_.create<LLVM::GEPOp>(loc, ptr_, VariantType(), address,
                                         ArrayRef<LLVM::GEPArg>{index, 0});
    b_.create<LLVM::ReturnOp>(loc, b_.create<LLVM::LoadOp>(loc, ptr_, field).getResult());
  }

 private:
  ModuleOp module_;
  OpBuilder b_;
  Type ptr_;
  Type i32_;
};

struct TcpuEmitTritonLaunchers : impl::TcpuEmitTritonLaunchersBase<TcpuEmitTritonLaunchers> {
  using TcpuEmitTritonLaunchersBase::TcpuEmitTritonLaunchersBase;

  FailureOr<SmallVector<Variant>> ParseDispatch() {
    SmallVector<Variant> variants;
    for (const std::string& entry : dispatch) {
      auto [suffix, bits] = StringRef(entry).split('=');
      uint32_t value = 0;
      if (suffix.empty() || !llvm::all_of(suffix, llvm::isAlnum) || bits.getAsInteger(0, value)) {
        getOperation().emitError() << "dispatch entry '" << entry
                                   << "': expected NAME=FEATURE_BITS, e.g. dotprod=1";
        return failure();
      }
      variants.push_back({suffix.str(), value});
    }
    return variants;
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    FailureOr<SmallVector<Variant>> variants = ParseDispatch();
    if (failed(variants)) return signalPassFailure();
    if (!variant.empty() && !llvm::all_of(variant, llvm::isAlnum)) {
      module.emitError() << "variant '" << variant << "': letters and digits only";
      return signalPassFailure();
    }
    SmallVector<LLVM::LLVMFuncOp> kernels;
    for (auto func : module.getOps<LLVM::LLVMFuncOp>()) {
      if (func->hasAttr(kTritonKernelAttrName)) kernels.push_back(func);
    }
    LauncherBuilder builder(module);
    for (LLVM::LLVMFuncOp kernel : kernels) {
      std::optional<int64_t> threads;
      if (auto hints = kernel->getAttrOfType<DictionaryAttr>(kTritonKernelAttrName)) {
        if (auto value = hints.getAs<IntegerAttr>("threads")) threads = value.getInt();
      }
      kernel->removeAttr(kTritonKernelAttrName);
      LLVM::LLVMFunctionType type = kernel.getFunctionType();
      if (type.getNumParams() < kProgramArgs) {
        kernel.emitError() << "lacks the six program arguments";
        return signalPassFailure();
      }
      SmallVector<Type> arg_types(type.getParams().drop_back(kProgramArgs));
      auto args_struct = LLVM::LLVMStructType::getLiteral(&getContext(), arg_types);
      std::string name = kernel.getSymName().str();
      if (!variant.empty()) {
        std::string renamed = name + "__" + variant;
        if (failed(SymbolTable::replaceAllSymbolUses(kernel, StringAttr::get(&getContext(), renamed),
                                                     module))) {
          return signalPassFailure();
        }
        kernel.setSymName(renamed);
        builder.Program(kernel, renamed + "__program", LLVM::Linkage::External, args_struct);
        continue;
      }
      LLVM::LLVMFuncOp program =
          builder.Program(kernel, name + "__program", LLVM::Linkage::Internal, args_struct);
      LLVM::GlobalOp table = builder.Table(kernel.getLoc(), name, *variants, program);
      int32_t count = static_cast<int32_t>(variants->size() + 1);
      builder.Launcher(kernel, name, args_struct, table, count, threads);
      builder.VariantQuery(kernel.getLoc(), name, table, count);
    }
  }
};

}  // namespace
}  // namespace emit_launchers
}  // namespace mlir::tt
