// Passes of the tcpu dialect, one per file, numbered by the stage list of the Triton pipeline
// (include/tt/TTToTcpuPasses.td, dialect/README.md):
//  tcpu -> tcpu (lib/TcpuTransforms/)
//  16. tcpu-hoist-mmla-layouts   K-loop accumulators stay in SMMLA blocks across iterations
//  17. tcpu-carry-in-buffers     loop values stay in their stack buffers across iterations
//  tcpu -> LLVM (lib/TcpuToLLVM/): the tcpu-to-llvm pipeline, stages 24-28 (TcpuToLLVM.cpp)
//  24. tcpu-lower-to-runtime     memref-level ops as calls of the runtime's C ABI
//  25. tcpu-lower-vector-ops     tcpu.sdot / smmla / bfmmla / lookup_bytes as Arm intrinsics
//  26. MLIR's conversions to scf, cf and the LLVM dialect's vector ops
//  27. tcpu-lower-vector-lists   tcpu.load_vectors / store_vectors as LD1 / ST1 of register lists,
//                                tcpu.load_lanes as LD2-LD4 of one lane
//  28. MLIR's conversions of memref, math, arith, index, cf and func to the LLVM dialect

#ifndef TCPU_PASSES_TD
#define TCPU_PASSES_TD

include "mlir/Pass/PassBase.td"

// 16. tcpu -> tcpu: lib/TcpuTransforms/HoistMmlaLayouts.cpp
def TcpuHoistMmlaLayouts : Pass<"tcpu-hoist-mmla-layouts", "::mlir::ModuleOp"> {
  let summary = "Carry loop accumulators in the SMMLA block layout across iterations";
  let description = [{
    An scf.for iteration argument used only by tcpu.to_mmla_blocks and yielded from a
    tcpu.from_mmla_blocks (an int8 tt.dot accumulating in a K loop) is carried in blocks: the
    conversions move before and after the loop, so each iteration runs SMMLA on the blocks
    as they are instead of rearranging the whole accumulator twice. A conversion of an
    scf.if's result to tiled blocks (an accumulator in a buffer handed from the unmasked loop
    to the loop that finishes) moves into the if's branches, where it folds.
  }];
}

// 17. tcpu -> tcpu: lib/TcpuTransforms/CarryInBuffers.cpp
def TcpuCarryInBuffers : Pass<"tcpu-carry-in-buffers", "::mlir::ModuleOp"> {
  let summary = "Carry loop values that each iteration stores and reloads in their buffer";
  let description = [{
    A loop value that each iteration first stores whole into a stack buffer and last loads
    whole from it (tt-to-tcpu-dot's SMMLA accumulators too large for the registers) stays in
    the buffer: stored once before the loop, loaded once after it. The two branches of an
    scf.if (a K loop's body versioned per iteration) doing the same share one buffer first.
    Nested loops all qualify (a K loop around its chunk loop): the pass repeats while it
    carries something, dropping between rounds the iteration arguments a carried loop now only
    passes through (scf.for canonicalization), which would otherwise be a second use of the
    enclosing loop's argument.
    A value one branch of an scf.if loads whole from its buffer and that is then stored whole
    into another buffer stays in the second (the unmasked loop hands its accumulator to the
    loop that finishes without a copy).
  }];
  let dependentDialects = ["::mlir::memref::MemRefDialect", "::mlir::vector::VectorDialect"];
}

// 24. tcpu -> LLVM: lib/TcpuToLLVM/LowerToRuntime.cpp
def TcpuLowerToRuntime : Pass<"tcpu-lower-to-runtime", "::mlir::ModuleOp"> {
  let summary = "Lower memref-level tcpu ops to func.call of the runtime's C ABI";
  let description = [{
    Each op becomes a call to its tcpu_* function with the exact C signature of
    runtime/include/tcpu/ (pointers as !llvm.ptr, sizes as i64, eps/sm_scale as f32), sizes
    taken from the memref shapes. `tcpu.hints` are honoured: `threads = N` runs the call
    with N runtime threads; `variant = "v"` makes the op fail with TCPU_ERR_INVALID_ARGUMENT
    unless the runtime dispatches to that variant. tcpu.print and tcpu.assert become printf
    and cf.assert.
  }];
  let dependentDialects = ["::mlir::func::FuncDialect", "::mlir::LLVM::LLVMDialect",
                           "::mlir::arith::ArithDialect", "::mlir::memref::MemRefDialect",
                           "::mlir::scf::SCFDialect", "::mlir::cf::ControlFlowDialect"];
}

// 25. tcpu -> LLVM: lib/TcpuToLLVM/LowerVectorOps.cpp
def TcpuLowerVectorOps : Pass<"tcpu-lower-vector-ops", "::mlir::ModuleOp"> {
  let summary = "Lower tcpu.sdot / smmla / bfmmla / lookup_bytes to Arm intrinsics";
  let description = [{
    Fixed-length forms become arm_neon.intr.sdot / arm_neon.intr.smmla, scalable forms
    arm_sve.sdot / arm_sve.smmla, tcpu.bfmmla llvm.aarch64.neon.bfmmla, tcpu.lookup_bytes the
    TBL intrinsic of its table count (llvm.aarch64.neon.tblN). The module's #tcpu.target must
    have the features the instruction needs (dotprod, i8mm, bf16, sve); otherwise the pass
    fails with a diagnostic.
  }];
  let dependentDialects = ["::mlir::arm_neon::ArmNeonDialect", "::mlir::LLVM::LLVMDialect",
                           "::mlir::arm_sve::ArmSVEDialect", "::mlir::arith::ArithDialect",
                           "::mlir::vector::VectorDialect"];
}

// 27. tcpu -> LLVM: lib/TcpuToLLVM/LowerVectorLists.cpp
def TcpuLowerVectorLists : Pass<"tcpu-lower-vector-lists", "::mlir::ModuleOp"> {
  let summary = "Lower tcpu.load_vectors / tcpu.store_vectors to LD1 / ST1 of register lists, "
                "tcpu.load_lanes to LD2-LD4 of one lane";
  let description = [{
    Two to four vectors become llvm.aarch64.neon.ld1xN / st1xN on the address of the first
    element (one instruction for up to 64 bytes); one vector a plain LLVM load or store. The
    address is the buffer's start plus the varying indices' offset, then the constant
    indices' bytes, so accesses to one tile share a base and fold their constants into
    LDP/STP immediates; a list from an `!llvm.ptr` loads from it. tcpu.buffer_pointer becomes
    the same address as a GEP of the buffer's pointer. tcpu.load_lanes becomes
    llvm.aarch64.neon.ldNlane. Part of
    tcpu-to-llvm, before the memrefs become LLVM descriptors.
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

#endif  // TCPU_PASSES_TD
