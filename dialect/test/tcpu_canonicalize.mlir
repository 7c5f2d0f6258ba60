// The tcpu dialect's correction of MLIR 19's canonicalization of a slice of a broadcast: the
// broadcast's source is sliced only along the dimensions it has whole; a unit dimension the
// broadcast stretches stays 1 (upstream slices it with the slice's size: invalid IR).
// RUN: tcpu-opt %s --canonicalize | FileCheck %s

module attributes {tcpu.target = #tcpu.target<arch = "armv8-a", features = [], vector_bits = 0>} {
  // CHECK-LABEL: func.func @stretched_row(
  // CHECK-SAME: %[[ROW:.*]]: vector<1x8xi32>
  func.func @stretched_row(%row: vector<1x8xi32>) -> (vector<2x4xi32>, vector<2x4xi32>) {
    // CHECK: %[[LOW:.*]] = vector.extract_strided_slice %[[ROW]] {offsets = [0, 0], sizes = [1, 4], strides = [1, 1]} : vector<1x8xi32> to vector<1x4xi32>
    // CHECK: vector.broadcast %[[LOW]] : vector<1x4xi32> to vector<2x4xi32>
    // CHECK: %[[HIGH:.*]] = vector.extract_strided_slice %[[ROW]] {offsets = [0, 4], sizes = [1, 4], strides = [1, 1]} : vector<1x8xi32> to vector<1x4xi32>
    // CHECK: vector.broadcast %[[HIGH]] : vector<1x4xi32> to vector<2x4xi32>
    %b = vector.broadcast %row : vector<1x8xi32> to vector<2x8xi32>
    %low = vector.extract_strided_slice %b {offsets = [0, 0], sizes = [2, 4], strides = [1, 1]} : vector<2x8xi32> to vector<2x4xi32>
    %high = vector.extract_strided_slice %b {offsets = [0, 4], sizes = [2, 4], strides = [1, 1]} : vector<2x8xi32> to vector<2x4xi32>
    return %low, %high : vector<2x4xi32>, vector<2x4xi32>
  }

  // A column broadcast along the rows, sliced along the rows: the source keeps its column.
  // CHECK-LABEL: func.func @stretched_column(
  // CHECK-SAME: %[[COL:.*]]: vector<4x1xf32>
  func.func @stretched_column(%col: vector<4x1xf32>) -> vector<2x8xf32> {
    // CHECK: %[[S:.*]] = vector.extract_strided_slice %[[COL]] {offsets = [2, 0], sizes = [2, 1], strides = [1, 1]} : vector<4x1xf32> to vector<2x1xf32>
    // CHECK: vector.broadcast %[[S]] : vector<2x1xf32> to vector<2x8xf32>
    %b = vector.broadcast %col : vector<4x1xf32> to vector<4x8xf32>
    %s = vector.extract_strided_slice %b {offsets = [2, 0], sizes = [2, 8], strides = [1, 1]} : vector<4x8xf32> to vector<2x8xf32>
    return %s : vector<2x8xf32>
  }
}
