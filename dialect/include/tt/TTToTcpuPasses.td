// The Triton pipeline's passes: TTIR -> tcpu -> LLVM. The stages, numbered as
// buildTritonToLlvmPipeline runs them (lib/TTToTcpuPipeline.cpp) and as dialect/README.md
// lists them; each pass is one file in the folder of what it rewrites. Stages 16, 17, 24, 25
// and 27 are the tcpu dialect's own passes (include/tcpu/TcpuPasses.td).
//  tt -> tt (lib/TTTransforms/)
//   1. tt-lower-block-pointers       block pointers and tensor descriptors as tensors of pointers
//  1b. tt-unswitch-uniform-conditions a comparison the same in every lane as one branch
//   2. tt-loop-pointers-to-offsets   loop-carried pointer tensors as a base and a scalar offset
//  2b. tt-sink-loop-reductions       tiles summed in a loop, then reduced: each iteration's reduced
//   3. tt-strip-mine-tiles           tiles over the registers as loops over chunks of an axis
//   4. tt-split-wide-loops           a loop over rows wider than the registers, one per slice
//   5. tt-version-masked-loops       loop bodies twice: every mask on (no masks) or the original
//  tt -> tcpu (lib/TTToTcpu/)
//   6. tt-to-tcpu-memory             loads and stores, chosen by the contiguity analysis
//   7. tt-to-tcpu-atomics            atomic_rmw / atomic_cas as LLVM atomics, lane by lane
//   8. tt-to-tcpu-pointers           pointer arithmetic: tensors of pointers become i64 addresses
//   9. tt-to-tcpu-shapes             make_range, splat, broadcast, expand_dims, reshape, trans, gather, ...
//  10. tt-to-tcpu-elementwise        arith/math on tensors, clampf, precise_*, extern_elementwise
//  11. tt-to-tcpu-reductions         tt.reduce and tt.scan as log-step vector code
//  12. tt-to-tcpu-dot                tt.dot as contractions (fp) or SDOT/SMMLA/BFMMLA tiles
//  13. tt-to-tcpu-debug              tt.print / tt.assert / llvm.intr.assume / barriers
//  14. tt-to-tcpu-funcs              tt.func with the kernel ABI, tt.call, program ids, scf/cf
//  15. reconcile-unrealized-casts    (MLIR's) the end of the conversion
//  tcpu -> tcpu (lib/TcpuTransforms/)
//  16. tcpu-hoist-mmla-layouts       (TcpuPasses.td) K-loop accumulators stay in MMLA blocks
//  17. tcpu-carry-in-buffers         (TcpuPasses.td) loop values stay in their stack buffers
// 17b. tcpu-buffer-mmla-blocks       rows of an accumulator read lane by lane from its blocks
//  18. canonicalize                  (MLIR's)
//  19. control-flow-sink             (MLIR's) ops used in one branch of an scf.if move into it
//  20. tcpu-expand-math              exp/log/tanh/erf/... as vector polynomials, not libm calls
//  21. tcpu-flatten-narrow-vectors n-D vectors with rows under a register as 1-D, their ops shuffles
// 21b. tcpu-drop-leading-unit-dims 1 x N vectors (Inductor's XBLOCK = 1 rows) as 1-D rows
//  22. tcpu-slice-rows               wide rows as 128-bit slices, one slice's whole chain at a time
//  23. tcpu-sink-loads               each load just before its first use, past stack-buffer stores
// 23b. tcpu-zip-lane-loads          two rows' ZIP1/ZIP2 operands as two LD2 lane loads
//  tcpu -> LLVM (lib/TcpuToLLVM/)
//  24-28. the tcpu-to-llvm pipeline  (TcpuPasses.td)
//  29. tcpu-emit-triton-launchers    tcpu_launch_NAME and the per-program trampoline

#ifndef TT_TO_TCPU_PASSES_TD
#define TT_TO_TCPU_PASSES_TD

include "mlir/Pass/PassBase.td"

// The LLVM dialect is a dependent dialect only of the passes that create LLVM ops (memory,
// pointers): the type converter's !llvm.ptr comes from !tt.ptr, and loading the tt dialect
// loads LLVM (TTDialect.td). Naming it here would make every pass's file parse LLVMDialect.h,
// half of each file's compile time.
class TTToTcpuPass<string name, string summary_text, list<string> extra_dialects = []>
    : Pass<name, "::mlir::ModuleOp"> {
  let summary = summary_text;
  let dependentDialects = !listconcat(["::mlir::arith::ArithDialect",
                                       "::mlir::vector::VectorDialect",
                                       "::mlir::scf::SCFDialect", "::mlir::func::FuncDialect",
                                       "::mlir::math::MathDialect", "::mlir::tcpu::TcpuDialect",
                                       "::mlir::cf::ControlFlowDialect"],
                                      extra_dialects);
}

// 1. tt -> tt: lib/TTTransforms/LowerBlockPointers.cpp
def TTLowerBlockPointers : TTToTcpuPass<"tt-lower-block-pointers",
    "Block pointers and tensor descriptors as tensors of pointers with boundary masks"> {
  let description = [{
    tt.make_tensor_ptr / tt.advance (Triton 3.0-3.6) and tt.make_tensor_descriptor,
    !tt.tensordesc kernel arguments (3.3+) are one address model: base, shape and strides in
    elements, a block at element offsets. Loads and stores through them become tt.load /
    tt.store of base + sum_d (offset_d + i_d) * stride_d, masked to the shape along the
    boundary-checked dimensions (every dimension for descriptors): out-of-bounds reads give
    the padding (zero; NaN for padding = nan), out-of-bounds writes are dropped. A loop
    carrying a block pointer carries its offsets. A descriptor argument of the kernel becomes
    its base pointer, r i64 sizes and r i64 strides (tcpu/triton.h); its innermost stride is
    listed in the function's tt.unit_stride_args, which the launcher requires to be 1 (as
    Triton's TensorDescriptor does).
  }];
}

// 1b. tt -> tt: lib/TTTransforms/UnswitchUniformConditions.cpp
def TTUnswitchUniformConditions : TTToTcpuPass<"tt-unswitch-uniform-conditions",
    "A comparison with the same answer in every lane of a program's block becomes one branch"> {
  let description = [{
    A comparison in a kernel's body (not in a loop) whose answer cannot change across the
    block (the contiguity analysis: `x0 = (pid * 128 + tl.arange(0, 128)) % 256; x0 < 128`
    counts up from a multiple of 128 and 128 divides the bound), and that decides a select, a
    load's or store's mask or an i1 made from those, splits the rest of the body:
    `scf.if (the comparison at the first lane) { the rest, the comparison true } else { the
    rest, false }`. In each copy, the comparisons of the same two operands are decided with
    it; loads it masks off are their `other` (zeros without one), stores it masks off are
    erased, masks it leaves on are dropped, selects on it take their side, and what only the
    other side used is erased. Inductor's `torch.cat` of two halves computed every element of
    both halves and selected one; each program now computes its own half. A copy is unswitched
    again on its next such comparison, three levels at most.
  }];
}

// 2. tt -> tt: lib/TTTransforms/LoopPointersToOffsets.cpp
def TTLoopPointersToOffsets : TTToTcpuPass<"tt-loop-pointers-to-offsets",
    "Loop-carried tensors of pointers or integers advanced by a uniform step become a scalar offset"> {
  let description = [{
    `scf.for ... iter_args(%p = %p0) { ...; %next = tt.addptr %p, %step; scf.yield %next }`
    with %step a splat (the usual `a_ptrs += BLOCK_K * stride_ak` of a K loop) carries an i64
    element offset instead: %p is `tt.addptr %p0, splat(%offset)` in the body. The
    addresses are the same (offsets are summed in i64, as repeated pointer additions would
    be), the contiguity analysis sees %p0's structure, and the loop no longer updates one
    address per element. A tensor of integers advanced by `arith.addi %t, %step` (flex
    attention's `offs_n += BLOCK_N`) carries a scalar of its element type: %t is
    `%t0 + splat(%offset)` in the body, so its lanes are %t0's and tt-strip-mine-tiles can cut
    them.
  }];
}

// 2b. tt -> tt: lib/TTTransforms/SinkLoopReductions.cpp
def TTSinkLoopReductions : TTToTcpuPass<"tt-sink-loop-reductions",
    "A loop accumulating tiles only to reduce them along an outer axis reduces each iteration's tile"> {
  let description = [{
    `%acc = scf.for ... iter_args(%a = splat(0)) { %n = arith.addf %a, %x; scf.yield %n }`
    whose only use is a `tt.reduce` of %acc along an axis other than the last, combining
    with the same operation (addition from zero; max or min from any splat), carries the
    reduced row instead: each iteration adds `tt.reduce(%x)` to it. Tutorial 05's dw/db
    kernel carried two 256x256 tiles through memory; it now carries two 256-lane rows. The
    sum is reassociated (each tile's rows first), which a reduction's unspecified order allows.
  }];
}

// 3. tt -> tt: lib/TTTransforms/StripMineTiles.cpp
def TTStripMineTiles : TTToTcpuPass<"tt-strip-mine-tiles",
    "Tiles larger than the registers hold run as a loop over chunks of one axis at a time"> {
  let description = [{
    The dimensions of a function's tensors are unified into axes (a dot's M, N and K, a load's
    dimensions with its pointers', a loop's carried values with its yields). While a tile has
    more than 1024 elements or the tt.dot ops of one block more than 16x32x32 multiply-adds
    together (then 1-D rows over 256 lanes count as over too), the largest axis of the worst
    offender is halved (among equals the K of a dot on SMMLA / BFMMLA blocks first, whose chunks
    tt-version-masked-loops sums into one dot again, then parallel axes before reduced before
    contracted ones); an axis whose plan fails is refused before any is rewritten and the chunks
    chosen again without it (else an axis cut for a budget shared with it would be cut again, in
    nested chunk loops); each chosen axis is then strip-mined in turn (contracted axes first,
    whose chunk loops the later axes wrap; then parallel ones, then reduced ones, cut inside a
    row chunk still over budget; index computations
    Triton shares between axes are copied apart first): the ops producing it are re-typed to a
    chunk and cloned into an scf.for over the chunks (make_range offset by the chunk), in front
    of the ops that consume it: stores (each chunk stores its lanes), tt.reduce along it (chunks
    reduced, then combined in order by the combine region), tt.dot contracting it (chained
    through the accumulator, the same k order), loops and branches using it (cloned per chunk,
    or strip-mined inside when they reduce along it). A sink needing another's result starts a
    new chunk loop (softmax: max, sum, normalize); a pure scalar op between two sinks computing
    from the first's result moves after the loop, which goes on. A load a later chunk loop would
    repeat past a write is copied to a stack buffer, chunk by chunk, by the first loop loading
    it and read back from there (tutorial 05 backward's row, needed again inside its lock); so
    is a dot a later chunk loop needs again (attention's Q K^T, stored by the max pass and read
    by the exp, sum and P V pass, instead of being computed and its K chunk loaded twice); an
    scf.if yielding tiles whose branches first write scalars has those writes split into an
    scf.if of their own in front of it. Each lane keeps its ops and accesses in order; a load
    that a plan would move past a store with no earlier loop to copy it, an axis mixed with
    another (reshape, cat, scan, histogram, calls) or an op the pass does not know leaves the
    axis whole.
  }];
}

// 4. tt -> tt: lib/TTTransforms/SplitWideLoops.cpp
def TTSplitWideLoops : TTToTcpuPass<"tt-split-wide-loops",
    "A loop over rows wider than the registers becomes one loop per slice of lanes"> {
  let description = [{
    An scf.for whose iter_args are 1-D tensors (layer norm's `_mean += x` over a 256-wide
    block: 64 NEON registers), or that carries nothing but computes such rows, and whose body
    works lane by lane (ranges, splats, constants, elementwise ops, tt.addptr, non-volatile
    tt.load and tt.store) is emitted once per slice of lanes, each slice a loop of its own
    whose carried rows (carrying nothing: whose widest row) fill at most `carried-registers`
    128-bit registers. Rows the body takes from outside the loop are rebuilt per slice. Each
    lane computes what it did, in the same order; only accesses of different lanes are
    reordered, which Triton does not order either (a GPU runs the lanes on different threads,
    with no barrier between a load and a store). The loop's results may only feed tt.reduce
    ops along the row: each slice is reduced after its loop, and the slices' results are
    combined in lane order by the reduction's combine region.
  }];
  let options = [
    Option<"carriedRegisters", "carried-registers", "int64_t", /*default=*/"8",
           "128-bit registers a sliced loop's rows may fill">,
  ];
}

// 5. tt -> tt: lib/TTTransforms/VersionMaskedLoops.cpp
def TTVersionMaskedLoops : TTToTcpuPass<"tt-version-masked-loops",
    "A K loop, or a loop carrying little, runs unmasked while every mask of its loads and stores is on"> {
  let description = [{
    In an scf.for that holds a tt.dot (a K loop) or carries tensors that fit 16 NEON
    registers (the slice loops of tt-split-wide-loops, which runs first; a loop carrying
    nothing), the loads and stores whose masks compare index ranges with bounds (the scalar
    whole-mask test of the memory lowering) are versioned together. When the loop's carried
    tensors fit 16 NEON registers, the iterations whose masks are all on run first as a loop
    of their own:
    `scf.if (first iteration unmasked) { scf.while: unmasked body, then the next iteration's
    test, in one region }`, and the original loop finishes from where it stopped (the edge
    iterations), so the hot loop holds neither masks nor a second version. A larger carried
    tensor lives in memory either way and splitting measured slower; its body is versioned per
    iteration instead, except that a K loop whose int8 or bf16 dot keeps SMMLA / BFMMLA blocks
    in a stack buffer (masks that depend on the induction variable alone) first runs its unmasked
    iterations as many at a time as make a K depth of 256 (eight of BLOCK_K 32) as such a
    do-while (the bodies one after another, then the test of as many iterations ahead), for
    tt-to-tcpu-dot to sum their dots into one; such a run is counted in instructions' k
    (32 SMMLA or BFMMLA chunks: 256 k of i8, 128 of bf16), and is not built for a loop whose
    constant trip count is shorter. A K loop whose dot tt-strip-mine-tiles split into a loop
    over K chunks (constant bounds, at most 8 trips) runs its unmasked iterations the same
    way, from a copy of its body with the chunk loops unrolled, so that every chunk's dot of
    every step is one chain; its own chunk loops stay for the edge iterations. In that copy an
    index tensor from before the loop that wraps a range into bounds,
    `(offs + tl.arange(0, B)) % M` (tutorial 03's rows of a and columns of b), is rebuilt
    without the remainder, and the do-while runs only while each such range lies in [0, M)
    (first lane at least 0, last below M, first at most last): its addresses are then affine
    along the range, and the memory lowering steps each row from the previous one. A loop around
    a K loop is not versioned (its second copy would duplicate the K loop's versions).
    Versioned per iteration: from the
    first versioned access to the end of the body,
    `scf.if %every_mask_on { the same ops, unmasked } else { the original ops }`. The masks'
    own computations must be pure; a body where they are not is left as it is. In the
    unmasked copy every use of a tested mask is a constant true, so selects on it fold away.
    Loops without a dot carrying more than 16 registers are left alone (versioned, the wide
    accumulator spilled where the two versions join).
    Iterations wholly masked off: in a split loop over a tile's chunks (constant bounds) whose
    body has no effect but its loads, and whose results depend on no tt.dot and on loads with
    a constant `other` and a scalar-testable mask, the edge iterations run
    `scf.if (every such mask off) { the results' ops, each load its other } else { the body }`
    (the all-off test of MaskBounds.h; a reduction of such a load, by max or min or an addition
    of zeros, is its other value): tutorial 05's dw/db sums no chunk of zeros past its rows.
  }];
}

// 5b. tt -> tt: lib/TTTransforms/VersionMaskedHistograms.cpp
def TTVersionMaskedHistograms : TTToTcpuPass<"tt-version-masked-histograms",
    "A masked tt.histogram counts without its mask when every lane is on"> {
  let description = [{
    A tt.histogram whose mask compares index ranges with bounds (the scalar whole-mask test of
    the memory lowering, MaskBounds.h) becomes
    `scf.if %every_lane_on { the histogram without its mask } else { the masked one }`. Where an
    unmasked histogram of the same source and bins comes before it in the same block, the
    unmasked branch yields that one's result rather than counting again (a kernel counting
    both, as the histogram kernel does, counts once per full block). A full block then reads
    no mask; only the edge block counts under it.
  }];
}

// 6. tt -> tcpu: lib/TTToTcpu/ConvertMemoryOps.cpp
def TTToTcpuMemory : TTToTcpuPass<"tt-to-tcpu-memory",
    "tt.load / tt.store as vector loads and stores, or gathers where addresses are irregular",
    ["::mlir::LLVM::LLVMDialect"]> {
  let description = [{
    The contiguity analysis (include/tt/Analysis/Contiguity.h) proves runs of consecutive
    addresses along the last dimension; each run becomes one vector load or store. A masked
    run takes a full-width access when every lane is on, a masked one otherwise; lanes whose
    mask is off are never read or written. Irregular addresses become a loop of scalar
    accesses, each under its own mask.
  }];
}

// 7. tt -> tcpu: lib/TTToTcpu/ConvertAtomics.cpp
def TTToTcpuAtomics : TTToTcpuPass<"tt-to-tcpu-atomics",
    "tt.atomic_rmw / tt.atomic_cas as LLVM atomics (LSE or LL/SC, as the target has)",
    ["::mlir::LLVM::LLVMDialect", "::mlir::memref::MemRefDialect"]> {
  let description = [{
    Each atomic is an llvm.atomicrmw or llvm.cmpxchg with the op's ordering (relaxed is
    monotonic) at the system scope; a tensor op is a loop over its lanes in order, each lane
    under its mask (a lane whose mask is off touches no memory and returns 0), reading its
    address, value and mask from stack buffers stored once before the loop and writing its
    old value to one only when the result is used.
  }];
}

// 8. tt -> tcpu: lib/TTToTcpu/ConvertPointerOps.cpp
def TTToTcpuPointers : TTToTcpuPass<"tt-to-tcpu-pointers",
    "Pointer arithmetic: !tt.ptr becomes !llvm.ptr, tensors of pointers i64 address vectors",
    ["::mlir::LLVM::LLVMDialect"]> {}

// 9. tt -> tcpu: lib/TTToTcpu/ConvertShapeOps.cpp
def TTToTcpuShapes : TTToTcpuPass<"tt-to-tcpu-shapes",
    "Shape ops (make_range, splat, broadcast, expand_dims, reshape, trans, cat, join, split, "
    "unsplat) and tt.gather",
    ["::mlir::memref::MemRefDialect"]> {}

// 10. tt -> tcpu: lib/TTToTcpu/ConvertElementwiseOps.cpp
def TTToTcpuElementwise : TTToTcpuPass<"tt-to-tcpu-elementwise",
    "arith/math on tensors become the same ops on vectors; tt's elementwise ops too"> {}

// 11. tt -> tcpu: lib/TTToTcpu/ConvertReductions.cpp
def TTToTcpuReductions : TTToTcpuPass<"tt-to-tcpu-reductions",
    "tt.reduce and tt.scan as log-step vector code applying the combine region; "
    "tt.histogram as one counting pass over the lanes",
    ["::mlir::memref::MemRefDialect"]> {}

// 12. tt -> tcpu: lib/TTToTcpu/ConvertDot.cpp
def TTToTcpuDot : TTToTcpuPass<"tt-to-tcpu-dot",
    "tt.dot as fp32 FMA contractions, or SDOT/SMMLA (i8) and BFMMLA (bf16) tiles as the target allows",
    ["::mlir::memref::MemRefDialect"]> {
  let description = [{
    An SMMLA or BFMMLA accumulator of more than 16 blocks (registers) lives in a stack buffer, in tiles
    of up to 4x4 blocks each contiguous: stored whole before the dot and loaded whole after
    it, the operands packed into buffers of their own, and a loop over the tiles in between.
    tcpu-carry-in-buffers keeps the buffer across the K loop. Dots summed into one another
    (the unmasked iterations of a K loop that tt-version-masked-loops runs several at a time)
    are one dot as deep as all of them, each element's additions in their order (exact for
    integers, rounded as the separate dots would for bf16): the buffer is read and written
    once for all, and each tile runs its chunks as a loop with post-indexed operand loads.
  }];
}

// 13. tt -> tcpu: lib/TTToTcpu/ConvertDebugOps.cpp
def TTToTcpuDebug : TTToTcpuPass<"tt-to-tcpu-debug",
    "tt.print / tt.assert become tcpu.print / tcpu.assert; barriers and assumes go"> {}

// 14. tt -> tcpu: lib/TTToTcpu/ConvertFuncs.cpp
def TTToTcpuFuncs : TTToTcpuPass<"tt-to-tcpu-funcs",
    "tt.func with the triton-cpu kernel ABI, tt.call, program ids, scf/cf on vectors"> {
  let description = [{
    Every function gets six trailing i32 parameters (pid_x, pid_y, pid_z, grid_x, grid_y,
    grid_z) that tt.get_program_id / tt.get_num_programs read. The kernel (the public
    tt.func, or the only one) keeps its name and takes its arguments as C does: pointers as
    !llvm.ptr, i1/i8/i16/i32 as i32, i64 as i64, f16/bf16/f32 as f32. It is marked
    `tcpu.triton_kernel` for tcpu-emit-triton-launchers.
  }];
}

// 17b. tcpu -> tcpu: lib/TcpuTransforms/BufferMmlaBlocks.cpp
def TcpuBufferMmlaBlocks : TTToTcpuPass<"tcpu-buffer-mmla-blocks",
    "Lanes of an MMLA accumulator's rows read where its blocks lie, without the conversion",
    ["::mlir::memref::MemRefDialect", "::mlir::LLVM::LLVMDialect"]> {
  let description = [{
    A stack buffer that holds the rows of an SMMLA or BFMMLA accumulator
    (tcpu.from_mmla_blocks), stored whole once and then only read element by element (the
    lanes of tt-to-tcpu-atomics' loops: a split-K matmul's atomic adds into C), holds the
    blocks instead, and each read takes its element where the blocks keep it
    (tcpu/MmlaLayout.h). When the blocks are still in the accumulator's own stack buffer
    (tt-to-tcpu-dot's tiles in memory, nothing storing into it between its last whole load
    and the reads) the reads go there and nothing is stored. The conversion to rows goes.
    Where a row pair's blocks lie in several memory tiles, a read at a constant column adds its
    column of tiles' offset through an empty `llvm.inline_asm`, so the backend reads each
    column of tiles from a base of its own, pairs of lanes within one LDP's reach.
  }];
}

// 20. tcpu -> tcpu: lib/TcpuTransforms/ExpandMath.cpp
def TcpuExpandMath : TTToTcpuPass<"tcpu-expand-math",
    "exp, exp2, log, tanh, erf, sin, cos, ... on vectors as polynomial approximations"> {}

// 21. tcpu -> tcpu: lib/TcpuTransforms/FlattenNarrowVectors.cpp
def TcpuFlattenNarrowVectors : TTToTcpuPass<"tcpu-flatten-narrow-vectors",
    "n-D vectors whose rows are narrower than a register as 1-D vectors; their ops as shuffles"> {
  let description = [{
    The LLVM lowering keeps an n-D vector as an array of its innermost rows: tl.sort's
    2x2x...x2 reshape of a 8x128 tile made every op 512 ops on <2 x i32>. Vectors of rank 3
    or more (at most 4096 elements) whose rows hold less than a 128-bit register, and every
    n-D vector connected to them by the ops below, become 1-D vectors of all their elements,
    row-major: arith and math elementwise ops apply to them whole, constants are reshaped, and
    vector.broadcast, extract_strided_slice, transpose and extract at constant positions
    become one vector.shuffle with a constant mask each; shape_casts between them vanish.
    Whole components go (Inductor's sort views its tile as 512x2x1 ... 8x2x64: the 3-D casts
    left between flat and unflattened views are lowered element by element), and only when
    every value another op defines or uses is 2-D, whose cast back is row by row.
  }];
}

// 22. tcpu -> tcpu: lib/TcpuTransforms/SliceRows.cpp
def TcpuDropLeadingUnitDims : TTToTcpuPass<"tcpu-drop-leading-unit-dims",
    "Vectors with leading dimensions of 1 as vectors of the rest"> {
  let description = [{
    MLIR's CastAwayVectorLeadingOneDim patterns: vector<1x...x1xNxT> values and the ops on them
    (elementwise, broadcast, extract/insert, strided slices, reductions) as vector<NxT>, with
    vector.shape_cast where a value keeps its type. Inductor's persistent reductions compute
    on 1 x RBLOCK tiles; as 1-D rows tcpu-slice-rows slices them (a 256-lane log-softmax kept
    its 64 registers of exponentials live and spilled them at every op).
  }];
}

def TcpuSliceRows : TTToTcpuPass<"tcpu-slice-rows",
    "Wide 1-D vectors as native slices, each slice's chain of ops before the next slice's"> {
  let description = [{
    A Triton row (vector<1024xf32>) is 256 NEON registers. Left wide, the backend splits
    each op in place (all slices of one op, then the next op's), keeping the whole row live
    and spilling every intermediate. This pass slices rows into 128-bit vectors and emits
    each slice's chain, from its load to its store or reduction, before the next slice's;
    reductions combine the slices as a balanced tree, depth first. Ops it does not slice
    get the row whole (a shuffle tree). Memory order is kept. Only rows with at least
    `min-chain-ops` floating-point ops in one block are sliced: the backend splits a short
    chain in place at little cost.
  }];
  let options = [
    Option<"minChainOps", "min-chain-ops", "int64_t", /*default=*/"12",
           "Floating-point ops on a row in one block before it is sliced">,
  ];
}

// 23. tcpu -> tcpu: lib/TcpuTransforms/SinkLoads.cpp
def TcpuSinkLoads : TTToTcpuPass<"tcpu-sink-loads",
    "Loads of a tile just before their first use when a pack lies between"> {
  let description = [{
    A tile's loads are all emitted where its tt.load was, the uses (an int8 dot's operand
    packing, row by row) come later: left there, the backend issues every row's load first and
    spills most of them. This pass moves a load whose first use comes after stores into stack
    buffers (a pack) down its block to just before that use, past ops that do not write memory
    and past those stores (memref.alloca, which Triton pointers never reach); anything else (a
    store through a pointer, a call) stops it. Memory order is kept for everything the load
    may read. Loads with no such stores before their use stay for the backend to schedule.
  }];
}

// 23b. tcpu -> tcpu: lib/TcpuTransforms/ZipLaneLoads.cpp
def TcpuZipLaneLoads : TTToTcpuPass<"tcpu-zip-lane-loads",
    "Two rows' ZIP1/ZIP2 operands loaded into their lanes (LD2 of one lane)", ["::mlir::LLVM::LLVMDialect"]> {
  let description = [{
    An SMMLA or BFMMLA operand of a row pair is 64 bits of one row beside 64 bits of the next:
    tt-to-tcpu-dot makes it a ZIP1 or ZIP2 of the rows' 16-byte parts. When both rows are
    plain loads every use of which is such a zip pair, the pair becomes two tcpu.load_lanes
    (LD2 {lo.d, hi.d}[0] from one row, [1] from the other) just before the operands' first
    use: two instructions for two operands, no copies for the destructive INS LLVM makes of a
    ZIP1, and no row held in a register until its last zip. The loads move only past ops that
    write nothing or only stack buffers.
  }];
}

// 29. tcpu -> LLVM: lib/TcpuToLLVM/EmitLaunchers.cpp
def TcpuEmitTritonLaunchers : Pass<"tcpu-emit-triton-launchers", "::mlir::ModuleOp"> {
  let summary = "tcpu_launch_NAME(args..., grid_x, grid_y, grid_z) for each Triton kernel";
  let description = [{
    Runs on the LLVM dialect. For the kernel NAME it adds
    NAME__programs(args_struct*, pid_x, pid_y, pid_z, count, grid_x, grid_y, grid_z), which
    unpacks the arguments once and calls NAME for `count` programs from the given ids on (NAME
    always_inline there when it is small, some path through it runs no loop and its vector
    constants fit the 32 registers; no_inline otherwise);
    tcpu_launch_NAME, which packs them and calls the runtime's tcpu_triton_launch with the
    table of variants (grid checks, variant choice, one range of program ids per thread of the
    pool), returning its status; and tcpu_variant_NAME, the name of the variant that would run.
    The kernel's unit_stride_args (its tcpu.triton_kernel dictionary: tensor descriptors'
    innermost strides) must be 1: tcpu_launch_NAME refuses other values first
    (tcpu_triton_refuse_stride), and NAME__programs runs nothing unless each is 1, so that
    LLVM takes them as 1 in its loop.
    With `variant=S` the module is one variant of the kernel, compiled for another target:
    the kernel becomes NAME__S and only NAME__S__programs is added, for the baseline object's
    table (`dispatch=S=BITS,...`, best first; BITS are the TCPU_FEATURE_* it needs).
  }];
  let options = [
    Option<"variant", "variant", "std::string", /*default=*/"\"\"",
           "Compile the kernels as variant S (NAME__S, NAME__S__programs only)">,
    ListOption<"dispatch", "dispatch", "std::string",
               "Variants the launcher chooses from, best first, as S=FEATURE_BITS">,
  ];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

#endif  // TT_TO_TCPU_PASSES_TD
