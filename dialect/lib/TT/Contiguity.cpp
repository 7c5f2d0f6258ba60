// Contiguity analysis (include/tt/Analysis/Contiguity.h). Rules, per dimension d:
//   make_range            contiguity = size, constancy = 1
//   splat, dense splat    contiguity = 1, constancy = size
//   a + b, addptr(a, b)   contiguity = max(gcd(ca, kb), gcd(ka, cb)); constancy = gcd(ka, kb)
//   a - b                 contiguity = gcd(ca, kb); constancy = gcd(ka, kb)
//   a * 1                 as a; otherwise contiguity 1, constancy gcd(ka, kb)
//   (s + range) % n       1-D (or expanded with dimensions of 1), n a splat: runs of gcd(range size, div(s), div(n)), where div is
//                         what is known to divide a scalar (constants, `tt.divisibility` of
//                         kernel arguments, products and sums): no multiple of n falls inside
//                         a run (tutorial 03's `offs_bn % N` with N divisible by 16)
//   (s + range) / n       as %: constancy over the same runs
//   x < b (<=, >, >=)     as %, x `s + range` or `(s + range) % n`, b a splat: constancy
//                         gcd(x's aligned runs, div(b)) (div(b + 1) for <= and >)
//   other elementwise     contiguity 1, constancy = gcd of the operands' constancy
//   broadcast             a grown dimension has contiguity 1 and constancy = its size
//   expand_dims           the new dimension has contiguity 1 and constancy 1
//   trans                 permutes; scf.for iteration arguments reach a fixed point
//   anything else         contiguity 1, constancy 1
#include "tt/Analysis/Contiguity.h"

#include <cstdlib>
#include <numeric>

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "tt/TTOps.h"

namespace mlir::tt {
namespace contiguity_analysis {
namespace {

ArrayRef<int64_t> ShapeOf(Value value) {
  if (auto tensor = dyn_cast<RankedTensorType>(value.getType())) return tensor.getShape();
  return {};
}

Contiguity Unknown(Value value) {
  size_t rank = ShapeOf(value).size();
  return {SmallVector<int64_t, 4>(rank, 1), SmallVector<int64_t, 4>(rank, 1)};
}

Contiguity Constant(Value value) {
  ArrayRef<int64_t> shape = ShapeOf(value);
  return {SmallVector<int64_t, 4>(shape.size(), 1), SmallVector<int64_t, 4>(shape)};
}

bool IsSplatOf(Value value, int64_t expected) {
  APInt scalar;
  if (matchPattern(value, m_ConstantInt(&scalar))) return scalar.getSExtValue() == expected;
  DenseIntElementsAttr dense;
  if (matchPattern(value, m_Constant(&dense)) && dense.isSplat()) {
    return dense.getSplatValue<APInt>().getSExtValue() == expected;
  }
  if (auto splat = value.getDefiningOp<SplatOp>()) return IsSplatOf(splat.getSrc(), expected);
  return false;
}

// A number known to divide the scalar `value` (1 when nothing is known; zero is divisible by
// everything, capped at 2^30), from constants, `tt.divisibility` of the kernel's arguments,
// and products, sums and extensions of those.
int64_t ScalarDivisibility(Value value, int depth = 0) {
  constexpr int64_t kAnything = int64_t{1} << 30;
  if (depth > 16) return 1;
  APInt constant;
  if (matchPattern(value, m_ConstantInt(&constant))) {
    const int64_t x = std::abs(constant.getSExtValue());
    return x == 0 ? kAnything : std::min(x, kAnything);
  }
  if (auto arg = dyn_cast<BlockArgument>(value)) {
    auto func = dyn_cast<FunctionOpInterface>(arg.getOwner()->getParentOp());
    if (!func || !arg.getOwner()->isEntryBlock()) return 1;
    auto attr = func.getArgAttrOfType<IntegerAttr>(arg.getArgNumber(), "tt.divisibility");
    return attr && attr.getInt() > 0 ? attr.getInt() : 1;
  }
  Operation* op = value.getDefiningOp();
  if (isa<arith::ExtSIOp, arith::ExtUIOp, arith::IndexCastOp>(op)) {
    return ScalarDivisibility(op->getOperand(0), depth + 1);
  }
  if (isa<arith::MulIOp>(op)) {
    return std::min(kAnything, ScalarDivisibility(op->getOperand(0), depth + 1) *
                                   ScalarDivisibility(op->getOperand(1), depth + 1));
  }
  if (isa<arith::AddIOp, arith::SubIOp>(op)) {
    return std::gcd(ScalarDivisibility(op->getOperand(0), depth + 1),
                    ScalarDivisibility(op->getOperand(1), depth + 1));
  }
  return 1;
}

// What divides every element of a splat tensor or constant (0: not a splat).
int64_t SplatDivisibility(Value value) {
  DenseIntElementsAttr dense;
  if (matchPattern(value, m_Constant(&dense)) && dense.isSplat()) {
    const int64_t x = std::abs(dense.getSplatValue<APInt>().getSExtValue());
    return x == 0 ? int64_t{1} << 30 : x;
  }
  if (auto splat = value.getDefiningOp<SplatOp>()) return ScalarDivisibility(splat.getSrc());
  return 0;
}

// A `splat(s) + make_range(start, end)` (either order) or a bare range, perhaps expanded to
// more dimensions of size 1: its length and what divides the value at the start of each
// aligned run (0: another form).
std::pair<int64_t, int64_t> RangeFrom(Value value) {
  if (auto expand = value.getDefiningOp<ExpandDimsOp>()) return RangeFrom(expand.getSrc());
  if (auto range = value.getDefiningOp<MakeRangeOp>()) {
    return {range.getEnd() - range.getStart(),
            range.getStart() == 0 ? int64_t{1} << 30 : std::abs(int64_t{range.getStart()})};
  }
  auto add = value.getDefiningOp<arith::AddIOp>();
  if (!add) return {0, 0};
  for (int i = 0; i < 2; ++i) {
    auto [length, start] = RangeFrom(add->getOperand(i));
    const int64_t offset = SplatDivisibility(add->getOperand(1 - i));
    if (length != 0 && offset != 0) return {length, std::gcd(start, offset)};
  }
  return {0, 0};
}

// The length g of aligned runs of `value` (1-D) in which it counts up by one from a multiple
// of g: `s + range`, `(s + range) % n` and their extensions (0: another form). Within such a
// run no multiple of anything dividing g is crossed.
int64_t AlignedRunLength(Value value) {
  Operation* op = value.getDefiningOp();
  if (op && isa<arith::ExtSIOp, arith::ExtUIOp, ExpandDimsOp>(op)) {
    return AlignedRunLength(op->getOperand(0));
  }
  if (op && isa<arith::RemSIOp, arith::RemUIOp>(op)) {
    auto [length, start] = RangeFrom(op->getOperand(0));
    const int64_t modulus = SplatDivisibility(op->getOperand(1));
    return length != 0 && modulus != 0 ? std::gcd(std::gcd(length, start), modulus) : 0;
  }
  auto [length, start] = RangeFrom(value);
  return length != 0 ? std::gcd(length, start) : 0;
}

// What divides every element of a splat or constant i-tensor, plus one (0: not known).
int64_t SplatPlusOneDivisibility(Value value) {
  DenseIntElementsAttr dense;
  if (matchPattern(value, m_Constant(&dense)) && dense.isSplat()) {
    const int64_t x = std::abs(dense.getSplatValue<APInt>().getSExtValue() + 1);
    return x == 0 ? int64_t{1} << 30 : x;
  }
  return 0;
}

// The predicate p' with (a p b) == (b p' a).
arith::CmpIPredicate Swapped(arith::CmpIPredicate predicate) {
  using Predicate = arith::CmpIPredicate;
  switch (predicate) {
    case Predicate::slt: return Predicate::sgt;
    case Predicate::sle: return Predicate::sge;
    case Predicate::sgt: return Predicate::slt;
    case Predicate::sge: return Predicate::sle;
    case Predicate::ult: return Predicate::ugt;
    case Predicate::ule: return Predicate::uge;
    case Predicate::ugt: return Predicate::ult;
    case Predicate::uge: return Predicate::ule;
    default: return predicate;
  }
}

// Constancy of `lhs < rhs` (the other orderings likewise) when one side counts up by one in
// aligned runs and the other is a splat: the comparison can change only where the counting
// side crosses the bound (for < and >=; the bound plus one for <= and >), so runs whose length
// divides the bound give the same answer in every lane (Inductor's `x0 = xindex % 256;
// x0 < 128` is the same for all 128 lanes of a program). 0 when no such rule applies.
int64_t ComparisonConstancy(arith::CmpIOp compare) {
  using Predicate = arith::CmpIPredicate;
  Value counting = compare.getLhs(), bound = compare.getRhs();
  Predicate predicate = compare.getPredicate();
  if (AlignedRunLength(counting) == 0) {
    std::swap(counting, bound);
    predicate = Swapped(predicate);
  }
  const int64_t run = AlignedRunLength(counting);
  if (run == 0) return 0;
  int64_t divides = 0;
  switch (predicate) {
    case Predicate::slt:
    case Predicate::sge:
    case Predicate::ult:
    case Predicate::uge:
      divides = SplatDivisibility(bound);
      break;
    case Predicate::sle:
    case Predicate::sgt:
    case Predicate::ule:
    case Predicate::ugt:
      divides = SplatPlusOneDivisibility(bound);
      break;
    default:
      return 0;
  }
  return divides == 0 ? 0 : std::gcd(run, divides);
}

// The one dimension of `shape` longer than 1, along which a range expanded to more dimensions
// counts (-1: none or several).
int CountingDim(ArrayRef<int64_t> shape) {
  int found = -1;
  for (size_t d = 0; d < shape.size(); ++d) {
    if (shape[d] == 1) continue;
    if (found >= 0) return -1;
    found = static_cast<int>(d);
  }
  return found;
}

// Facts of a tensor that counts (or is constant) along dimension `dim` only.
Contiguity AlongDim(size_t rank, int dim, int64_t contiguity, int64_t constancy) {
  Contiguity facts{SmallVector<int64_t, 4>(rank, 1), SmallVector<int64_t, 4>(rank, 1)};
  facts.contiguity[dim] = contiguity;
  facts.constancy[dim] = constancy;
  return facts;
}

}  // namespace
}  // namespace contiguity_analysis

int64_t scalarDivisibility(Value scalar) {
  return contiguity_analysis::ScalarDivisibility(scalar);
}

const Contiguity& ContiguityAnalysis::get(Value value) {
  auto found = facts_.find(value);
  if (found != facts_.end()) return found->second;
  // Seed with the conservative answer so that cycles through loops terminate.
  facts_[value] = contiguity_analysis::Unknown(value);
  Contiguity computed = compute(value);
  return facts_[value] = std::move(computed);
}

int64_t ContiguityAnalysis::lastDimContiguity(Value value) {
  const Contiguity& facts = get(value);
  return facts.contiguity.empty() ? 1 : facts.contiguity.back();
}

Contiguity ContiguityAnalysis::compute(Value value) {
  ArrayRef<int64_t> shape = contiguity_analysis::ShapeOf(value);
  if (shape.empty()) return {};
  if (isa<BlockArgument>(value)) return computeLoopArgument(value);
  Operation* op = value.getDefiningOp();
  size_t rank = shape.size();

  if (auto range = dyn_cast<MakeRangeOp>(op)) {
    return {SmallVector<int64_t, 4>{shape[0]}, SmallVector<int64_t, 4>{1}};
  }
  if (isa<SplatOp>(op)) return contiguity_analysis::Constant(value);
  DenseElementsAttr dense;
  if (matchPattern(value, m_Constant(&dense))) {
    return dense.isSplat() ? contiguity_analysis::Constant(value)
                           : contiguity_analysis::Unknown(value);
  }
  if (isa<arith::ExtSIOp, arith::ExtUIOp, arith::TruncIOp, arith::IndexCastOp>(op)) {
    return get(op->getOperand(0));
  }
  if (isa<arith::AddIOp, AddPtrOp>(op)) {
    const Contiguity a = get(op->getOperand(0));
    const Contiguity b = get(op->getOperand(1));
    Contiguity result = contiguity_analysis::Unknown(value);
    for (size_t d = 0; d < rank; ++d) {
      result.contiguity[d] = std::max(std::gcd(a.contiguity[d], b.constancy[d]),
                                      std::gcd(a.constancy[d], b.contiguity[d]));
      result.constancy[d] = std::gcd(a.constancy[d], b.constancy[d]);
    }
    return result;
  }
  if (isa<arith::SubIOp>(op)) {
    const Contiguity a = get(op->getOperand(0));
    const Contiguity b = get(op->getOperand(1));
    Contiguity result = contiguity_analysis::Unknown(value);
    for (size_t d = 0; d < rank; ++d) {
      result.contiguity[d] = std::gcd(a.contiguity[d], b.constancy[d]);
      result.constancy[d] = std::gcd(a.constancy[d], b.constancy[d]);
    }
    return result;
  }
  if (isa<arith::MulIOp>(op)) {
    if (contiguity_analysis::IsSplatOf(op->getOperand(1), 1)) return get(op->getOperand(0));
    if (contiguity_analysis::IsSplatOf(op->getOperand(0), 1)) return get(op->getOperand(1));
  }
  const int counting = contiguity_analysis::CountingDim(shape);
  if (isa<arith::RemSIOp, arith::RemUIOp>(op) && counting >= 0) {
    // Runs of consecutive values stay consecutive when no multiple of n falls inside one:
    // runs aligned to a length dividing both their start and n.
    auto [length, start] = contiguity_analysis::RangeFrom(op->getOperand(0));
    const int64_t modulus = contiguity_analysis::SplatDivisibility(op->getOperand(1));
    if (length == shape[counting] && modulus != 0) {
      return contiguity_analysis::AlongDim(rank, counting,
                                           std::gcd(std::gcd(length, start), modulus), 1);
    }
  }
  if (isa<arith::DivSIOp, arith::DivUIOp>(op) && counting >= 0) {
    // Quotients stay equal along runs in which no multiple of n falls (as for %).
    auto [length, start] = contiguity_analysis::RangeFrom(op->getOperand(0));
    const int64_t divisor = contiguity_analysis::SplatDivisibility(op->getOperand(1));
    if (length == shape[counting] && divisor != 0) {
      return contiguity_analysis::AlongDim(rank, counting, 1,
                                           std::gcd(std::gcd(length, start), divisor));
    }
  }
  if (auto compare = dyn_cast<arith::CmpIOp>(op); compare && counting >= 0) {
    if (int64_t constancy = contiguity_analysis::ComparisonConstancy(compare)) {
      return contiguity_analysis::AlongDim(rank, counting, 1, constancy);
    }
  }
  if (auto broadcast = dyn_cast<BroadcastOp>(op)) {
    Contiguity result = get(broadcast.getSrc());
    ArrayRef<int64_t> from = contiguity_analysis::ShapeOf(broadcast.getSrc());
    for (size_t d = 0; d < rank; ++d) {
      if (from[d] == 1 && shape[d] != 1) {
        result.contiguity[d] = 1;
        result.constancy[d] = shape[d];
      }
    }
    return result;
  }
  if (auto expand = dyn_cast<ExpandDimsOp>(op)) {
    Contiguity result = get(expand.getSrc());
    result.contiguity.insert(result.contiguity.begin() + expand.getAxis(), 1);
    result.constancy.insert(result.constancy.begin() + expand.getAxis(), 1);
    return result;
  }
  if (auto trans = dyn_cast<TransOp>(op)) {
    const Contiguity source = get(trans.getSrc());
    Contiguity result = contiguity_analysis::Unknown(value);
    for (size_t d = 0; d < rank; ++d) {
      result.contiguity[d] = source.contiguity[trans.getOrder()[d]];
      result.constancy[d] = source.constancy[trans.getOrder()[d]];
    }
    return result;
  }
  if (op->hasTrait<OpTrait::Elementwise>() || op->getDialect()->getNamespace() == "arith") {
    // Equal inputs give equal outputs: constancy survives any elementwise function.
    Contiguity result = contiguity_analysis::Unknown(value);
    for (size_t d = 0; d < rank; ++d) {
      int64_t constancy = shape[d];
      for (Value operand : op->getOperands()) {
        if (contiguity_analysis::ShapeOf(operand).size() != rank) {
          constancy = 1;
          break;
        }
        constancy = std::gcd(constancy, get(operand).constancy[d]);
      }
      result.constancy[d] = constancy;
    }
    return result;
  }
  return contiguity_analysis::Unknown(value);
}

// An scf.for iteration argument: start from its initial value's facts, and keep only what
// the loop body's yielded value preserves, until nothing changes.
Contiguity ContiguityAnalysis::computeLoopArgument(Value value) {
  auto argument = cast<BlockArgument>(value);
  auto loop = dyn_cast<scf::ForOp>(argument.getOwner()->getParentOp());
  if (!loop || argument.getArgNumber() == 0) return contiguity_analysis::Unknown(value);
  unsigned index = argument.getArgNumber() - 1;
  Value init = loop.getInitArgs()[index];
  Value yielded = loop.getYieldedValues()[index];
  Contiguity assumed = get(init);
  for (int round = 0; round < 8; ++round) {
    facts_[value] = assumed;
    // Forget what was derived from the previous assumption inside the loop body.
    loop.getBody()->walk([&](Operation* nested) {
      for (Value result : nested->getResults()) facts_.erase(result);
    });
    Contiguity next = get(yielded);
    Contiguity meet = assumed;
    for (size_t d = 0; d < meet.contiguity.size(); ++d) {
      meet.contiguity[d] = std::gcd(assumed.contiguity[d], next.contiguity[d]);
      meet.constancy[d] = std::gcd(assumed.constancy[d], next.constancy[d]);
    }
    if (meet == assumed) return assumed;
    assumed = meet;
  }
  return contiguity_analysis::Unknown(value);
}

}  // namespace mlir::tt
