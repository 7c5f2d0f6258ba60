// tcpu-emit-triton-launchers (on the LLVM dialect), for each function marked
// tcpu.triton_kernel, NAME(args..., pid_x, pid_y, pid_z, grid_x, grid_y, grid_z) (triton-cpu's
// one-program entry; inlined into the program loop where small and loop-free on some path):
//   NAME__programs(const void* args, pid_x, pid_y, pid_z, count, grid_x, grid_y, grid_z)
//       unpacks the argument struct once and calls NAME for `count` programs from
//       (pid_x, pid_y, pid_z) on, x fastest (tcpu_triton_programs); none unless every
//       argument of the kernel's unit_stride_args is 1;
//   NAME__variants, a constant tcpu_triton_variant table: the variants of `dispatch` (compiled
//       into other objects as NAME__S__programs), best first, then this baseline;
//   int32_t tcpu_launch_NAME(args..., grid_x, grid_y, grid_z)
//       returns tcpu_triton_refuse_stride("NAME", i, a_i) for the first of the kernel's
//       unit_stride_args (tensor descriptors' innermost strides) that is not 1; otherwise packs
//       the arguments on its stack and returns tcpu_triton_launch("NAME", table, count, &args,
//       grid...): the runtime's grid check, variant choice and thread-pool ranges;
//   const char* tcpu_variant_NAME(void), the name of the variant the launcher picks here.
// With `variant=S` the kernel is renamed NAME__S and NAME__S__programs is external; no
// launcher.
#include <optional>

#include "llvm/ADT/SCCIterator.h"
#include "llvm/ADT/StringExtras.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/RegionGraphTraits.h"
#include "tt/TTToTcpuPasses.h"

namespace mlir::tt {

#define GEN_PASS_DEF_TCPUEMITTRITONLAUNCHERS
#include "tt/TTToTcpuPasses.h.inc"

namespace emit_launchers {
namespace {

constexpr unsigned kProgramArgs = 6;
constexpr int64_t kMaxInlinedOps = 1500;
constexpr int64_t kMaxInlinedConstantRegisters = 32;
constexpr llvm::StringLiteral kLaunchRuntime = "tcpu_triton_launch";
constexpr llvm::StringLiteral kSelectRuntime = "tcpu_triton_select";
constexpr llvm::StringLiteral kRefuseStrideRuntime = "tcpu_triton_refuse_stride";

struct Variant {
  std::string suffix;
  uint32_t required_features;
};

class LauncherBuilder {
 public:
  explicit LauncherBuilder(ModuleOp module)
      : module_(module), b_(module.getContext()),
        ptr_(LLVM::LLVMPointerType::get(module.getContext())), i32_(b_.getI32Type()),
        i64_(b_.getI64Type()) {}

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

  // NAME__programs(const void* args, pid_x, pid_y, pid_z, count, grid_x, grid_y, grid_z)
  // (tcpu_triton_programs): unpacks the argument struct once and calls the kernel for `count`
  // programs from (pid_x, pid_y, pid_z) on, x fastest, then y, then z: rows of x in which x
  // alone steps (an add, a compare and a branch a program, where stepping all three took 9:
  // descriptor_scale -4%), y and z once a row.
  // A kernel that InlinesIntoPrograms goes into this loop (always_inline): a 4x8 descriptor
  // block is about 70 instructions, and a call with triton-cpu's arguments, frame and stack
  // arguments cost 30 more (descriptor_scale -22%). Others stay calls (no_inline): with a loop
  // on every path, LLVM hoisted the loops' constants out of the program loop, past the
  // registers onto the stack, and reloaded them inside (log +5%, layer norm +4%); with vector
  // constants past the 32 registers, the tile spilled more in the loop (argmax's 512-lane
  // indices: +2%). Measured and not kept: the kernel taking its arguments from the struct, no
  // stack arguments per call (descriptor_scale -5%, matmul_i8 and fp8 +1%).
  // It runs nothing unless every argument of `unit_strides` is 1 (the launcher refuses other
  // launches): LLVM then takes them as 1 in the loop, and an inlined kernel keeps only its
  // unit-stride version of each descriptor access, no test of the stride a program and no
  // registers for the other version (descriptor_scale -21%).
  LLVM::LLVMFuncOp Programs(LLVM::LLVMFuncOp kernel, StringRef name, LLVM::Linkage linkage,
                            LLVM::LLVMStructType args_struct, ArrayRef<unsigned> unit_strides) {
    OpBuilder::InsertionGuard guard(b_);
    if (InlinesIntoPrograms(kernel)) {
      kernel.setAlwaysInline(true);
    } else {
      kernel.setNoInline(true);
    }
    b_.setInsertionPointToEnd(module_.getBody());
    Location loc = kernel.getLoc();
    auto programs = b_.create<LLVM::LLVMFuncOp>(loc, name, ProgramsType(), linkage);
    Block* entry = programs.addEntryBlock(b_);
    // row(remaining, x, y, z): the programs of one row of x from x on; each(x): one program.
    Block* row = b_.createBlock(&programs.getBody(), programs.getBody().end(),
                                {i64_, i32_, i32_, i32_}, {loc, loc, loc, loc});
    Block* each = b_.createBlock(&programs.getBody(), programs.getBody().end(), {i32_}, {loc});
    Block* next_row = b_.createBlock(&programs.getBody(), programs.getBody().end());
    Block* exit = b_.createBlock(&programs.getBody(), programs.getBody().end());
    auto arg = [&](unsigned i) { return entry->getArgument(i); };
    Value count = arg(4);
    Value grid_x = arg(5), grid_y = arg(6), grid_z = arg(7);
    auto i32 = [&](int32_t value) {
      return b_.create<LLVM::ConstantOp>(loc, i32_, b_.getI32IntegerAttr(value)).getResult();
    };
    auto i64 = [&](int64_t value) {
      return b_.create<LLVM::ConstantOp>(loc, i64_, b_.getI64IntegerAttr(value)).getResult();
    };

    b_.setInsertionPointToStart(entry);
    SmallVector<Value> call_args;
    for (unsigned i = 0; i < args_struct.getBody().size(); ++i) {
      Value field = b_.create<LLVM::GEPOp>(loc, ptr_, args_struct, arg(0),
                                           ArrayRef<LLVM::GEPArg>{0, static_cast<int32_t>(i)});
      call_args.push_back(b_.create<LLVM::LoadOp>(loc, args_struct.getBody()[i], field));
    }
    Value any = b_.create<LLVM::ICmpOp>(loc, LLVM::ICmpPredicate::sgt, count, i64(0));
    for (unsigned index : unit_strides) {
      Value unit =
          b_.create<LLVM::ICmpOp>(loc, LLVM::ICmpPredicate::eq, call_args[index], i64(1));
      any = b_.create<LLVM::AndOp>(loc, any, unit);
    }
    b_.create<LLVM::CondBrOp>(loc, any, row, ValueRange{count, arg(1), arg(2), arg(3)}, exit,
                              ValueRange{});

    // A row runs min(grid_x - x, remaining) programs, at least one (so that ids past the grid,
    // which the runtime never passes, still end): x steps alone, y and z once a row.
    b_.setInsertionPointToStart(row);
    Value remaining = row->getArgument(0);
    Value x = row->getArgument(1), y = row->getArgument(2), z = row->getArgument(3);
    Value in_row = b_.create<LLVM::SExtOp>(loc, i64_, b_.create<LLVM::SubOp>(loc, grid_x, x));
    Value runs = b_.create<LLVM::SMaxOp>(
        loc, b_.create<LLVM::SMinOp>(loc, in_row, remaining).getResult(), i64(1));
    Value x_end = b_.create<LLVM::AddOp>(loc, x, b_.create<LLVM::TruncOp>(loc, i32_, runs));
    b_.create<LLVM::BrOp>(loc, ValueRange{x}, each);

    b_.setInsertionPointToStart(each);
    Value pid_x = each->getArgument(0);
    SmallVector<Value> program_args(call_args);
    program_args.append({pid_x, y, z, grid_x, grid_y, grid_z});
    b_.create<LLVM::CallOp>(loc, kernel, program_args);
    Value next_x = b_.create<LLVM::AddOp>(loc, pid_x, i32(1));
    Value more_in_row = b_.create<LLVM::ICmpOp>(loc, LLVM::ICmpPredicate::ne, next_x, x_end);
    b_.create<LLVM::CondBrOp>(loc, more_in_row, each, ValueRange{next_x}, next_row, ValueRange{});

    // The next row: x from 0, y + 1, carried into z at the grid's edge.
    b_.setInsertionPointToStart(next_row);
    Value left = b_.create<LLVM::SubOp>(loc, remaining, runs);
    Value next_y = b_.create<LLVM::AddOp>(loc, y, i32(1));
    Value y_wraps = b_.create<LLVM::ICmpOp>(loc, LLVM::ICmpPredicate::eq, next_y, grid_y);
    next_y = b_.create<LLVM::SelectOp>(loc, y_wraps, i32(0), next_y);
    Value next_z = b_.create<LLVM::AddOp>(loc, z, b_.create<LLVM::ZExtOp>(loc, i32_, y_wraps));
    Value more = b_.create<LLVM::ICmpOp>(loc, LLVM::ICmpPredicate::sgt, left, i64(0));
    b_.create<LLVM::CondBrOp>(loc, more, row, ValueRange{left, i32(0), next_y, next_z}, exit,
                              ValueRange{});

    b_.setInsertionPointToStart(exit);
    b_.create<LLVM::ReturnOp>(loc, ValueRange{});
    return programs;
  }

  // Whether the kernel's code goes into the program loop: at most kMaxInlinedOps ops, vector
  // constants of at most kMaxInlinedConstantRegisters 128-bit registers, and some path from its
  // entry to a return through no loop (a tile's all-on path; lane loops for partial tiles may
  // lie off it).
  static bool InlinesIntoPrograms(LLVM::LLVMFuncOp func) {
    if (func.getBody().empty()) return false;
    int64_t ops = 0;
    int64_t constant_registers = 0;
    func.walk([&](Operation* op) {
      ++ops;
      auto constant = dyn_cast<LLVM::ConstantOp>(op);
      if (!constant) return;
      if (auto vector = dyn_cast<VectorType>(constant.getType())) {
        int64_t bits = vector.getNumElements() * vector.getElementTypeBitWidth();
        constant_registers += llvm::divideCeil(bits, 128);
      }
    });
    if (ops > kMaxInlinedOps || constant_registers > kMaxInlinedConstantRegisters) return false;
    // The blocks on loops: those of the CFG's strongly connected components with a cycle.
    llvm::SmallPtrSet<Block*, 32> cyclic;
    for (auto scc = llvm::scc_begin(&func.getBody()); !scc.isAtEnd(); ++scc) {
      if (scc.hasCycle()) cyclic.insert(scc->begin(), scc->end());
    }
    Block* entry = &func.getBody().front();
    if (cyclic.contains(entry)) return false;
    llvm::SmallPtrSet<Block*, 32> seen{entry};
    SmallVector<Block*> work{entry};
    while (!work.empty()) {
      Block* block = work.pop_back_val();
      if (block->getNumSuccessors() == 0 && isa<LLVM::ReturnOp>(block->getTerminator())) return true;
      for (Block* next : block->getSuccessors()) {
        if (!cyclic.contains(next) && seen.insert(next).second) work.push_back(next);
      }
    }
    return false;
  }

  // tcpu_triton_programs: void (const void*, i32 x, i32 y, i32 z, i64 count, i32 grid x3).
  LLVM::LLVMFunctionType ProgramsType() {
    return LLVM::LLVMFunctionType::get(LLVM::LLVMVoidType::get(b_.getContext()),
                                       {ptr_, i32_, i32_, i32_, i64_, i32_, i32_, i32_});
  }

  // The constant table of variants, best first, the baseline `programs` last.
  LLVM::GlobalOp Table(Location loc, StringRef name, ArrayRef<Variant> variants,
                       LLVM::LLVMFuncOp programs) {
    SmallVector<std::pair<Variant, Operation*>> entries;
    for (const Variant& variant : variants) {
      std::string symbol = (name + "__" + variant.suffix + "__programs").str();
      entries.push_back({variant, Declare(symbol, ProgramsType())});
    }
    entries.push_back({Variant{"baseline", 0}, programs});
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
      Value entry_programs =
          b_.create<LLVM::AddressOfOp>(loc, ptr_, cast<LLVM::LLVMFuncOp>(op).getSymName());
      value = b_.create<LLVM::InsertValueOp>(loc, value, text, ArrayRef<int64_t>{i, 0});
      value = b_.create<LLVM::InsertValueOp>(loc, value, bits, ArrayRef<int64_t>{i, 1});
      value = b_.create<LLVM::InsertValueOp>(loc, value, entry_programs, ArrayRef<int64_t>{i, 2});
    }
    b_.create<LLVM::ReturnOp>(loc, value);
    return table;
  }

  // With `threads` (the kernel's tcpu.hints), the grid runs with that many threads and the
  // caller's count is restored: tcpu_get_num_threads / tcpu_set_num_threads around the launch.
  // Every argument of `unit_strides` is checked first (the argument struct's alloca stays in
  // the entry block, a static one), each a branch to its refusal.
  void Launcher(LLVM::LLVMFuncOp kernel, StringRef name, LLVM::LLVMStructType args_struct,
                LLVM::GlobalOp table, int32_t count, std::optional<int64_t> threads,
                ArrayRef<unsigned> unit_strides) {
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
    if (!unit_strides.empty()) {
      auto refuse = Declare(kRefuseStrideRuntime,
                            LLVM::LLVMFunctionType::get(i32_, {ptr_, i32_, i64_}));
      for (unsigned index : unit_strides) {
        Value stride = entry->getArgument(index);
        Value unit = b_.create<LLVM::ICmpOp>(loc, LLVM::ICmpPredicate::eq, stride, one);
        Block* refused = launch.addBlock();
        Block* next = launch.addBlock();
        b_.create<LLVM::CondBrOp>(loc, unit, next, refused);
        b_.setInsertionPointToStart(refused);
        Value argument = b_.create<LLVM::ConstantOp>(
            loc, i32_, b_.getI32IntegerAttr(static_cast<int32_t>(index)));
        Value status = b_.create<LLVM::CallOp>(
                             loc, refuse,
                             ValueRange{b_.create<LLVM::AddressOfOp>(loc, kernel_name), argument,
                                        stride})
                           .getResult();
        b_.create<LLVM::ReturnOp>(loc, status);
        b_.setInsertionPointToStart(next);
      }
    }
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
  Type i64_;
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
      ArrayRef<int64_t> unit_stride_args;
      if (auto hints = kernel->getAttrOfType<DictionaryAttr>(kTritonKernelAttrName)) {
        if (auto value = hints.getAs<IntegerAttr>("threads")) threads = value.getInt();
        if (auto value = hints.getAs<DenseI64ArrayAttr>(kUnitStrideArgsKey)) {
          unit_stride_args = value.asArrayRef();
        }
      }
      LLVM::LLVMFunctionType type = kernel.getFunctionType();
      if (type.getNumParams() < kProgramArgs) {
        kernel.emitError() << "lacks the six program arguments";
        return signalPassFailure();
      }
      SmallVector<Type> arg_types(type.getParams().drop_back(kProgramArgs));
      SmallVector<unsigned> unit_strides;
      for (int64_t index : unit_stride_args) {
        if (index < 0 || index >= static_cast<int64_t>(arg_types.size()) ||
            arg_types[index] != IntegerType::get(&getContext(), 64)) {
          kernel.emitError() << kUnitStrideArgsKey << " lists argument " << index
                             << ", which is not an i64 argument of the kernel";
          return signalPassFailure();
        }
        unit_strides.push_back(static_cast<unsigned>(index));
      }
      kernel->removeAttr(kTritonKernelAttrName);
      auto args_struct = LLVM::LLVMStructType::getLiteral(&getContext(), arg_types);
      std::string name = kernel.getSymName().str();
      if (!variant.empty()) {
        std::string renamed = name + "__" + variant;
        if (failed(SymbolTable::replaceAllSymbolUses(kernel, StringAttr::get(&getContext(), renamed),
                                                     module))) {
          return signalPassFailure();
        }
        kernel.setSymName(renamed);
        builder.Programs(kernel, renamed + "__programs", LLVM::Linkage::External, args_struct,
                         unit_strides);
        continue;
      }
      LLVM::LLVMFuncOp programs = builder.Programs(kernel, name + "__programs",
                                                   LLVM::Linkage::Internal, args_struct,
                                                   unit_strides);
      LLVM::GlobalOp table = builder.Table(kernel.getLoc(), name, *variants, programs);
      int32_t count = static_cast<int32_t>(variants->size() + 1);
      builder.Launcher(kernel, name, args_struct, table, count, threads, unit_strides);
      builder.VariantQuery(kernel.getLoc(), name, table, count);
    }
  }
};

}  // namespace
}  // namespace emit_launchers
}  // namespace mlir::tt
