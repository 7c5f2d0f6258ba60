// tt-to-tcpu-atomics: tt.atomic_rmw and tt.atomic_cas as LLVM atomics, so they are atomic
// across the programs the runtime's thread pool runs at once. The backend picks the
// instructions: LSE (LDADD, SWP, CAS, ...) where the target has them, LDXR/STXR loops
// otherwise. A tensor op is a loop over its lanes, each lane one atomic under its own mask
// (a lane whose mask is off touches no memory and returns 0); lanes run in order. A tile whose
// rows are consecutive addresses runs, while its whole mask is on, as loops over rows and their
// lanes with each row's first address from scalars (EmitRows), in the same order; while some
// lane is off, where the mask too is built from scalars, as the same loops with each lane's
// address and mask bit built in the loop (EmitLanesFromScalars).
//   sem:   relaxed -> monotonic, acquire, release, acq_rel (a CAS that fails orders as
//          acquire when sem includes acquire, else monotonic)
//   scope: gpu, cta and sys are all the whole process (the system scope): a program may
//          run on any thread, so nothing narrower is safe
//   ops:   add, max/min (signed), umax/umin, and/or/xor, exch as llvm.atomicrmw; on floats
//          fadd, max/min (maxnum/minnum) and exch as a compare-and-swap loop on the bits
//          (FloatRMW); atomic_cas on floats compares their bits.
#include "LaneValues.h"
#include "MaskBounds.h"
#include "TypeConverter.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "tt/Analysis/Contiguity.h"
#include "tt/TTOps.h"
#include "tt/TTToTcpuPasses.h"

namespace mlir::tt {

#define GEN_PASS_DEF_TTTOTCPUATOMICS
#include "tt/TTToTcpuPasses.h.inc"

namespace convert_atomics {
namespace {

LLVM::AtomicOrdering Ordering(MemSemantic sem) {
  switch (sem) {
    case MemSemantic::RELAXED:
      return LLVM::AtomicOrdering::monotonic;
    case MemSemantic::ACQUIRE:
      return LLVM::AtomicOrdering::acquire;
    case MemSemantic::RELEASE:
      return LLVM::AtomicOrdering::release;
    case MemSemantic::ACQUIRE_RELEASE:
      return LLVM::AtomicOrdering::acq_rel;
  }
  return LLVM::AtomicOrdering::seq_cst;
}

// A failed compare-and-swap only reads: it keeps the acquire half of `sem`.
LLVM::AtomicOrdering FailureOrdering(MemSemantic sem) {
  return sem == MemSemantic::ACQUIRE || sem == MemSemantic::ACQUIRE_RELEASE
             ? LLVM::AtomicOrdering::acquire
             : LLVM::AtomicOrdering::monotonic;
}

std::optional<LLVM::AtomicBinOp> BinOp(RMWOp op, Type element) {
  bool is_float = isa<FloatType>(element);
  switch (op) {
    case RMWOp::AND:
      return is_float ? std::nullopt : std::optional(LLVM::AtomicBinOp::_and);
    case RMWOp::OR:
      return is_float ? std::nullopt : std::optional(LLVM::AtomicBinOp::_or);
    case RMWOp::XOR:
      return is_float ? std::nullopt : std::optional(LLVM::AtomicBinOp::_xor);
    case RMWOp::ADD:
    case RMWOp::FADD:
      return is_float ? LLVM::AtomicBinOp::fadd : LLVM::AtomicBinOp::add;
    case RMWOp::MAX:
      return is_float ? LLVM::AtomicBinOp::fmax : LLVM::AtomicBinOp::max;
    case RMWOp::MIN:
      return is_float ? LLVM::AtomicBinOp::fmin : LLVM::AtomicBinOp::min;
    case RMWOp::UMAX:
      return is_float ? std::nullopt : std::optional(LLVM::AtomicBinOp::umax);
    case RMWOp::UMIN:
      return is_float ? std::nullopt : std::optional(LLVM::AtomicBinOp::umin);
    case RMWOp::XCHG:
      return LLVM::AtomicBinOp::xchg;
  }
  return std::nullopt;
}

unsigned Bytes(Type element) { return element.getIntOrFloatBitWidth() / 8; }

// Elements an LLVM atomic takes: 8- to 64-bit integers and 16- to 64-bit floats.
LogicalResult CheckElement(Operation* op, Type element) {
  unsigned bits = element.getIntOrFloatBitWidth();
  if (bits < 8 || bits > 64 || (isa<FloatType>(element) && bits < 16)) {
    return op->emitError() << "atomics on " << element
                           << " are not supported; use 8- to 64-bit integers or f16/bf16/f32/f64";
  }
  return success();
}

// One atomic: the old value at `pointer`.
using EmitOne = std::function<Value(OpBuilder&, Location, Value pointer, Value value, Value cmp)>;

Value Zero(OpBuilder& b, Location loc, Type type) {
  return b.create<arith::ConstantOp>(loc, type, b.getZeroAttr(type));
}

// `emit` under `mask` (null: always): the old value, or 0 where the mask is off.
Value Masked(OpBuilder& b, Location loc, Value mask, Type type, Value pointer, Value value,
             Value cmp, const EmitOne& emit) {
  if (!mask) return emit(b, loc, pointer, value, cmp);
  return b
      .create<scf::IfOp>(
          loc, mask,
          [&](OpBuilder& then, Location l) {
            then.create<scf::YieldOp>(l, emit(then, l, pointer, value, cmp));
          },
          [&](OpBuilder& otherwise, Location l) {
            otherwise.create<scf::YieldOp>(l, Zero(otherwise, l, type));
          })
      .getResult(0);
}

Value Flatten(OpBuilder& b, Location loc, Value vector) {
  if (!vector) return vector;
  auto type = cast<VectorType>(vector.getType());
  if (type.getRank() == 1) return vector;
  auto flat = VectorType::get({type.getNumElements()}, type.getElementType());
  return b.create<vector::ShapeCastOp>(loc, flat, vector);
}

// `flat` (a 1-D vector) stored once into a stack buffer whose lanes the loop reads by index: a
// vector.extract at a loop index made the backend spill the whole vector on every iteration
// (a split-K matmul's 512-lane tile: some 70 instructions per atomic). Masks are stored as
// bytes.
Value ToBuffer(OpBuilder& b, Location loc, Value flat) {
  if (!flat) return flat;
  auto type = cast<VectorType>(flat.getType());
  if (type.getElementType().isInteger(1)) {
    type = VectorType::get(type.getShape(), b.getI8Type());
    flat = b.create<arith::ExtUIOp>(loc, type, flat);
  }
  Value buffer = b.create<memref::AllocaOp>(
      loc, MemRefType::get({type.getNumElements()}, type.getElementType()));
  b.create<vector::StoreOp>(loc, flat, buffer, ValueRange{b.create<arith::ConstantIndexOp>(loc, 0)});
  return buffer;
}

// Lane `lane` of a buffer from ToBuffer (`is_mask`: as the i1 it was).
Value LaneOf(OpBuilder& b, Location loc, Value buffer, Value lane, bool is_mask = false) {
  if (!buffer) return buffer;
  Value element = b.create<memref::LoadOp>(loc, buffer, ValueRange{lane});
  if (!is_mask) return element;
  return b.create<arith::CmpIOp>(loc, arith::CmpIPredicate::ne, element,
                                 b.create<arith::ConstantIntOp>(loc, 0, 8));
}

// A stack buffer for the old value of each of `lanes` atomics, or null when `used` is false.
Value OldValuesBuffer(OpBuilder& b, Location loc, Type element, int64_t lanes, bool used) {
  return used ? b.create<memref::AllocaOp>(loc, MemRefType::get({lanes}, element)).getResult()
              : Value();
}

// The old values of `olds` (OldValuesBuffer) as `vector_type`; zeros without a buffer.
Value OldValues(OpBuilder& b, Location loc, Value olds, VectorType vector_type) {
  if (!olds) return Zero(b, loc, vector_type);
  Value result = b.create<vector::LoadOp>(
      loc, VectorType::get({vector_type.getNumElements()}, vector_type.getElementType()), olds,
      ValueRange{b.create<arith::ConstantIndexOp>(loc, 0)});
  if (vector_type.getRank() != 1) result = b.create<vector::ShapeCastOp>(loc, vector_type, result);
  return result;
}

// The op on `result_type` (a scalar, or a vector whose lanes each take one atomic in order);
// `result_used` false: the old values are not collected.
Value EmitLanes(OpBuilder& b, Location loc, Type result_type, Value pointers, Value values,
                Value cmps, Value mask, const EmitOne& emit, bool result_used = true) {
  auto vector_type = dyn_cast<VectorType>(result_type);
  if (!vector_type) return Masked(b, loc, mask, result_type, pointers, values, cmps, emit);
  Type element = vector_type.getElementType();
  Value addresses = ToBuffer(b, loc, Flatten(b, loc, pointers));
  Value value_lanes = ToBuffer(b, loc, Flatten(b, loc, values));
  Value cmp_lanes = ToBuffer(b, loc, Flatten(b, loc, cmps));
  Value mask_lanes = ToBuffer(b, loc, Flatten(b, loc, mask));
  const int64_t lanes = vector_type.getNumElements();
  Value olds = OldValuesBuffer(b, loc, element, lanes, result_used);
  Value lower = b.create<arith::ConstantIndexOp>(loc, 0);
  Value upper = b.create<arith::ConstantIndexOp>(loc, lanes);
  Value step = b.create<arith::ConstantIndexOp>(loc, 1);
  b.create<scf::ForOp>(
      loc, lower, upper, step, ValueRange{},
      [&](OpBuilder& body, Location l, Value lane, ValueRange) {
        Value pointer = body.create<LLVM::IntToPtrOp>(
            l, LLVM::LLVMPointerType::get(body.getContext()), LaneOf(body, l, addresses, lane));
        Value old = Masked(body, l, LaneOf(body, l, mask_lanes, lane, /*is_mask=*/true), element,
                           pointer, LaneOf(body, l, value_lanes, lane),
                           LaneOf(body, l, cmp_lanes, lane), emit);
        if (olds) body.create<memref::StoreOp>(l, old, olds, ValueRange{lane});
        body.create<scf::YieldOp>(l);
      });
  return OldValues(b, loc, olds, vector_type);
}

// Whether `tt_pointers` (TTIR) is a tile of at most two dimensions whose rows are consecutive
// addresses (the contiguity analysis), each lane's address buildable from scalars at any position
// (LaneValues.h), under no mask or one with a scalar whole test (MaskBounds.h).
bool RowsOfConsecutiveAddresses(Operation* op, Value tt_pointers, Value tt_mask) {
  auto type = dyn_cast<RankedTensorType>(tt_pointers.getType());
  if (!type || type.getRank() > 2) return false;
  ContiguityAnalysis contiguity(op);
  return contiguity.lastDimContiguity(tt_pointers) == type.getShape().back() &&
         hasLaneValuesAtAnyPosition(tt_pointers) && (!tt_mask || hasScalarAllOn(tt_mask));
}

// The groups of a row EmitRows emits one after another rather than as a loop.
constexpr int64_t kUnrolledGroups = 4;

// The op on every lane of a tile RowsOfConsecutiveAddresses accepts, every lane on: a loop over
// rows, each row's first address built from the TTIR's scalars (or, where the rows are a
// uniform stride apart, the previous row's plus the stride, two rows an iteration: the split-K
// matmul's rows of 32 atomic adds, 98 -> 84 instructions each, 80 being their LDADDs, the ADDs
// of their addresses and LDPs of their values), and over its lanes, stepping by the element's
// size; values (and compare values) read from stack buffers. The lane-by-lane path
// built every lane's i64 address and mask byte first and stored them: a split-K matmul's 64x64
// tile of atomic adds into C spent some 15 instructions a lane.
Value EmitRows(OpBuilder& b, Location loc, VectorType vector_type, Value tt_pointers,
               Value values, Value cmps, const EmitOne& emit, bool result_used) {
  Type element = vector_type.getElementType();
  auto shape = cast<RankedTensorType>(tt_pointers.getType()).getShape();
  const int64_t width = shape.back();
  const int64_t rows = vector_type.getNumElements() / width;
  // A row's lanes in groups of up to 16: a group's values are read before its atomics, so that
  // the backend reads two at a time (LDP; it pairs no loads across an atomic): the split-K
  // matmul's atomic adds, 103 -> 93 instructions per row of 32.
  int64_t group = 16;
  while (width % group != 0) group /= 2;
  Value value_lanes = ToBuffer(b, loc, Flatten(b, loc, values));
  Value cmp_lanes = ToBuffer(b, loc, Flatten(b, loc, cmps));
  const int64_t lanes = vector_type.getNumElements();
  Value olds = OldValuesBuffer(b, loc, element, lanes, result_used);
  Value zero = b.create<arith::ConstantIndexOp>(loc, 0);
  Value one = b.create<arith::ConstantIndexOp>(loc, 1);
  Value row_width = b.create<arith::ConstantIndexOp>(loc, width);
  auto pointer_type = LLVM::LLVMPointerType::get(b.getContext());
  // Row `row`'s first address (an index; i32 in the TTIR's coordinates).
  auto row_base = [&](OpBuilder& at, Location l, Value row) {
    SmallVector<Value> first;
    if (shape.size() == 2) first.push_back(at.create<arith::IndexCastOp>(l, at.getI32Type(), row));
    first.push_back(at.create<arith::ConstantIntOp>(l, 0, 32));
    return at
        .create<UnrealizedConversionCastOp>(l, pointer_type,
                                            buildLaneValue(at, l, tt_pointers, first))
        .getResult(0);
  };
  // The bytes from one row's first address to the next's, when the same for every row.
  Value stride;
  if (shape.size() == 2) {
    Value origin = b.create<arith::ConstantIntOp>(loc, 0, 32);
    stride = buildLaneStep(b, loc, tt_pointers, {origin, origin}, 0);
  }
  // One group's atomics: lanes `first_lane` + 0 .. group - 1 of row `row`, its first address
  // `base`.
  auto emit_group = [&](OpBuilder& body, Location il, Value row_start, Value first_lane,
                        Value base) {
    SmallVector<Value> lanes, indices, lane_values, lane_cmps;
    for (int64_t g = 0; g < group; ++g) {
      Value lane =
          body.create<arith::AddIOp>(il, first_lane, body.create<arith::ConstantIndexOp>(il, g));
      lanes.push_back(lane);
      indices.push_back(body.create<arith::AddIOp>(il, row_start, lane));
      lane_values.push_back(LaneOf(body, il, value_lanes, indices.back()));
      lane_cmps.push_back(LaneOf(body, il, cmp_lanes, indices.back()));
    }
    for (int64_t g = 0; g < group; ++g) {
      Value offset = body.create<arith::IndexCastOp>(il, body.getI64Type(), lanes[g]);
      Value pointer =
          body.create<LLVM::GEPOp>(il, pointer_type, element, base, ValueRange{offset});
      Value old = emit(body, il, pointer, lane_values[g], lane_cmps[g]);
      if (olds) body.create<memref::StoreOp>(il, old, olds, ValueRange{indices[g]});
    }
  };
  // One row's atomics, its first address `base`, in groups of lanes: up to kUnrolledGroups
  // groups one after another (each group's lanes constants, so tcpu-buffer-mmla-blocks sees
  // where each of its reads lies), more as a loop.
  auto emit_row = [&](OpBuilder& outer, Location l, Value row, Value base) {
    Value row_start = outer.create<arith::MulIOp>(l, row, row_width);
    if (width / group <= kUnrolledGroups) {
      for (int64_t first = 0; first < width; first += group) {
        emit_group(outer, l, row_start, outer.create<arith::ConstantIndexOp>(l, first), base);
      }
      return;
    }
    outer.create<scf::ForOp>(
        l, zero, outer.create<arith::ConstantIndexOp>(l, width / group), one, ValueRange{},
        [&](OpBuilder& body, Location il, Value group_index, ValueRange) {
          Value first_lane = body.create<arith::MulIOp>(
              il, group_index, body.create<arith::ConstantIndexOp>(il, group));
          emit_group(body, il, row_start, first_lane, base);
          body.create<scf::YieldOp>(il);
        });
  };
  // Rows a uniform stride apart go two an iteration, the second's address the first's plus the
  // stride, the next iteration's the second's plus the stride (carried): a row pair's reads of
  // SMMLA blocks (tcpu-buffer-mmla-blocks) then lie 8 bytes apart, and the pair's 256 from the
  // next pair's.
  const int64_t per_iteration = stride && rows % 2 == 0 ? 2 : 1;
  SmallVector<Value> carried;
  if (stride) carried.push_back(row_base(b, loc, zero));
  b.create<scf::ForOp>(
      loc, zero, b.create<arith::ConstantIndexOp>(loc, rows),
      b.create<arith::ConstantIndexOp>(loc, per_iteration), carried,
      [&](OpBuilder& outer, Location l, Value first, ValueRange row_pointer) {
        Value base = stride ? row_pointer.front() : row_base(outer, l, first);
        for (int64_t r = 0; r < per_iteration; ++r) {
          Value row = r == 0 ? first
                             : outer.create<arith::AddIOp>(
                                   l, first, outer.create<arith::ConstantIndexOp>(l, r));
          emit_row(outer, l, row, base);
          if (stride) {
            base = outer.create<LLVM::GEPOp>(l, pointer_type, outer.getI8Type(), base,
                                             ValueRange{stride});
          }
        }
        outer.create<scf::YieldOp>(l, stride ? ValueRange{base} : ValueRange{});
      });
  return OldValues(b, loc, olds, vector_type);
}

// The op on every lane of a tile RowsOfConsecutiveAddresses accepts whose mask is built from
// scalars at any position too (LaneValues.h), some lanes off: a loop over rows and their lanes
// in order, each lane's mask bit and address built from the TTIR's scalars in the loop. EmitLanes
// builds every lane's address and mask as vectors first, straight-line code that grows with the
// tile (a 64x64 tile of atomic adds: some 10,000 instructions, and most of the compile time).
Value EmitLanesFromScalars(OpBuilder& b, Location loc, VectorType vector_type, Value tt_pointers,
                           Value tt_mask, Value values, Value cmps, const EmitOne& emit,
                           bool result_used) {
  Type element = vector_type.getElementType();
  auto shape = cast<RankedTensorType>(tt_pointers.getType()).getShape();
  const int64_t width = shape.back();
  const int64_t rows = vector_type.getNumElements() / width;
  Value value_lanes = ToBuffer(b, loc, Flatten(b, loc, values));
  Value cmp_lanes = ToBuffer(b, loc, Flatten(b, loc, cmps));
  Value olds = OldValuesBuffer(b, loc, element, vector_type.getNumElements(), result_used);
  Value zero = b.create<arith::ConstantIndexOp>(loc, 0);
  Value one = b.create<arith::ConstantIndexOp>(loc, 1);
  auto pointer_type = LLVM::LLVMPointerType::get(b.getContext());
  b.create<scf::ForOp>(
      loc, zero, b.create<arith::ConstantIndexOp>(loc, rows), one, ValueRange{},
      [&](OpBuilder& outer, Location l, Value row, ValueRange) {
        Value row_start =
            outer.create<arith::MulIOp>(l, row, outer.create<arith::ConstantIndexOp>(l, width));
        outer.create<scf::ForOp>(
            l, zero, outer.create<arith::ConstantIndexOp>(l, width), one, ValueRange{},
            [&](OpBuilder& body, Location il, Value column, ValueRange) {
              SmallVector<Value> position;
              if (shape.size() == 2) {
                position.push_back(body.create<arith::IndexCastOp>(il, body.getI32Type(), row));
              }
              position.push_back(body.create<arith::IndexCastOp>(il, body.getI32Type(), column));
              Value lane = body.create<arith::AddIOp>(il, row_start, column);
              Value pointer = body.create<UnrealizedConversionCastOp>(
                                      il, pointer_type,
                                      buildLaneValue(body, il, tt_pointers, position))
                                  .getResult(0);
              Value old = Masked(body, il, buildLaneValue(body, il, tt_mask, position), element,
                                 pointer, LaneOf(body, il, value_lanes, lane),
                                 LaneOf(body, il, cmp_lanes, lane), emit);
              if (olds) body.create<memref::StoreOp>(il, old, olds, ValueRange{lane});
              body.create<scf::YieldOp>(il);
            });
        outer.create<scf::YieldOp>(l);
      });
  return OldValues(b, loc, olds, vector_type);
}

// The op on `result_type`, by rows (EmitRows) where the addresses allow, while every lane of the
// mask is on, else lane by lane (EmitLanesFromScalars where the mask allows, else EmitLanes).
Value EmitTile(OpBuilder& b, Location loc, Operation* op, Type result_type, Value tt_pointers,
               Value tt_mask, Value pointers, Value values, Value cmps, Value mask,
               const EmitOne& emit, bool result_used) {
  auto vector_type = dyn_cast<VectorType>(result_type);
  if (!vector_type || !RowsOfConsecutiveAddresses(op, tt_pointers, tt_mask)) {
    return EmitLanes(b, loc, result_type, pointers, values, cmps, mask, emit, result_used);
  }
  if (!tt_mask) {
    return EmitRows(b, loc, vector_type, tt_pointers, values, cmps, emit, result_used);
  }
  return b
      .create<scf::IfOp>(
          loc, buildScalarAllOn(b, loc, tt_mask),
          [&](OpBuilder& on, Location l) {
            on.create<scf::YieldOp>(
                l, EmitRows(on, l, vector_type, tt_pointers, values, cmps, emit, result_used));
          },
          [&](OpBuilder& some, Location l) {
            some.create<scf::YieldOp>(
                l, hasLaneValuesAtAnyPosition(tt_mask)
                       ? EmitLanesFromScalars(some, l, vector_type, tt_pointers, tt_mask, values,
                                              cmps, emit, result_used)
                       : EmitLanes(some, l, result_type, pointers, values, cmps, mask, emit,
                                   result_used));
          })
      .getResult(0);
}

// A float read-modify-write as a compare-and-swap loop on the value's bits, written here
// rather than left to LLVM: LLVM 19 expands atomicrmw fadd for AArch64 without LSE into an
// LDAXR/STLXR loop that discards STLXR's status (`stlxr wzr`), losing updates when programs
// race. The loop starts from a relaxed atomic load and retries with the value it saw.
Value FloatRMW(OpBuilder& b, Location loc, LLVM::AtomicBinOp bin_op, Value pointer, Value value,
               LLVM::AtomicOrdering ordering, LLVM::AtomicOrdering failure) {
  Type element = value.getType();
  Type bits = b.getIntegerType(element.getIntOrFloatBitWidth());
  unsigned alignment = Bytes(element);
  Value first = b.create<LLVM::LoadOp>(loc, bits, pointer, alignment, /*isVolatile=*/false,
                                       /*isNonTemporal=*/false, /*isInvariant=*/false,
                                       LLVM::AtomicOrdering::monotonic);
  auto loop = b.create<scf::WhileOp>(
      loc, TypeRange{bits}, ValueRange{first},
      [&](OpBuilder& before, Location l, ValueRange expected) {
        Value old = before.create<arith::BitcastOp>(l, element, expected[0]);
        Value updated;
        switch (bin_op) {
          case LLVM::AtomicBinOp::fmax:
            updated = before.create<arith::MaxNumFOp>(l, old, value);
            break;
          case LLVM::AtomicBinOp::fmin:
            updated = before.create<arith::MinNumFOp>(l, old, value);
            break;
          case LLVM::AtomicBinOp::xchg:
            updated = value;
            break;
          default:
            updated = before.create<arith::AddFOp>(l, old, value);
            break;
        }
        Value desired = before.create<arith::BitcastOp>(l, bits, updated);
        Value pair = before.create<LLVM::AtomicCmpXchgOp>(
            l, pointer, expected[0], desired, ordering, failure, StringRef(), alignment);
        Value seen = before.create<LLVM::ExtractValueOp>(l, pair, ArrayRef<int64_t>{0});
        Value swapped = before.create<LLVM::ExtractValueOp>(l, pair, ArrayRef<int64_t>{1});
        Value retry =
            before.create<arith::XOrIOp>(l, swapped, before.create<arith::ConstantIntOp>(l, 1, 1));
        before.create<scf::ConditionOp>(l, retry, ValueRange{seen});
      },
      [&](OpBuilder& after, Location l, ValueRange seen) { after.create<scf::YieldOp>(l, seen); });
  // On success the value seen is the one replaced.
  return b.create<arith::BitcastOp>(loc, element, loop.getResult(0));
}

struct AtomicRMW : OpConversionPattern<AtomicRMWOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(AtomicRMWOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter& rewriter) const override {
    Type element = getElementTypeOrSelf(op.getType());
    if (failed(CheckElement(op, element))) return failure();
    std::optional<LLVM::AtomicBinOp> bin_op = BinOp(op.getAtomicRmwOp(), element);
    if (!bin_op) {
      return op.emitError() << "atomic_rmw " << stringifyRMWOp(op.getAtomicRmwOp())
                            << " does not apply to " << element;
    }
    LLVM::AtomicOrdering ordering = Ordering(op.getSem());
    EmitOne emit = [&](OpBuilder& b, Location loc, Value pointer, Value value, Value) -> Value {
      if (isa<FloatType>(element)) {
        return FloatRMW(b, loc, *bin_op, pointer, value, ordering, FailureOrdering(op.getSem()));
      }
      return b.create<LLVM::AtomicRMWOp>(loc, *bin_op, pointer, value, ordering, StringRef(),
                                         Bytes(element));
    };
    Type result_type = getTypeConverter()->convertType(op.getType());
    rewriter.replaceOp(op, EmitTile(rewriter, op.getLoc(), op, result_type, op.getPtr(),
                                    op.getMask(), adaptor.getPtr(), adaptor.getVal(), Value(),
                                    adaptor.getMask(), emit, !op.getResult().use_empty()));
    return success();
  }
};

struct AtomicCAS : OpConversionPattern<AtomicCASOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(AtomicCASOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter& rewriter) const override {
    Type element = getElementTypeOrSelf(op.getType());
    if (failed(CheckElement(op, element))) return failure();
    LLVM::AtomicOrdering success_ordering = Ordering(op.getSem());
    LLVM::AtomicOrdering failure_ordering = FailureOrdering(op.getSem());
    // cmpxchg takes integers: floats are compared and swapped as their bits.
    Type bits = rewriter.getIntegerType(element.getIntOrFloatBitWidth());
    EmitOne emit = [&](OpBuilder& b, Location loc, Value pointer, Value value, Value cmp) -> Value {
      if (element != bits) {
        value = b.create<arith::BitcastOp>(loc, bits, value);
        cmp = b.create<arith::BitcastOp>(loc, bits, cmp);
      }
      Value pair = b.create<LLVM::AtomicCmpXchgOp>(loc, pointer, cmp, value, success_ordering,
                                                   failure_ordering, StringRef(), Bytes(element));
      Value old = b.create<LLVM::ExtractValueOp>(loc, pair, ArrayRef<int64_t>{0});
      if (element != bits) old = b.create<arith::BitcastOp>(loc, element, old);
      return old;
    };
    Type result_type = getTypeConverter()->convertType(op.getType());
    rewriter.replaceOp(op, EmitTile(rewriter, op.getLoc(), op, result_type, op.getPtr(), Value(),
                                    adaptor.getPtr(), adaptor.getVal(), adaptor.getCmp(), Value(),
                                    emit, !op.getResult().use_empty()));
    return success();
  }
};

struct TTToTcpuAtomics : impl::TTToTcpuAtomicsBase<TTToTcpuAtomics> {
  void runOnOperation() override {
    MLIRContext* context = &getContext();
    TensorToVectorTypeConverter converter(context);
    ConversionTarget target(*context);
    markEverythingLegal(target);
    target.addIllegalOp<AtomicRMWOp, AtomicCASOp>();
    RewritePatternSet patterns(context);
    patterns.add<AtomicRMW, AtomicCAS>(converter, context);
    if (failed(applyPartialConversion(getOperation(), target, std::move(patterns)))) {
      signalPassFailure();
    }
  }
};

}  // namespace
}  // namespace convert_atomics
}  // namespace mlir::tt
