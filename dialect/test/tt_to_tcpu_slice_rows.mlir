// tcpu-slice-rows: a row of 16 floats (four NEON registers) becomes four vector<4xf32>
// slices, and each slice's chain (load, subtract, exp) is emitted before the next slice's;
// the sum reduces the slices as a balanced tree, then one vector<4xf32>.
// RUN: tcpu-opt %s --tcpu-slice-rows=min-chain-ops=1 | FileCheck %s
// RUN: tcpu-opt %s --tcpu-slice-rows=min-chain-ops=1 --tcpu-to-llvm | FileCheck %s --check-prefix=LLVM
// RUN: tcpu-opt %s --tcpu-slice-rows | FileCheck %s --check-prefix=SHORT

// The default slices only chains of 12 floating-point ops or more: these stay whole.
// SHORT-NOT: tt.keep_op_order
// SHORT-LABEL: func.func @chain(
// SHORT: math.exp %{{.*}} : vector<16xf32>

// CHECK: module attributes {tt.keep_op_order}
// CHECK-LABEL: func.func @chain(
// CHECK-SAME: %[[P:[^:]+]]: !llvm.ptr, %[[S:[^:]+]]: f32
// CHECK: %[[L0:.*]] = llvm.load %[[P]] {alignment = 4 : i64} : !llvm.ptr -> vector<4xf32>
// CHECK-NEXT: %[[SPLAT:.*]] = vector.broadcast %[[S]] : f32 to vector<4xf32>
// CHECK-NEXT: %[[D0:.*]] = arith.subf %[[L0]], %[[SPLAT]] : vector<4xf32>
// CHECK-NEXT: %[[E0:.*]] = math.exp %[[D0]] : vector<4xf32>
// CHECK-NEXT: %[[P1:.*]] = llvm.getelementptr inbounds %[[P]][4] : (!llvm.ptr) -> !llvm.ptr, f32
// CHECK-NEXT: %[[L1:.*]] = llvm.load %[[P1]] {alignment = 4 : i64} : !llvm.ptr -> vector<4xf32>
// CHECK-NEXT: %[[D1:.*]] = arith.subf %[[L1]], %[[SPLAT]] : vector<4xf32>
// CHECK-NEXT: %[[E1:.*]] = math.exp %[[D1]] : vector<4xf32>
// CHECK-NEXT: %[[A01:.*]] = arith.addf %[[E0]], %[[E1]] : vector<4xf32>
// CHECK-NEXT: llvm.getelementptr inbounds %[[P]][8]
// CHECK-NEXT: llvm.load
// CHECK-NEXT: arith.subf
// CHECK-NEXT: %[[E2:.*]] = math.exp
// CHECK-NEXT: llvm.getelementptr inbounds %[[P]][12]
// CHECK-NEXT: llvm.load
// CHECK-NEXT: arith.subf
// CHECK-NEXT: %[[E3:.*]] = math.exp
// CHECK-NEXT: %[[A23:.*]] = arith.addf %[[E2]], %[[E3]] : vector<4xf32>
// CHECK-NEXT: %[[A:.*]] = arith.addf %[[A01]], %[[A23]] : vector<4xf32>
// CHECK-NEXT: %[[R:.*]] = vector.reduction <add>, %[[A]] : vector<4xf32> into f32
// CHECK-NOT: vector<16xf32>
// CHECK: return %[[R]]
func.func @chain(%p: !llvm.ptr, %s: f32) -> f32 {
  %x = llvm.load %p {alignment = 4 : i64} : !llvm.ptr -> vector<16xf32>
  %b = vector.broadcast %s : f32 to vector<16xf32>
  %y = arith.subf %x, %b : vector<16xf32>
  %e = math.exp %y : vector<16xf32>
  %r = vector.reduction <add>, %e : vector<16xf32> into f32
  return %r : f32
}

// A log-step reduction's halves are slices already (no op): the maximum is a tree over the
// loaded slices; the row is needed again after it, so its slices stay live; each quotient
// goes to its store before the next is computed; the op that is not sliced (return) gets
// the row whole.
// CHECK-LABEL: func.func @normalize(
// CHECK-NOT: vector<16xf32> to
// CHECK-COUNT-3: arith.maximumf %{{.*}}, %{{.*}} : vector<4xf32>
// CHECK: vector.extract_strided_slice %{{.*}} {offsets = [0], sizes = [2], strides = [1]} : vector<4xf32> to vector<2xf32>
// CHECK: vector.reduction <maximumf>
// CHECK: arith.divf %{{.*}}, %{{.*}} : vector<4xf32>
// CHECK-NEXT: llvm.store %{{.*}}, %{{.*}} {alignment = 4 : i64} : vector<4xf32>, !llvm.ptr
// CHECK-NEXT: arith.divf %{{.*}}, %{{.*}} : vector<4xf32>
// CHECK-NEXT: llvm.getelementptr inbounds %{{.*}}[4] : (!llvm.ptr) -> !llvm.ptr, f32
// CHECK-NEXT: llvm.store
// CHECK-COUNT-2: llvm.store
// CHECK: vector.shuffle
// CHECK: return %{{.*}} : vector<16xf32>
func.func @normalize(%p: !llvm.ptr, %q: !llvm.ptr) -> vector<16xf32> {
  %x = llvm.load %p {alignment = 4 : i64} : !llvm.ptr -> vector<16xf32>
  %lo = vector.extract_strided_slice %x {offsets = [0], sizes = [8], strides = [1]} : vector<16xf32> to vector<8xf32>
  %hi = vector.extract_strided_slice %x {offsets = [8], sizes = [8], strides = [1]} : vector<16xf32> to vector<8xf32>
  %m8 = arith.maximumf %lo, %hi : vector<8xf32>
  %lo4 = vector.extract_strided_slice %m8 {offsets = [0], sizes = [4], strides = [1]} : vector<8xf32> to vector<4xf32>
  %hi4 = vector.extract_strided_slice %m8 {offsets = [4], sizes = [4], strides = [1]} : vector<8xf32> to vector<4xf32>
  %m4 = arith.maximumf %lo4, %hi4 : vector<4xf32>
  %lo2 = vector.extract_strided_slice %m4 {offsets = [0], sizes = [2], strides = [1]} : vector<4xf32> to vector<2xf32>
  %hi2 = vector.extract_strided_slice %m4 {offsets = [2], sizes = [2], strides = [1]} : vector<4xf32> to vector<2xf32>
  %m2 = arith.maximumf %lo2, %hi2 : vector<2xf32>
  %m = vector.reduction <maximumf>, %m2 : vector<2xf32> into f32
  %splat = vector.broadcast %m : f32 to vector<16xf32>
  %y = arith.divf %x, %splat : vector<16xf32>
  llvm.store %y, %q {alignment = 4 : i64} : vector<16xf32>, !llvm.ptr
  return %x : vector<16xf32>
}

// Memory order: a load after a store of the same block waits for every slice of the store.
// CHECK-LABEL: func.func @store_then_load(
// CHECK-COUNT-4: llvm.store
// CHECK: llvm.load
// LLVM-LABEL: llvm.func @store_then_load(
// LLVM-COUNT-4: llvm.store %{{.*}} : vector<4xf32>, !llvm.ptr
// LLVM: llvm.load %{{.*}} : !llvm.ptr -> vector<4xf32>
func.func @store_then_load(%p: !llvm.ptr, %v: vector<16xf32>) -> f32 {
  %one = arith.constant dense<1.0> : vector<16xf32>
  %w = arith.addf %v, %one : vector<16xf32>
  llvm.store %w, %p {alignment = 4 : i64} : vector<16xf32>, !llvm.ptr
  %x = llvm.load %p {alignment = 4 : i64} : !llvm.ptr -> vector<16xf32>
  %y = arith.mulf %x, %x : vector<16xf32>
  %r = vector.reduction <add>, %y : vector<16xf32> into f32
  return %r : f32
}
