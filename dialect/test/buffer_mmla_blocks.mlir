// tcpu-buffer-mmla-blocks: a stack buffer of an MMLA accumulator's rows (tcpu.from_mmla_blocks,
// flattened), stored whole and then read element by element (tt-to-tcpu-atomics' loops), is
// read where the blocks lie instead. While the blocks are still in the accumulator's own buffer
// the reads go there (through a 1-D view of it) and nothing is stored; otherwise the blocks
// are stored in place of the rows. A read at row * N + column takes block (row / 2, t) of
// column c = 2 stride (t / stride) + t % stride + j stride, lane 2 (row % 2) + j: a part of the
// row plus a part of the column.
// RUN: tcpu-opt %s --tcpu-buffer-mmla-blocks --canonicalize | FileCheck %s

module {
  // An 8x32 accumulator in tiles of 4 row pairs by all 16 blocks (tt-to-tcpu-dot's layout when
  // a row pair's blocks fit 256 bytes), column stride 8: the rows' buffer goes, and row r's
  // lane c is element 64 (r / 2) + 2 (r % 2) + 4 (8 (c / 16) + c % 8) + (c % 16) / 8.
  // CHECK-LABEL: func.func @reads_in_place(
  // CHECK: %[[ACC:.+]] = memref.alloca() {alignment = 16 : i64} : memref<1x4x16x4xi32>
  // CHECK: %[[FLAT:.+]] = memref.collapse_shape %[[ACC]] {{\[}}[0, 1, 2, 3]] : memref<1x4x16x4xi32> into memref<256xi32>
  // CHECK-NOT: tcpu.from_mmla_blocks
  // CHECK-NOT: vector.store
  // CHECK: scf.for %[[ROW:.+]] = %{{.*}} to %{{.*}} step %{{.*}} {
  // CHECK: scf.for %[[LANE:.+]] = %{{.*}} to %{{.*}} step %{{.*}} {
  // CHECK-DAG: arith.divui %[[ROW]], %c2 : index
  // CHECK-DAG: arith.remui %[[ROW]], %c2 : index
  // CHECK-DAG: arith.remui %[[LANE]], %c16 : index
  // CHECK-DAG: arith.divui %[[LANE]], %c16 : index
  // CHECK: memref.load %[[FLAT]][%{{.+}}] : memref<256xi32>
  func.func @reads_in_place(%init: vector<1x4x16x4xi32>, %out: memref<256xi32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %c32 = arith.constant 32 : index
    %acc = memref.alloca() {alignment = 16 : i64} : memref<1x4x16x4xi32>
    %whole = vector.type_cast %acc : memref<1x4x16x4xi32> to memref<vector<1x4x16x4xi32>>
    memref.store %init, %whole[] : memref<vector<1x4x16x4xi32>>
    %blocks = memref.load %whole[] : memref<vector<1x4x16x4xi32>>
    %rows = tcpu.from_mmla_blocks %blocks {column_stride = 8 : i64} : vector<1x4x16x4xi32> to vector<8x32xi32>
    %flat = vector.shape_cast %rows : vector<8x32xi32> to vector<256xi32>
    %lanes = memref.alloca() : memref<256xi32>
    vector.store %flat, %lanes[%c0] : memref<256xi32>, vector<256xi32>
    scf.for %row = %c0 to %c8 step %c1 {
      %start = arith.muli %row, %c32 : index
      scf.for %lane = %c0 to %c32 step %c1 {
        %index = arith.addi %start, %lane : index
        %v = memref.load %lanes[%index] : memref<256xi32>
        memref.store %v, %out[%index] : memref<256xi32>
      }
    }
    return
  }

  // The same reads after a store into the accumulator's buffer: the blocks it held are gone, so
  // they are stored (flattened) into the rows' buffer, and the reads take them there.
  // CHECK-LABEL: func.func @stored_after_a_write(
  // CHECK: %[[LANES:.+]] = memref.alloca() : memref<256xi32>
  // CHECK: %[[BLOCKS:.+]] = vector.shape_cast %{{.*}} : vector<1x4x16x4xi32> to vector<256xi32>
  // CHECK: vector.store %[[BLOCKS]], %[[LANES]][%{{.*}}] : memref<256xi32>, vector<256xi32>
  // CHECK-NOT: tcpu.from_mmla_blocks
  // CHECK: memref.load %[[LANES]][%{{.*}}] : memref<256xi32>
  func.func @stored_after_a_write(%init: vector<1x4x16x4xi32>, %other: vector<1x4x16x4xi32>,
                                  %out: memref<256xi32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %c32 = arith.constant 32 : index
    %acc = memref.alloca() {alignment = 16 : i64} : memref<1x4x16x4xi32>
    %whole = vector.type_cast %acc : memref<1x4x16x4xi32> to memref<vector<1x4x16x4xi32>>
    memref.store %init, %whole[] : memref<vector<1x4x16x4xi32>>
    %blocks = memref.load %whole[] : memref<vector<1x4x16x4xi32>>
    %rows = tcpu.from_mmla_blocks %blocks {column_stride = 8 : i64} : vector<1x4x16x4xi32> to vector<8x32xi32>
    %flat = vector.shape_cast %rows : vector<8x32xi32> to vector<256xi32>
    memref.store %other, %whole[] : memref<vector<1x4x16x4xi32>>
    %lanes = memref.alloca() : memref<256xi32>
    vector.store %flat, %lanes[%c0] : memref<256xi32>, vector<256xi32>
    scf.for %row = %c0 to %c8 step %c1 {
      %start = arith.muli %row, %c32 : index
      scf.for %lane = %c0 to %c32 step %c1 {
        %index = arith.addi %start, %lane : index
        %v = memref.load %lanes[%index] : memref<256xi32>
        memref.store %v, %out[%index] : memref<256xi32>
      }
    }
    return
  }

  // BFMMLA's f32 blocks pair columns 4 apart (column stride 4): row 3, column 13 of a 4x16
  // tile (element 61 of the rows) is lane 2 (3 % 2) + 1 of block (1, 4 (13 / 8) + 13 % 4) = (1, 5),
  // element 4 (1 * 8 + 5) + 3 = 55 of the blocks.
  // CHECK-LABEL: func.func @one_lane_f32(
  // CHECK-DAG: %[[C55:.+]] = arith.constant 55 : index
  // CHECK-DAG: %[[FLAT:.+]] = memref.collapse_shape %{{.*}} {{\[}}[0, 1, 2, 3]] : memref<1x2x8x4xf32> into memref<64xf32>
  // CHECK: %[[V:.+]] = memref.load %[[FLAT]][%[[C55]]] : memref<64xf32>
  // CHECK: return %[[V]]
  func.func @one_lane_f32(%init: vector<1x2x8x4xf32>) -> f32 {
    %c0 = arith.constant 0 : index
    %c3 = arith.constant 3 : index
    %c13 = arith.constant 13 : index
    %c16 = arith.constant 16 : index
    %acc = memref.alloca() {alignment = 16 : i64} : memref<1x2x8x4xf32>
    %whole = vector.type_cast %acc : memref<1x2x8x4xf32> to memref<vector<1x2x8x4xf32>>
    memref.store %init, %whole[] : memref<vector<1x2x8x4xf32>>
    %blocks = memref.load %whole[] : memref<vector<1x2x8x4xf32>>
    %rows = tcpu.from_mmla_blocks %blocks {column_stride = 4 : i64} : vector<1x2x8x4xf32> to vector<4x16xf32>
    %flat = vector.shape_cast %rows : vector<4x16xf32> to vector<64xf32>
    %lanes = memref.alloca() : memref<64xf32>
    vector.store %flat, %lanes[%c0] : memref<64xf32>, vector<64xf32>
    %start = arith.muli %c3, %c16 : index
    %index = arith.addi %start, %c13 : index
    %v = memref.load %lanes[%index] : memref<64xf32>
    return %v : f32
  }

  // Rows read other than lane by lane (a vector load) keep their buffer and the conversion.
  // CHECK-LABEL: func.func @vector_reads_keep_rows(
  // CHECK: tcpu.from_mmla_blocks
  // CHECK: vector.load
  func.func @vector_reads_keep_rows(%init: vector<1x4x16x4xi32>) -> vector<4xi32> {
    %c0 = arith.constant 0 : index
    %acc = memref.alloca() {alignment = 16 : i64} : memref<1x4x16x4xi32>
    %whole = vector.type_cast %acc : memref<1x4x16x4xi32> to memref<vector<1x4x16x4xi32>>
    memref.store %init, %whole[] : memref<vector<1x4x16x4xi32>>
    %blocks = memref.load %whole[] : memref<vector<1x4x16x4xi32>>
    %rows = tcpu.from_mmla_blocks %blocks {column_stride = 8 : i64} : vector<1x4x16x4xi32> to vector<8x32xi32>
    %flat = vector.shape_cast %rows : vector<8x32xi32> to vector<256xi32>
    %lanes = memref.alloca() : memref<256xi32>
    vector.store %flat, %lanes[%c0] : memref<256xi32>, vector<256xi32>
    %v = vector.load %lanes[%c0] : memref<256xi32>, vector<4xi32>
    return %v : vector<4xi32>
  }

  // An 8x64 accumulator in two columns of memory tiles, each 4 row pairs by 16 blocks (256
  // bytes a row pair: tt-to-tcpu-dot's layout for 32 blocks a row pair). Reads at constant
  // columns: column 3 lies in the first column of tiles (element 64 (r / 2) + 2 (r % 2) + 12),
  // column 40 in the second (block 16, lane j = 1: 256 + 64 (r / 2) + 2 (r % 2) + 1), its 256
  // hidden from the backend behind an empty inline asm, so that the second column of tiles is
  // read from a base of its own (LDP reaches 252 bytes).
  // CHECK-LABEL: func.func @columns_of_tiles(
  // CHECK: %[[ACC:.+]] = memref.alloca() {alignment = 16 : i64} : memref<2x4x16x4xi32>
  // CHECK: %[[FLAT:.+]] = memref.collapse_shape %[[ACC]]
  // CHECK: %[[ASM:.+]] = llvm.inline_asm "", "=r,0" %c256_i64 : (i64) -> i64
  // CHECK: %[[HIDDEN:.+]] = arith.index_cast %[[ASM]] : i64 to index
  // CHECK: scf.for %[[ROW:.+]] = %{{.*}} to %{{.*}} step %{{.*}} {
  // CHECK:   %[[PAIR:.+]] = arith.divui %[[ROW]], %c2 : index
  // CHECK:   memref.load %[[FLAT]][%{{.+}}] : memref<512xi32>
  // CHECK:   %[[SECOND:.+]] = arith.addi %[[HIDDEN]], %{{.+}} : index
  // CHECK:   %[[LANE:.+]] = arith.addi %[[SECOND]], %c1 : index
  // CHECK:   memref.load %[[FLAT]][%[[LANE]]] : memref<512xi32>
  func.func @columns_of_tiles(%init: vector<2x4x16x4xi32>, %out: memref<512xi32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    %c8 = arith.constant 8 : index
    %c40 = arith.constant 40 : index
    %c64 = arith.constant 64 : index
    %acc = memref.alloca() {alignment = 16 : i64} : memref<2x4x16x4xi32>
    %whole = vector.type_cast %acc : memref<2x4x16x4xi32> to memref<vector<2x4x16x4xi32>>
    memref.store %init, %whole[] : memref<vector<2x4x16x4xi32>>
    %blocks = memref.load %whole[] : memref<vector<2x4x16x4xi32>>
    %rows = tcpu.from_mmla_blocks %blocks {column_stride = 8 : i64} : vector<2x4x16x4xi32> to vector<8x64xi32>
    %flat = vector.shape_cast %rows : vector<8x64xi32> to vector<512xi32>
    %lanes = memref.alloca() : memref<512xi32>
    vector.store %flat, %lanes[%c0] : memref<512xi32>, vector<512xi32>
    scf.for %row = %c0 to %c8 step %c1 {
      %start = arith.muli %row, %c64 : index
      %first = arith.addi %start, %c3 : index
      %v = memref.load %lanes[%first] : memref<512xi32>
      memref.store %v, %out[%first] : memref<512xi32>
      %second = arith.addi %start, %c40 : index
      %w = memref.load %lanes[%second] : memref<512xi32>
      memref.store %w, %out[%second] : memref<512xi32>
    }
    return
  }
}
