// The scalar all-on test of a Triton mask (MaskBounds.h). Each index tensor of a comparison
// gets the interval its lanes lie in, as affine expressions of the scalars its splats take,
// computed exactly in i64; `a < b` holds in every lane when max(a) < min(b). i32 tensors wrap,
// so a bound only stands for its lanes when it lies in i32's range: where that is not evident
// from the expression, the condition also checks it. i64 index tensors are taken only as
// sign extensions of i32 ones compared with splats and constants (block pointers' and tensor
// descriptors' bounds checks, tt-lower-block-pointers): no i64 arithmetic, which could wrap
// too; the extended i32 tensor's bounds are checked as above. A comparison of other index
// arithmetic whose answer is the same in every lane (tt/Analysis/Contiguity.h) is its first
// lane's.
#include "MaskBounds.h"

#include <limits>

#include "LaneValues.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Matchers.h"
#include "tt/Analysis/Contiguity.h"
#include "tt/TTOps.h"

namespace mlir::tt {
namespace mask_bounds {
namespace {

constexpr int64_t kInt32Min = std::numeric_limits<int32_t>::min();
constexpr int64_t kInt32Max = std::numeric_limits<int32_t>::max();

// constant + sum of coefficient * (an i32 or i64 scalar), in exact arithmetic. (Extremes and
// so InInt32 only ever see i32 scalars: i64 ones stand in i64 comparisons, unscaled.)
struct Affine {
  int64_t constant = 0;
  SmallVector<std::pair<Value, int64_t>> terms;

  Affine Scaled(int64_t factor) const {
    Affine result{constant * factor, {}};
    for (auto [scalar, coefficient] : terms) result.terms.push_back({scalar, coefficient * factor});
    return result;
  }
  Affine Plus(const Affine& other) const {
    Affine result = *this;
    result.constant += other.constant;
    result.terms.append(other.terms.begin(), other.terms.end());
    return result;
  }
  // The least and greatest values the expression can take over all i32 scalars. A scalar
  // known to be a multiple of 2^k (`pid * BLOCK`: scalarDivisibility's power-of-two part,
  // which wrapping keeps) is at most 2^31 - 2^k, so `pid * 4 + 3` never passes i32's top.
  std::pair<int64_t, int64_t> Extremes() const {
    int64_t low = constant, high = constant;
    for (auto [scalar, coefficient] : terms) {
      const int64_t divisibility = scalarDivisibility(scalar);
      const int64_t greatest = kInt32Max - ((divisibility & -divisibility) - 1);
      low += coefficient * (coefficient > 0 ? kInt32Min : greatest);
      high += coefficient * (coefficient > 0 ? greatest : kInt32Min);
    }
    return {low, high};
  }
};

// `high - low` when the two differ by a constant only (the same scalars with the same
// coefficients): a range's last and first index.
std::optional<int64_t> ConstantDifference(const Affine& high, const Affine& low) {
  llvm::SmallDenseMap<Value, int64_t> coefficients;
  for (auto [scalar, coefficient] : high.terms) coefficients[scalar] += coefficient;
  for (auto [scalar, coefficient] : low.terms) coefficients[scalar] -= coefficient;
  for (auto [scalar, coefficient] : coefficients) {
    if (coefficient != 0) return std::nullopt;
  }
  return high.constant - low.constant;
}

// Every lane of an index tensor lies in [low, high], provided the i32 tensors it was extended
// from did not wrap: their bounds, `extended`, lie in i32's range.
struct Interval {
  Affine low, high;
  SmallVector<Affine> extended;
};

// Coefficients stay small (a handful of splats times block sizes): anything larger is left
// to the vector test rather than risking i64 overflow in Extremes.
constexpr int64_t kMaxCoefficient = int64_t{1} << 20;

bool Small(const Affine& affine) {
  if (affine.constant > kMaxCoefficient * kInt32Max ||
      affine.constant < -kMaxCoefficient * kInt32Max) {
    return false;
  }
  for (auto [scalar, coefficient] : affine.terms) {
    if (coefficient > kMaxCoefficient || coefficient < -kMaxCoefficient) return false;
  }
  return affine.terms.size() <= 8;
}

std::optional<int64_t> ConstantScalar(Value scalar) {
  IntegerAttr value;
  if (auto constant = scalar.getDefiningOp<arith::ConstantOp>()) {
    value = dyn_cast<IntegerAttr>(constant.getValue());
  }
  if (!value) return std::nullopt;
  return value.getValue().getSExtValue();
}

// The lanes in question: per dimension, the first and last position (empty: every lane).
using Box = SmallVector<std::pair<int64_t, int64_t>>;

// The box of a broadcast's source: its size-1 dimensions read position 0.
Box SourceBox(BroadcastOp broadcast, const Box& box) {
  if (box.empty()) return box;
  Box source = box;
  auto type = cast<RankedTensorType>(broadcast.getSrc().getType());
  for (int64_t d = 0; d < type.getRank(); ++d) {
    if (type.getDimSize(d) == 1) source[d] = {0, 0};
  }
  return source;
}

// The box of an expand_dims' source: the new dimension dropped.
Box SourceBox(ExpandDimsOp expand, const Box& box) {
  if (box.empty()) return box;
  Box source = box;
  source.erase(source.begin() + expand.getAxis());
  return source;
}

std::optional<Interval> IntervalOf(Value value, const Box& box);

std::optional<Interval> Checked(std::optional<Interval> interval) {
  if (!interval || !Small(interval->low) || !Small(interval->high)) return std::nullopt;
  return interval;
}

std::optional<Interval> IntervalOfOp(Value value, const Box& box) {
  Operation* op = value.getDefiningOp();
  if (!op) return std::nullopt;
  if (auto range = dyn_cast<MakeRangeOp>(op)) {
    if (range.getEnd() <= range.getStart()) return std::nullopt;
    if (!box.empty()) {
      return Interval{{range.getStart() + box[0].first, {}},
                      {range.getStart() + box[0].second, {}}};
    }
    return Interval{{range.getStart(), {}}, {int64_t{range.getEnd()} - 1, {}}};
  }
  if (auto splat = dyn_cast<SplatOp>(op)) {
    Value scalar = splat.getSrc();
    if (scalar.getType() != getElementTypeOrSelf(value.getType())) return std::nullopt;
    if (std::optional<int64_t> constant = ConstantScalar(scalar)) {
      return Interval{{*constant, {}}, {*constant, {}}};
    }
    Affine exact{0, {{scalar, 1}}};
    return Interval{exact, exact};
  }
  if (auto broadcast = dyn_cast<BroadcastOp>(op)) {
    return IntervalOf(broadcast.getSrc(), SourceBox(broadcast, box));
  }
  if (auto expand = dyn_cast<ExpandDimsOp>(op)) {
    return IntervalOf(expand.getSrc(), SourceBox(expand, box));
  }
  if (auto constant = dyn_cast<arith::ConstantOp>(op)) {
    auto elements = dyn_cast<DenseIntElementsAttr>(constant.getValue());
    if (!elements || elements.empty()) return std::nullopt;
    int64_t low = std::numeric_limits<int64_t>::max(), high = std::numeric_limits<int64_t>::min();
    for (const APInt& element : elements.getValues<APInt>()) {
      low = std::min(low, element.getSExtValue());
      high = std::max(high, element.getSExtValue());
    }
    return Interval{{low, {}}, {high, {}}};
  }
  if (auto extend = dyn_cast<arith::ExtSIOp>(op)) {
    std::optional<Interval> narrow = IntervalOf(extend.getIn(), box);  // i32: IntervalOf's types
    if (!narrow) return std::nullopt;
    narrow->extended.push_back(narrow->low);
    narrow->extended.push_back(narrow->high);
    return narrow;
  }
  if (!isa<arith::AddIOp, arith::SubIOp, arith::MulIOp>(op)) return std::nullopt;
  if (!getElementTypeOrSelf(value.getType()).isInteger(32)) return std::nullopt;
  std::optional<Interval> lhs = IntervalOf(op->getOperand(0), box);
  std::optional<Interval> rhs = IntervalOf(op->getOperand(1), box);
  if (!lhs || !rhs) return std::nullopt;
  if (isa<arith::AddIOp>(op)) return Interval{lhs->low.Plus(rhs->low), lhs->high.Plus(rhs->high)};
  if (isa<arith::SubIOp>(op)) {
    return Interval{lhs->low.Plus(rhs->high.Scaled(-1)), lhs->high.Plus(rhs->low.Scaled(-1))};
  }
  // A product only by a known constant: the interval scales (and flips when negative).
  const Interval* factor =
      rhs->low.terms.empty() && rhs->high.terms.empty() && rhs->low.constant == rhs->high.constant
          ? &*rhs
          : nullptr;
  const Interval* other = &*lhs;
  if (!factor && lhs->low.terms.empty() && lhs->high.terms.empty() &&
      lhs->low.constant == lhs->high.constant) {
    factor = &*lhs;
    other = &*rhs;
  }
  if (!factor) return std::nullopt;
  int64_t c = factor->low.constant;
  if (c > kMaxCoefficient || c < -kMaxCoefficient) return std::nullopt;
  if (c >= 0) return Interval{other->low.Scaled(c), other->high.Scaled(c)};
  return Interval{other->high.Scaled(c), other->low.Scaled(c)};
}

std::optional<Interval> IntervalOf(Value value, const Box& box) {
  auto type = dyn_cast<RankedTensorType>(value.getType());
  if (!type || !(type.getElementType().isInteger(32) || type.getElementType().isInteger(64))) {
    return std::nullopt;
  }
  return Checked(IntervalOfOp(value, box));
}

class ConditionBuilder {
 public:
  ConditionBuilder(OpBuilder& b, Location loc) : b_(b), loc_(loc) {}

  Value Evaluate(const Affine& affine) {
    Value sum;
    if (affine.constant != 0 || affine.terms.empty()) sum = Constant(affine.constant);
    for (auto [scalar, coefficient] : affine.terms) {
      Value wide = scalar.getType().isInteger(64)
                       ? scalar
                       : b_.create<arith::ExtSIOp>(loc_, b_.getI64Type(), scalar).getResult();
      if (coefficient != 1) wide = b_.create<arith::MulIOp>(loc_, wide, Constant(coefficient));
      sum = sum ? b_.create<arith::AddIOp>(loc_, sum, wide).getResult() : wide;
    }
    return sum;
  }

  // lhs `predicate` rhs (the canonicalizer folds it when both are constants).
  Value Compare(arith::CmpIPredicate predicate, const Affine& lhs, const Affine& rhs) {
    return b_.create<arith::CmpIOp>(loc_, predicate, Evaluate(lhs), Evaluate(rhs));
  }

  // 0 <= least and least + span < limit (span >= 0), as one unsigned comparison:
  // least <u smax(limit, span) - span. The bound is 0 where limit <= span (nothing fits) and
  // never wraps; a negative least is a huge unsigned value.
  Value InRange(const Affine& least, int64_t span, const Affine& limit) {
    Value spanned = Constant(span);
    Value bound = b_.create<arith::SubIOp>(
        loc_, b_.create<arith::MaxSIOp>(loc_, Evaluate(limit), spanned), spanned);
    return b_.create<arith::CmpIOp>(loc_, arith::CmpIPredicate::ult, Evaluate(least), bound);
  }

  // True when `affine` lies in i32's range (so the wrapped lanes equal the exact values):
  // only the sides its extremes can pass are tested.
  Value InInt32(const Affine& affine) {
    auto [low, high] = affine.Extremes();
    if (low >= kInt32Min && high <= kInt32Max) return True();
    Value value = Evaluate(affine);
    Value above = low >= kInt32Min ? True()
                                   : b_.create<arith::CmpIOp>(loc_, arith::CmpIPredicate::sge,
                                                              value, Constant(kInt32Min))
                                         .getResult();
    Value below = high <= kInt32Max ? True()
                                    : b_.create<arith::CmpIOp>(loc_, arith::CmpIPredicate::sle,
                                                               value, Constant(kInt32Max))
                                          .getResult();
    return And(above, below);
  }

  Value And(Value lhs, Value rhs) {
    if (IsTrue(lhs)) return rhs;
    if (IsTrue(rhs)) return lhs;
    return b_.create<arith::AndIOp>(loc_, lhs, rhs);
  }

  Value Or(Value lhs, Value rhs) {
    if (IsFalse(lhs)) return rhs;
    if (IsFalse(rhs)) return lhs;
    return b_.create<arith::OrIOp>(loc_, lhs, rhs);
  }

  // The element of `tensor` (hasLaneValues) at `position`.
  Value Lane(Value tensor, ArrayRef<int64_t> position) {
    SmallVector<Value> indices;
    for (int64_t index : position) indices.push_back(b_.create<arith::ConstantIntOp>(loc_, index, 32));
    return buildLaneValue(b_, loc_, tensor, indices);
  }

  Value Not(Value value) { return b_.create<arith::XOrIOp>(loc_, value, True()); }

  Value False() {
    if (!false_) false_ = b_.create<arith::ConstantIntOp>(loc_, 0, 1);
    return false_;
  }

  Value True() {
    if (!true_) true_ = b_.create<arith::ConstantIntOp>(loc_, 1, 1);
    return true_;
  }

 private:
  Value Constant(int64_t value) { return b_.create<arith::ConstantIntOp>(loc_, value, 64); }
  bool IsTrue(Value value) const { return value == true_; }
  bool IsFalse(Value value) const { return value == false_; }

  OpBuilder& b_;
  Location loc_;
  Value true_;
  Value false_;
};

// A signed ordering of index tensors whose lanes lie in intervals.
bool HasIntervals(arith::CmpIOp compare) {
  switch (compare.getPredicate()) {
    case arith::CmpIPredicate::slt:
    case arith::CmpIPredicate::sle:
    case arith::CmpIPredicate::sgt:
    case arith::CmpIPredicate::sge:
      return IntervalOf(compare.getLhs(), {}) && IntervalOf(compare.getRhs(), {});
    default:
      return false;
  }
}

// A comparison with the same answer in every lane (constant along every dimension, per the
// contiguity analysis), buildable as one lane: Inductor's `xindex % 256 < 128` over a block of
// 128 lanes at a multiple of 128 is its first lane's answer.
bool Uniform(arith::CmpIOp compare) {
  auto type = cast<RankedTensorType>(compare.getType());
  ContiguityAnalysis analysis(compare);
  const Contiguity& facts = analysis.get(compare.getResult());
  for (int64_t d = 0; d < type.getRank(); ++d) {
    if (facts.constancy[d] != type.getDimSize(d)) return false;
  }
  return hasLaneValues(compare.getResult());
}

// Whether the mask is analysable at all, before anything is built.
bool Analysable(Value mask) {
  Operation* op = mask.getDefiningOp();
  if (!op) return false;
  if (auto splat = dyn_cast<SplatOp>(op)) return splat.getSrc().getType().isInteger(1);
  if (auto broadcast = dyn_cast<BroadcastOp>(op)) return Analysable(broadcast.getSrc());
  if (auto expand = dyn_cast<ExpandDimsOp>(op)) return Analysable(expand.getSrc());
  if (auto both = dyn_cast<arith::AndIOp>(op)) {
    return Analysable(both.getLhs()) && Analysable(both.getRhs());
  }
  if (auto constant = dyn_cast<arith::ConstantOp>(op)) {
    auto elements = dyn_cast<DenseIntElementsAttr>(constant.getValue());
    return elements && elements.isSplat() && elements.getSplatValue<bool>();
  }
  auto compare = dyn_cast<arith::CmpIOp>(op);
  return compare && (HasIntervals(compare) || Uniform(compare));
}

// What Build answers about a mask: every lane on, or (a sufficient condition) every lane off.
enum class Question { kAllOn, kAllOff };

// `answer` and the tests that the comparison's sides stand for their lanes: i32 sides' bounds,
// and those of the i32 tensors the i64 sides were extended from, lie in i32's range.
Value WithFitTests(ConditionBuilder& builder, Value answer, arith::CmpIOp compare,
                   const Interval& lhs, const Interval& rhs) {
  const bool narrow = getElementTypeOrSelf(compare.getLhs().getType()).isInteger(32);
  for (const Interval* side : {&lhs, &rhs}) {
    if (narrow) {
      answer = builder.And(answer, builder.InInt32(side->low));
      answer = builder.And(answer, builder.InInt32(side->high));
    }
    for (const Affine& bound : side->extended) answer = builder.And(answer, builder.InInt32(bound));
  }
  return answer;
}

// The all-on test of `x >= 0 && x < n` (a block pointer's or tensor descriptor's bounds check
// along one dimension, tt-lower-block-pointers) as one unsigned comparison of x's first index
// (ConditionBuilder::InRange), where the signed pair is two tests and a branch each; null
// when `both` is not that pair or x's indices are not a first one plus constants.
Value BuildInRange(ConditionBuilder& builder, arith::AndIOp both, const Box& box) {
  auto lower = both.getLhs().getDefiningOp<arith::CmpIOp>();
  auto upper = both.getRhs().getDefiningOp<arith::CmpIOp>();
  if (!lower || !upper || lower.getPredicate() != arith::CmpIPredicate::sge ||
      upper.getPredicate() != arith::CmpIPredicate::slt || lower.getLhs() != upper.getLhs() ||
      !matchPattern(lower.getRhs(), m_Zero()) || !HasIntervals(lower) || !HasIntervals(upper)) {
    return {};
  }
  Interval index = *IntervalOf(lower.getLhs(), box), limit = *IntervalOf(upper.getRhs(), box);
  std::optional<int64_t> span = ConstantDifference(index.high, index.low);
  if (!span || *span < 0 || ConstantDifference(limit.high, limit.low) != 0) return {};
  // The zero side needs no fit test; x's and n's are those of `upper`.
  return WithFitTests(builder, builder.InRange(index.low, *span, limit.low), upper, index, limit);
}

// An i1 answering `question` for the lanes of `box`. All on: every ANDed comparison holds at
// the ranges' extremes. All off: one of them fails at the extremes (a false splat); false
// when that cannot tell (one comparison off in some lanes, another in the rest).
Value Build(ConditionBuilder& builder, Value mask, const Box& box, Question question) {
  const bool on = question == Question::kAllOn;
  Operation* op = mask.getDefiningOp();
  if (auto splat = dyn_cast<SplatOp>(op)) {
    return on ? splat.getSrc() : builder.Not(splat.getSrc());
  }
  if (auto broadcast = dyn_cast<BroadcastOp>(op)) {
    return Build(builder, broadcast.getSrc(), SourceBox(broadcast, box), question);
  }
  if (auto expand = dyn_cast<ExpandDimsOp>(op)) {
    return Build(builder, expand.getSrc(), SourceBox(expand, box), question);
  }
  if (auto both = dyn_cast<arith::AndIOp>(op)) {
    if (on) {
      if (Value in_range = BuildInRange(builder, both, box)) return in_range;
    }
    Value lhs = Build(builder, both.getLhs(), box, question);
    Value rhs = Build(builder, both.getRhs(), box, question);
    return on ? builder.And(lhs, rhs) : builder.Or(lhs, rhs);
  }
  if (isa<arith::ConstantOp>(op)) return on ? builder.True() : builder.False();
  auto compare = cast<arith::CmpIOp>(op);
  if (!HasIntervals(compare)) {
    // Uniform: every lane answers as the box's first.
    auto type = cast<RankedTensorType>(compare.getType());
    SmallVector<int64_t> position(type.getRank(), 0);
    for (size_t d = 0; d < box.size(); ++d) position[d] = box[d].first;
    Value lane = builder.Lane(compare.getResult(), position);
    return on ? lane : builder.Not(lane);
  }
  Interval lhs = *IntervalOf(compare.getLhs(), box), rhs = *IntervalOf(compare.getRhs(), box);
  // lhs < rhs (or <=) holds in every lane when lhs's greatest value is below rhs's least, and
  // in none when lhs's least is at or above rhs's greatest; > and >= the other way round.
  const bool less = compare.getPredicate() == arith::CmpIPredicate::slt ||
                    compare.getPredicate() == arith::CmpIPredicate::sle;
  const bool lhs_high = less == on;
  Value answer = builder.Compare(
      on ? compare.getPredicate() : arith::invertPredicate(compare.getPredicate()),
      lhs_high ? lhs.high : lhs.low, lhs_high ? rhs.low : rhs.high);
  return WithFitTests(builder, answer, compare, lhs, rhs);
}

// Builds a LaneInterval (MaskBounds.h) over the and-tree of a 1-D mask, each comparison's sides
// taken at the run's first lane (`first`, an i32).
class IntervalBuilder {
 public:
  IntervalBuilder(OpBuilder& b, Location loc, int64_t width) : b_(b), loc_(loc), width_(width) {}

  std::optional<LaneInterval> Build(Value mask, Value first) {
    Operation* op = mask.getDefiningOp();
    if (!op) return std::nullopt;
    if (auto splat = dyn_cast<SplatOp>(op)) {
      if (!splat.getSrc().getType().isInteger(1)) return std::nullopt;
      return Uniform(splat.getSrc(), True());
    }
    if (auto constant = dyn_cast<arith::ConstantOp>(op)) {
      auto elements = dyn_cast<DenseIntElementsAttr>(constant.getValue());
      if (!elements || !elements.isSplat()) return std::nullopt;
      return Uniform(b_.create<arith::ConstantIntOp>(loc_, elements.getSplatValue<bool>(), 1),
                     True());
    }
    if (auto both = dyn_cast<arith::AndIOp>(op)) {
      std::optional<LaneInterval> lhs = Build(both.getLhs(), first);
      if (!lhs) return std::nullopt;
      std::optional<LaneInterval> rhs = Build(both.getRhs(), first);
      if (!rhs) return std::nullopt;
      return LaneInterval{b_.create<arith::MaxSIOp>(loc_, lhs->low, rhs->low),
                          b_.create<arith::MinSIOp>(loc_, lhs->high, rhs->high),
                          And(lhs->exact, rhs->exact)};
    }
    auto compare = dyn_cast<arith::CmpIOp>(op);
    if (!compare || !getElementTypeOrSelf(compare.getLhs().getType()).isInteger(32) ||
        !hasLaneValues(compare.getLhs()) || !hasLaneValues(compare.getRhs())) {
      return std::nullopt;
    }
    arith::CmpIPredicate predicate = compare.getPredicate();
    if (predicate != arith::CmpIPredicate::slt && predicate != arith::CmpIPredicate::sle &&
        predicate != arith::CmpIPredicate::sgt && predicate != arith::CmpIPredicate::sge) {
      return std::nullopt;
    }
    std::optional<int64_t> lhs_step = Step(compare.getLhs(), first);
    std::optional<int64_t> rhs_step = Step(compare.getRhs(), first);
    if (!lhs_step || !rhs_step) return std::nullopt;
    Value lhs = buildLaneValue(b_, loc_, compare.getLhs(), first);
    Value rhs = buildLaneValue(b_, loc_, compare.getRhs(), first);
    if (!lhs || !rhs) return std::nullopt;
    // A side stepping by 1 holds first + k in lane k while that stays in i32.
    Value exact = True();
    for (auto [side, step] : {std::pair{lhs, *lhs_step}, std::pair{rhs, *rhs_step}}) {
      if (step == 1) {
        exact = And(exact, b_.createOrFold<arith::CmpIOp>(
                               loc_, arith::CmpIPredicate::sle, side,
                               I32(std::numeric_limits<int32_t>::max() - (width_ - 1))));
      }
    }
    if (*lhs_step == *rhs_step) {  // the difference of the sides is the same in every lane
      return Uniform(b_.create<arith::CmpIOp>(loc_, predicate, lhs, rhs), exact);
    }
    // Lane k is on when moving + k `predicate` fixed, in exact (i64) arithmetic: with
    // d = fixed - moving, k < d, k <= d, k > d or k >= d.
    if (*rhs_step == 1) {
      std::swap(lhs, rhs);
      predicate = Swapped(predicate);
    }
    Value d = b_.create<arith::SubIOp>(loc_, Wide(rhs), Wide(lhs));
    auto d_plus_one = [&] { return b_.create<arith::AddIOp>(loc_, d, I64(1)).getResult(); };
    Value low = I64(0), high = I64(width_);
    switch (predicate) {
      case arith::CmpIPredicate::slt: high = d; break;
      case arith::CmpIPredicate::sle: high = d_plus_one(); break;
      case arith::CmpIPredicate::sgt: low = d_plus_one(); break;
      default: low = d; break;  // sge
    }
    return LaneInterval{Clamp(low), Clamp(high), exact};
  }

 private:
  // The constant step (0 or 1) of `tensor` along the row, else nullopt.
  std::optional<int64_t> Step(Value tensor, Value first) {
    Value step = buildLaneStep(b_, loc_, tensor, first, /*dim=*/0);
    APInt value;
    if (!step || !matchPattern(step, m_ConstantInt(&value))) return std::nullopt;
    int64_t steps = value.getSExtValue();
    if (steps != 0 && steps != 1) return std::nullopt;
    return steps;
  }

  // The predicate with its operands swapped: a < b is b > a.
  static arith::CmpIPredicate Swapped(arith::CmpIPredicate predicate) {
    switch (predicate) {
      case arith::CmpIPredicate::slt: return arith::CmpIPredicate::sgt;
      case arith::CmpIPredicate::sle: return arith::CmpIPredicate::sge;
      case arith::CmpIPredicate::sgt: return arith::CmpIPredicate::slt;
      default: return arith::CmpIPredicate::sle;  // sge
    }
  }

  Value Wide(Value i32) { return b_.create<arith::ExtSIOp>(loc_, b_.getI64Type(), i32); }

  // `lane` within [0, width].
  Value Clamp(Value lane) {
    return b_.create<arith::MinSIOp>(loc_, b_.create<arith::MaxSIOp>(loc_, lane, I64(0)),
                                     I64(width_));
  }

  // Every lane when `on`, else none.
  LaneInterval Uniform(Value on, Value exact) {
    return LaneInterval{I64(0), b_.create<arith::SelectOp>(loc_, on, I64(width_), I64(0)), exact};
  }

  Value True() { return b_.create<arith::ConstantIntOp>(loc_, 1, 1); }

  Value And(Value lhs, Value rhs) {
    if (matchPattern(lhs, m_One())) return rhs;
    if (matchPattern(rhs, m_One())) return lhs;
    return b_.create<arith::AndIOp>(loc_, lhs, rhs);
  }
  Value I32(int64_t value) { return b_.create<arith::ConstantIntOp>(loc_, value, 32); }
  Value I64(int64_t value) { return b_.create<arith::ConstantIntOp>(loc_, value, 64); }

  OpBuilder& b_;
  Location loc_;
  int64_t width_;
};

}  // namespace
}  // namespace mask_bounds

bool hasScalarAllOn(Value mask) { return mask && mask_bounds::Analysable(mask); }

Value buildScalarAllOn(OpBuilder& b, Location loc, Value mask) {
  mask_bounds::ConditionBuilder builder(b, loc);
  return mask_bounds::Build(builder, mask, {}, mask_bounds::Question::kAllOn);
}

Value buildScalarAllOn(OpBuilder& b, Location loc, Value mask, ArrayRef<int64_t> position,
                       int64_t first, int64_t last) {
  mask_bounds::Box box;
  for (int64_t coordinate : position) box.push_back({coordinate, coordinate});
  box.push_back({first, last});
  mask_bounds::ConditionBuilder builder(b, loc);
  return mask_bounds::Build(builder, mask, box, mask_bounds::Question::kAllOn);
}

std::optional<LaneInterval> buildLaneInterval(OpBuilder& b, Location loc, Value mask,
                                              int64_t first, int64_t width) {
  auto type = dyn_cast<RankedTensorType>(mask.getType());
  if (!type || type.getRank() != 1) return std::nullopt;
  return mask_bounds::IntervalBuilder(b, loc, width)
      .Build(mask, b.create<arith::ConstantIntOp>(loc, first, 32));
}

Value buildScalarAllOff(OpBuilder& b, Location loc, Value mask) {
  mask_bounds::ConditionBuilder builder(b, loc);
  return mask_bounds::Build(builder, mask, {}, mask_bounds::Question::kAllOff);
}

}  // namespace mlir::tt
