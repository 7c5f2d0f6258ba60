// tt-to-tcpu-memory: tt.load / tt.store through pointers and tensors of pointers.
//
// A tensor of pointers is an i64 address vector (TypeConverter.h). Along its last dimension
// the contiguity analysis gives runs of consecutive elements; each run is one vector access
// from the run's first address. A masked access of several runs first tests the whole mask,
// with a few scalar instructions when the mask compares index ranges with bounds
// (MaskBounds.h): all on (the common case away from a tensor's edge), every run is a plain
// vector access. Otherwise each run loads or stores the whole vector when its lanes are all
// on and goes lane by lane if not, never touching lanes that are off; a load then copies the
// tile to a stack buffer, and the runs are loaded from the buffer or from the tensor by one
// select of the address, so the loads sit with their users instead of the tile joining two
// branches (a tile wider than the registers would be spilled at the join). A tall tile (32
// rows or more) whose addresses and mask are Triton's index arithmetic goes through that
// buffer by a loop over rows and lanes instead (a store: from a buffer of its values), so its
// code does not grow with its rows. A vector_width hint of N says the addresses come in runs
// of N consecutive elements: runs the analysis cannot prove are taken from it, and runs it
// proves longer are never cut. Scattered elements (irregular addresses) become a loop of
// scalar accesses, each under its own mask.
// Memory holds i1 as one byte, as Triton. (NEON has no masked loads; an SVE target could use
// predicated ones: not done yet.)
#include <algorithm>
#include <functional>
#include <memory>
#include <numeric>

#include "LaneValues.h"
#include "MaskBounds.h"
#include "StackBuffer.h"
#include "TypeConverter.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "tcpu/TcpuDialect.h"
#include "tt/Analysis/Contiguity.h"
#include "tt/TTOps.h"
#include "tt/TTToTcpuPasses.h"

namespace mlir::tt {

#define GEN_PASS_DEF_TTTOTCPUMEMORY
#include "tt/TTToTcpuPasses.h.inc"

namespace convert_memory_ops {
namespace {

// How a value of `type` is held in memory: i1 as i8.
Type MemoryType(Type type) {
  if (type.isInteger(1)) return IntegerType::get(type.getContext(), 8);
  return type;
}

unsigned ByteAlignment(Type element) {
  return std::max<unsigned>(1, MemoryType(element).getIntOrFloatBitWidth() / 8);
}

Value Zeros(OpBuilder& b, Location loc, Type type) {
  return b.create<arith::ConstantOp>(loc, type, b.getZeroAttr(type));
}

Value AddressToPointer(OpBuilder& b, Location loc, Value address) {
  return b.create<LLVM::IntToPtrOp>(loc, LLVM::LLVMPointerType::get(b.getContext()), address);
}

// Loads `type` (scalar or 1-D vector) from `pointer`, converting i1 from bytes.
Value LoadValue(OpBuilder& b, Location loc, Value pointer, Type type) {
  Type element = getElementTypeOrSelf(type);
  Type memory_type = type;
  if (element.isInteger(1)) {
    memory_type =
        isa<VectorType>(type)
            ? Type(VectorType::get(cast<VectorType>(type).getShape(), MemoryType(element)))
            : MemoryType(element);
  }
  Value loaded = b.create<LLVM::LoadOp>(loc, memory_type, pointer, ByteAlignment(element));
  if (memory_type == type) return loaded;
  return b.create<arith::CmpIOp>(loc, arith::CmpIPredicate::ne, loaded, Zeros(b, loc, memory_type));
}

Value ToMemory(OpBuilder& b, Location loc, Value value) {
  Type type = value.getType();
  Type element = getElementTypeOrSelf(type);
  if (!element.isInteger(1)) return value;
  Type memory_type =
      isa<VectorType>(type)
          ? Type(VectorType::get(cast<VectorType>(type).getShape(), MemoryType(element)))
          : MemoryType(element);
  return b.create<arith::ExtUIOp>(loc, memory_type, value);
}

void StoreValue(OpBuilder& b, Location loc, Value pointer, Value value) {
  Type element = getElementTypeOrSelf(value.getType());
  b.create<LLVM::StoreOp>(loc, ToMemory(b, loc, value), pointer, ByteAlignment(element));
}

// The pointer to one lane of a row: from its address vector (irregular addresses) or, in a
// run of consecutive elements, from the run's first element (which keeps the other lanes'
// addresses out of the code).
using LanePointer = llvm::function_ref<Value(OpBuilder&, Location, Value lane)>;

Value LaneOfRun(OpBuilder& b, Location loc, Value first, Type element, Value lane);

// A 1-D vector a loop reads lane by lane: stored once, before the loop, to a stack buffer (in
// the function holding `op`, the op being converted) that each lane is loaded from. A
// vector.extract at a dynamic lane makes the backend store the whole vector again for every
// lane it reads (a 1024-lane row gathered lane by lane: about 2,400 instructions a lane, most
// of them the row's 256 q registers stored per lane). A splat (a row's mask bit broadcast to
// its lanes) is its scalar: stored, it would have to be built lane by lane first.
class LaneBuffer {
 public:
  LaneBuffer(OpBuilder& b, Location loc, Operation* op, Value vector)
      : element_(cast<VectorType>(vector.getType()).getElementType()) {
    if ((scalar_ = SplatScalar(b, loc, vector))) return;
    buffer_ = buildEntryBuffer(b, op, MemoryType(element_),
                               cast<VectorType>(vector.getType()).getNumElements());
    StoreValue(b, loc, buffer_, vector);
  }
  // Lane `lane` (an index).
  Value Lane(OpBuilder& b, Location loc, Value lane) const {
    if (scalar_) return scalar_;
    return LoadValue(b, loc, LaneOfRun(b, loc, buffer_, element_, lane), element_);
  }
  // The lanes of `chunk` from `lane` on.
  Value Chunk(OpBuilder& b, Location loc, Value lane, VectorType chunk) const {
    if (scalar_) return b.create<vector::BroadcastOp>(loc, chunk, scalar_);
    return LoadValue(b, loc, LaneOfRun(b, loc, buffer_, element_, lane), chunk);
  }

 private:
  // The value every lane of `vector` holds, when it is a broadcast scalar or a splat constant.
  static Value SplatScalar(OpBuilder& b, Location loc, Value vector) {
    Operation* def = vector.getDefiningOp();
    if (auto broadcast = dyn_cast_or_null<vector::BroadcastOp>(def)) {
      Value source = broadcast.getSource();
      if (!isa<VectorType>(source.getType())) return source;
      auto type = cast<VectorType>(source.getType());
      if (type.getNumElements() == 1) {
        return b.create<vector::ExtractOp>(loc, source, SmallVector<int64_t>(type.getRank(), 0));
      }
      return {};
    }
    if (auto splat = dyn_cast_or_null<vector::SplatOp>(def)) return splat.getInput();
    DenseElementsAttr elements;
    if (matchPattern(vector, m_Constant(&elements)) && elements.isSplat()) {
      return b.create<arith::ConstantOp>(loc, elements.getSplatValue<TypedAttr>());
    }
    return {};
  }

  Type element_;
  Value scalar_;
  Value buffer_;
};

Value LaneOfRun(OpBuilder& b, Location loc, Value first, Type element, Value lane) {
  Value index = b.create<arith::IndexCastOp>(loc, b.getI64Type(), lane);
  return b.create<LLVM::GEPOp>(loc, first.getType(), MemoryType(element), first, ValueRange{index});
}

// A lane's coordinates (i32) for buildLaneValue: the leading-dimension `position` as
// constants, then `last` in the last dimension.
SmallVector<Value> LaneCoordinates(OpBuilder& b, Location loc, ArrayRef<int64_t> position,
                                   Value last) {
  SmallVector<Value> coordinates;
  for (int64_t coordinate : position) {
    coordinates.push_back(b.create<arith::ConstantIntOp>(loc, coordinate, 32));
  }
  coordinates.push_back(last);
  return coordinates;
}

SmallVector<Value> LaneCoordinates(OpBuilder& b, Location loc, ArrayRef<int64_t> position,
                                   int64_t offset) {
  return LaneCoordinates(b, loc, position, b.create<arith::ConstantIntOp>(loc, offset, 32));
}

// The mask of lanes [offset, offset + width) of the row at `position`: that slice of the
// converted mask vector, or, when the TTIR mask compares index ranges with bounds, scalars
// built from the TTIR mask itself (MaskBounds.h, LaneValues.h), so that a partial tile never
// builds the mask vector (LLVM would hoist it, constants and all, out of the loop). Null when
// there is no mask.
class RunMask {
 public:
  RunMask() = default;
  // `tt_mask` (may be null) is kept for a loop over the lanes (Buffered).
  static RunMask OfVector(Value vector, Value tt_mask, ArrayRef<int64_t> position,
                          int64_t offset, int64_t width) {
    RunMask mask = OfScalars(tt_mask, position, offset, width);
    mask.vector_ = vector;
    return mask;
  }
  static RunMask OfScalars(Value tt_mask, ArrayRef<int64_t> position, int64_t offset,
                           int64_t width) {
    RunMask mask;
    mask.tt_mask_ = tt_mask;
    mask.position_.assign(position.begin(), position.end());
    mask.offset_ = offset;
    mask.width_ = width;
    return mask;
  }
  // Whether a TTIR mask is taken as scalars: a row's (a tile of several rows keeps the vector,
  // whose per-row tests measured slower on the int8 linear layer).
  static bool Scalar(Value tt_mask) {
    return cast<RankedTensorType>(tt_mask.getType()).getRank() == 1 && hasScalarAllOn(tt_mask) &&
           hasLaneValues(tt_mask);
  }

  explicit operator bool() const { return vector_ || tt_mask_; }

  Value AllOn(OpBuilder& b, Location loc) const {
    if (vector_) return b.create<vector::ReductionOp>(loc, vector::CombiningKind::AND, vector_);
    return buildScalarAllOn(b, loc, tt_mask_, position_, offset_, offset_ + width_ - 1);
  }

  // The same mask for a loop over its lanes, made here, before it: each lane's bit built from
  // the TTIR mask where it can be (LaneValues.h: a few scalar ops, most of them invariant),
  // else read from a stack copy of the mask vector (LaneBuffer).
  RunMask Buffered(OpBuilder& b, Location loc, Operation* op) const {
    RunMask mask = *this;
    if (!vector_) return mask;
    if (tt_mask_ && hasLaneValuesAtAnyPosition(tt_mask_)) {
      mask.vector_ = {};
    } else {
      mask.lanes_ = std::make_shared<LaneBuffer>(b, loc, op, vector_);
    }
    return mask;
  }

  // The lanes on of a run of a 1-D row as an interval, when the TTIR mask has that form
  // (MaskBounds.h).
  std::optional<LaneInterval> Interval(OpBuilder& b, Location loc) const {
    if (!tt_mask_) return std::nullopt;
    return buildLaneInterval(b, loc, tt_mask_, offset_, width_);
  }

  // Lane `lane` (an index) of the run.
  Value Lane(OpBuilder& b, Location loc, Value lane) const {
    if (lanes_) return lanes_->Lane(b, loc, lane);
    if (vector_) return b.create<vector::ExtractOp>(loc, vector_, lane);
    Value last = b.create<arith::IndexCastOp>(loc, b.getI32Type(), lane);
    if (offset_ != 0) {
      last = b.create<arith::AddIOp>(loc, last, b.create<arith::ConstantIntOp>(loc, offset_, 32));
    }
    return buildLaneValue(b, loc, tt_mask_, LaneCoordinates(b, loc, position_, last));
  }

 private:
  Value vector_;
  std::shared_ptr<LaneBuffer> lanes_;
  Value tt_mask_;
  SmallVector<int64_t> position_;
  int64_t offset_ = 0;
  int64_t width_ = 0;
};

// The most bits of a row that a loop over its lanes carries in registers (vector.insert and
// vector.extract at the lane): the backend unrolls such a loop and keeps the row in two NEON
// registers. A wider row goes through a stack buffer (LaneBuffer): carried, each lane's access
// stored and reloaded all of it. (At four registers the int8 linear layer of triton_perf_gate
// was 1.7% slower, 9% on the A53 model; the corpus's 16-lane f32 rows faster through memory.)
constexpr int64_t kRegisterRowBits = 2 * 128;

bool RowInRegisters(VectorType type) {
  return type.getNumElements() * std::max<int64_t>(8, type.getElementTypeBitWidth()) <=
         kRegisterRowBits;
}

// Lane by lane, each access only if its mask lane is on; the row carried in registers.
Value GatherRowInRegisters(OpBuilder& b, Location loc, LanePointer pointer_of, VectorType type,
                           const RunMask& mask, Value other) {
  int64_t width = type.getDimSize(0);
  Value lower = b.create<arith::ConstantIndexOp>(loc, 0);
  Value upper = b.create<arith::ConstantIndexOp>(loc, width);
  Value step = b.create<arith::ConstantIndexOp>(loc, 1);
  auto loop = b.create<scf::ForOp>(
      loc, lower, upper, step, ValueRange{other ? other : Zeros(b, loc, type)},
      [&](OpBuilder& body, Location l, Value lane, ValueRange carried) {
        Value row = carried[0];
        auto load = [&](OpBuilder& inner, Location il) {
          Value element = LoadValue(inner, il, pointer_of(inner, il, lane), type.getElementType());
          return inner.create<vector::InsertOp>(il, element, row, lane).getResult();
        };
        Value updated;
        if (!mask) {
          updated = load(body, l);
        } else {
          updated = body.create<scf::IfOp>(
                            l, mask.Lane(body, l, lane),
                            [&](OpBuilder& then, Location il) {
                              then.create<scf::YieldOp>(il, load(then, il));
                            },
                            [&](OpBuilder& otherwise, Location il) {
                              otherwise.create<scf::YieldOp>(il, row);
                            })
                        .getResult(0);
        }
        body.create<scf::YieldOp>(l, updated);
      });
  return loop.getResult(0);
}

// What a loop over a row's lanes does at one lane (an index).
using LaneAction = llvm::function_ref<void(OpBuilder&, Location, Value lane)>;

// `body` at each lane of a row `width` wide, in order, under an scf.if of the lane's mask bit
// when there is a mask.
void ForEachLaneOfRow(OpBuilder& b, Location loc, int64_t width, const RunMask& mask,
                      LaneAction body) {
  Value lower = b.create<arith::ConstantIndexOp>(loc, 0);
  Value upper = b.create<arith::ConstantIndexOp>(loc, width);
  Value step = b.create<arith::ConstantIndexOp>(loc, 1);
  b.create<scf::ForOp>(loc, lower, upper, step, ValueRange{},
                       [&](OpBuilder& loop, Location l, Value lane, ValueRange) {
                         if (!mask) {
                           body(loop, l, lane);
                         } else {
                           loop.create<scf::IfOp>(l, mask.Lane(loop, l, lane),
                                                  [&](OpBuilder& then, Location il) {
                                                    body(then, il, lane);
                                                    then.create<scf::YieldOp>(il);
                                                  });
                         }
                         loop.create<scf::YieldOp>(l);
                       });
}

// What a loop over a row's lanes does at `lanes` lanes from one lane (an index) on, when they
// are consecutive elements on both sides: one vector access each.
using ChunkAction = llvm::function_ref<void(OpBuilder&, Location, Value lane, int64_t lanes)>;

// The bytes a ChunkAction moves: four NEON registers while they fit, then one.
constexpr int64_t kChunkBytes[] = {64, 16};

// `body` at each lane of [low, high) (indices), in order; with `chunk`, at `lanes[i]` lanes
// (largest first) from `low` on while they fit, `body` only at the lanes left. The loop's step
// depends on the lanes left, so LLVM makes it neither a memcpy call (whose clobbered vector
// registers made the loops around it spill: Inductor's GELU +8%) nor vectorizes it again. It
// runs at least once, doing nothing when the interval is empty: with a test in front of it,
// LLVM forwarded the buffer's `other` past that test and joined every load of the row from
// three paths (argmax +10%).
void ForEachLaneInInterval(OpBuilder& b, Location loc, Value low, Value high,
                           ArrayRef<int64_t> lanes, LaneAction body, ChunkAction chunk) {
  Value one = b.create<arith::ConstantIndexOp>(loc, 1);
  if (!chunk || lanes.empty()) {
    b.create<scf::ForOp>(loc, low, high, one, ValueRange{},
                         [&](OpBuilder& loop, Location l, Value lane, ValueRange) {
                           body(loop, l, lane);
                           loop.create<scf::YieldOp>(l);
                         });
    return;
  }
  Type index = b.getIndexType();
  // The lane after the largest chunk of lanes[i..] that fits at `lane`, or after one lane,
  // moved only if it lies before `high` (the first step of an empty interval moves nothing).
  std::function<Value(OpBuilder&, Location, Value, size_t)> step =
      [&](OpBuilder& at, Location l, Value lane, size_t i) -> Value {
    if (i == lanes.size()) {
      Value inside = at.create<arith::CmpIOp>(l, arith::CmpIPredicate::slt, lane, high);
      at.create<scf::IfOp>(l, inside, [&](OpBuilder& then, Location il) {
        body(then, il, lane);
        then.create<scf::YieldOp>(il);
      });
      return at.create<arith::AddIOp>(l, lane, one);
    }
    Value end = at.create<arith::AddIOp>(l, lane, at.create<arith::ConstantIndexOp>(l, lanes[i]));
    Value fits = at.create<arith::CmpIOp>(l, arith::CmpIPredicate::sle, end, high);
    auto next = at.create<scf::IfOp>(
        l, fits,
        [&](OpBuilder& then, Location il) {
          chunk(then, il, lane, lanes[i]);
          then.create<scf::YieldOp>(il, end);
        },
        [&](OpBuilder& otherwise, Location il) {
          otherwise.create<scf::YieldOp>(il, step(otherwise, il, lane, i + 1));
        });
    return next.getResult(0);
  };
  b.create<scf::WhileOp>(
      loc, TypeRange{index}, ValueRange{low},
      [&](OpBuilder& before, Location l, ValueRange lane) {
        Value next = step(before, l, lane[0], 0);
        Value more = before.create<arith::CmpIOp>(l, arith::CmpIPredicate::slt, next, high);
        before.create<scf::ConditionOp>(l, more, ValueRange{next});
      },
      [&](OpBuilder& after, Location l, ValueRange lane) {
        after.create<scf::YieldOp>(l, lane);
      });
}

// `body` at each lane of a row of `type` whose mask bit is on, in order (`op` is the access
// being converted); `chunk` (may be null) for lanes consecutive on both sides. Where the mask's
// lanes on are an interval (MaskBounds.h: `offs < n`), the loop runs over it with no test per
// lane, by chunks where it can (tutorial 02's softmax over 300 of its 512 lanes ran a predicated
// loop over all 512 for each of its load and store); lane by lane under each bit otherwise, and
// where an index of the row could wrap around i32.
void ForEachLaneOnInRow(OpBuilder& b, Location loc, Operation* op, VectorType type,
                        const RunMask& mask, LaneAction body, ChunkAction chunk) {
  const int64_t width = type.getDimSize(0);
  Type memory = MemoryType(type.getElementType());
  const int64_t bytes =
      memory.isIntOrFloat() ? std::max<int64_t>(1, memory.getIntOrFloatBitWidth() / 8) : 8;
  // Only 1-D rows wider than the largest chunk: the rows of 2-D tiles (attention's 16-row
  // tiles of 32 lanes, +4%) and narrower rows (Inductor's GELU in 16-lane chunks, +7%) came out
  // slower, the loop's code making the register allocator spill more in the unmasked paths.
  std::optional<LaneInterval> interval =
      mask && width * bytes > kChunkBytes[0] ? mask.Interval(b, loc) : std::nullopt;
  if (!interval) {
    ForEachLaneOfRow(b, loc, width, mask ? mask.Buffered(b, loc, op) : RunMask(), body);
    return;
  }
  SmallVector<int64_t> lanes;
  for (int64_t chunk_bytes : kChunkBytes) {
    const int64_t count = chunk_bytes / bytes;
    if (count > 1 && count <= width) lanes.push_back(count);
  }
  auto over_interval = [&](OpBuilder& at, Location l) {
    ForEachLaneInInterval(at, l, at.create<arith::IndexCastOp>(l, at.getIndexType(), interval->low),
                          at.create<arith::IndexCastOp>(l, at.getIndexType(), interval->high),
                          lanes, body, chunk);
  };
  if (matchPattern(interval->exact, m_One())) {
    over_interval(b, loc);
    return;
  }
  b.create<scf::IfOp>(
      loc, interval->exact,
      [&](OpBuilder& then, Location l) {
        over_interval(then, l);
        then.create<scf::YieldOp>(l);
      },
      [&](OpBuilder& otherwise, Location l) {
        ForEachLaneOfRow(otherwise, l, width, mask.Buffered(otherwise, l, op), body);
        otherwise.create<scf::YieldOp>(l);
      });
}

// Lane by lane, each access only if its mask lane is on, into a stack buffer holding `other`
// (zeros if null) until then; the row is loaded from it whole. `consecutive`: the lanes'
// addresses are a run, copied by chunks over an interval of lanes on.
Value GatherRowInMemory(OpBuilder& b, Location loc, Operation* op, LanePointer pointer_of,
                        VectorType type, const RunMask& mask, Value other, bool consecutive) {
  Type element = type.getElementType();
  Value buffer = buildEntryBuffer(b, op, MemoryType(element), type.getDimSize(0));
  StoreValue(b, loc, buffer, other ? other : Zeros(b, loc, type));
  auto chunk = [&](OpBuilder& at, Location l, Value lane, int64_t lanes) {
    auto chunk_type = VectorType::get({lanes}, element);
    Value values = LoadValue(at, l, pointer_of(at, l, lane), chunk_type);
    StoreValue(at, l, LaneOfRun(at, l, buffer, element, lane), values);
  };
  ForEachLaneOnInRow(
      b, loc, op, type, mask,
      [&](OpBuilder& at, Location l, Value lane) {
        Value value = LoadValue(at, l, pointer_of(at, l, lane), element);
        StoreValue(at, l, LaneOfRun(at, l, buffer, element, lane), value);
      },
      consecutive ? ChunkAction(chunk) : ChunkAction());
  return LoadValue(b, loc, buffer, type);
}

// A row gathered lane by lane (`op` is the load being converted; `consecutive`: a run).
Value GatherRow(OpBuilder& b, Location loc, Operation* op, LanePointer pointer_of,
                VectorType type, const RunMask& mask, Value other, bool consecutive) {
  return RowInRegisters(type)
             ? GatherRowInRegisters(b, loc, pointer_of, type, mask, other)
             : GatherRowInMemory(b, loc, op, pointer_of, type, mask, other, consecutive);
}

// A row scattered lane by lane, each store only if its mask lane is on (`op` is the store being
// converted): each lane extracted from the row in registers, or loaded from a stack copy of a
// wider row (`consecutive`: the lanes' addresses are a run, written by chunks over an interval
// of lanes on).
void ScatterRow(OpBuilder& b, Location loc, Operation* op, LanePointer pointer_of, Value value,
                const RunMask& mask, bool consecutive) {
  auto type = cast<VectorType>(value.getType());
  if (RowInRegisters(type)) {
    ForEachLaneOfRow(b, loc, type.getDimSize(0), mask, [&](OpBuilder& at, Location l, Value lane) {
      Value element = at.create<vector::ExtractOp>(l, value, lane);
      StoreValue(at, l, pointer_of(at, l, lane), element);
    });
    return;
  }
  LaneBuffer values(b, loc, op, value);
  auto chunk = [&](OpBuilder& at, Location l, Value lane, int64_t lanes) {
    auto chunk_type = VectorType::get({lanes}, type.getElementType());
    StoreValue(at, l, pointer_of(at, l, lane), values.Chunk(at, l, lane, chunk_type));
  };
  ForEachLaneOnInRow(
      b, loc, op, type, mask,
      [&](OpBuilder& at, Location l, Value lane) {
        StoreValue(at, l, pointer_of(at, l, lane), values.Lane(at, l, lane));
      },
      consecutive ? ChunkAction(chunk) : ChunkAction());
}

// One run of consecutive elements from `pointer`, under `mask` (null: all lanes), other lanes
// taking `other`. All lanes on: one vector load. Otherwise lane by lane: NEON has no masked
// load, and this keeps the code small.
Value LoadRun(OpBuilder& b, Location loc, Operation* op, Value pointer, VectorType type,
              const RunMask& mask, Value other) {
  if (!mask) return LoadValue(b, loc, pointer, type);
  auto lane_pointer = [&](OpBuilder& inner, Location l, Value lane) {
    return LaneOfRun(inner, l, pointer, type.getElementType(), lane);
  };
  auto branch = b.create<scf::IfOp>(
      loc, mask.AllOn(b, loc),
      [&](OpBuilder& then, Location l) {
        then.create<scf::YieldOp>(l, LoadValue(then, l, pointer, type));
      },
      [&](OpBuilder& otherwise, Location l) {
        otherwise.create<scf::YieldOp>(
            l, GatherRow(otherwise, l, op, lane_pointer, type, mask, other,
                         /*consecutive=*/true));
      });
  return branch.getResult(0);
}

void StoreRun(OpBuilder& b, Location loc, Operation* op, Value pointer, Value value,
              const RunMask& mask) {
  if (!mask) return StoreValue(b, loc, pointer, value);
  Type element = cast<VectorType>(value.getType()).getElementType();
  auto lane_pointer = [&](OpBuilder& inner, Location l, Value lane) {
    return LaneOfRun(inner, l, pointer, element, lane);
  };
  b.create<scf::IfOp>(
      loc, mask.AllOn(b, loc),
      [&](OpBuilder& then, Location l) {
        StoreValue(then, l, pointer, value);
        then.create<scf::YieldOp>(l);
      },
      [&](OpBuilder& otherwise, Location l) {
        ScatterRow(otherwise, l, op, lane_pointer, value, mask, /*consecutive=*/true);
        otherwise.create<scf::YieldOp>(l);
      });
}

// The leading-dimension positions of every row (last dimension) of a vector of `shape`.
SmallVector<SmallVector<int64_t>> RowPositions(ArrayRef<int64_t> shape) {
  SmallVector<SmallVector<int64_t>> rows(1);
  for (int64_t size : shape.drop_back()) {
    SmallVector<SmallVector<int64_t>> next;
    for (const auto& prefix : rows) {
      for (int64_t i = 0; i < size; ++i) {
        next.push_back(prefix);
        next.back().push_back(i);
      }
    }
    rows = std::move(next);
  }
  return rows;
}

Value Row(OpBuilder& b, Location loc, Value vector, ArrayRef<int64_t> position) {
  if (!vector || position.empty()) return vector;
  return b.create<vector::ExtractOp>(loc, vector, position);
}

Value Slice(OpBuilder& b, Location loc, Value row, int64_t offset, int64_t width) {
  if (!row) return row;
  if (cast<VectorType>(row.getType()).getDimSize(0) == width) return row;
  return b.create<vector::ExtractStridedSliceOp>(loc, row, ArrayRef<int64_t>{offset},
                                                 ArrayRef<int64_t>{width}, ArrayRef<int64_t>{1});
}

// True when every lane of `mask` is on: the rows widened to bytes and ANDed together, then
// one horizontal reduction (clean NEON code, unlike reductions of i1 vectors).
Value AllOn(OpBuilder& b, Location loc, Value mask) {
  auto type = cast<VectorType>(mask.getType());
  Type byte = b.getI8Type();
  Value bytes = b.create<arith::ExtUIOp>(loc, VectorType::get(type.getShape(), byte), mask);
  SmallVector<Value> rows;
  for (const SmallVector<int64_t>& position : RowPositions(type.getShape())) {
    rows.push_back(Row(b, loc, bytes, position));
  }
  while (rows.size() > 1) {
    SmallVector<Value> halved;
    for (size_t i = 0; i + 1 < rows.size(); i += 2) {
      halved.push_back(b.create<arith::AndIOp>(loc, rows[i], rows[i + 1]));
    }
    if (rows.size() % 2 == 1) halved.push_back(rows.back());
    rows = std::move(halved);
  }
  Value all = b.create<vector::ReductionOp>(loc, vector::CombiningKind::AND, rows[0]);
  return b.create<arith::CmpIOp>(loc, arith::CmpIPredicate::ne, all, Zeros(b, loc, byte));
}

// A masked access of vector runs first asks whether the whole mask is on (inside a tensor,
// away from its edges): then every run is one plain vector access, with no per-run test.
// Worth it for several runs, or for one when the question is a scalar one; not for scattered
// elements (`run` 1), each tested on its own.
bool WantsWholeMaskTest(Value tt_mask, Value mask, int64_t run, ArrayRef<int64_t> shape) {
  int64_t elements = 1;
  for (int64_t size : shape) elements *= size;
  return mask && run > 1 && (elements > run || hasScalarAllOn(tt_mask));
}

// Whether every lane of a masked access is on: one scalar condition when the mask's TTIR form
// allows (MaskBounds.h), else a test of every lane of the converted mask.
Value WholeMaskOn(OpBuilder& b, Location loc, Value tt_mask, Value mask) {
  if (hasScalarAllOn(tt_mask)) return buildScalarAllOn(b, loc, tt_mask);
  return AllOn(b, loc, mask);
}


// The mask of lanes [offset, offset + width) of the row at `position` whose converted mask is
// `row_mask` (null: no mask).
RunMask MaskOfRun(OpBuilder& b, Location loc, Value tt_mask, Value row_mask,
                  ArrayRef<int64_t> position, int64_t offset, int64_t width) {
  if (!row_mask) return {};
  if (RunMask::Scalar(tt_mask)) return RunMask::OfScalars(tt_mask, position, offset, width);
  return RunMask::OfVector(Slice(b, loc, row_mask, offset, width), tt_mask, position, offset,
                           width);
}

// Whether `access` takes its runs' first addresses from the scalars that define its tensor of
// pointers (LaneValues.h): a row always; a tile of several rows when unmasked, or of up to
// kMaxMaskedScalarRunRows rows under a mask with a scalar whole test (MaskBounds.h).
// Measured, unmasked: in the loop of unmasked iterations, -20% on the int8 linear layer; in the
// unmasked version of a body versioned per iteration (tt-version-masked-loops), -11% on the
// tutorial int8 matmul with its accumulator in memory (extracting from the address vectors
// made LLVM build all of them before the branch, both versions' 768 registers of addresses);
// the f32 and bf16 matmuls' loops come out slightly shorter too (0.4-1.5%, static count).
// Masked: a 4x8 block pointer or descriptor copy then builds no vector at all (its i64
// addresses are two lanes a register): 4.83 -> 1.22 instructions per element; -4% to -8% on
// the corpus's LayerNorm backward launches and tutorial 03 with an f16 accumulator. Taller
// masked tiles keep the vector: 16-row attention tiles were 5.5% slower, a 32-row embedding
// store 4.3%.
constexpr int64_t kMaxMaskedScalarRunRows = 8;

bool ScalarRunStarts(Operation* access, Value tt_pointers) {
  if (!hasLaneValues(tt_pointers)) return false;
  if (cast<RankedTensorType>(tt_pointers.getType()).getRank() == 1) return true;
  Value mask =
      isa<LoadOp>(access) ? cast<LoadOp>(access).getMask() : cast<StoreOp>(access).getMask();
  int64_t rows = 1;
  for (int64_t size : cast<RankedTensorType>(tt_pointers.getType()).getShape().drop_back()) {
    rows *= size;
  }
  return !mask || (rows <= kMaxMaskedScalarRunRows && hasScalarAllOn(mask));
}

// The previous row's first run, which the next row's first run steps from.
struct PreviousRow {
  SmallVector<int64_t> position;
  Value pointer;
};

// Whether `position` is the row after `previous` (the next one along the last leading
// dimension, the others equal).
bool IsNextRow(ArrayRef<int64_t> previous, ArrayRef<int64_t> position) {
  if (previous.empty() || previous.size() != position.size()) return false;
  return previous.drop_back() == position.drop_back() && previous.back() + 1 == position.back();
}

// The first element of a run at `offset` of the row at `position` of a tensor of pointers:
// from the scalars (ScalarRunStarts), else extracted from the converted address vector. With
// `previous`, a row's first run steps from the previous row's by the rows' stride when the
// addresses are affine along rows (buildLaneStep): LLVM then advances one pointer by the
// stride instead of hoisting every row's address out of a K loop and spilling them.
Value RunStart(OpBuilder& b, Location loc, Operation* access, Value tt_pointers, Value addresses,
               ArrayRef<int64_t> position, int64_t offset, PreviousRow* previous = nullptr) {
  if (ScalarRunStarts(access, tt_pointers)) {
    Value pointer;
    if (previous && offset == 0 && IsNextRow(previous->position, position)) {
      SmallVector<Value> from = LaneCoordinates(b, loc, previous->position, 0);
      if (Value step = buildLaneStep(b, loc, tt_pointers, from, position.size() - 1)) {
        pointer = b.create<LLVM::GEPOp>(loc, previous->pointer.getType(), b.getI8Type(),
                                        previous->pointer, ValueRange{step});
      }
    }
    if (!pointer) {
      SmallVector<Value> coordinates = LaneCoordinates(b, loc, position, offset);
      if (Value lane = buildLaneValue(b, loc, tt_pointers, coordinates)) {
        pointer = b.create<UnrealizedConversionCastOp>(
                       loc, LLVM::LLVMPointerType::get(b.getContext()), lane)
                      .getResult(0);
      }
    }
    if (pointer) {
      if (previous && offset == 0) *previous = {SmallVector<int64_t>(position), pointer};
      return pointer;
    }
  }
  return AddressToPointer(b, loc, b.create<vector::ExtractOp>(loc, addresses, offset));
}

// A masked tile of at least this many rows whose addresses, mask and other values are lane
// values at any position (LaneValues.h) goes, when some lane is off, through a loop over its
// rows and lanes rather than straight-line code per row: its code stays the same however tall
// the tile. Only edge tiles run it. (From 8 rows, the split-K int8 matmul's tile loop came out
// of the register allocator with spills: +20% instructions; from 32 no kernel got slower.)
constexpr int64_t kMinLoopRows = 32;

bool MasksInRowLoop(Value tt_pointers, Value tt_mask, Value tt_other, ArrayRef<int64_t> shape) {
  return shape.size() == 2 && shape[0] >= kMinLoopRows && tt_mask &&
         hasLaneValuesAtAnyPosition(tt_pointers) && hasLaneValuesAtAnyPosition(tt_mask) &&
         (!tt_other || hasLaneValuesAtAnyPosition(tt_other));
}

// Element `index` (i64) of a stack buffer of `element` values.
Value BufferPlace(OpBuilder& b, Location loc, Value buffer, Type element, Value index) {
  return b.create<LLVM::GEPOp>(loc, buffer.getType(), MemoryType(element), buffer,
                               ValueRange{index});
}

// Receives a lane's i32 coordinates (row, lane) and its i64 row-major index.
using LaneBody =
    llvm::function_ref<void(OpBuilder&, Location, ArrayRef<Value> coordinates, Value index)>;

// `body` for every lane of a [rows, width] tile in row-major order: a loop over the rows around
// one over the lanes.
void ForEachLane(OpBuilder& b, Location loc, int64_t rows, int64_t width, LaneBody body) {
  Value zero = b.create<arith::ConstantIndexOp>(loc, 0);
  Value one = b.create<arith::ConstantIndexOp>(loc, 1);
  Value row_count = b.create<arith::ConstantIndexOp>(loc, rows);
  Value lane_count = b.create<arith::ConstantIndexOp>(loc, width);
  b.create<scf::ForOp>(loc, zero, row_count, one, ValueRange{},
                       [&](OpBuilder& outer, Location l, Value row, ValueRange) {
                         outer.create<scf::ForOp>(
                             l, zero, lane_count, one, ValueRange{},
                             [&](OpBuilder& inner, Location il, Value lane, ValueRange) {
                               Value flat = inner.create<arith::AddIOp>(
                                   il, inner.create<arith::MulIOp>(il, row, lane_count), lane);
                               Value index =
                                   inner.create<arith::IndexCastOp>(il, inner.getI64Type(), flat);
                               Value coordinates[] = {
                                   inner.create<arith::IndexCastOp>(il, inner.getI32Type(), row),
                                   inner.create<arith::IndexCastOp>(il, inner.getI32Type(), lane)};
                               body(inner, il, coordinates, index);
                               inner.create<scf::YieldOp>(il);
                             });
                         outer.create<scf::YieldOp>(l);
                       });
}

// The address of the lane at `coordinates` of a tensor of pointers, from its scalars.
Value LanePointerAt(OpBuilder& b, Location loc, Value tt_pointers, ArrayRef<Value> coordinates) {
  Value lane = buildLaneValue(b, loc, tt_pointers, coordinates);
  return b.create<UnrealizedConversionCastOp>(loc, LLVM::LLVMPointerType::get(b.getContext()), lane)
      .getResult(0);
}

// The address of each lane of the row at `position` of an access with irregular addresses, for
// a loop over the lanes of a row of `row_type`: extracted from the row's address vector when
// the row is in registers (RowInRegisters); else built from the TTIR tensor of pointers where
// it can be (a few scalar ops), or read from a stack copy of the address vector (LaneBuffer).
class LaneAddresses {
 public:
  LaneAddresses(OpBuilder& b, Location loc, Operation* op, Value tt_pointers, Value addresses,
                ArrayRef<int64_t> position, VectorType row_type)
      : tt_pointers_(tt_pointers), position_(position.begin(), position.end()) {
    if (RowInRegisters(row_type)) {
      addresses_ = addresses;
    } else if (!hasLaneValuesAtAnyPosition(tt_pointers)) {
      lanes_ = std::make_shared<LaneBuffer>(b, loc, op, addresses);
    }
  }
  // The pointer to lane `lane` (an index).
  Value Lane(OpBuilder& b, Location loc, Value lane) const {
    if (addresses_) {
      return AddressToPointer(b, loc, b.create<vector::ExtractOp>(loc, addresses_, lane));
    }
    if (lanes_) return AddressToPointer(b, loc, lanes_->Lane(b, loc, lane));
    Value last = b.create<arith::IndexCastOp>(loc, b.getI32Type(), lane);
    return LanePointerAt(b, loc, tt_pointers_, LaneCoordinates(b, loc, position_, last));
  }

 private:
  Value tt_pointers_;
  SmallVector<int64_t> position_;
  Value addresses_;
  std::shared_ptr<LaneBuffer> lanes_;
};

// A masked load's tile (MasksInRowLoop) into `buffer`, row-major, lane by lane: a lane whose
// mask bit is on is read, the others take `other` (zero without one).
void CopyMaskedTileInLoop(OpBuilder& b, Location loc, LoadOp op, VectorType type, Value buffer) {
  Type element = type.getElementType();
  ForEachLane(b, loc, type.getDimSize(0), type.getDimSize(1),
              [&](OpBuilder& at, Location l, ArrayRef<Value> coordinates, Value index) {
                Value on = buildLaneValue(at, l, op.getMask(), coordinates);
                auto value = at.create<scf::IfOp>(
                    l, on,
                    [&](OpBuilder& then, Location il) {
                      Value pointer = LanePointerAt(then, il, op.getPtr(), coordinates);
                      then.create<scf::YieldOp>(il, LoadValue(then, il, pointer, element));
                    },
                    [&](OpBuilder& otherwise, Location il) {
                      Value other = op.getOther()
                                        ? buildLaneValue(otherwise, il, op.getOther(), coordinates)
                                        : Zeros(otherwise, il, element);
                      // fp8 is held as its i8 bits.
                      if (other.getType() != element) {
                        other = otherwise.create<arith::BitcastOp>(il, element, other);
                      }
                      otherwise.create<scf::YieldOp>(il, other);
                    });
                StoreValue(at, l, BufferPlace(at, l, buffer, element, index), value.getResult(0));
              });
}

// Whether a load's `other` is the same in every lane: absent (zero) or a splat constant.
bool UniformOther(LoadOp op) {
  if (!op.getOther()) return true;
  DenseElementsAttr dense;
  return matchPattern(op.getOther(), m_Constant(&dense)) && dense.isSplat();
}

// Whether `op` is inside a loop holding a tt.dot (a K loop). Its tiles are masked at K's edge,
// never wholly past it (the loop runs over K's tiles), and a fill branch in its body cost the
// tutorial matmuls up to 29% (a53) in spills; outside, a chunk of a GPU-sized block
// (tt-strip-mine-tiles) often lies wholly past a short tensor's bound.
bool InDotLoop(Operation* op) {
  for (Operation* loop = op->getParentOp(); loop; loop = loop->getParentOp()) {
    if (!isa<scf::ForOp, scf::WhileOp>(loop)) continue;
    bool has_dot = false;
    loop->walk([&](DotOp) {
      has_dot = true;
      return WalkResult::interrupt();
    });
    if (has_dot) return true;
  }
  return false;
}

// Stores of tiles of at most this many rows step each row's address from the previous one's.
constexpr int64_t kMaxSteppedStoreRows = 4;

// A masked tile of several rows and at most this many bytes, outside K loops, is loaded in
// two branches that join (all on: plain vector loads; else run by run): it fits the registers
// at the join, and no row pays for a buffer address and a select. Larger tiles go through a
// stack buffer and one select of each run's address, so that their loads sit with their
// users; so do single rows (one select; joined, half_narrow's 16-lane chunks measured +3.9%)
// and tiles in a loop with a dot (the int8 linear layer's 8x8 tiles on a53 +13%: the joined
// tiles beside the accumulators spill). A 4x8 f32 descriptor tile: 10 instructions fewer.
constexpr int64_t kMaxJoinedTileBytes = 128;

bool JoinsBranches(Operation* access, VectorType tile) {
  Type element = tile.getElementType();
  return tile.getRank() >= 2 && element.isIntOrFloat() &&
         tile.getNumElements() * ByteAlignment(element) <= kMaxJoinedTileBytes &&
         !InDotLoop(access);
}

// `rows` rows of `buffer`, row-major, each set to `row`, by a loop over the rows.
void FillBufferRows(OpBuilder& b, Location loc, Value buffer, Value row, int64_t rows) {
  auto row_type = cast<VectorType>(row.getType());
  Value zero = b.create<arith::ConstantIndexOp>(loc, 0);
  Value one = b.create<arith::ConstantIndexOp>(loc, 1);
  Value count = b.create<arith::ConstantIndexOp>(loc, rows);
  Value width = b.create<arith::ConstantIndexOp>(loc, row_type.getNumElements());
  b.create<scf::ForOp>(loc, zero, count, one, ValueRange{},
                       [&](OpBuilder& body, Location l, Value index, ValueRange) {
                         Value first = body.create<arith::IndexCastOp>(
                             l, body.getI64Type(), body.create<arith::MulIOp>(l, index, width));
                         StoreValue(body, l,
                                    BufferPlace(body, l, buffer, row_type.getElementType(), first),
                                    row);
                         body.create<scf::YieldOp>(l);
                       });
}

// A masked store's tile (MasksInRowLoop): `value` goes to a stack buffer, then each lane whose
// mask bit is on is written from there.
void StoreMaskedTileInLoop(OpBuilder& b, Location loc, StoreOp op, Value value) {
  auto type = cast<VectorType>(value.getType());
  Type element = type.getElementType();
  int64_t rows = type.getDimSize(0), width = type.getDimSize(1);
  Value buffer = buildEntryBuffer(b, op, MemoryType(element), rows * width);
  for (int64_t row = 0; row < rows; ++row) {
    Value index = b.create<LLVM::ConstantOp>(loc, b.getI64Type(), row * width);
    StoreValue(b, loc, BufferPlace(b, loc, buffer, element, index),
               b.create<vector::ExtractOp>(loc, value, row));
  }
  ForEachLane(b, loc, rows, width,
              [&](OpBuilder& at, Location l, ArrayRef<Value> coordinates, Value index) {
                Value on = buildLaneValue(at, l, op.getMask(), coordinates);
                at.create<scf::IfOp>(l, on, [&](OpBuilder& then, Location il) {
                  Value lane =
                      LoadValue(then, il, BufferPlace(then, il, buffer, element, index), element);
                  StoreValue(then, il, LanePointerAt(then, il, op.getPtr(), coordinates), lane);
                  then.create<scf::YieldOp>(il);
                });
              });
}

// The element of a 0-D vector; anything else (a scalar, or null) as it is.
Value Scalar(OpBuilder& b, Location loc, Value value) {
  auto type = value ? dyn_cast<VectorType>(value.getType()) : VectorType();
  if (!type || type.getRank() != 0) return value;
  // vector.extractelement, which the LLVM lowering takes for 0-D vectors (vector.extract's
  // 0-D form leaves a cast behind in MLIR 19).
  return b.create<vector::ExtractElementOp>(loc, value);
}

// Along the last dimension, found before the conversion changes the IR: how many elements
// are consecutive in memory (proven, or claimed by a vector_width hint). Each run is one
// access; only scattered elements go lane by lane under their masks.
using RunLengths = llvm::DenseMap<Operation*, int64_t>;

// The run length of `op`'s rows of `width` elements.
int64_t RowRun(const RunLengths& runs, Operation* op, int64_t width) {
  return std::max<int64_t>(1, std::gcd(runs.lookup(op), width));
}

struct LoadConversion : OpConversionPattern<LoadOp> {
  LoadConversion(const TypeConverter& converter, MLIRContext* context, const RunLengths& runs)
      : OpConversionPattern(converter, context), runs_(runs) {}

  LogicalResult matchAndRewrite(LoadOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter& rewriter) const override {
    Location loc = op.getLoc();
    if (isa<RankedTensorType>(getPointeeType(op.getPtr().getType())) &&
        !isa<RankedTensorType>(op.getPtr().getType())) {
      return op.emitError() << "loads through block pointers (tt.make_tensor_ptr) are not "
                               "supported yet; use tensors of pointers";
    }
    Type result_type = getTypeConverter()->convertType(op.getType());
    auto vector_type = dyn_cast<VectorType>(result_type);
    if (!vector_type || vector_type.getRank() == 0) {
      // A scalar through a scalar pointer, or a 0-D tensor through a 0-D tensor of pointers.
      Type scalar_type = getElementTypeOrSelf(result_type);
      Value pointer = Scalar(rewriter, loc, adaptor.getPtr());
      if (vector_type) pointer = AddressToPointer(rewriter, loc, pointer);
      Value mask = Scalar(rewriter, loc, adaptor.getMask());
      Value loaded;
      if (!mask) {
        loaded = LoadValue(rewriter, loc, pointer, scalar_type);
      } else {
        Value other = adaptor.getOther() ? Scalar(rewriter, loc, adaptor.getOther())
                                         : Zeros(rewriter, loc, scalar_type);
        loaded = rewriter
                     .create<scf::IfOp>(
                         loc, mask,
                         [&](OpBuilder& then, Location l) {
                           then.create<scf::YieldOp>(l, LoadValue(then, l, pointer, scalar_type));
                         },
                         [&](OpBuilder& otherwise, Location l) {
                           otherwise.create<scf::YieldOp>(l, other);
                         })
                     .getResult(0);
      }
      if (vector_type) loaded = rewriter.create<vector::BroadcastOp>(loc, vector_type, loaded);
      rewriter.replaceOp(op, loaded);
      return success();
    }
    ArrayRef<int64_t> shape = vector_type.getShape();
    int64_t width = shape.back();
    int64_t run = RowRun(runs_, op, width);
    auto row_type = VectorType::get({width}, vector_type.getElementType());
    auto run_type = VectorType::get({run}, vector_type.getElementType());
    Value other = adaptor.getOther() ? adaptor.getOther() : Zeros(rewriter, loc, result_type);
    SmallVector<SmallVector<int64_t>> positions = RowPositions(shape);
    // Each run's pointer: its address, or (`copied`) the select of its address and its place
    // in `copy` (row i's run at offset o at element i * width + o).
    Value copy, copied;
    PreviousRow previous;
    auto run_pointer = [&](OpBuilder& b, Value addresses, size_t row, ArrayRef<int64_t> position,
                           int64_t offset) {
      Value pointer = RunStart(b, loc, op, op.getPtr(), addresses, position, offset, &previous);
      if (!copy) return pointer;
      Value index = b.create<LLVM::ConstantOp>(loc, b.getI64Type(),
                                               static_cast<int64_t>(row) * width + offset);
      Value place = b.create<LLVM::GEPOp>(
          loc, copy.getType(), MemoryType(run_type.getElementType()), copy, ValueRange{index});
      return b.create<arith::SelectOp>(loc, copied, place, pointer).getResult();
    };
    auto load_rows = [&](OpBuilder& b, Value whole_mask) {
      previous = {};
      Value result = Zeros(b, loc, result_type);
      for (auto [row_index, position] : llvm::enumerate(positions)) {
        Value addresses = Row(b, loc, adaptor.getPtr(), position);
        Value mask = Row(b, loc, whole_mask, position);
        Value other_row = Row(b, loc, other, position);
        Value row;
        if (run == 1) {
          LaneAddresses address_lanes(b, loc, op, op.getPtr(), addresses, position, row_type);
          auto lane_pointer = [&](OpBuilder& inner, Location l, Value lane) {
            return address_lanes.Lane(inner, l, lane);
          };
          row = GatherRow(b, loc, op, lane_pointer, row_type,
                          MaskOfRun(b, loc, op.getMask(), mask, position, 0, width), other_row,
                          /*consecutive=*/false);
        } else {
          row = Zeros(b, loc, row_type);
          for (int64_t offset = 0; offset < width; offset += run) {
            Value loaded =
                LoadRun(b, loc, op, run_pointer(b, addresses, row_index, position, offset),
                        run_type,
                        MaskOfRun(b, loc, op.getMask(), mask, position, offset, run),
                        Slice(b, loc, other_row, offset, run));
            row = run == width
                      ? loaded
                      : b.create<vector::InsertStridedSliceOp>(
                            loc, loaded, row, ArrayRef<int64_t>{offset}, ArrayRef<int64_t>{1});
          }
        }
        result = position.empty() ? row : b.create<vector::InsertOp>(loc, row, result, position);
      }
      return result;
    };
    Value mask = adaptor.getMask();
    if (!WantsWholeMaskTest(op.getMask(), mask, run, shape)) {
      rewriter.replaceOp(op, load_rows(rewriter, mask));
      return success();
    }
    Value all_on = WholeMaskOn(rewriter, loc, op.getMask(), mask);
    if (JoinsBranches(op, vector_type)) {
      auto join = rewriter.create<scf::IfOp>(
          loc, all_on,
          [&](OpBuilder& then, Location l) {
            then.create<scf::YieldOp>(l, load_rows(then, {}));
          },
          [&](OpBuilder& otherwise, Location l) {
            otherwise.create<scf::YieldOp>(l, load_rows(otherwise, mask));
          });
      rewriter.replaceOp(op, join.getResult(0));
      return success();
    }
    // Not all on: the masked tile (`other` where off) goes to a stack buffer, and every run is
    // then loaded from there or from the tensor.
    Value some_off = rewriter.create<arith::XOrIOp>(
        loc, all_on, rewriter.create<arith::ConstantIntOp>(loc, 1, 1));
    int64_t elements = positions.size() * width;
    Value buffer =
        buildEntryBuffer(rewriter, op, MemoryType(run_type.getElementType()), elements);
    bool row_loop = MasksInRowLoop(op.getPtr(), op.getMask(), op.getOther(), shape);
    rewriter.create<scf::IfOp>(loc, some_off, [&](OpBuilder& then, Location l) {
      if (row_loop && UniformOther(op) && hasScalarAllOn(op.getMask()) && !InDotLoop(op)) {
        // A tile wholly past a bound (a GPU-sized block over a short tensor) is `other`
        // throughout: filled by rows, not tested lane by lane.
        Value row = Row(then, l, other, positions.front());
        then.create<scf::IfOp>(
            l, buildScalarAllOff(then, l, op.getMask()),
            [&](OpBuilder& off, Location ol) {
              FillBufferRows(off, ol, buffer, row, vector_type.getDimSize(0));
              off.create<scf::YieldOp>(ol);
            },
            [&](OpBuilder& some, Location sl) {
              CopyMaskedTileInLoop(some, sl, op, vector_type, buffer);
              some.create<scf::YieldOp>(sl);
            });
        then.create<scf::YieldOp>(l);
        return;
      }
      if (row_loop) {
        CopyMaskedTileInLoop(then, l, op, vector_type, buffer);
        then.create<scf::YieldOp>(l);
        return;
      }
      Value tile = load_rows(then, mask);
      for (auto [row_index, position] : llvm::enumerate(positions)) {
        Value index = then.create<LLVM::ConstantOp>(l, then.getI64Type(),
                                                    static_cast<int64_t>(row_index) * width);
        Value place = then.create<LLVM::GEPOp>(
            l, buffer.getType(), MemoryType(run_type.getElementType()), buffer, ValueRange{index});
        StoreValue(then, l, place, Row(then, l, tile, position));
      }
      then.create<scf::YieldOp>(l);
    });
    copy = buffer;
    copied = some_off;
    rewriter.replaceOp(op, load_rows(rewriter, {}));
    return success();
  }

  const RunLengths& runs_;
};

struct StoreConversion : OpConversionPattern<StoreOp> {
  StoreConversion(const TypeConverter& converter, MLIRContext* context, const RunLengths& runs)
      : OpConversionPattern(converter, context), runs_(runs) {}

  LogicalResult matchAndRewrite(StoreOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter& rewriter) const override {
    Location loc = op.getLoc();
    if (isa<RankedTensorType>(getPointeeType(op.getPtr().getType())) &&
        !isa<RankedTensorType>(op.getPtr().getType())) {
      return op.emitError() << "stores through block pointers (tt.make_tensor_ptr) are not "
                               "supported yet; use tensors of pointers";
    }
    auto vector_type = dyn_cast<VectorType>(adaptor.getValue().getType());
    if (!vector_type || vector_type.getRank() == 0) {
      // A scalar through a scalar pointer, or a 0-D tensor through a 0-D tensor of pointers.
      Value pointer = Scalar(rewriter, loc, adaptor.getPtr());
      if (vector_type) pointer = AddressToPointer(rewriter, loc, pointer);
      Value value = Scalar(rewriter, loc, adaptor.getValue());
      Value mask = Scalar(rewriter, loc, adaptor.getMask());
      if (!mask) {
        StoreValue(rewriter, loc, pointer, value);
      } else {
        rewriter.create<scf::IfOp>(loc, mask, [&](OpBuilder& then, Location l) {
          StoreValue(then, l, pointer, value);
          then.create<scf::YieldOp>(l);
        });
      }
      rewriter.eraseOp(op);
      return success();
    }
    ArrayRef<int64_t> shape = vector_type.getShape();
    int64_t width = shape.back();
    int64_t run = RowRun(runs_, op, width);
    // Rows of a tile of up to 4 rows step from the previous row's address (descriptor_scale's
    // 4x8 tile: 8 instructions fewer). Taller tiles compute each row's: stepped, the corpus's
    // 32x32 embedding store measured +2.5%, its attention over host descriptors +0.8%, and the
    // int8 linear layer's 8x8 accumulator on a53 +13% (its K loop's registers reallocated).
    const bool step_rows = vector_type.getNumElements() / width <= kMaxSteppedStoreRows;
    auto store_rows = [&](OpBuilder& b, Value whole_mask) {
      PreviousRow previous;
      for (const SmallVector<int64_t>& position : RowPositions(shape)) {
        Value addresses = Row(b, loc, adaptor.getPtr(), position);
        Value mask = Row(b, loc, whole_mask, position);
        Value values = Row(b, loc, adaptor.getValue(), position);
        if (run == 1) {
          LaneAddresses address_lanes(b, loc, op, op.getPtr(), addresses, position,
                                      cast<VectorType>(values.getType()));
          auto lane_pointer = [&](OpBuilder& inner, Location l, Value lane) {
            return address_lanes.Lane(inner, l, lane);
          };
          ScatterRow(b, loc, op, lane_pointer, values,
                     MaskOfRun(b, loc, op.getMask(), mask, position, 0, width),
                     /*consecutive=*/false);
          continue;
        }
        for (int64_t offset = 0; offset < width; offset += run) {
          StoreRun(b, loc, op,
                   RunStart(b, loc, op, op.getPtr(), addresses, position, offset,
                            step_rows ? &previous : nullptr),
                   Slice(b, loc, values, offset, run),
                   MaskOfRun(b, loc, op.getMask(), mask, position, offset, run));
        }
      }
    };
    Value mask = adaptor.getMask();
    if (!WantsWholeMaskTest(op.getMask(), mask, run, shape)) {
      store_rows(rewriter, mask);
    } else {
      rewriter.create<scf::IfOp>(
          loc, WholeMaskOn(rewriter, loc, op.getMask(), mask),
          [&](OpBuilder& then, Location l) {
            store_rows(then, {});
            then.create<scf::YieldOp>(l);
          },
          [&](OpBuilder& otherwise, Location l) {
            if (MasksInRowLoop(op.getPtr(), op.getMask(), Value(), shape)) {
              StoreMaskedTileInLoop(otherwise, l, op, adaptor.getValue());
            } else {
              store_rows(otherwise, mask);
            }
            otherwise.create<scf::YieldOp>(l);
          });
    }
    rewriter.eraseOp(op);
    return success();
  }

  const RunLengths& runs_;
};

struct TTToTcpuMemory : impl::TTToTcpuMemoryBase<TTToTcpuMemory> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext* context = &getContext();
    ContiguityAnalysis analysis(module);
    RunLengths runs;
    module.walk([&](Operation* op) {
      Value pointer;
      if (auto load = dyn_cast<LoadOp>(op)) pointer = load.getPtr();
      if (auto store = dyn_cast<StoreOp>(op)) pointer = store.getPtr();
      if (!pointer) return;
      int64_t contiguous = analysis.lastDimContiguity(pointer);
      // tcpu.hints = {vector_width = N}: runs of N consecutive elements (a power of two), the
      // author's word where the analysis proves fewer. Never fewer than proven: on Arm a
      // narrower access is never faster, and unaligned vector accesses are allowed.
      if (auto hints = op->getAttrOfType<DictionaryAttr>(tcpu::TcpuDialect::kHintsAttrName)) {
        if (auto hint = hints.getAs<IntegerAttr>("vector_width")) {
          contiguous = std::max(contiguous, hint.getValue().getSExtValue());
        }
      }
      runs[op] = contiguous;
    });
    TensorToVectorTypeConverter converter(context);
    ConversionTarget target(*context);
    markEverythingLegal(target);
    target.addIllegalOp<LoadOp, StoreOp>();
    RewritePatternSet patterns(context);
    patterns.add<LoadConversion, StoreConversion>(converter, context, runs);
    if (failed(applyPartialConversion(module, target, std::move(patterns)))) signalPassFailure();
  }
};

}  // namespace
}  // namespace convert_memory_ops
}  // namespace mlir::tt
