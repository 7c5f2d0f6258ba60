// tcpu.load_vectors / tcpu.store_vectors print as they parse, and --tcpu-lower-vector-lists
// makes them LD1 / ST1 of a register list (llvm.aarch64.neon.ld1xN / st1xN) on the address of
// the first element; one vector is a plain load or store. tcpu.load_lanes is LD2-LD4 of a lane.
// RUN: tcpu-opt %s | tcpu-opt | FileCheck %s --check-prefix=ROUND
// RUN: tcpu-opt %s --tcpu-lower-vector-lists | FileCheck %s

// ROUND-LABEL: func.func @tile_row
// ROUND: %{{.*}}:4 = tcpu.load_vectors %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}] : memref<8x16x4xi32> -> vector<4xi32>, vector<4xi32>, vector<4xi32>, vector<4xi32>
// ROUND: tcpu.store_vectors %{{.*}}#3, %{{.*}}#2, %{{.*}}#1, %{{.*}}#0 into %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}] : vector<4xi32>, vector<4xi32>, vector<4xi32>, vector<4xi32> into memref<8x16x4xi32>
// CHECK-LABEL: func.func @tile_row
// CHECK: %[[BASE:.+]] = llvm.extractvalue %{{.*}}[1] : !llvm.struct<(ptr, ptr, i64, array<3 x i64>, array<3 x i64>)>
// CHECK: %[[AT:.+]] = llvm.getelementptr %[[BASE]][%{{.*}}] : (!llvm.ptr, i64) -> !llvm.ptr, i32
// CHECK: %[[LIST:.+]] = llvm.call_intrinsic "llvm.aarch64.neon.ld1x4.v4i32.p0"(%[[AT]]) : (!llvm.ptr) -> !llvm.struct<(vector<4xi32>, vector<4xi32>, vector<4xi32>, vector<4xi32>)>
// CHECK-COUNT-4: llvm.extractvalue %[[LIST]][{{[0-3]}}]
// CHECK: llvm.call_intrinsic "llvm.aarch64.neon.st1x4.v4i32.p0"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) : (vector<4xi32>, vector<4xi32>, vector<4xi32>, vector<4xi32>, !llvm.ptr) -> ()
// CHECK-NOT: tcpu.
func.func @tile_row(%acc: memref<8x16x4xi32>, %p: index, %t: index) {
  %c0 = arith.constant 0 : index
  %v:4 = tcpu.load_vectors %acc[%p, %t, %c0] : memref<8x16x4xi32> -> vector<4xi32>, vector<4xi32>, vector<4xi32>, vector<4xi32>
  tcpu.store_vectors %v#3, %v#2, %v#1, %v#0 into %acc[%p, %t, %c0] : vector<4xi32>, vector<4xi32>, vector<4xi32>, vector<4xi32> into memref<8x16x4xi32>
  return
}

// Two and three registers; bytes and floats name their vector types in the intrinsic.
// CHECK-LABEL: func.func @lists
// CHECK: llvm.call_intrinsic "llvm.aarch64.neon.ld1x2.v16i8.p0"
// CHECK: llvm.call_intrinsic "llvm.aarch64.neon.st1x3.v4f32.p0"
// CHECK: llvm.call_intrinsic "llvm.aarch64.neon.ld1x2.v8bf16.p0"
func.func @lists(%bytes: memref<4x16xi8>, %floats: memref<12xf32>, %halves: memref<16xbf16>, %x: vector<4xf32>) -> (vector<16xi8>, vector<8xbf16>) {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %b:2 = tcpu.load_vectors %bytes[%c2, %c0] : memref<4x16xi8> -> vector<16xi8>, vector<16xi8>
  tcpu.store_vectors %x, %x, %x into %floats[%c0] : vector<4xf32>, vector<4xf32>, vector<4xf32> into memref<12xf32>
  %h:2 = tcpu.load_vectors %halves[%c0] : memref<16xbf16> -> vector<8xbf16>, vector<8xbf16>
  return %b#1, %h#0 : vector<16xi8>, vector<8xbf16>
}

// One register: a plain load and store.
// CHECK-LABEL: func.func @single
// CHECK: llvm.load %{{.*}} {alignment = 1 : i64} : !llvm.ptr -> vector<16xi8>
// CHECK: llvm.store %{{.*}}, %{{.*}} {alignment = 1 : i64} : vector<16xi8>, !llvm.ptr
// CHECK-NOT: llvm.call_intrinsic
func.func @single(%bytes: memref<4x16xi8>, %i: index) {
  %c0 = arith.constant 0 : index
  %v = tcpu.load_vectors %bytes[%i, %c0] : memref<4x16xi8> -> vector<16xi8>
  tcpu.store_vectors %v into %bytes[%c0, %c0] : vector<16xi8> into memref<4x16xi8>
  return
}

// The indices that vary give one offset from the buffer's start and the constant ones a byte
// offset after it, so the accesses of one tile share the first and fold the second into the
// instruction (LDP/STP immediates), wherever they are.
// CHECK-LABEL: func.func @tile_block
// CHECK: %[[TILE:.+]] = llvm.getelementptr %{{.*}}[%{{.*}}] : (!llvm.ptr, i64) -> !llvm.ptr, i32
// CHECK: %[[AT:.+]] = llvm.getelementptr %[[TILE]][208] : (!llvm.ptr) -> !llvm.ptr, i8
// CHECK: llvm.load %[[AT]]
func.func @tile_block(%acc: memref<2x4x4x4xi32>, %t: index) -> vector<4xi32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %v = tcpu.load_vectors %acc[%t, %c3, %c1, %c0] : memref<2x4x4x4xi32> -> vector<4xi32>
  return %v : vector<4xi32>
}

// tcpu.load_lanes: LD2 / LD4 of one lane, the lane an immediate before the address.
// ROUND-LABEL: func.func @lanes
// ROUND: %{{.*}}:2 = tcpu.load_lanes %{{.*}}[1], %{{.*}}, %{{.*}} : !llvm.ptr, vector<2xi64>, vector<2xi64> -> vector<2xi64>, vector<2xi64>
// ROUND: %{{.*}}:4 = tcpu.load_lanes %{{.*}}[3], %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : !llvm.ptr, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32> -> vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>
// CHECK-LABEL: func.func @lanes
// CHECK: %[[LANE:.+]] = llvm.mlir.constant(1 : i64) : i64
// CHECK: %[[PAIR:.+]] = llvm.call_intrinsic "llvm.aarch64.neon.ld2lane.v2i64.p0"(%arg1, %arg2, %[[LANE]], %arg0) : (vector<2xi64>, vector<2xi64>, i64, !llvm.ptr) -> !llvm.struct<(vector<2xi64>, vector<2xi64>)>
// CHECK: llvm.extractvalue %[[PAIR]][0]
// CHECK: llvm.extractvalue %[[PAIR]][1]
// CHECK: llvm.call_intrinsic "llvm.aarch64.neon.ld4lane.v4f32.p0"
// CHECK-NOT: tcpu.
func.func @lanes(%p: !llvm.ptr, %a: vector<2xi64>, %b: vector<2xi64>, %f: vector<4xf32>) -> (vector<2xi64>, vector<2xi64>, vector<4xf32>) {
  %v:2 = tcpu.load_lanes %p[1], %a, %b : !llvm.ptr, vector<2xi64>, vector<2xi64> -> vector<2xi64>, vector<2xi64>
  %w:4 = tcpu.load_lanes %p[3], %f, %f, %f, %f : !llvm.ptr, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32> -> vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>
  return %v#0, %v#1, %w#3 : vector<2xi64>, vector<2xi64>, vector<4xf32>
}

// A list from a pointer (a loop that steps its own pointers into a packed buffer) is the LD1 on
// it; tcpu.buffer_pointer is the element's address as a GEP of the buffer's pointer (the
// constant indices in bytes), never through an integer.
// ROUND-LABEL: func.func @from_pointer
// ROUND: %[[P:.+]] = tcpu.buffer_pointer %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}] : memref<2x6x64xi8> -> !llvm.ptr
// ROUND: tcpu.load_vectors %[[P]][] : !llvm.ptr -> vector<16xi8>, vector<16xi8>, vector<16xi8>, vector<16xi8>
// CHECK-LABEL: func.func @from_pointer
// CHECK: %[[BASE:.+]] = llvm.extractvalue %{{.*}}[1] : !llvm.struct<(ptr, ptr, i64, array<3 x i64>, array<3 x i64>)>
// CHECK: %[[ROW:.+]] = llvm.getelementptr %[[BASE]][%{{.*}}] : (!llvm.ptr, i64) -> !llvm.ptr, i8
// CHECK: %[[AT:.+]] = llvm.getelementptr %[[ROW]][128] : (!llvm.ptr) -> !llvm.ptr, i8
// CHECK-NOT: llvm.ptrtoint
// CHECK: llvm.call_intrinsic "llvm.aarch64.neon.ld1x4.v16i8.p0"(%[[AT]])
func.func @from_pointer(%buffer: memref<2x6x64xi8>, %t: index) -> vector<16xi8> {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %p = tcpu.buffer_pointer %buffer[%t, %c2, %c0] : memref<2x6x64xi8> -> !llvm.ptr
  %v:4 = tcpu.load_vectors %p[] : !llvm.ptr -> vector<16xi8>, vector<16xi8>, vector<16xi8>, vector<16xi8>
  return %v#3 : vector<16xi8>
}
