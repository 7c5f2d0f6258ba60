// tcpu-zip-lane-loads: the ZIP1 / ZIP2 pair of 64-bit lanes that makes two SMMLA operands of
// two loaded rows becomes two LD2 lane loads (lane 0 from the first row, lane 1 from the
// second) just before the operands' first use, and the rows' loads go. Rows with another use,
// a lone ZIP1, and a store through a pointer in between keep their loads and zips.
// RUN: tcpu-opt %s --tcpu-zip-lane-loads | FileCheck %s

// Two 32-byte rows, four operands: each 16-byte part's pair is one group; the lane loads of
// the second part read 16 bytes in, and sit after the first part's SMMLAs.
// CHECK-LABEL: module attributes {tt.keep_op_order}
// CHECK-LABEL: func.func @row_pair(
// CHECK-SAME: %[[X:[^:]+]]: !llvm.ptr, %[[Y:[^:]+]]: !llvm.ptr
// CHECK-NOT: llvm.load
// CHECK: %[[P:.+]] = llvm.mlir.poison : vector<2xi64>
// CHECK: %[[L:.+]]:2 = tcpu.load_lanes %[[X]][0], %[[P]], %[[P]] : !llvm.ptr, vector<2xi64>, vector<2xi64> -> vector<2xi64>, vector<2xi64>
// CHECK: %[[B:.+]]:2 = tcpu.load_lanes %[[Y]][1], %[[L]]#0, %[[L]]#1
// CHECK: %[[Z1:.+]] = vector.bitcast %[[B]]#0 : vector<2xi64> to vector<16xi8>
// CHECK: %[[Z2:.+]] = vector.bitcast %[[B]]#1 : vector<2xi64> to vector<16xi8>
// CHECK: %[[S0:.+]] = tcpu.smmla %{{.+}}, %[[Z1]], %[[Z1]]
// CHECK: %[[S1:.+]] = tcpu.smmla %[[S0]], %[[Z2]], %[[Z2]]
// CHECK: %[[X16:.+]] = llvm.getelementptr %[[X]][16] : (!llvm.ptr) -> !llvm.ptr, i8
// CHECK: %[[L2:.+]]:2 = tcpu.load_lanes %[[X16]][0]
// CHECK: %[[Y16:.+]] = llvm.getelementptr %[[Y]][16] : (!llvm.ptr) -> !llvm.ptr, i8
// CHECK: tcpu.load_lanes %[[Y16]][1], %[[L2]]#0, %[[L2]]#1
// CHECK-NOT: vector.shuffle
// CHECK-NOT: llvm.load
// CHECK: return
func.func @row_pair(%x: !llvm.ptr, %y: !llvm.ptr, %acc: vector<4xi32>) -> vector<4xi32> {
  %rx = llvm.load %x {alignment = 1 : i64} : !llvm.ptr -> vector<32xi8>
  %ry = llvm.load %y {alignment = 1 : i64} : !llvm.ptr -> vector<32xi8>
  %x0 = vector.extract_strided_slice %rx {offsets = [0], sizes = [16], strides = [1]} : vector<32xi8> to vector<16xi8>
  %y0 = vector.extract_strided_slice %ry {offsets = [0], sizes = [16], strides = [1]} : vector<32xi8> to vector<16xi8>
  %z1 = vector.shuffle %x0, %y0 [0, 1, 2, 3, 4, 5, 6, 7, 16, 17, 18, 19, 20, 21, 22, 23] : vector<16xi8>, vector<16xi8>
  %x0b = vector.extract_strided_slice %rx {offsets = [0], sizes = [16], strides = [1]} : vector<32xi8> to vector<16xi8>
  %y0b = vector.extract_strided_slice %ry {offsets = [0], sizes = [16], strides = [1]} : vector<32xi8> to vector<16xi8>
  %z2 = vector.shuffle %x0b, %y0b [8, 9, 10, 11, 12, 13, 14, 15, 24, 25, 26, 27, 28, 29, 30, 31] : vector<16xi8>, vector<16xi8>
  %x1 = vector.extract_strided_slice %rx {offsets = [16], sizes = [16], strides = [1]} : vector<32xi8> to vector<16xi8>
  %y1 = vector.extract_strided_slice %ry {offsets = [16], sizes = [16], strides = [1]} : vector<32xi8> to vector<16xi8>
  %z3 = vector.shuffle %x1, %y1 [0, 1, 2, 3, 4, 5, 6, 7, 16, 17, 18, 19, 20, 21, 22, 23] : vector<16xi8>, vector<16xi8>
  %z4 = vector.shuffle %x1, %y1 [8, 9, 10, 11, 12, 13, 14, 15, 24, 25, 26, 27, 28, 29, 30, 31] : vector<16xi8>, vector<16xi8>
  %s0 = tcpu.smmla %acc, %z1, %z1 : vector<16xi8> into vector<4xi32>
  %s1 = tcpu.smmla %s0, %z2, %z2 : vector<16xi8> into vector<4xi32>
  %s2 = tcpu.smmla %s1, %z3, %z3 : vector<16xi8> into vector<4xi32>
  %s3 = tcpu.smmla %s2, %z4, %z4 : vector<16xi8> into vector<4xi32>
  return %s3 : vector<4xi32>
}

// BFMMLA operands (4 bf16 a lane) of 16-byte rows: the rows are the parts.
// CHECK-LABEL: func.func @bf16_rows(
// CHECK: tcpu.load_lanes %arg0[0]
// CHECK: tcpu.load_lanes %arg1[1]
// CHECK: vector.bitcast %{{.+}} : vector<2xi64> to vector<8xbf16>
// CHECK-NOT: vector.shuffle
func.func @bf16_rows(%x: !llvm.ptr, %y: !llvm.ptr, %acc: vector<4xf32>) -> vector<4xf32> {
  %rx = llvm.load %x : !llvm.ptr -> vector<8xbf16>
  %ry = llvm.load %y : !llvm.ptr -> vector<8xbf16>
  %z1 = vector.shuffle %rx, %ry [0, 1, 2, 3, 8, 9, 10, 11] : vector<8xbf16>, vector<8xbf16>
  %z2 = vector.shuffle %rx, %ry [4, 5, 6, 7, 12, 13, 14, 15] : vector<8xbf16>, vector<8xbf16>
  %s0 = tcpu.bfmmla %acc, %z1, %z2 : vector<8xbf16> into vector<4xf32>
  return %s0 : vector<4xf32>
}

// A row with another use keeps its load, and so the pair keeps its zips.
// CHECK-LABEL: func.func @other_use(
// CHECK: llvm.load %arg0
// CHECK: llvm.load %arg1
// CHECK-NOT: tcpu.load_lanes
// CHECK: vector.shuffle
// CHECK: vector.shuffle
func.func @other_use(%x: !llvm.ptr, %y: !llvm.ptr, %acc: vector<4xi32>) -> (vector<4xi32>, vector<16xi8>) {
  %rx = llvm.load %x : !llvm.ptr -> vector<16xi8>
  %ry = llvm.load %y : !llvm.ptr -> vector<16xi8>
  %z1 = vector.shuffle %rx, %ry [0, 1, 2, 3, 4, 5, 6, 7, 16, 17, 18, 19, 20, 21, 22, 23] : vector<16xi8>, vector<16xi8>
  %z2 = vector.shuffle %rx, %ry [8, 9, 10, 11, 12, 13, 14, 15, 24, 25, 26, 27, 28, 29, 30, 31] : vector<16xi8>, vector<16xi8>
  %s0 = tcpu.smmla %acc, %z1, %z2 : vector<16xi8> into vector<4xi32>
  return %s0, %rx : vector<4xi32>, vector<16xi8>
}

// Only the ZIP1 of a pair: nothing to pair it with, it stays.
// CHECK-LABEL: func.func @lone_zip(
// CHECK-NOT: tcpu.load_lanes
// CHECK: vector.shuffle
func.func @lone_zip(%x: !llvm.ptr, %y: !llvm.ptr, %acc: vector<4xi32>) -> vector<4xi32> {
  %rx = llvm.load %x : !llvm.ptr -> vector<16xi8>
  %ry = llvm.load %y : !llvm.ptr -> vector<16xi8>
  %z1 = vector.shuffle %rx, %ry [0, 1, 2, 3, 4, 5, 6, 7, 16, 17, 18, 19, 20, 21, 22, 23] : vector<16xi8>, vector<16xi8>
  %s0 = tcpu.smmla %acc, %z1, %z1 : vector<16xi8> into vector<4xi32>
  return %s0 : vector<4xi32>
}

// A store through a pointer between the rows' loads and the operands' use may change what the
// rows read: the loads and zips stay.
// CHECK-LABEL: func.func @store_between(
// CHECK: llvm.load %arg0
// CHECK: llvm.load %arg1
// CHECK: llvm.store
// CHECK-NOT: tcpu.load_lanes
func.func @store_between(%x: !llvm.ptr, %y: !llvm.ptr, %acc: vector<4xi32>, %v: vector<16xi8>) -> vector<4xi32> {
  %rx = llvm.load %x : !llvm.ptr -> vector<16xi8>
  %ry = llvm.load %y : !llvm.ptr -> vector<16xi8>
  %z1 = vector.shuffle %rx, %ry [0, 1, 2, 3, 4, 5, 6, 7, 16, 17, 18, 19, 20, 21, 22, 23] : vector<16xi8>, vector<16xi8>
  %z2 = vector.shuffle %rx, %ry [8, 9, 10, 11, 12, 13, 14, 15, 24, 25, 26, 27, 28, 29, 30, 31] : vector<16xi8>, vector<16xi8>
  llvm.store %v, %x : vector<16xi8>, !llvm.ptr
  %s0 = tcpu.smmla %acc, %z1, %z2 : vector<16xi8> into vector<4xi32>
  return %s0 : vector<4xi32>
}

// Lanes of one f64: still a ZIP1 / ZIP2 pair. Elements wider than a lane (i128) are not.
// CHECK-LABEL: func.func @f64_rows(
// CHECK: tcpu.load_lanes %arg0[0]
// CHECK: tcpu.load_lanes %arg1[1]
// CHECK: vector.bitcast %{{.+}} : vector<2xi64> to vector<2xf64>
// CHECK-LABEL: func.func @i128_rows(
// CHECK-NOT: tcpu.load_lanes
// CHECK: vector.shuffle
func.func @f64_rows(%x: !llvm.ptr, %y: !llvm.ptr) -> (vector<2xf64>, vector<2xf64>) {
  %rx = llvm.load %x : !llvm.ptr -> vector<2xf64>
  %ry = llvm.load %y : !llvm.ptr -> vector<2xf64>
  %z1 = vector.shuffle %rx, %ry [0, 2] : vector<2xf64>, vector<2xf64>
  %z2 = vector.shuffle %rx, %ry [1, 3] : vector<2xf64>, vector<2xf64>
  return %z1, %z2 : vector<2xf64>, vector<2xf64>
}

func.func @i128_rows(%x: !llvm.ptr, %y: !llvm.ptr) -> (vector<1xi128>, vector<1xi128>) {
  %rx = llvm.load %x : !llvm.ptr -> vector<1xi128>
  %ry = llvm.load %y : !llvm.ptr -> vector<1xi128>
  %z1 = vector.shuffle %rx, %ry [0] : vector<1xi128>, vector<1xi128>
  %z2 = vector.shuffle %rx, %ry [1] : vector<1xi128>, vector<1xi128>
  return %z1, %z2 : vector<1xi128>, vector<1xi128>
}
