// --tcpu-carry-in-buffers: a loop value that every iteration first stores whole into a stack
// buffer and last loads whole from it (an SMMLA accumulator too large for the registers,
// which tt-to-tcpu-dot keeps in a buffer) is carried in the buffer instead: one store before
// the loop, one load after it, none in between. An scf.if whose two branches do the same, each
// with a buffer of its own (a K loop's body versioned per iteration), first gets one buffer,
// the store before it and the load after it, so that its loop qualifies. Inner ops go first.
// Last, a value that one branch of an scf.if loads whole from a buffer and the code after the
// if stores whole into another stays in the second (ForwardThroughBranches).
//
// Whole stores and loads are memref.store / memref.load without indices on a vector.type_cast
// of a memref.alloca. The rewrite is exact: at the top of every iteration the buffer holds what
// the previous one loaded last, which is the value the store would have written.
#include "LoopCarried.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "tcpu/TcpuPasses.h"

namespace mlir::tcpu {

#define GEN_PASS_DEF_TCPUCARRYINBUFFERS
#include "tcpu/TcpuPasses.h.inc"

namespace carry_in_buffers {
namespace {

// The stack buffer a whole-buffer view shows (vector.type_cast of a memref.alloca), else null.
Value BufferOf(Value view) {
  auto cast = view.getDefiningOp<vector::TypeCastOp>();
  if (!cast) return {};
  auto alloca = cast.getMemref().getDefiningOp<memref::AllocaOp>();
  return alloca ? alloca.getResult() : Value();
}

// `op` as a whole store into a buffer: the buffer, else null.
Value StoredBuffer(Operation* op) {
  auto store = dyn_cast<memref::StoreOp>(op);
  if (!store || !store.getIndices().empty()) return {};
  return BufferOf(store.getMemref());
}

// `value` as a whole load of a buffer: the load, else null.
memref::LoadOp WholeLoad(Value value) {
  auto load = value.getDefiningOp<memref::LoadOp>();
  if (!load || !load.getIndices().empty() || !BufferOf(load.getMemref())) return {};
  return load;
}

// Whether `op` or an op nested in it reads or writes `buffer`, directly or through a view.
bool Touches(Operation* op, Value buffer) {
  WalkResult result = op->walk([&](Operation* inner) {
    for (Value operand : inner->getOperands()) {
      if (operand == buffer || BufferOf(operand) == buffer) return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return result.wasInterrupted();
}

// The first op of `block` that touches `buffer` when it is a whole store into it, else null.
memref::StoreOp FirstAccessStores(Block* block, Value buffer) {
  for (Operation& op : *block) {
    if (!Touches(&op, buffer)) continue;
    if (StoredBuffer(&op) != buffer) return {};
    return cast<memref::StoreOp>(op);
  }
  return {};
}

// Whether no op of `load`'s block after it touches the buffer it loads.
bool IsLastAccess(memref::LoadOp load) {
  Value buffer = BufferOf(load.getMemref());
  for (Operation* op = load->getNextNode(); op; op = op->getNextNode()) {
    if (Touches(op, buffer)) return false;
  }
  return true;
}

// Whether every access to `buffer` (directly or through a view) is inside `region`.
bool OnlyUsedIn(Value buffer, Region& region) {
  for (Operation* user : buffer.getUsers()) {
    if (region.isAncestor(user->getParentRegion())) continue;
    if (isa<vector::TypeCastOp>(user) && OnlyUsedIn(user->getResult(0), region)) continue;
    return false;
  }
  return true;
}

// A whole view of `buffer` where it is defined (reused when there is one already).
Value WholeView(OpBuilder& b, Value buffer) {
  for (Operation* user : buffer.getUsers()) {
    if (isa<vector::TypeCastOp>(user) && user->getBlock() == buffer.getParentBlock()) {
      return user->getResult(0);
    }
  }
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointAfterValue(buffer);
  return b.create<vector::TypeCastOp>(buffer.getLoc(), buffer);
}

// Result `i` of `branch` when each branch stores the same outer value into a buffer first
// and yields its whole load last: one buffer, stored before the if, loaded after it.
bool CarryThroughBranches(scf::IfOp branch, unsigned i) {
  if (branch.getElseRegion().empty()) return false;
  Block* blocks[2] = {branch.thenBlock(), branch.elseBlock()};
  memref::LoadOp loads[2];
  memref::StoreOp stores[2];
  Value buffers[2];
  for (int k = 0; k < 2; ++k) {
    loads[k] = WholeLoad(blocks[k]->getTerminator()->getOperand(i));
    if (!loads[k] || loads[k]->getBlock() != blocks[k] || !IsLastAccess(loads[k])) return false;
    buffers[k] = BufferOf(loads[k].getMemref());
    if (branch->isAncestor(buffers[k].getDefiningOp())) return false;  // stored before the if
    stores[k] = FirstAccessStores(blocks[k], buffers[k]);
    if (!stores[k]) return false;
  }
  Value value = stores[0].getValue();
  if (stores[1].getValue() != value || branch->isAncestor(value.getParentBlock()->getParentOp()) ||
      buffers[0].getType() != buffers[1].getType()) {
    return false;
  }
  // The else branch's buffer serves nothing else: it becomes the then branch's.
  if (buffers[1] != buffers[0]) {
    Operation* kept = buffers[0].getDefiningOp();
    Operation* dropped = buffers[1].getDefiningOp();
    if (!OnlyUsedIn(buffers[1], branch.getElseRegion()) ||
        kept->getBlock() != dropped->getBlock()) {
      return false;
    }
    // Before the dropped buffer's views (an alloca has no operands to move past).
    if (dropped->isBeforeInBlock(kept)) kept->moveBefore(dropped);
    buffers[1].replaceAllUsesWith(buffers[0]);
    buffers[1].getDefiningOp()->erase();
  }
  OpBuilder b(branch);
  Value view = WholeView(b, buffers[0]);
  b.create<memref::StoreOp>(stores[0].getLoc(), value, view, ValueRange{});
  stores[0]->erase();
  stores[1]->erase();
  b.setInsertionPointAfter(branch);
  Value loaded = b.create<memref::LoadOp>(loads[0].getLoc(), view, ValueRange{});
  branch->getResult(i).replaceAllUsesWith(loaded);
  return true;
}

// `value` when the body stores it whole into a buffer from outside the loop first and yields
// that buffer's whole load last: stored before the loop, loaded after it, passed through.
bool CarryInBuffer(Operation* loop, Carried value) {
  if (!value.argument.hasOneUse()) return false;
  Block* body = value.argument.getOwner();
  Operation* user = *value.argument.getUsers().begin();
  Value buffer = StoredBuffer(user);
  if (!buffer || user->getBlock() != body || loop->isAncestor(buffer.getDefiningOp())) return false;
  auto store = cast<memref::StoreOp>(user);
  if (store.getValue() != value.argument || FirstAccessStores(body, buffer) != store) return false;
  memref::LoadOp load = WholeLoad(value.yielded->get());
  if (!load || load->getBlock() != body || BufferOf(load.getMemref()) != buffer ||
      !IsLastAccess(load)) {
    return false;
  }
  OpBuilder b(loop);
  Value view = WholeView(b, buffer);
  b.create<memref::StoreOp>(store.getLoc(), value.init->get(), view, ValueRange{});
  store->erase();
  value.yielded->set(value.argument);
  b.setInsertionPointAfter(loop);
  Value loaded = b.create<memref::LoadOp>(load.getLoc(), view, ValueRange{});
  value.result.replaceAllUsesWith(loaded);
  return true;
}

// `store` (a whole store of an scf.if's result right after the if, into buffer B) when one
// branch yields the whole load of a buffer A of its own, loaded last: that branch works on B
// instead, the other stores its value into B itself, and the store goes. A K loop split in two
// (the unmasked iterations, then the rest) hands its accumulator from the first loop's buffer
// to the second's this way without copying it.
void ForwardThroughBranches(memref::StoreOp store) {
  Value to = StoredBuffer(store);
  auto result = dyn_cast<OpResult>(store.getValue());
  auto branch = result ? dyn_cast<scf::IfOp>(result.getOwner()) : nullptr;
  if (!to || !branch || branch.getElseRegion().empty() || store->getPrevNode() != branch ||
      Touches(branch, to)) {
    return;
  }
  unsigned i = result.getResultNumber();
  Region* regions[2] = {&branch.getThenRegion(), &branch.getElseRegion()};
  for (int k = 0; k < 2; ++k) {
    Block* block = &regions[k]->front();
    memref::LoadOp load = WholeLoad(block->getTerminator()->getOperand(i));
    if (!load || load->getBlock() != block || !IsLastAccess(load)) continue;
    Value from = BufferOf(load.getMemref());
    if (from == to || from.getType() != to.getType() || !OnlyUsedIn(from, *regions[k]) ||
        from.getDefiningOp()->getBlock() != to.getDefiningOp()->getBlock()) {
      continue;
    }
    // The other branch's value goes into B where it is yielded.
    Block* other = &regions[1 - k]->front();
    OpBuilder b(other->getTerminator());
    b.create<memref::StoreOp>(store.getLoc(), other->getTerminator()->getOperand(i),
                              WholeView(b, to), ValueRange{});
    // B is defined before A's first use (both at the function's start; an alloca has no
    // operands to move past).
    Operation* kept = to.getDefiningOp();
    Operation* dropped = from.getDefiningOp();
    if (dropped->isBeforeInBlock(kept)) kept->moveBefore(dropped);
    from.replaceAllUsesWith(to);
    dropped->erase();
    store->erase();  // the if's result is left unused: canonicalization drops it and the load
    return;
  }
}

// Loops nest this deep at most in what tt-to-tcpu-dot's callers build (an unmasked loop, the
// edge iterations' K loop, its chunk loop, a body versioned per iteration).
constexpr int kMaxRounds = 4;

class CarryInBuffersPass : public impl::TcpuCarryInBuffersBase<CarryInBuffersPass> {
 public:
  void runOnOperation() override {
    // A loop whose value now stays in its buffer still passes it through as an iteration
    // argument, whose initial value is a second use of the enclosing loop's argument: until
    // scf.for's canonicalization drops it, the enclosing loop (a K loop around its chunk loop,
    // tutorial 03's edge iterations) does not qualify and copies its accumulator to and from
    // the registers. So rounds of carrying and dropping, while a round carries something.
    for (int round = 0; round < kMaxRounds; ++round) {
      bool carried = false;
      // walk() visits an scf.if in a loop's body before the loop.
      getOperation().walk([&](Operation* op) {
        if (auto branch = dyn_cast<scf::IfOp>(op)) {
          for (unsigned i = 0; i < branch->getNumResults(); ++i) {
            carried |= CarryThroughBranches(branch, i);
          }
        }
        if (auto loop = dyn_cast<scf::ForOp>(op)) {
          for (Carried value : CarriedValues(loop)) carried |= CarryInBuffer(loop, value);
        }
        if (auto loop = dyn_cast<scf::WhileOp>(op)) {
          for (Carried value : CarriedValues(loop)) carried |= CarryInBuffer(loop, value);
        }
      });
      if (!carried) break;
      RewritePatternSet patterns(&getContext());
      scf::ForOp::getCanonicalizationPatterns(patterns, &getContext());
      if (failed(applyPatternsAndFoldGreedily(getOperation(), std::move(patterns)))) break;
    }
    SmallVector<memref::StoreOp> stores;
    getOperation().walk([&](memref::StoreOp store) { stores.push_back(store); });
    for (memref::StoreOp store : stores) ForwardThroughBranches(store);
  }
};

}  // namespace
}  // namespace carry_in_buffers
}  // namespace mlir::tcpu
