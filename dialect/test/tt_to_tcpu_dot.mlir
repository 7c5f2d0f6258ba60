// tt-to-tcpu-dot: tt.dot by what the module's #tcpu.target offers. i8 x i8 -> i32 becomes
// 2x2 output blocks on tcpu.smmla with i8mm (4 SMMLA for a 4x8 x 8x4 product), 4-wide rows on
// tcpu.sdot with dotprod (8 SDOT), and outer products of widened operands (one broadcast
// FMA per k) otherwise; f32 dots are f32 outer products, bf16 x bf16 -> f32 the same 2x2
// blocks on tcpu.bfmmla with bf16 (4 k per instruction), else f32 outer products (bf16 widened
// first).
// `tcpu.hints = {dot = "fma"}` forces the outer products; fp8 operands (i8 bits after the
// type conversion) are decoded to f32 exactly (FloatBits.h) and take the f32 path.
// RUN: tcpu-opt %s -split-input-file --tt-to-tcpu-dot -verify-diagnostics | FileCheck %s
// With the shapes pass first (tt.trans becomes vector.transpose, as in the pipeline):
// RUN: tcpu-opt %s -split-input-file --tt-to-tcpu-shapes --tt-to-tcpu-dot -verify-diagnostics | FileCheck %s --check-prefix=TRANS

module attributes {tcpu.target = #tcpu.target<arch = "armv8.6-a", features = ["i8mm", "dotprod"], vector_bits = 0>} {
  // CHECK-LABEL: tt.func @dot_i8mm(
  // CHECK-COUNT-4: tcpu.smmla %{{.*}}, %{{.*}}, %{{.*}} : vector<16xi8> into vector<4xi32>
  // CHECK-NOT: tcpu.smmla
  // CHECK-NOT: tcpu.sdot
  // CHECK-NOT: vector.outerproduct
  // CHECK-NOT: tt.dot
  // CHECK: tt.return
  tt.func @dot_i8mm(%a: tensor<4x8xi8>, %b: tensor<8x4xi8>, %c: tensor<4x4xi32>) -> tensor<4x4xi32> {
    %d = tt.dot %a, %b, %c : tensor<4x8xi8> * tensor<8x4xi8> -> tensor<4x4xi32>
    tt.return %d : tensor<4x4xi32>
  }

  // Blocks in registers run a row pair at a time within each pair of chunks (one 16-byte part
  // of a row): pair 0's second chunk follows its first, before pair 1 (only that part's b
  // operands and one pair's a operands live beside the blocks).
  // CHECK-LABEL: tt.func @dot_i8mm_pair_order(
  // CHECK: %[[P0T0:.+]] = tcpu.smmla %{{.*}}, %[[A00:.+]], %[[B00:.+]] : vector<16xi8> into vector<4xi32>
  // CHECK-NEXT: %[[P0T1:.+]] = tcpu.smmla %{{.*}}, %[[A00]], %{{.*}} : vector<16xi8> into vector<4xi32>
  // CHECK-NEXT: tcpu.smmla %[[P0T0]], %[[A01:.+]], %{{.*}} : vector<16xi8> into vector<4xi32>
  // CHECK-NEXT: tcpu.smmla %[[P0T1]], %[[A01]], %{{.*}} : vector<16xi8> into vector<4xi32>
  // CHECK-NEXT: tcpu.smmla %{{.*}}, %[[A10:.+]], %[[B00]] : vector<16xi8> into vector<4xi32>
  // CHECK-COUNT-11: tcpu.smmla
  // CHECK-NOT: tcpu.smmla
  tt.func @dot_i8mm_pair_order(%a: tensor<4x32xi8>, %b: tensor<32x4xi8>, %c: tensor<4x4xi32>) -> tensor<4x4xi32> {
    %d = tt.dot %a, %b, %c : tensor<4x32xi8> * tensor<32x4xi8> -> tensor<4x4xi32>
    tt.return %d : tensor<4x4xi32>
  }

  // 32 blocks, more than the registers hold: the accumulator in a stack buffer in tiles of 4 row
  // pairs by up to 16 blocks (here all 8), each row pair's blocks contiguous (stored whole,
  // loaded whole: what tcpu-carry-in-buffers keeps across a K loop), the operands packed
  // tile-major as [tile][chunk][4 pairs or columns][16 bytes] by four-register stores, and one
  // loop over register tiles of 4x4 blocks through a view of the buffer as [tile][row pair]
  // [register tile column][block][lane], each loading its blocks a row of four at a time,
  // running 16 SMMLA per chunk on them (a's and b's four operands one load each) and storing
  // them back.
  // CHECK-LABEL: tt.func @dot_i8mm_in_memory(
  // CHECK-DAG: %[[A_PACK:.+]] = memref.alloca() {alignment = 16 : i64} : memref<1x1x4x16xi8>
  // CHECK-DAG: %[[B_PACK:.+]] = memref.alloca() {alignment = 16 : i64} : memref<2x1x4x16xi8>
  // CHECK-DAG: %[[ACC:.+]] = memref.alloca() {alignment = 16 : i64} : memref<1x4x8x4xi32>
  // CHECK: %[[WHOLE:[0-9]+]] = vector.type_cast %[[ACC]] : memref<1x4x8x4xi32> to memref<vector<1x4x8x4xi32>>
  // CHECK: %[[BLOCKS:[0-9]+]] = tcpu.to_mmla_blocks %{{.*}} {column_stride = 8 : i64} : vector<8x16xi32> to vector<1x4x8x4xi32>
  // CHECK: memref.store %[[BLOCKS]], %[[WHOLE]][]
  // CHECK-COUNT-2: tcpu.store_vectors %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} into %[[B_PACK]]
  // CHECK: tcpu.store_vectors %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} into %[[A_PACK]]
  // CHECK: %[[TILES:.+]] = memref.expand_shape %[[ACC]] {{\[}}[0], [1], [2, 3], [4]] output_shape [1, 4, 2, 4, 4] : memref<1x4x8x4xi32> into memref<1x4x2x4x4xi32>
  // CHECK: scf.for %[[TILE:.+]] = %{{.*}} to %{{.*}} step %{{.*}} {
  // CHECK-COUNT-4: tcpu.load_vectors %[[TILES]][%[[MEMORY_TILE:[0-9]+]], %{{.*}}, %[[WITHIN:[0-9]+]], %{{.*}}, %{{.*}}] : memref<1x4x2x4x4xi32> -> vector<4xi32>, vector<4xi32>, vector<4xi32>, vector<4xi32>
  // CHECK: tcpu.load_vectors %[[A_PACK]]
  // CHECK: tcpu.load_vectors %[[B_PACK]]
  // CHECK-COUNT-16: tcpu.smmla
  // CHECK-COUNT-4: tcpu.store_vectors %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} into %[[TILES]][%[[MEMORY_TILE]], %{{.*}}, %[[WITHIN]],
  // CHECK: %[[RESULT:[0-9]+]] = memref.load %[[WHOLE]][]
  // CHECK: tcpu.from_mmla_blocks %[[RESULT]] {column_stride = 8 : i64} : vector<1x4x8x4xi32> to vector<8x16xi32>
  tt.func @dot_i8mm_in_memory(%a: tensor<8x8xi8>, %b: tensor<8x16xi8>, %c: tensor<8x16xi32>) -> tensor<8x16xi32> {
    %d = tt.dot %a, %b, %c : tensor<8x8xi8> * tensor<8x16xi8> -> tensor<8x16xi32>
    tt.return %d : tensor<8x16xi32>
  }

  // Dots summed into one another (the iterations of a K loop that tt-version-masked-loops runs
  // several at a time) are one dot: their operands packed one after another (6 chunks of 8 k)
  // and one loop over the tiles, whose chunks, more than 4, are a loop of their own carrying the
  // tile's 16 blocks (loaded and stored one by one, LDP/STP pairs in the backend), two chunks
  // an iteration: the operands from two pointers the loop carries (into the packed buffers, as
  // GEPs of them), each stepped by a step hidden behind an empty inline asm after each LD1, so
  // that the backend post-increments both (38 instructions per 32 SMMLA). Each packed list's
  // tile index starts from a zero an empty inline asm returns (from a lane of an operand), so
  // LLVM computes each list's address where it is stored instead of hoisting all of them.
  // CHECK-LABEL: tt.func @dot_i8mm_summed(
  // CHECK-DAG: %[[A_PACK:.+]] = memref.alloca() {alignment = 16 : i64} : memref<1x6x4x16xi8>
  // CHECK-DAG: %[[B_PACK:.+]] = memref.alloca() {alignment = 16 : i64} : memref<2x6x4x16xi8>
  // CHECK: %[[START:.+]] = llvm.inline_asm "", "=r,0,r" %{{.*}}, %{{.*}} : (i64, i64) -> i64
  // CHECK: %[[FROM:.+]] = arith.index_cast %[[START]] : i64 to index
  // CHECK: %[[LIST:.+]] = arith.addi %[[FROM]], %{{.*}} : index
  // CHECK: tcpu.store_vectors %{{.*}} into %{{.*}}[%[[LIST]], %{{.*}}, %{{.*}}, %{{.*}}]
  // CHECK: scf.for %[[TILE:.+]] = %{{.*}} to %{{.*}} step %{{.*}} {
  // CHECK-COUNT-16: tcpu.load_vectors %{{.*}}[%[[MEMORY_TILE:[0-9]+]], %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}] : memref<1x4x2x4x4xi32> -> vector<4xi32>
  // CHECK: %[[A_STEP:.+]] = llvm.inline_asm "", "=r,0" %{{.*}} : (i64) -> i64
  // CHECK: %[[B_STEP:.+]] = llvm.inline_asm "", "=r,0" %{{.*}} : (i64) -> i64
  // CHECK: %[[A_FIRST:.+]] = tcpu.buffer_pointer %[[A_PACK]][%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}] : memref<1x6x4x16xi8> -> !llvm.ptr
  // CHECK: %[[B_FIRST:.+]] = tcpu.buffer_pointer %[[B_PACK]][%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}] : memref<2x6x4x16xi8> -> !llvm.ptr
  // CHECK: scf.for %{{.*}} = %{{.*}} to %c3{{.*}} step %{{.*}} iter_args({{.*}}%[[A:[a-z0-9]+]] = %[[A_FIRST]], %[[B:[a-z0-9]+]] = %[[B_FIRST]])
  // CHECK:   tcpu.load_vectors %[[A]][] : !llvm.ptr -> vector<16xi8>, vector<16xi8>, vector<16xi8>, vector<16xi8>
  // CHECK:   tcpu.load_vectors %[[B]][] : !llvm.ptr -> vector<16xi8>, vector<16xi8>, vector<16xi8>, vector<16xi8>
  // CHECK:   %[[A1:.+]] = llvm.getelementptr %[[A]][%[[A_STEP]]] : (!llvm.ptr, i64) -> !llvm.ptr, i8
  // CHECK:   %[[B1:.+]] = llvm.getelementptr %[[B]][%[[B_STEP]]] : (!llvm.ptr, i64) -> !llvm.ptr, i8
  // CHECK-COUNT-16: tcpu.smmla
  // CHECK:   tcpu.load_vectors %[[A1]][] : !llvm.ptr
  // CHECK:   tcpu.load_vectors %[[B1]][] : !llvm.ptr
  // CHECK-COUNT-16: tcpu.smmla
  // CHECK: scf.yield
  // CHECK-COUNT-16: tcpu.store_vectors %{{.*}} into %{{.*}}[%[[MEMORY_TILE]],
  // CHECK-NOT: tcpu.smmla
  // CHECK-NOT: tt.dot
  // CHECK: tt.return
  tt.func @dot_i8mm_summed(%a0: tensor<8x24xi8>, %b0: tensor<24x16xi8>, %a1: tensor<8x24xi8>, %b1: tensor<24x16xi8>, %c: tensor<8x16xi32>) -> tensor<8x16xi32> {
    %d0 = tt.dot %a0, %b0, %c : tensor<8x24xi8> * tensor<24x16xi8> -> tensor<8x16xi32>
    %d1 = tt.dot %a1, %b1, %d0 : tensor<8x24xi8> * tensor<24x16xi8> -> tensor<8x16xi32>
    tt.return %d1 : tensor<8x16xi32>
  }

  // With K = 16 a's rows are whole q registers: the first chunk of a row pair (both rows' low
  // halves) is a TBL of the two rows, the second a ZIP2 (LLVM makes the ZIP1 a copy and an
  // INS).
  // CHECK-LABEL: tt.func @dot_i8mm_in_memory_k16(
  // CHECK: %[[PAIR_LOW:.+]] = arith.constant dense<[0, 1, 2, 3, 4, 5, 6, 7, 16, 17, 18, 19, 20, 21, 22, 23]> : vector<16xi8>
  // CHECK: tcpu.lookup_bytes %[[ROW0:[0-9]+]], %[[ROW1:[0-9]+]][%[[PAIR_LOW]]]
  // CHECK: vector.shuffle %[[ROW0]], %[[ROW1]] [8, 9, 10, 11, 12, 13, 14, 15, 24, 25, 26, 27, 28, 29, 30, 31] : vector<16xi8>, vector<16xi8>
  tt.func @dot_i8mm_in_memory_k16(%a: tensor<8x16xi8>, %b: tensor<16x16xi8>, %c: tensor<8x16xi32>) -> tensor<8x16xi32> {
    %d = tt.dot %a, %b, %c : tensor<8x16xi8> * tensor<16x16xi8> -> tensor<8x16xi32>
    tt.return %d : tensor<8x16xi32>
  }

  // b as the transpose of an [N, K] tile (tl.dot(x, tl.trans(w)), x times a weight matrix):
  // b's SMMLA operands are pairs of w's rows like a's, one shuffle each, with no byte
  // transpose; with 2x2 blocks (4 of them, in registers) the loop runs one 8-k chunk of every
  // block at a time.
  // TRANS-LABEL: tt.func @dot_i8mm_transposed(
  // TRANS-COUNT-4: vector.shuffle %{{.*}}, %{{.*}} [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15] : vector<8xi8>, vector<8xi8>
  // TRANS-NOT: vector.shuffle
  // TRANS-COUNT-4: tcpu.smmla
  // TRANS: tcpu.from_mmla_blocks %{{.*}} {column_stride = 1 : i64}
  tt.func @dot_i8mm_transposed(%a: tensor<4x8xi8>, %w: tensor<4x8xi8>, %c: tensor<4x4xi32>) -> tensor<4x4xi32> {
    %b = tt.trans %w {order = array<i32: 1, 0>} : tensor<4x8xi8> -> tensor<8x4xi8>
    %d = tt.dot %a, %b, %c : tensor<4x8xi8> * tensor<8x4xi8> -> tensor<4x4xi32>
    tt.return %d : tensor<4x4xi32>
  }

  // The same target, the hint asking for outer products.
  // CHECK-LABEL: tt.func @dot_hint_fma(
  // CHECK-NOT: tcpu.smmla
  // CHECK-COUNT-8: vector.outerproduct %{{.*}}, %{{.*}}, %{{.*}} {kind = #vector.kind<add>} : vector<4xi32>, vector<4xi32>
  // CHECK: tt.return
  tt.func @dot_hint_fma(%a: tensor<4x8xi8>, %b: tensor<8x4xi8>, %c: tensor<4x4xi32>) -> tensor<4x4xi32> {
    %d = tt.dot %a, %b, %c {tcpu.hints = {dot = "fma"}} : tensor<4x8xi8> * tensor<8x4xi8> -> tensor<4x4xi32>
    tt.return %d : tensor<4x4xi32>
  }
}

// -----

module attributes {tcpu.target = #tcpu.target<arch = "armv8.2-a", features = ["dotprod"], vector_bits = 0>} {
  // CHECK-LABEL: tt.func @dot_dotprod(
  // CHECK-NOT: tcpu.smmla
  // CHECK-COUNT-8: tcpu.sdot %{{.*}}, %{{.*}}, %{{.*}} : vector<16xi8> into vector<4xi32>
  // CHECK-NOT: tcpu.sdot
  // CHECK-NOT: vector.outerproduct
  // CHECK: tt.return
  tt.func @dot_dotprod(%a: tensor<4x8xi8>, %b: tensor<8x4xi8>, %c: tensor<4x4xi32>) -> tensor<4x4xi32> {
    %d = tt.dot %a, %b, %c : tensor<4x8xi8> * tensor<8x4xi8> -> tensor<4x4xi32>
    tt.return %d : tensor<4x4xi32>
  }
}

// -----

// No target: the Armv8-A baseline.
module {
  // CHECK-LABEL: tt.func @dot_baseline(
  // CHECK: arith.extsi %{{.*}} : vector<4x8xi8> to vector<4x8xi32>
  // CHECK: arith.extsi %{{.*}} : vector<8x4xi8> to vector<8x4xi32>
  // CHECK: vector.transpose %{{.*}}, [1, 0] : vector<4x8xi32> to vector<8x4xi32>
  // CHECK-COUNT-8: vector.outerproduct %{{.*}}, %{{.*}}, %{{.*}} {kind = #vector.kind<add>} : vector<4xi32>, vector<4xi32>
  // CHECK-NOT: tcpu.sdot
  // CHECK-NOT: tcpu.smmla
  tt.func @dot_baseline(%a: tensor<4x8xi8>, %b: tensor<8x4xi8>, %c: tensor<4x4xi32>) -> tensor<4x4xi32> {
    %d = tt.dot %a, %b, %c : tensor<4x8xi8> * tensor<8x4xi8> -> tensor<4x4xi32>
    tt.return %d : tensor<4x4xi32>
  }

  // CHECK-LABEL: tt.func @dot_f32(
  // CHECK: vector.transpose %{{.*}}, [1, 0] : vector<2x4xf32> to vector<4x2xf32>
  // CHECK-COUNT-4: vector.outerproduct %{{.*}}, %{{.*}}, %{{.*}} {kind = #vector.kind<add>} : vector<2xf32>, vector<8xf32>
  // CHECK-NOT: vector.outerproduct
  tt.func @dot_f32(%a: tensor<2x4xf32>, %b: tensor<4x8xf32>, %c: tensor<2x8xf32>) -> tensor<2x8xf32> {
    %d = tt.dot %a, %b, %c, inputPrecision = tf32 : tensor<2x4xf32> * tensor<4x8xf32> -> tensor<2x8xf32>
    tt.return %d : tensor<2x8xf32>
  }

  // CHECK-LABEL: tt.func @dot_bf16(
  // CHECK: arith.extf %{{.*}} : vector<2x4xbf16> to vector<2x4xf32>
  // CHECK: arith.extf %{{.*}} : vector<4x8xbf16> to vector<4x8xf32>
  // CHECK-COUNT-4: vector.outerproduct %{{.*}}, %{{.*}}, %{{.*}} {kind = #vector.kind<add>} : vector<2xf32>, vector<8xf32>
  tt.func @dot_bf16(%a: tensor<2x4xbf16>, %b: tensor<4x8xbf16>, %c: tensor<2x8xf32>) -> tensor<2x8xf32> {
    %d = tt.dot %a, %b, %c : tensor<2x4xbf16> * tensor<4x8xbf16> -> tensor<2x8xf32>
    tt.return %d : tensor<2x8xf32>
  }
}

// -----

module {
  // CHECK-LABEL: tt.func @dot_fp8(
  // CHECK: arith.extui %{{.*}} : vector<2x4xi8> to vector<2x4xi16>
  // CHECK: arith.extf %{{.*}} : vector<2x4xf16> to vector<2x4xf32>
  // CHECK: arith.mulf
  // e5m2 is the upper byte of an f16: a shift and an extf.
  // CHECK: arith.extui %{{.*}} : vector<4x8xi8> to vector<4x8xi16>
  // CHECK: arith.shli
  // CHECK: arith.bitcast %{{.*}} : vector<4x8xi16> to vector<4x8xf16>
  // CHECK: arith.extf %{{.*}} : vector<4x8xf16> to vector<4x8xf32>
  // CHECK-COUNT-4: vector.outerproduct %{{.*}}, %{{.*}}, %{{.*}} {kind = #vector.kind<add>} : vector<2xf32>, vector<8xf32>
  tt.func @dot_fp8(%a: tensor<2x4xf8E4M3FN>, %b: tensor<4x8xf8E5M2>, %c: tensor<2x8xf32>) -> tensor<2x8xf32> {
    %d = tt.dot %a, %b, %c : tensor<2x4xf8E4M3FN> * tensor<4x8xf8E5M2> -> tensor<2x8xf32>
    tt.return %d : tensor<2x8xf32>
  }
}

// -----

// bf16 x bf16 -> f32 with bf16: the SMMLA mechanism on tcpu.bfmmla. An operand is
// vector<8xbf16>, two rows of 4 k; b is transposed 8 columns at a time by two TRN stages on
// 16- and 32-bit lanes (column_stride 4); 8 blocks x 2 chunks of 4 k are 16 BFMMLA.
module attributes {tcpu.target = #tcpu.target<arch = "armv8.6-a", features = ["bf16"], vector_bits = 0>} {
  // CHECK-LABEL: tt.func @dot_bfmmla(
  // CHECK: tcpu.to_mmla_blocks %{{.*}} {column_stride = 4 : i64} : vector<4x8xf32> to vector<2x4x4xf32>
  // CHECK: vector.shuffle %{{.*}}, %{{.*}} [0, 8, 2, 10, 4, 12, 6, 14] : vector<8xbf16>, vector<8xbf16>
  // CHECK: vector.shuffle %{{.*}}, %{{.*}} [0, 1, 8, 9, 4, 5, 12, 13] : vector<8xbf16>, vector<8xbf16>
  // CHECK-COUNT-16: tcpu.bfmmla %{{.*}}, %{{.*}}, %{{.*}} : vector<8xbf16> into vector<4xf32>
  // CHECK-NOT: tcpu.bfmmla
  // CHECK-NOT: vector.outerproduct
  // CHECK: tcpu.from_mmla_blocks %{{.*}} {column_stride = 4 : i64} : vector<2x4x4xf32> to vector<4x8xf32>
  tt.func @dot_bfmmla(%a: tensor<4x8xbf16>, %b: tensor<8x8xbf16>, %c: tensor<4x8xf32>) -> tensor<4x8xf32> {
    %d = tt.dot %a, %b, %c : tensor<4x8xbf16> * tensor<8x8xbf16> -> tensor<4x8xf32>
    tt.return %d : tensor<4x8xf32>
  }

  // fp8 x fp8 -> f32 (either format each): both tiles widened to bf16, exactly (the upper
  // half of each value's f32 bits), then the same 16 BFMMLA.
  // CHECK-LABEL: tt.func @dot_fp8_bfmmla(
  // CHECK: %[[A:.*]] = arith.bitcast %{{.*}} : vector<4x8xi16> to vector<4x8xbf16>
  // CHECK: %[[B:.*]] = arith.bitcast %{{.*}} : vector<8x8xi16> to vector<8x8xbf16>
  // CHECK-COUNT-16: tcpu.bfmmla %{{.*}}, %{{.*}}, %{{.*}} : vector<8xbf16> into vector<4xf32>
  // CHECK-NOT: tcpu.bfmmla
  // CHECK-NOT: vector.outerproduct
  // CHECK: tcpu.from_mmla_blocks
  tt.func @dot_fp8_bfmmla(%a: tensor<4x8xf8E4M3FN>, %b: tensor<8x8xf8E5M2>, %c: tensor<4x8xf32>) -> tensor<4x8xf32> {
    %d = tt.dot %a, %b, %c : tensor<4x8xf8E4M3FN> * tensor<8x8xf8E5M2> -> tensor<4x8xf32>
    tt.return %d : tensor<4x8xf32>
  }

  // 32 blocks: the accumulator in a stack buffer of f32 tiles, the operands packed as
  // [tile][chunk][4 pairs or columns][8 bf16], 16 BFMMLA per chunk and tile; K = 16 gives a's
  // rows whole q registers, so a row pair's first chunk is a TBL of the rows as bytes.
  // CHECK-LABEL: tt.func @dot_bfmmla_in_memory(
  // CHECK-DAG: memref.alloca() {alignment = 16 : i64} : memref<1x4x4x8xbf16>
  // CHECK-DAG: memref.alloca() {alignment = 16 : i64} : memref<2x4x4x8xbf16>
  // CHECK-DAG: memref.alloca() {alignment = 16 : i64} : memref<1x4x8x4xf32>
  // CHECK: tcpu.lookup_bytes
  // CHECK: scf.for
  // CHECK-COUNT-64: tcpu.bfmmla
  // CHECK-NOT: tcpu.bfmmla
  // CHECK: tcpu.from_mmla_blocks
  tt.func @dot_bfmmla_in_memory(%a: tensor<8x16xbf16>, %b: tensor<16x16xbf16>, %c: tensor<8x16xf32>) -> tensor<8x16xf32> {
    %d = tt.dot %a, %b, %c : tensor<8x16xbf16> * tensor<16x16xbf16> -> tensor<8x16xf32>
    tt.return %d : tensor<8x16xf32>
  }

  // b as the transpose of an [N, K] tile: b's operands are pairs of w's rows, like a's.
  // TRANS-LABEL: tt.func @dot_bfmmla_transposed(
  // TRANS-COUNT-4: vector.shuffle %{{.*}}, %{{.*}} [0, 1, 2, 3, 8, 9, 10, 11] : vector<8xbf16>, vector<8xbf16>
  // TRANS-COUNT-4: tcpu.bfmmla
  // TRANS: tcpu.from_mmla_blocks %{{.*}} {column_stride = 1 : i64}
  tt.func @dot_bfmmla_transposed(%a: tensor<4x8xbf16>, %w: tensor<4x8xbf16>, %c: tensor<4x4xf32>) -> tensor<4x4xf32> {
    %b = tt.trans %w {order = array<i32: 1, 0>} : tensor<4x8xbf16> -> tensor<8x4xbf16>
    %d = tt.dot %a, %b, %c : tensor<4x8xbf16> * tensor<8x4xbf16> -> tensor<4x4xf32>
    tt.return %d : tensor<4x4xf32>
  }

  // An accumulator over 8 rows and two registers of columns runs by blocks of 8x8, every k of
  // a block before the next (so a block is read and written once when the accumulator is in
  // memory).
  // CHECK-LABEL: tt.func @dot_outer_product_blocks(
  // CHECK: %[[C:.*]] = builtin.unrealized_conversion_cast %{{.*}} : tensor<16x16xf32> to vector<16x16xf32>
  // CHECK: vector.extract_strided_slice %[[C]] {offsets = [0, 0], sizes = [8, 8], strides = [1, 1]}
  // CHECK-COUNT-2: vector.outerproduct %{{.*}}, %{{.*}}, %{{.*}} {kind = #vector.kind<add>} : vector<8xf32>, vector<8xf32>
  // CHECK: vector.insert_strided_slice %{{.*}}, %{{.*}} {offsets = [0, 0], strides = [1, 1]} : vector<8x8xf32> into vector<16x16xf32>
  // CHECK: vector.extract_strided_slice %{{.*}} {offsets = [0, 8], sizes = [8, 8], strides = [1, 1]}
  // CHECK-COUNT-2: vector.outerproduct
  // CHECK: vector.insert_strided_slice %{{.*}}, %{{.*}} {offsets = [0, 8], strides = [1, 1]}
  // CHECK: vector.extract_strided_slice %{{.*}} {offsets = [8, 0], sizes = [8, 8], strides = [1, 1]}
  // CHECK-COUNT-2: vector.outerproduct
  // CHECK: vector.insert_strided_slice %{{.*}}, %{{.*}} {offsets = [8, 0], strides = [1, 1]}
  // CHECK: vector.extract_strided_slice %{{.*}} {offsets = [8, 8], sizes = [8, 8], strides = [1, 1]}
  // CHECK-COUNT-2: vector.outerproduct
  // CHECK: vector.insert_strided_slice %{{.*}}, %{{.*}} {offsets = [8, 8], strides = [1, 1]}
  // CHECK-NOT: vector.outerproduct
  // CHECK: tt.return
  tt.func @dot_outer_product_blocks(%a: tensor<16x2xf32>, %b: tensor<2x16xf32>, %c: tensor<16x16xf32>) -> tensor<16x16xf32> {
    %d = tt.dot %a, %b, %c : tensor<16x2xf32> * tensor<2x16xf32> -> tensor<16x16xf32>
    tt.return %d : tensor<16x16xf32>
  }

  // K not a multiple of 4, an f16 dot and a bf16 result keep the outer products.
  // CHECK-LABEL: tt.func @dot_bf16_outer_products(
  // CHECK-NOT: tcpu.bfmmla
  // CHECK-COUNT-6: vector.outerproduct %{{.*}}, %{{.*}}, %{{.*}} {kind = #vector.kind<add>} : vector<2xf32>, vector<8xf32>
  // CHECK-COUNT-4: vector.outerproduct %{{.*}}, %{{.*}}, %{{.*}} {kind = #vector.kind<add>} : vector<2xf32>, vector<8xf32>
  // CHECK-COUNT-4: vector.outerproduct %{{.*}}, %{{.*}}, %{{.*}} {kind = #vector.kind<add>} : vector<2xf32>, vector<8xf32>
  // CHECK-NOT: tcpu.bfmmla
  // CHECK: tt.return
  tt.func @dot_bf16_outer_products(%a6: tensor<2x6xbf16>, %b6: tensor<6x8xbf16>, %c: tensor<2x8xf32>,
                                   %ah: tensor<2x4xf16>, %bh: tensor<4x8xf16>,
                                   %ab: tensor<2x4xbf16>, %bb: tensor<4x8xbf16>, %cb: tensor<2x8xbf16>)
      -> (tensor<2x8xf32>, tensor<2x8xf32>, tensor<2x8xbf16>) {
    %d = tt.dot %a6, %b6, %c : tensor<2x6xbf16> * tensor<6x8xbf16> -> tensor<2x8xf32>
    %h = tt.dot %ah, %bh, %c : tensor<2x4xf16> * tensor<4x8xf16> -> tensor<2x8xf32>
    %e = tt.dot %ab, %bb, %cb : tensor<2x4xbf16> * tensor<4x8xbf16> -> tensor<2x8xbf16>
    tt.return %d, %h, %e : tensor<2x8xf32>, tensor<2x8xf32>, tensor<2x8xbf16>
  }
}

// -----

module attributes {tcpu.target = #tcpu.target<arch = "armv8.6-a", features = ["bf16"], vector_bits = 0>} {
  tt.func @dot_hint_bfmmla_misfit(%a: tensor<2x6xbf16>, %b: tensor<6x8xbf16>, %c: tensor<2x8xf32>) -> tensor<2x8xf32> {
    // expected-error @+2 {{failed to legalize operation 'tt.dot'}}
    // expected-error @+1 {{hint dot = "bfmmla" needs 2-D bf16 x bf16 or fp8 x fp8 -> f32 with M and N even and K a multiple of 4; got 2x6 x 6x8 of 'bf16' into 'f32'}}
    %d = tt.dot %a, %b, %c {tcpu.hints = {dot = "bfmmla"}} : tensor<2x6xbf16> * tensor<6x8xbf16> -> tensor<2x8xf32>
    tt.return %d : tensor<2x8xf32>
  }
}
