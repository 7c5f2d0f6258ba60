// tt-to-tcpu-atomics: tt.atomic_rmw is llvm.atomicrmw and tt.atomic_cas llvm.cmpxchg with the
// op's ordering (relaxed is monotonic; a failed CAS keeps only the acquire half) and natural
// alignment, at the system scope whatever the op's scope. A scalar mask is an scf.if (0 where
// off); a tensor op is a loop over its lanes, each lane's address, value and mask read from
// stack buffers stored once before the loop, its atomic under its own mask bit. Float
// read-modify-writes (fadd on f32, f16, bf16; max/min; exch) are a compare-and-swap loop on
// the bits, from a relaxed atomic load (LLVM 19's own expansion without LSE loses updates); a
// CAS on floats compares their bits.
// RUN: tcpu-opt %s --tt-to-tcpu-atomics | FileCheck %s

module {
  // CHECK-LABEL: tt.func @scalar(
  tt.func @scalar(%p: !tt.ptr<i32>, %f: !tt.ptr<f32>, %h: !tt.ptr<bf16>, %v: i32, %m: i1) -> (i32, f32, f32, bf16, i32) {
    // CHECK: %[[OLD:.*]] = scf.if %{{.*}} -> (i32) {
    // CHECK-NEXT: llvm.atomicrmw add %{{.*}}, %{{.*}} acq_rel {alignment = 4 : i64} : !llvm.ptr, i32
    // CHECK: } else {
    // CHECK-NEXT: arith.constant 0 : i32
    %a = tt.atomic_rmw add, acq_rel, gpu, %p, %v, %m : (!tt.ptr<i32>, i32, i1) -> i32
    // CHECK: %[[FIRST:.*]] = llvm.load %[[F:.*]] atomic monotonic {alignment = 4 : i64} : !llvm.ptr -> i32
    // CHECK: %[[SUM:.*]] = scf.while (%[[EXPECTED:.*]] = %[[FIRST]]) : (i32) -> i32 {
    // CHECK:   %[[OLDF:.*]] = arith.bitcast %[[EXPECTED]] : i32 to f32
    // CHECK:   %[[NEWF:.*]] = arith.addf %[[OLDF]], %{{.*}} : f32
    // CHECK:   %[[NEW:.*]] = arith.bitcast %[[NEWF]] : f32 to i32
    // CHECK:   %[[PAIR0:.*]] = llvm.cmpxchg %[[F]], %[[EXPECTED]], %[[NEW]] release monotonic {alignment = 4 : i64} : !llvm.ptr, i32
    // CHECK:   %[[SEEN:.*]] = llvm.extractvalue %[[PAIR0]][0]
    // CHECK:   %[[OK:.*]] = llvm.extractvalue %[[PAIR0]][1]
    // CHECK:   %[[RETRY:.*]] = arith.xori %[[OK]], %{{.*}} : i1
    // CHECK:   scf.condition(%[[RETRY]]) %[[SEEN]] : i32
    // CHECK: arith.bitcast %[[SUM]] : i32 to f32
    %one = arith.constant 1.0 : f32
    %b = tt.atomic_rmw fadd, release, sys, %f, %one : (!tt.ptr<f32>, f32) -> f32
    // CHECK: %[[CMP:.*]] = arith.bitcast %{{.*}} : f32 to i32
    // CHECK: %[[NEW:.*]] = arith.bitcast %{{.*}} : f32 to i32
    // CHECK: %[[PAIR:.*]] = llvm.cmpxchg %{{.*}}, %[[NEW]], %[[CMP]] release monotonic {alignment = 4 : i64} : !llvm.ptr, i32
    // CHECK: %[[BITS:.*]] = llvm.extractvalue %[[PAIR]][0] : !llvm.struct<(i32, i1)>
    // CHECK: arith.bitcast %[[BITS]] : i32 to f32
    %c = tt.atomic_cas release, cta, %f, %one, %b : (!tt.ptr<f32>, f32, f32) -> f32
    // CHECK: llvm.cmpxchg %{{.*}}, %{{.*}}, %{{.*}} monotonic monotonic {alignment = 2 : i64} : !llvm.ptr, i16
    %hb = arith.constant 1.0 : bf16
    %d = tt.atomic_rmw fadd, relaxed, gpu, %h, %hb : (!tt.ptr<bf16>, bf16) -> bf16
    // CHECK: llvm.atomicrmw xchg %{{.*}}, %{{.*}} acquire {alignment = 4 : i64} : !llvm.ptr, i32
    %e = tt.atomic_rmw exch, acquire, gpu, %p, %v : (!tt.ptr<i32>, i32) -> i32
    tt.return %a, %b, %c, %d, %e : i32, f32, f32, bf16, i32
  }

  // CHECK-LABEL: tt.func @tensor(
  // CHECK: %[[ADDRS:.*]] = builtin.unrealized_conversion_cast %{{.*}} : tensor<2x2x!tt.ptr<i32>> to vector<2x2xi64>
  // CHECK: %[[FLAT:.*]] = vector.shape_cast %[[ADDRS]] : vector<2x2xi64> to vector<4xi64>
  // CHECK: %[[ADDR_BUF:.*]] = memref.alloca() : memref<4xi64>
  // CHECK: vector.store %[[FLAT]], %[[ADDR_BUF]][%{{.*}}] : memref<4xi64>, vector<4xi64>
  // CHECK: %[[VALUE_BUF:.*]] = memref.alloca() : memref<4xi32>
  // CHECK: arith.extui %{{.*}} : vector<4xi1> to vector<4xi8>
  // CHECK: %[[MASK_BUF:.*]] = memref.alloca() : memref<4xi8>
  // CHECK: %[[OLDS:.*]] = memref.alloca() : memref<4xi32>
  // CHECK: scf.for %[[LANE:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
  // CHECK-DAG:   %[[ADDR:.*]] = memref.load %[[ADDR_BUF]][%[[LANE]]] : memref<4xi64>
  // CHECK-DAG:   %[[PTR:.*]] = llvm.inttoptr %[[ADDR]] : i64 to !llvm.ptr
  // CHECK-DAG:   %[[VALUE:.*]] = memref.load %[[VALUE_BUF]][%[[LANE]]] : memref<4xi32>
  // CHECK-DAG:   %[[BYTE:.*]] = memref.load %[[MASK_BUF]][%[[LANE]]] : memref<4xi8>
  // CHECK-DAG:   %[[ON:.*]] = arith.cmpi ne, %[[BYTE]], %{{.*}} : i8
  // CHECK:   %[[OLD:.*]] = scf.if %[[ON]] -> (i32) {
  // CHECK:     llvm.atomicrmw umax %[[PTR]], %[[VALUE]] monotonic {alignment = 4 : i64} : !llvm.ptr, i32
  // CHECK:   memref.store %[[OLD]], %[[OLDS]][%[[LANE]]] : memref<4xi32>
  // CHECK: %[[LANES:.*]] = vector.load %[[OLDS]][%{{.*}}] : memref<4xi32>, vector<4xi32>
  // CHECK: vector.shape_cast %[[LANES]] : vector<4xi32> to vector<2x2xi32>
  // CHECK-NOT: tt.atomic
  tt.func @tensor(%ptrs: tensor<2x2x!tt.ptr<i32>>, %v: tensor<2x2xi32>, %m: tensor<2x2xi1>) -> tensor<2x2xi32> {
    %o = tt.atomic_rmw umax, relaxed, gpu, %ptrs, %v, %m : (tensor<2x2x!tt.ptr<i32>>, tensor<2x2xi32>, tensor<2x2xi1>) -> tensor<2x2xi32>
    tt.return %o : tensor<2x2xi32>
  }

  // A tensor atomic whose old values nobody reads collects none (a split-K matmul's adds).
  // CHECK-LABEL: tt.func @tensor_unused(
  // CHECK-COUNT-2: memref.alloca()
  // CHECK-NOT: memref.alloca()
  // CHECK: scf.for
  // CHECK-NOT: memref.store
  // CHECK: tt.return
  tt.func @tensor_unused(%ptrs: tensor<4x!tt.ptr<i32>>, %v: tensor<4xi32>) {
    %o = tt.atomic_rmw add, relaxed, gpu, %ptrs, %v : (tensor<4x!tt.ptr<i32>>, tensor<4xi32>) -> tensor<4xi32>
    tt.return
  }

  // Without a mask every lane runs its atomic; max/min on floats are fmax/fmin.
  // CHECK-LABEL: tt.func @float_max(
  // CHECK: scf.for
  // CHECK-NOT: scf.if
  // CHECK: scf.while
  // CHECK: arith.maxnumf
  // CHECK: llvm.cmpxchg %{{.*}}, %{{.*}}, %{{.*}} acq_rel acquire {alignment = 4 : i64} : !llvm.ptr, i32
  tt.func @float_max(%ptrs: tensor<4x!tt.ptr<f32>>, %v: tensor<4xf32>) -> tensor<4xf32> {
    %o = tt.atomic_rmw max, acq_rel, gpu, %ptrs, %v : (tensor<4x!tt.ptr<f32>>, tensor<4xf32>) -> tensor<4xf32>
    tt.return %o : tensor<4xf32>
  }

  // A tile whose rows are consecutive addresses (a split-K matmul adding its block into C):
  // while the whole mask is on (its scalar test), loops over the rows and their lanes, the
  // first row's first address from the scalars, each next row's the previous one's plus the
  // rows' stride (4 bytes times %stride), two rows an iteration; no address or mask vector.
  // Else lane by lane, in the same order, by loops over rows and lanes that build each lane's
  // mask bit and address from the scalars (no address or mask vector here either). A row's lanes
  // go in groups (here the whole row of 8), up to four groups one after another (no loop: each
  // read's lane a constant): the group's values are read before its atomics, which the backend
  // reads in pairs.
  // CHECK-LABEL: tt.func @rows(
  // CHECK: %[[ON:.*]] = arith.cmpi slt, %c3_i64, %{{.*}} : i64
  // CHECK: scf.if %[[ON]] -> (vector<4x8xi32>) {
  // CHECK-NOT: memref.alloca() : memref<32xi64>
  // CHECK:   %[[VALUES:.*]] = memref.alloca() : memref<32xi32>
  // CHECK:   %[[WIDE:.*]] = arith.extsi %{{.*}} : i32 to i64
  // CHECK:   %[[STRIDE:.*]] = arith.muli %[[WIDE]], %c4_i64 : i64
  // CHECK:   %[[FIRST:.*]] = builtin.unrealized_conversion_cast %{{.*}} : !tt.ptr<i32> to !llvm.ptr
  // CHECK:   scf.for %[[ROW:.*]] = %{{.*}} to %c4{{.*}} step %c2{{.*}} iter_args(%[[BASE:.*]] = %[[FIRST]]) -> (!llvm.ptr) {
  // CHECK-NOT:   scf.for
  // CHECK-COUNT-8: memref.load %[[VALUES]][%{{.*}}] : memref<32xi32>
  // CHECK-NOT:   memref.load
  // CHECK:       %[[PTR:.*]] = llvm.getelementptr %[[BASE]][%{{.*}}] : (!llvm.ptr, i64) -> !llvm.ptr, i32
  // CHECK:       llvm.atomicrmw add %[[PTR]], %{{.*}} monotonic {alignment = 4 : i64} : !llvm.ptr, i32
  // CHECK-COUNT-7: llvm.atomicrmw add
  // CHECK:     %[[SECOND:.*]] = llvm.getelementptr %[[BASE]][%[[STRIDE]]] : (!llvm.ptr, i64) -> !llvm.ptr, i8
  // CHECK-COUNT-8: llvm.atomicrmw add %{{.*}}, %{{.*}} monotonic
  // CHECK:     %[[NEXT:.*]] = llvm.getelementptr %[[SECOND]][%[[STRIDE]]] : (!llvm.ptr, i64) -> !llvm.ptr, i8
  // CHECK:     scf.yield %[[NEXT]] : !llvm.ptr
  // CHECK: } else {
  // CHECK-NOT: memref<32xi64>
  // CHECK-NOT: memref<32xi8>
  // CHECK:   %[[LANES:.*]] = memref.alloca() : memref<32xi32>
  // CHECK:   scf.for %[[R:.*]] = %{{.*}} to %c4{{.*}} step
  // CHECK:     scf.for %[[L:.*]] = %{{.*}} to %c8{{.*}} step
  // CHECK:       %[[R32:.*]] = arith.index_cast %[[R]] : index to i32
  // CHECK:       %[[L32:.*]] = arith.index_cast %[[L]] : index to i32
  // CHECK:       %[[LANE:.*]] = tt.addptr %arg0, %{{.*}} : !tt.ptr<i32>, i32
  // CHECK:       %[[P:.*]] = builtin.unrealized_conversion_cast %[[LANE]] : !tt.ptr<i32> to !llvm.ptr
  // CHECK:       %[[IN:.*]] = arith.cmpi slt, %{{.*}}, %arg2 : i32
  // CHECK:       %[[V:.*]] = memref.load %[[LANES]][%{{.*}}] : memref<32xi32>
  // CHECK:       scf.if %[[IN]] -> (i32) {
  // CHECK:         llvm.atomicrmw add %[[P]], %[[V]] monotonic
  tt.func @rows(%c: !tt.ptr<i32> {tt.divisibility = 16 : i32}, %stride: i32, %m: i32, %v: tensor<4x8xi32>) {
    %rows = tt.make_range {end = 4 : i32, start = 0 : i32} : tensor<4xi32>
    %cols = tt.make_range {end = 8 : i32, start = 0 : i32} : tensor<8xi32>
    %r = tt.expand_dims %rows {axis = 1 : i32} : tensor<4xi32> -> tensor<4x1xi32>
    %strides = tt.splat %stride : i32 -> tensor<4x1xi32>
    %row_offsets = arith.muli %r, %strides : tensor<4x1xi32>
    %col = tt.expand_dims %cols {axis = 0 : i32} : tensor<8xi32> -> tensor<1x8xi32>
    %ro = tt.broadcast %row_offsets : tensor<4x1xi32> -> tensor<4x8xi32>
    %co = tt.broadcast %col : tensor<1x8xi32> -> tensor<4x8xi32>
    %offsets = arith.addi %ro, %co : tensor<4x8xi32>
    %base = tt.splat %c : !tt.ptr<i32> -> tensor<4x8x!tt.ptr<i32>>
    %ptrs = tt.addptr %base, %offsets : tensor<4x8x!tt.ptr<i32>>, tensor<4x8xi32>
    %bound = tt.splat %m : i32 -> tensor<4x1xi32>
    %in = arith.cmpi slt, %r, %bound : tensor<4x1xi32>
    %mask = tt.broadcast %in : tensor<4x1xi1> -> tensor<4x8xi1>
    %o = tt.atomic_rmw add, relaxed, gpu, %ptrs, %v, %mask : (tensor<4x8x!tt.ptr<i32>>, tensor<4x8xi32>, tensor<4x8xi1>) -> tensor<4x8xi32>
    tt.return
  }
}
