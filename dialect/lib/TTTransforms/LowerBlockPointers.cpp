// tt-lower-block-pointers: block pointers (tt.make_tensor_ptr, tt.advance; Triton 3.0-3.6) and
// tensor descriptors (tt.make_tensor_descriptor, !tt.tensordesc kernel arguments; 3.3+) become
// the tensors of pointers and masks every later stage already lowers. Both are one address
// model: a base pointer, a shape and strides in elements, and a block at element offsets.
//   load/store through a block pointer: pointers base + sum_d (offset_d + i_d) * stride_d;
//     the boundaryCheck dimensions mask 0 <= offset_d + i_d < shape_d; masked lanes read the
//     padding (zero, or NaN for padding = nan; zero when none is given) and are not written.
//   descriptor_load/store: the same with every dimension checked and zero padding (Triton's
//     out-of-bounds reads are zero, out-of-bounds writes are dropped).
//   an innermost stride known only at run time: the access is versioned on it being 1.
//   scf.for carrying a block pointer carries its offsets (one i32 per dimension) instead.
//   a !tt.tensordesc<B> argument of the kernel becomes 1 + 2r arguments in its place: the
//     base pointer, r i64 sizes and r i64 strides, outermost dimension first (tcpu/triton.h).
//     Its innermost stride is 1 in every launch (Triton's TensorDescriptor requires it):
//     listed in tt.unit_stride_args for the launcher, which refuses others; the kernel itself
//     (triton-cpu's one-program entry) still versions on it and takes any stride.
// Block pointers anywhere else (scf.if and scf.while results, tt.call operands) are refused.
// One that no op here made (tt.reinterpret_tensor_descriptor's) is left to the refusal of
// tt-to-tcpu-funcs, which names its producer.
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Matchers.h"
#include "tt/TTOps.h"
#include "tt/TTToTcpuPasses.h"

namespace mlir::tt {

#define GEN_PASS_DEF_TTLOWERBLOCKPOINTERS
#include "tt/TTToTcpuPasses.h.inc"

namespace lower_block_pointers {
namespace {

// What a block pointer or a tensor descriptor stands for.
struct BlockAccess {
  Value base;                  // !tt.ptr<T>
  SmallVector<Value> shape;    // i64 sizes
  SmallVector<Value> strides;  // i64 strides, in elements
  SmallVector<Value> offsets;  // i32 block offsets (block pointers only)
};

bool IsBlockValue(Type type) {
  if (isa<TensorDescType>(type)) return true;
  auto pointer = dyn_cast<PointerType>(type);
  return pointer && isa<RankedTensorType>(pointer.getPointeeType());
}

RankedTensorType BlockTypeOf(Type type) {
  if (auto desc = dyn_cast<TensorDescType>(type)) return desc.getBlockType();
  return cast<RankedTensorType>(cast<PointerType>(type).getPointeeType());
}

class Lowering {
 public:
  LogicalResult Run(FuncOp func) {
    if (failed(ExpandDescriptorArguments(func))) return failure();
    if (failed(Process(func.getBody()))) return failure();
    EraseDead(func);
    MarkUnitStrides(func);
    return success();
  }

 private:
  // Kernel arguments of descriptor type become base, sizes and strides (tcpu/triton.h).
  LogicalResult ExpandDescriptorArguments(FuncOp func) {
    for (unsigned index = 0; index < func.getNumArguments(); ++index) {
      auto desc = dyn_cast<TensorDescType>(func.getArgument(index).getType());
      if (!desc) continue;
      if (func.isPrivate()) {
        return func.emitError() << "a tensor descriptor argument of the helper @" << func.getName()
                                << " is not supported; pass it to the kernel (tt.func public)";
      }
      MLIRContext* context = func.getContext();
      Location loc = func.getArgument(index).getLoc();
      RankedTensorType block = desc.getBlockType();
      int64_t rank = block.getRank();
      BlockAccess info;
      unsigned at = index + 1;
      auto empty = DictionaryAttr::get(context);
      func.insertArgument(at, PointerType::get(block.getElementType(), 1), empty, loc);
      info.base = func.getArgument(at++);
      for (int64_t d = 0; d < rank; ++d) {
        func.insertArgument(at, IntegerType::get(context, 64), empty, loc);
        info.shape.push_back(func.getArgument(at++));
      }
      for (int64_t d = 0; d < rank; ++d) {
        func.insertArgument(at, IntegerType::get(context, 64), empty, loc);
        info.strides.push_back(func.getArgument(at++));
      }
      unit_strides_.push_back(cast<BlockArgument>(info.strides.back()));
      blocks_[func.getArgument(index)] = info;
      expanded_.push_back(index);
      index = at - 1;
    }
    return success();
  }

  LogicalResult Process(Region& region) {
    for (mlir::Block& block : region) {
      for (Operation& op : llvm::make_early_inc_range(block)) {
        if (failed(Visit(&op))) return failure();
      }
    }
    return success();
  }

  LogicalResult Visit(Operation* op) {
    OpBuilder b(op);
    Location loc = op->getLoc();
    if (auto make = dyn_cast<MakeTensorPtrOp>(op)) {
      blocks_[make.getResult()] =
          BlockAccess{make.getBase(), SmallVector<Value>(make.getShape()),
                      SmallVector<Value>(make.getStrides()), SmallVector<Value>(make.getOffsets())};
      return success();
    }
    if (auto make = dyn_cast<MakeTensorDescOp>(op)) {
      BlockAccess info{make.getBase(), {}, SmallVector<Value>(make.getStrides()), {}};
      for (Value size : make.getShape()) {
        info.shape.push_back(b.create<arith::ExtSIOp>(loc, b.getI64Type(), size));
      }
      blocks_[make.getResult()] = info;
      return success();
    }
    if (auto advance = dyn_cast<AdvanceOp>(op)) {
      if (!blocks_.count(advance.getPtr())) return success();  // refused by tt-to-tcpu-funcs
      BlockAccess info = blocks_.lookup(advance.getPtr());
      for (auto [offset, step] : llvm::zip(info.offsets, advance.getOffsets())) {
        offset = b.create<arith::AddIOp>(loc, offset, step);
      }
      blocks_[advance.getResult()] = info;
      return success();
    }
    if (auto load = dyn_cast<LoadOp>(op); load && IsBlockValue(load.getPtr().getType())) {
      if (!blocks_.count(load.getPtr())) return success();
      const BlockAccess& info = blocks_.lookup(load.getPtr());
      std::optional<PaddingOption> padding = load.getPadding();
      Value loaded = Load(b, loc, info, info.offsets, BlockTypeOf(load.getPtr().getType()),
                          load.getBoundaryCheck(), padding && *padding == PaddingOption::PAD_NAN);
      load.replaceAllUsesWith(loaded);
      load.erase();
      return success();
    }
    if (auto store = dyn_cast<StoreOp>(op); store && IsBlockValue(store.getPtr().getType())) {
      if (!blocks_.count(store.getPtr())) return success();
      const BlockAccess& info = blocks_.lookup(store.getPtr());
      Store(b, loc, info, info.offsets, store.getValue(), store.getBoundaryCheck());
      store.erase();
      return success();
    }
    if (auto load = dyn_cast<DescriptorLoadOp>(op)) {
      if (!blocks_.count(load.getDesc())) return success();
      RankedTensorType block = load.getDesc().getType().getBlockType();
      Value loaded = Load(b, loc, blocks_.lookup(load.getDesc()), load.getIndices(), block,
                          AllDimensions(block), /*nan=*/false);
      if (loaded.getType() != load.getType()) {
        loaded = b.create<ReshapeOp>(loc, load.getType(), loaded);
      }
      load.replaceAllUsesWith(loaded);
      load.erase();
      return success();
    }
    if (auto store = dyn_cast<DescriptorStoreOp>(op)) {
      if (!blocks_.count(store.getDesc())) return success();
      RankedTensorType block = store.getDesc().getType().getBlockType();
      Value value = store.getSrc();
      if (value.getType() != block) value = b.create<ReshapeOp>(loc, block, value);
      Store(b, loc, blocks_.lookup(store.getDesc()), store.getIndices(), value,
            AllDimensions(block));
      store.erase();
      return success();
    }
    if (auto loop = dyn_cast<scf::ForOp>(op)) return VisitLoop(loop);
    // Row gathers, scatters and reductions are left to the refusal of tt-to-tcpu-funcs.
    if (isa<DescriptorGatherOp, DescriptorScatterOp, DescriptorReduceOp>(op)) return success();
    if (isa<UnrealizedConversionCastOp>(op) && blocks_.count(op->getResult(0))) {
      return success();  // a loop's placeholder (VisitLoop)
    }
    // Other ops on a block pointer this pass built (tt.call, scf.if, ...) are refused here;
    // those on one it did not (tt.reinterpret_tensor_descriptor's) by tt-to-tcpu-funcs.
    for (Value operand : op->getOperands()) {
      bool carried = isa<scf::YieldOp>(op) && isa<scf::ForOp>(op->getParentOp());
      if (blocks_.count(operand) && !carried) {
        return op->emitError() << "'" << op->getName()
                               << "' on a block pointer or tensor descriptor is not supported "
                                  "by the CPU backend (only loads, stores, tt.advance and "
                                  "scf.for iteration arguments are)";
      }
    }
    for (Region& region : op->getRegions()) {
      if (failed(Process(region))) return failure();
    }
    return success();
  }

  static SmallVector<int32_t> AllDimensions(RankedTensorType block) {
    SmallVector<int32_t> dims;
    for (int64_t d = 0; d < block.getRank(); ++d) dims.push_back(static_cast<int32_t>(d));
    return dims;
  }

  // A block pointer carried by the loop is carried as its offsets; its base, shape and
  // strides (defined outside the loop) must be the ones yielded back.
  LogicalResult VisitLoop(scf::ForOp loop) {
    SmallVector<unsigned> carried;
    for (unsigned i = 0; i < loop.getNumRegionIterArgs(); ++i) {
      if (IsBlockValue(loop.getRegionIterArg(i).getType())) carried.push_back(i);
    }
    if (carried.empty()) return Process(loop.getRegion());
    OpBuilder b(loop);
    Location loc = loop.getLoc();
    SmallVector<Value> inits;
    SmallVector<std::pair<unsigned, unsigned>> ranges;  // per iter arg: first new index, count
    SmallVector<BlockAccess> init_blocks(loop.getNumRegionIterArgs());
    for (unsigned i = 0; i < loop.getNumRegionIterArgs(); ++i) {
      Value init = loop.getInitArgs()[i];
      if (!IsBlockValue(init.getType())) {
        ranges.push_back({static_cast<unsigned>(inits.size()), 1});
        inits.push_back(init);
        continue;
      }
      if (!blocks_.count(init)) {
        return loop.emitError() << "scf.for carries a block pointer or tensor descriptor from "
                                   "an op the CPU backend does not lower";
      }
      const BlockAccess& info = blocks_.lookup(init);
      init_blocks[i] = info;
      if (info.offsets.empty()) {
        return loop.emitError() << "a tensor descriptor carried by scf.for is not supported";
      }
      ranges.push_back(
          {static_cast<unsigned>(inits.size()), static_cast<unsigned>(info.offsets.size())});
      inits.append(info.offsets.begin(), info.offsets.end());
    }
    auto replacement = b.create<scf::ForOp>(loc, loop.getLowerBound(), loop.getUpperBound(),
                                            loop.getStep(), inits);
    replacement->setAttrs(loop->getAttrs());
    mlir::Block* body = replacement.getBody();
    body->getOperations().splice(body->end(), loop.getBody()->getOperations());
    loop.getInductionVar().replaceAllUsesWith(replacement.getInductionVar());
    OpBuilder inside = OpBuilder::atBlockBegin(body);
    OpBuilder after(loop);
    after.setInsertionPointAfter(replacement);
    for (unsigned i = 0; i < loop.getNumRegionIterArgs(); ++i) {
      auto [first, count] = ranges[i];
      Value old_arg = loop.getRegionIterArg(i);
      if (!IsBlockValue(old_arg.getType())) {
        old_arg.replaceAllUsesWith(replacement.getRegionIterArgs()[first]);
        loop.getResult(i).replaceAllUsesWith(replacement.getResult(first));
        continue;
      }
      BlockAccess info = blocks_.lookup(loop.getInitArgs()[i]);
      // Placeholders of the block pointer type stand for it until its users are rewritten.
      BlockAccess in_body = info, out = info;
      for (unsigned k = 0; k < count; ++k) {
        in_body.offsets[k] = replacement.getRegionIterArgs()[first + k];
        out.offsets[k] = replacement.getResult(first + k);
      }
      Value body_value =
          inside.create<UnrealizedConversionCastOp>(loc, old_arg.getType(), in_body.offsets)
              .getResult(0);
      old_arg.replaceAllUsesWith(body_value);
      blocks_[body_value] = in_body;
      Value result_value =
          after.create<UnrealizedConversionCastOp>(loc, old_arg.getType(), out.offsets)
              .getResult(0);
      loop.getResult(i).replaceAllUsesWith(result_value);
      blocks_[result_value] = out;
    }
    loop.erase();
    if (failed(Process(replacement.getRegion()))) return failure();
    auto yield = cast<scf::YieldOp>(body->getTerminator());
    SmallVector<Value> yielded;
    for (auto [i, value] : llvm::enumerate(yield.getOperands())) {
      if (!IsBlockValue(value.getType())) {
        yielded.push_back(value);
        continue;
      }
      if (!blocks_.count(value)) {
        return yield.emitError() << "scf.for yields a block pointer the CPU backend does not "
                                    "lower";
      }
      const BlockAccess& next = blocks_.lookup(value);
      const BlockAccess& start = init_blocks[i];
      if (next.base != start.base || next.shape != start.shape || next.strides != start.strides) {
        return yield.emitError() << "scf.for yields a block pointer over another tensor than "
                                    "it started with (only tt.advance of it is supported)";
      }
      yielded.append(next.offsets.begin(), next.offsets.end());
    }
    yield->setOperands(yielded);
    return success();
  }

  // The pointers of the block at `offsets` and, over the `checked` dimensions, the mask of
  // its elements inside the shape.
  std::pair<Value, Value> Addresses(OpBuilder& b, Location loc, const BlockAccess& info,
                                    ValueRange offsets, RankedTensorType block,
                                    ArrayRef<int32_t> checked) {
    ArrayRef<int64_t> shape = block.getShape();
    int64_t rank = block.getRank();
    auto i64_block = RankedTensorType::get(shape, b.getI64Type());
    Value sum, mask;
    for (int64_t d = 0; d < rank; ++d) {
      auto range_type = RankedTensorType::get({shape[d]}, b.getI32Type());
      Value range = b.create<MakeRangeOp>(loc, range_type, 0, shape[d]);
      Value index =
          b.create<arith::AddIOp>(loc, b.create<SplatOp>(loc, range_type, offsets[d]), range);
      index =
          b.create<arith::ExtSIOp>(loc, RankedTensorType::get({shape[d]}, b.getI64Type()), index);
      for (int64_t axis = 0; axis < rank; ++axis) {
        if (axis == d) continue;
        auto current = cast<RankedTensorType>(index.getType());
        SmallVector<int64_t> expanded(current.getShape());
        expanded.insert(expanded.begin() + axis, 1);
        index = b.create<ExpandDimsOp>(loc, RankedTensorType::get(expanded, b.getI64Type()), index,
                                       axis);
      }
      if (cast<RankedTensorType>(index.getType()).getShape() != shape) {
        index = b.create<BroadcastOp>(loc, i64_block, index);
      }
      Value term =
          b.create<arith::MulIOp>(loc, index, b.create<SplatOp>(loc, i64_block, info.strides[d]));
      sum = sum ? b.create<arith::AddIOp>(loc, sum, term).getResult() : term;
      if (!llvm::is_contained(checked, d)) continue;
      auto i1_block = RankedTensorType::get(shape, b.getI1Type());
      Value zero = b.create<arith::ConstantOp>(loc, i64_block, b.getZeroAttr(i64_block));
      Value inside = b.create<arith::AndIOp>(
          loc, b.create<arith::CmpIOp>(loc, i1_block, arith::CmpIPredicate::sge, index, zero),
          b.create<arith::CmpIOp>(loc, i1_block, arith::CmpIPredicate::slt, index,
                                  b.create<SplatOp>(loc, i64_block, info.shape[d])));
      mask = mask ? b.create<arith::AndIOp>(loc, mask, inside).getResult() : inside;
    }
    auto pointers_type = RankedTensorType::get(shape, info.base.getType());
    Value pointers = b.create<AddPtrOp>(loc, pointers_type,
                                        b.create<SplatOp>(loc, pointers_type, info.base), sum);
    return {pointers, mask};
  }

  // Whether the innermost stride is a runtime value: the access is then versioned on it being
  // 1 (a tensor descriptor's is; a block pointer's mostly), whose version has rows of
  // consecutive elements the memory lowering loads as vectors; with the stride unknown every
  // lane is its own scalar access (tutorial 06's attention over host descriptors: 57
  // instructions per MAC, 1.9 with the version).
  static bool VersionsUnitStride(const BlockAccess& info) {
    return !info.strides.empty() && !matchPattern(info.strides.back(), m_Constant());
  }

  // `info` with its innermost stride the constant 1, and the condition that it is.
  static std::pair<BlockAccess, Value> UnitStride(OpBuilder& b, Location loc,
                                                   const BlockAccess& info) {
    BlockAccess unit = info;
    unit.strides.back() = b.create<arith::ConstantIntOp>(loc, 1, 64);
    Value is_unit = b.create<arith::CmpIOp>(loc, arith::CmpIPredicate::eq, info.strides.back(),
                                            unit.strides.back());
    return {unit, is_unit};
  }

  Value Load(OpBuilder& b, Location loc, const BlockAccess& info, ValueRange offsets,
             RankedTensorType block, ArrayRef<int32_t> checked, bool nan) {
    if (!VersionsUnitStride(info)) return LoadAt(b, loc, info, offsets, block, checked, nan);
    auto [unit, is_unit] = UnitStride(b, loc, info);
    auto branch = b.create<scf::IfOp>(
        loc, is_unit,
        [&](OpBuilder& then, Location l) {
          then.create<scf::YieldOp>(l, LoadAt(then, l, unit, offsets, block, checked, nan));
        },
        [&](OpBuilder& otherwise, Location l) {
          otherwise.create<scf::YieldOp>(l, LoadAt(otherwise, l, info, offsets, block, checked,
                                                   nan));
        });
    return branch.getResult(0);
  }

  Value LoadAt(OpBuilder& b, Location loc, const BlockAccess& info, ValueRange offsets,
               RankedTensorType block, ArrayRef<int32_t> checked, bool nan) {
    auto [pointers, mask] = Addresses(b, loc, info, offsets, block, checked);
    if (!mask) {
      return b.create<LoadOp>(loc, block, pointers, Value(), Value(), ArrayRef<int32_t>{},
                              PaddingOptionAttr());
    }
    TypedAttr padding = b.getZeroAttr(block);
    if (nan && isa<FloatType>(block.getElementType())) {
      auto type = cast<FloatType>(block.getElementType());
      padding = DenseElementsAttr::get(
          block, b.getFloatAttr(type, llvm::APFloat::getQNaN(type.getFloatSemantics())));
    }
    Value other = b.create<arith::ConstantOp>(loc, block, padding);
    return b.create<LoadOp>(loc, block, pointers, mask, other, ArrayRef<int32_t>{},
                            PaddingOptionAttr());
  }

  void Store(OpBuilder& b, Location loc, const BlockAccess& info, ValueRange offsets, Value value,
             ArrayRef<int32_t> checked) {
    if (!VersionsUnitStride(info)) return StoreAt(b, loc, info, offsets, value, checked);
    auto [unit, is_unit] = UnitStride(b, loc, info);
    b.create<scf::IfOp>(
        loc, is_unit,
        [&](OpBuilder& then, Location l) {
          StoreAt(then, l, unit, offsets, value, checked);
          then.create<scf::YieldOp>(l);
        },
        [&](OpBuilder& otherwise, Location l) {
          StoreAt(otherwise, l, info, offsets, value, checked);
          otherwise.create<scf::YieldOp>(l);
        });
  }

  void StoreAt(OpBuilder& b, Location loc, const BlockAccess& info, ValueRange offsets,
               Value value, ArrayRef<int32_t> checked) {
    auto block = cast<RankedTensorType>(value.getType());
    auto [pointers, mask] = Addresses(b, loc, info, offsets, block, checked);
    b.create<StoreOp>(loc, pointers, value, mask, ArrayRef<int32_t>{});
  }

  // The block-pointer ops and placeholders, now unused, and the expanded arguments.
  void EraseDead(FuncOp func) {
    SmallVector<Operation*> dead;
    func.walk([&](Operation* op) {
      if (isa<MakeTensorPtrOp, AdvanceOp, MakeTensorDescOp>(op) ||
          (isa<UnrealizedConversionCastOp>(op) && IsBlockValue(op->getResult(0).getType()))) {
        dead.push_back(op);
      }
    });
    for (Operation* op : llvm::reverse(dead)) {
      if (op->use_empty()) op->erase();
    }
    for (unsigned index : llvm::reverse(expanded_)) {
      if (func.getArgument(index).use_empty()) func.eraseArgument(index);
    }
  }

  // tt.unit_stride_args: the descriptor arguments' innermost strides, at their final indices.
  void MarkUnitStrides(FuncOp func) {
    if (unit_strides_.empty()) return;
    SmallVector<int64_t> indices;
    for (BlockArgument stride : unit_strides_) indices.push_back(stride.getArgNumber());
    func->setAttr(kUnitStrideArgsAttrName, DenseI64ArrayAttr::get(func.getContext(), indices));
  }

  llvm::DenseMap<Value, BlockAccess> blocks_;
  SmallVector<unsigned> expanded_;
  SmallVector<BlockArgument> unit_strides_;
};

struct TTLowerBlockPointers : impl::TTLowerBlockPointersBase<TTLowerBlockPointers> {
  void runOnOperation() override {
    for (FuncOp func : llvm::make_early_inc_range(getOperation().getOps<FuncOp>())) {
      if (func.isExternal()) continue;
      Lowering lowering;
      if (failed(lowering.Run(func))) return signalPassFailure();
    }
  }
};

}  // namespace
}  // namespace lower_block_pointers
}  // namespace mlir::tt
