// tcpu.to_mmla_blocks / tcpu.from_mmla_blocks: block (p, t) holds rows 2p, 2p+1 of columns
// c0(t), c1(t) (column_stride 1: neighbours; 2: t and t + 2 within each group of 4).
// tcpu-lower-vector-ops turns them into shuffles of rows; a conversion and its inverse fold
// away; the verifier names the shape it expected.
// RUN: tcpu-opt %s --split-input-file --tcpu-lower-vector-ops | FileCheck %s --check-prefix=LOWER
// RUN: tcpu-opt %s --split-input-file --canonicalize | FileCheck %s --check-prefix=FOLD

// LOWER-LABEL: func.func @to_blocks(
// LOWER: %[[R0:[0-9]+]] = vector.extract %arg0[0] : vector<4xi32> from vector<2x4xi32>
// LOWER: %[[R1:[0-9]+]] = vector.extract %arg0[1] : vector<4xi32> from vector<2x4xi32>
// LOWER: vector.shuffle %[[R0]], %[[R1]] [0, 1, 4, 5] : vector<4xi32>, vector<4xi32>
// LOWER: vector.shuffle %[[R0]], %[[R1]] [2, 3, 6, 7] : vector<4xi32>, vector<4xi32>
// LOWER-NOT: tcpu.to_mmla_blocks
// FOLD-LABEL: func.func @to_blocks(
// FOLD: tcpu.to_mmla_blocks
func.func @to_blocks(%c: vector<2x4xi32>) -> vector<1x2x4xi32> {
  %b = tcpu.to_mmla_blocks %c {column_stride = 1 : i64} : vector<2x4xi32> to vector<1x2x4xi32>
  return %b : vector<1x2x4xi32>
}

// -----

// LOWER-LABEL: func.func @from_blocks(
// LOWER: %[[PAIR:[0-9]+]] = vector.shuffle %{{[0-9]+}}, %{{[0-9]+}} [0, 1, 2, 3, 4, 5, 6, 7]
// LOWER: vector.shuffle %[[PAIR]], %[[PAIR]] [0, 4, 1, 5] : vector<8xi32>, vector<8xi32>
// LOWER: vector.shuffle %[[PAIR]], %[[PAIR]] [2, 6, 3, 7] : vector<8xi32>, vector<8xi32>
// LOWER-NOT: tcpu.from_mmla_blocks
func.func @from_blocks(%b: vector<1x2x4xi32>) -> vector<2x4xi32> {
  %c = tcpu.from_mmla_blocks %b {column_stride = 2 : i64} : vector<1x2x4xi32> to vector<2x4xi32>
  return %c : vector<2x4xi32>
}

// -----

// Columns `stride` apart, stride a multiple of 4 (the BFMMLA and SMMLA accumulators' 4 and 8):
// each four blocks are a 4x4 transpose, TRN1/TRN2 of 32-bit lanes, then ZIP1/ZIP2 of 64-bit
// lanes give a quad of each row (here row 0: columns 0-3, 4-7; row 1 likewise), no wide gather.
// LOWER-LABEL: func.func @from_blocks_stride4(
// LOWER: %[[B0:[0-9]+]] = vector.extract %arg0[0, 0] : vector<4xf32> from vector<1x4x4xf32>
// LOWER: %[[B1:[0-9]+]] = vector.extract %arg0[0, 1] : vector<4xf32> from vector<1x4x4xf32>
// LOWER: %[[B2:[0-9]+]] = vector.extract %arg0[0, 2] : vector<4xf32> from vector<1x4x4xf32>
// LOWER: %[[B3:[0-9]+]] = vector.extract %arg0[0, 3] : vector<4xf32> from vector<1x4x4xf32>
// LOWER: %[[EVEN01:[0-9]+]] = vector.shuffle %[[B0]], %[[B1]] [0, 4, 2, 6]
// LOWER: %[[ODD01:[0-9]+]] = vector.shuffle %[[B0]], %[[B1]] [1, 5, 3, 7]
// LOWER: %[[EVEN23:[0-9]+]] = vector.shuffle %[[B2]], %[[B3]] [0, 4, 2, 6]
// LOWER: %[[ODD23:[0-9]+]] = vector.shuffle %[[B2]], %[[B3]] [1, 5, 3, 7]
// LOWER: %[[R0LO:[0-9]+]] = vector.shuffle %[[EVEN01]], %[[EVEN23]] [0, 1, 4, 5]
// LOWER: %[[R0HI:[0-9]+]] = vector.shuffle %[[ODD01]], %[[ODD23]] [0, 1, 4, 5]
// LOWER: %[[R1LO:[0-9]+]] = vector.shuffle %[[EVEN01]], %[[EVEN23]] [2, 3, 6, 7]
// LOWER: %[[R1HI:[0-9]+]] = vector.shuffle %[[ODD01]], %[[ODD23]] [2, 3, 6, 7]
// LOWER: %[[ROW0:[0-9]+]] = vector.shuffle %[[R0LO]], %[[R0HI]] [0, 1, 2, 3, 4, 5, 6, 7]
// LOWER: vector.insert %[[ROW0]], %{{.*}} [0] : vector<8xf32> into vector<2x8xf32>
// LOWER: %[[ROW1:[0-9]+]] = vector.shuffle %[[R1LO]], %[[R1HI]] [0, 1, 2, 3, 4, 5, 6, 7]
// LOWER: vector.insert %[[ROW1]], %{{.*}} [1] : vector<8xf32> into vector<2x8xf32>
// LOWER-NOT: tcpu.from_mmla_blocks
func.func @from_blocks_stride4(%b: vector<1x4x4xf32>) -> vector<2x8xf32> {
  %c = tcpu.from_mmla_blocks %b {column_stride = 4 : i64} : vector<1x4x4xf32> to vector<2x8xf32>
  return %c : vector<2x8xf32>
}

// -----

// FOLD-LABEL: func.func @round_trip(
// FOLD-NEXT: return %arg0 : vector<2x4xi32>
func.func @round_trip(%c: vector<2x4xi32>) -> vector<2x4xi32> {
  %b = tcpu.to_mmla_blocks %c {column_stride = 2 : i64} : vector<2x4xi32> to vector<1x2x4xi32>
  %d = tcpu.from_mmla_blocks %b {column_stride = 2 : i64} : vector<1x2x4xi32> to vector<2x4xi32>
  return %d : vector<2x4xi32>
}

// -----

// FOLD-LABEL: func.func @other_stride(
// FOLD: tcpu.to_mmla_blocks
// FOLD: tcpu.from_mmla_blocks
func.func @other_stride(%c: vector<2x4xi32>) -> vector<2x4xi32> {
  %b = tcpu.to_mmla_blocks %c {column_stride = 2 : i64} : vector<2x4xi32> to vector<1x2x4xi32>
  %d = tcpu.from_mmla_blocks %b {column_stride = 1 : i64} : vector<1x2x4xi32> to vector<2x4xi32>
  return %d : vector<2x4xi32>
}

// -----

// Tiles of R x C blocks (vector<TxRxCx4>, here 1x2 blocks): block (p, t) is block
// (p % R, t % C) of tile (p / R) * (N/2/C) + t / C, so each tile is contiguous in a buffer.
// LOWER-LABEL: func.func @to_tiles(
// LOWER: vector.insert %{{[0-9]+}}, %{{.*}} [0, 0, 0] : vector<4xi32> into vector<2x1x2x4xi32>
// LOWER: vector.insert %{{[0-9]+}}, %{{.*}} [0, 0, 1] : vector<4xi32> into vector<2x1x2x4xi32>
// LOWER: vector.insert %{{[0-9]+}}, %{{.*}} [1, 0, 0] : vector<4xi32> into vector<2x1x2x4xi32>
// LOWER: vector.insert %{{[0-9]+}}, %{{.*}} [1, 0, 1] : vector<4xi32> into vector<2x1x2x4xi32>
// LOWER-NOT: tcpu.to_mmla_blocks
// FOLD-LABEL: func.func @to_tiles(
// FOLD-NEXT: return %arg0 : vector<2x8xi32>
func.func @to_tiles(%c: vector<2x8xi32>) -> vector<2x8xi32> {
  %b = tcpu.to_mmla_blocks %c {column_stride = 1 : i64} : vector<2x8xi32> to vector<2x1x2x4xi32>
  %d = tcpu.from_mmla_blocks %b {column_stride = 1 : i64} : vector<2x1x2x4xi32> to vector<2x8xi32>
  return %d : vector<2x8xi32>
}
