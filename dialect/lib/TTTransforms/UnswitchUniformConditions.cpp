// tt-unswitch-uniform-conditions: a comparison whose answer is the same in every lane of a
// program's block becomes one branch (TTToTcpuPasses.td). Inductor writes `torch.cat` of two
// halves as both halves' loads, each masked by its side of `x0 = xindex % 256; x0 < 128`, and
// a select between them: every lane computes both halves (two exps, two divisions in SiLU-mul
// backward) and keeps one. Over a block of 128 lanes starting at a multiple of 128 the
// comparison cannot change inside the block (tt/Analysis/Contiguity.h), so the program runs
// `scf.if (the first lane's answer) { the rest, the comparison true } else { ..., false }`;
// in each copy the loads and stores it masks off are gone (a load is its `other`), those it
// leaves on are unmasked, selects on it are decided, assertions it makes hold are dropped,
// and what only they used is erased.
//
// Comparisons of the same two values are decided together (`x0 >= 128` is false where
// `x0 < 128` holds). A copy may be unswitched again on another uniform comparison, up to
// kMaxDepth levels, and only a rest of at most kMaxCopiedOps ops without a tt.dot. Only
// comparisons that decide a select, a mask or an i1 computed from them are taken; one inside a
// loop is taken when it and what it is computed from are pure and loop-invariant (Inductor's
// reductions test `xindex < 8` in their loop over r), hoisted to the function's body first.
#include <functional>
#include <optional>

#include "dialect/lib/TTToTcpu/LaneValues.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "tt/Analysis/Contiguity.h"
#include "tt/TTOps.h"
#include "tt/TTToTcpuPasses.h"

namespace mlir::tt {

#define GEN_PASS_DEF_TTUNSWITCHUNIFORMCONDITIONS
#include "tt/TTToTcpuPasses.h.inc"

namespace unswitch_uniform_conditions {
namespace {

// Nested unswitches: at most 2^kMaxDepth copies of a body (each usually half dead).
constexpr int kMaxDepth = 3;
// The most ops (nested ones counted) an unswitch copies. The pointwise and reduction kernels
// it is for have a few dozen to a few hundred; flex attention's backward (thousands, with
// dots) went from 279 KB to 5.9 MB of object with its loop-invariant tests unswitched.
constexpr int64_t kMaxCopiedOps = 1024;

// A comparison predicate as the outcomes it accepts (bit 0 less, bit 1 equal, bit 2 greater)
// and whether it orders unsigned: orderings decide each other only within one signedness.
struct Outcomes {
  unsigned bits;
  bool is_unsigned;
};

std::optional<Outcomes> OutcomesOf(arith::CmpIPredicate predicate) {
  using P = arith::CmpIPredicate;
  switch (predicate) {
    case P::eq: return Outcomes{0b010, false};
    case P::ne: return Outcomes{0b101, false};
    case P::slt: return Outcomes{0b001, false};
    case P::sle: return Outcomes{0b011, false};
    case P::sgt: return Outcomes{0b100, false};
    case P::sge: return Outcomes{0b110, false};
    case P::ult: return Outcomes{0b001, true};
    case P::ule: return Outcomes{0b011, true};
    case P::ugt: return Outcomes{0b100, true};
    case P::uge: return Outcomes{0b110, true};
  }
  return std::nullopt;
}

// What `other` answers where `known` (on the same two operands) answers `answer`, if decided.
std::optional<bool> Implied(arith::CmpIOp known, bool answer, arith::CmpIOp other) {
  if (known.getLhs() != other.getLhs() || known.getRhs() != other.getRhs()) return std::nullopt;
  std::optional<Outcomes> k = OutcomesOf(known.getPredicate());
  std::optional<Outcomes> o = OutcomesOf(other.getPredicate());
  if (!k || !o) return std::nullopt;
  const bool equality_only = (k->bits == 0b010 || k->bits == 0b101) ||
                             (o->bits == 0b010 || o->bits == 0b101);
  if (k->is_unsigned != o->is_unsigned && !equality_only) return std::nullopt;
  const unsigned possible = answer ? k->bits : (~k->bits & 0b111);
  if ((possible & ~o->bits) == 0) return true;
  if ((possible & o->bits) == 0) return false;
  return std::nullopt;
}

// Every lane of `value` as one known bool, if it is an i1 constant (tensor or scalar); nullopt
// for any other type (an integer `andi` with 255 is no boolean).
std::optional<bool> KnownBool(Value value) {
  if (!getElementTypeOrSelf(value.getType()).isInteger(1)) return std::nullopt;
  DenseIntElementsAttr dense;
  if (matchPattern(value, m_Constant(&dense)) && dense.isSplat()) {
    return dense.getSplatValue<bool>();
  }
  IntegerAttr scalar;
  if (matchPattern(value, m_Constant(&scalar))) return scalar.getValue().getBoolValue();
  Operation* op = value.getDefiningOp();
  if (!op) return std::nullopt;
  if (isa<SplatOp, BroadcastOp, ExpandDimsOp>(op)) return KnownBool(op->getOperand(0));
  return std::nullopt;
}

// Whether deciding `value` (an i1 tensor) decides something: a select, a load's or store's
// mask, or an i1 combined or reshaped from it that does.
bool DecidesSomething(Value value, int depth = 0) {
  if (depth > 8) return false;
  for (OpOperand& use : value.getUses()) {
    Operation* user = use.getOwner();
    if (auto select = dyn_cast<arith::SelectOp>(user)) {
      if (select.getCondition() == value) return true;
      continue;
    }
    if (auto load = dyn_cast<LoadOp>(user)) {
      if (load.getMask() == value) return true;
      continue;
    }
    if (auto store = dyn_cast<StoreOp>(user)) {
      if (store.getMask() == value) return true;
      continue;
    }
    if (isa<arith::AndIOp, arith::OrIOp, arith::XOrIOp, BroadcastOp, ExpandDimsOp>(user) &&
        DecidesSomething(user->getResult(0), depth + 1)) {
      return true;
    }
  }
  return false;
}

// Whether `compare` answers the same in every lane, is buildable from scalars and decides
// something.
bool IsUniformCondition(arith::CmpIOp compare, ContiguityAnalysis& contiguity) {
  auto type = dyn_cast<RankedTensorType>(compare.getType());
  if (!type || type.getNumElements() == 1 || KnownBool(compare.getResult())) return false;
  const Contiguity& facts = contiguity.get(compare.getResult());
  for (int64_t d = 0; d < type.getRank(); ++d) {
    if (facts.constancy[d] != type.getDimSize(d)) return false;
  }
  return hasLaneValues(compare.getResult()) && DecidesSomething(compare.getResult());
}

// The ops nested under `block`'s ops that `op` is computed from (itself included), in an order
// in which each comes after those it uses, when all are pure, hold no regions and use nothing
// defined inside a nested region but each other (no loop variable): they can run in `block`.
// Empty otherwise.
SmallVector<Operation*> HoistableChain(Operation* op, Block& block) {
  SmallVector<Operation*> order;
  DenseSet<Operation*> seen;
  bool hoistable = true;
  std::function<void(Operation*)> visit = [&](Operation* current) {
    if (!hoistable || !seen.insert(current).second) return;
    if (!isPure(current) || current->getNumRegions() != 0) {
      hoistable = false;
      return;
    }
    for (Value operand : current->getOperands()) {
      Region* defined_in = operand.getParentRegion();
      if (!block.getParent()->isProperAncestor(defined_in)) continue;  // in `block` or above
      Operation* definition = operand.getDefiningOp();
      if (!definition) {  // a loop variable or iteration argument
        hoistable = false;
        return;
      }
      visit(definition);
    }
    order.push_back(current);
  };
  visit(op);
  if (!hoistable) order.clear();
  return order;
}

// The ops of `block` from which to its end the ops (nested ones counted) are few enough to
// copy and hold no tt.dot (a dot's K loop has its own versions, tt-version-masked-loops).
DenseSet<Operation*> WorthCopyingFrom(Block& block) {
  DenseSet<Operation*> worth;
  int64_t ops = 0;
  bool dot = false;
  for (Operation& op : llvm::reverse(block)) {
    op.walk([&](Operation* nested) {
      ++ops;
      dot = dot || isa<DotOp>(nested);
    });
    if (!dot && ops <= kMaxCopiedOps) worth.insert(&op);
  }
  return worth;
}

// The first comparison under `block` (in its ops or nested in their regions: a reduction loop
// testing `xindex < 8`) that answers the same in every lane and decides something; a nested one
// is moved into `block`, with what it is computed from, in front of the op holding it. Null when
// there is none.
arith::CmpIOp FirstUniformCondition(Block& block, ContiguityAnalysis& contiguity) {
  const DenseSet<Operation*> worth = WorthCopyingFrom(block);
  for (Operation& top : block) {
    if (!worth.contains(&top)) continue;
    arith::CmpIOp found;
    top.walk<WalkOrder::PreOrder>([&](arith::CmpIOp compare) {
      if (!IsUniformCondition(compare, contiguity)) return WalkResult::advance();
      if (compare->getBlock() != &block) {
        SmallVector<Operation*> chain = HoistableChain(compare, block);
        if (chain.empty()) return WalkResult::advance();
        for (Operation* op : chain) op->moveBefore(&top);
      }
      found = compare;
      return WalkResult::interrupt();
    });
    if (found) return found;
  }
  return {};
}

Value ConstantMask(OpBuilder& b, Location loc, Type type, bool on) {
  if (auto shaped = dyn_cast<ShapedType>(type)) {
    return b.create<arith::ConstantOp>(loc, type, DenseElementsAttr::get(shaped, on));
  }
  return b.create<arith::ConstantOp>(loc, type, b.getBoolAttr(on));
}

// Erases what nothing in `region` uses, last first (reads of memory included, as the
// canonicalizer would).
void EraseUnused(Region& region) {
  SmallVector<Operation*> ops;
  region.walk<WalkOrder::PostOrder>([&](Operation* op) { ops.push_back(op); });
  for (Operation* op : llvm::reverse(ops)) {
    if (!isa<scf::YieldOp>(op) && isOpTriviallyDead(op)) op->erase();
  }
}

// Within `region`, where `condition` answers `answer`: every comparison it decides becomes a
// constant, and what those constants decide is simplified; then what nothing uses is erased.
void Decide(OpBuilder& b, Region& region, arith::CmpIOp condition, bool answer) {
  auto decide = [&](arith::CmpIOp compare, bool decided) {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(&region.front());
    Value constant = ConstantMask(b, compare.getLoc(), compare.getType(), decided);
    compare.getResult().replaceUsesWithIf(constant, [&](OpOperand& use) {
      return region.isAncestor(use.getOwner()->getParentRegion());
    });
  };
  decide(condition, answer);
  SmallVector<Operation*> ops;
  region.walk([&](Operation* op) { ops.push_back(op); });
  for (Operation* op : ops) {
    auto compare = dyn_cast<arith::CmpIOp>(op);
    if (!compare) continue;
    if (std::optional<bool> decided = Implied(condition, answer, compare)) {
      decide(compare, *decided);
    }
  }
  ops.clear();
  region.walk([&](Operation* op) { ops.push_back(op); });
  for (Operation* op : ops) {
    b.setInsertionPoint(op);
    if (auto select = dyn_cast<arith::SelectOp>(op)) {
      if (std::optional<bool> known = KnownBool(select.getCondition())) {
        select.replaceAllUsesWith(*known ? select.getTrueValue() : select.getFalseValue());
      }
    } else if (isa<arith::AndIOp, arith::OrIOp>(op)) {
      // x & true = x, x | false = x; x & false and x | true are constants.
      const bool is_and = isa<arith::AndIOp>(op);
      for (int i = 0; i < 2; ++i) {
        std::optional<bool> known = KnownBool(op->getOperand(i));
        if (!known) continue;
        Value result = *known == is_and
                           ? op->getOperand(1 - i)
                           : ConstantMask(b, op->getLoc(), op->getResult(0).getType(), *known);
        op->getResult(0).replaceAllUsesWith(result);
        break;
      }
    } else if (isa<arith::XOrIOp>(op)) {
      // x ^ false = x; a ^ b of two constants is one (Inductor's `~mask` is `mask ^ true`).
      std::optional<bool> lhs = KnownBool(op->getOperand(0));
      std::optional<bool> rhs = KnownBool(op->getOperand(1));
      if (lhs && rhs) {
        op->getResult(0).replaceAllUsesWith(
            ConstantMask(b, op->getLoc(), op->getResult(0).getType(), *lhs != *rhs));
      } else if ((lhs && !*lhs) || (rhs && !*rhs)) {
        op->getResult(0).replaceAllUsesWith(op->getOperand(lhs ? 1 : 0));
      }
    } else if (auto assert_op = dyn_cast<AssertOp>(op)) {
      // An assertion that holds in every lane checks nothing.
      std::optional<bool> known = KnownBool(assert_op.getCondition());
      if (known && *known) assert_op.erase();
    } else if (auto load = dyn_cast<LoadOp>(op)) {
      std::optional<bool> known = load.getMask() ? KnownBool(load.getMask()) : std::nullopt;
      if (known && *known) {
        load.getMaskMutable().clear();
        load.getOtherMutable().clear();
      } else if (known) {
        Value other = load.getOther();
        if (!other) {
          auto type = cast<ShapedType>(load.getType());
          other = b.create<arith::ConstantOp>(load.getLoc(), type,
                                              DenseElementsAttr::get(type, b.getZeroAttr(
                                                                               type.getElementType())));
        }
        load.replaceAllUsesWith(other);
      }
    } else if (auto store = dyn_cast<StoreOp>(op)) {
      std::optional<bool> known = store.getMask() ? KnownBool(store.getMask()) : std::nullopt;
      if (known && *known) {
        store.getMaskMutable().clear();
      } else if (known) {
        store.erase();
      }
    }
  }
  EraseUnused(region);
}

// The ops of `block` after `condition` (the terminator excepted) run as
// `scf.if (its first lane) { themselves, the condition true } else { a copy, false }`; returns
// the two regions.
std::pair<Region*, Region*> Unswitch(OpBuilder& b, Block& block, arith::CmpIOp condition) {
  Location loc = condition.getLoc();
  b.setInsertionPointAfter(condition);
  auto rank = cast<RankedTensorType>(condition.getType()).getRank();
  SmallVector<Value> first(rank, b.create<arith::ConstantIntOp>(loc, 0, 32));
  Value lane = buildLaneValue(b, loc, condition.getResult(), first);
  auto branch = b.create<scf::IfOp>(loc, TypeRange{}, lane, /*withElseRegion=*/true);
  // Move the rest of the block into the then region (before its yield).
  Block* then_block = &branch.getThenRegion().front();
  Operation* yield = then_block->getTerminator();
  auto rest_begin = std::next(Block::iterator(branch));
  auto rest_end = Block::iterator(block.getTerminator());
  then_block->getOperations().splice(Block::iterator(yield), block.getOperations(), rest_begin,
                                     rest_end);
  // The else region: a copy.
  Block* else_block = &branch.getElseRegion().front();
  b.setInsertionPoint(else_block->getTerminator());
  IRMapping clones;
  for (Operation& op : *then_block) {
    if (&op != yield) b.clone(op, clones);
  }
  return {&branch.getThenRegion(), &branch.getElseRegion()};
}

// The pure tensor ops before `branch` used only inside it (the index tensors its comparison was
// made of, say) move into both regions: each copy then builds its tiles from nothing outside,
// as tt-strip-mine-tiles needs to cut them into chunks (it strip-mines inside an scf.if that
// holds its axis whole, Inductor's foreach branches).
void SinkIntoBranches(OpBuilder& b, scf::IfOp branch) {
  SmallVector<Operation*> before;
  for (Operation* op = branch->getPrevNode(); op; op = op->getPrevNode()) before.push_back(op);
  for (Operation* op : before) {  // last first: a chain moves whole
    if (op->use_empty() && isOpTriviallyDead(op)) {
      op->erase();
      continue;
    }
    const bool tensors = llvm::any_of(op->getResultTypes(),
                                      [](Type type) { return isa<RankedTensorType>(type); });
    if (!tensors || !isPure(op) || op->getNumRegions() != 0) continue;
    const bool inside = llvm::all_of(op->getUsers(), [&](Operation* user) {
      return branch->isProperAncestor(user);
    });
    if (!inside) continue;
    for (Region* region : {&branch.getThenRegion(), &branch.getElseRegion()}) {
      b.setInsertionPointToStart(&region->front());
      Operation* copy = b.clone(*op);
      for (auto [original, copied] : llvm::zip(op->getResults(), copy->getResults())) {
        original.replaceUsesWithIf(copied, [&](OpOperand& use) {
          return region->isAncestor(use.getOwner()->getParentRegion());
        });
      }
    }
    op->erase();
  }
}

void UnswitchBlock(OpBuilder& b, Block& block, int depth) {
  if (depth >= kMaxDepth) return;
  Operation* parent = block.getParentOp();
  ContiguityAnalysis contiguity(parent);
  arith::CmpIOp condition = FirstUniformCondition(block, contiguity);
  if (!condition) return;
  auto [on, off] = Unswitch(b, block, condition);
  Decide(b, *on, condition, true);
  Decide(b, *off, condition, false);
  SinkIntoBranches(b, cast<scf::IfOp>(on->getParentOp()));
  EraseUnused(*on);
  EraseUnused(*off);
  UnswitchBlock(b, on->front(), depth + 1);
  UnswitchBlock(b, off->front(), depth + 1);
}

struct UnswitchUniformConditionsPass
    : impl::TTUnswitchUniformConditionsBase<UnswitchUniformConditionsPass> {
  void runOnOperation() override {
    OpBuilder b(&getContext());
    getOperation().walk([&](FuncOp func) {
      Region& body = func.getBody();
      if (!body.hasOneBlock()) return;
      auto terminator = dyn_cast<ReturnOp>(body.front().getTerminator());
      if (!terminator || terminator->getNumOperands() != 0) return;
      UnswitchBlock(b, body.front(), 0);
    });
  }
};

}  // namespace
}  // namespace unswitch_uniform_conditions
}  // namespace mlir::tt
