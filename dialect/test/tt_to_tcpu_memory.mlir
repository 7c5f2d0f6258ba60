// tt-to-tcpu-memory: tt.load / tt.store become vector loads and stores where the contiguity
// analysis proves consecutive addresses (make_range + splat + addptr + broadcast), a
// full-width access under an all-lanes-on test (scalar for range-versus-bound masks) plus a
// lane loop for masked runs, a loop of
// scalar accesses (the gather) where addresses are irregular, one vector access per row of
// a 2-D block, runs of vector_width elements where that hint claims more than is proven, the partial
// tiles of 32 rows or more through loops over rows and lanes, and a wide 1-D row's lanes on
// copied over their interval.
// RUN: tcpu-opt %s --tt-to-tcpu-memory | FileCheck %s

module {
  // CHECK-LABEL: tt.func public @copy(
  // CHECK-NOT: scf.for
  // CHECK: %[[FIRST:[0-9]+]] = tt.addptr %arg0, %{{[0-9]+}} : !tt.ptr<f32>, i32
  // CHECK: %[[IN:[0-9]+]] = builtin.unrealized_conversion_cast %[[FIRST]] : !tt.ptr<f32> to !llvm.ptr
  // CHECK: %[[V:[0-9]+]] = llvm.load %[[IN]] {alignment = 4 : i64} : !llvm.ptr -> vector<8xf32>
  // CHECK-NOT: scf.for
  // CHECK: llvm.store %[[V]], %{{.*}} {alignment = 4 : i64} : vector<8xf32>, !llvm.ptr
  // CHECK-NOT: scf.for
  // CHECK: tt.return
  tt.func public @copy(%in: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %out: !tt.ptr<f32> {tt.divisibility = 16 : i32}) {
    %offsets = tt.make_range {end = 8 : i32, start = 0 : i32} : tensor<8xi32>
    %x = tt.splat %in : !tt.ptr<f32> -> tensor<8x!tt.ptr<f32>>
    %x_1 = tt.addptr %x, %offsets : tensor<8x!tt.ptr<f32>>, tensor<8xi32>
    %v = tt.load %x_1 : tensor<8x!tt.ptr<f32>>
    %y = tt.splat %out : !tt.ptr<f32> -> tensor<8x!tt.ptr<f32>>
    %y_1 = tt.addptr %y, %offsets : tensor<8x!tt.ptr<f32>>, tensor<8xi32>
    tt.store %y_1, %v : tensor<8x!tt.ptr<f32>>
    tt.return
  }
  // The indices are data: the indices themselves are one vector load, the gather is a
  // loop of scalar loads.
  // CHECK-LABEL: tt.func public @gather(
  // CHECK: llvm.load %{{.*}} : !llvm.ptr -> vector<8xi32>
  // CHECK: %[[G:[0-9]+]] = scf.for %[[LANE:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC:.*]] = %{{.*}}) -> (vector<8xf32>) {
  // CHECK:   %[[ADDR:[0-9]+]] = vector.extract %{{.*}}[%[[LANE]]] : i64 from vector<8xi64>
  // CHECK:   %[[P:[0-9]+]] = llvm.inttoptr %[[ADDR]] : i64 to !llvm.ptr
  // CHECK:   %[[E:[0-9]+]] = llvm.load %[[P]] {alignment = 4 : i64} : !llvm.ptr -> f32
  // CHECK:   vector.insert %[[E]], %[[ACC]] [%[[LANE]]] : f32 into vector<8xf32>
  // CHECK: llvm.store %[[G]], %{{.*}} : vector<8xf32>, !llvm.ptr
  tt.func public @gather(%in: !tt.ptr<f32>, %idx_ptr: !tt.ptr<i32>, %out: !tt.ptr<f32>) {
    %offsets = tt.make_range {end = 8 : i32, start = 0 : i32} : tensor<8xi32>
    %i = tt.splat %idx_ptr : !tt.ptr<i32> -> tensor<8x!tt.ptr<i32>>
    %i_1 = tt.addptr %i, %offsets : tensor<8x!tt.ptr<i32>>, tensor<8xi32>
    %idx = tt.load %i_1 : tensor<8x!tt.ptr<i32>>
    %x = tt.splat %in : !tt.ptr<f32> -> tensor<8x!tt.ptr<f32>>
    %x_1 = tt.addptr %x, %idx : tensor<8x!tt.ptr<f32>>, tensor<8xi32>
    %v = tt.load %x_1 : tensor<8x!tt.ptr<f32>>
    %y = tt.splat %out : !tt.ptr<f32> -> tensor<8x!tt.ptr<f32>>
    %y_1 = tt.addptr %y, %offsets : tensor<8x!tt.ptr<f32>>, tensor<8xi32>
    tt.store %y_1, %v : tensor<8x!tt.ptr<f32>>
    tt.return
  }
  // A gather wider than two registers: its address vector (from data, so not rebuilt from
  // scalars) is stored once to a stack buffer and each lane's address loaded from there; the
  // lanes go to a row buffer loaded whole after the loop.
  // CHECK-LABEL: tt.func public @gather_wide(
  // CHECK-DAG: %[[ADDRS:[0-9]+]] = llvm.alloca %{{.*}} x i64
  // CHECK-DAG: %[[ROW:[0-9]+]] = llvm.alloca %{{.*}} x f32
  // CHECK: llvm.store %{{.*}}, %[[ADDRS]] {{.*}} : vector<64xi64>, !llvm.ptr
  // CHECK: llvm.store %{{.*}}, %[[ROW]] {{.*}} : vector<64xf32>, !llvm.ptr
  // CHECK: scf.for %[[LANE:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
  // CHECK-NOT: vector.extract
  // CHECK:   %[[AT:[0-9]+]] = llvm.getelementptr %[[ADDRS]][%{{.*}}] : (!llvm.ptr, i64) -> !llvm.ptr, i64
  // CHECK:   %[[ADDR:[0-9]+]] = llvm.load %[[AT]] {{.*}} : !llvm.ptr -> i64
  // CHECK:   %[[P:[0-9]+]] = llvm.inttoptr %[[ADDR]] : i64 to !llvm.ptr
  // CHECK:   %[[E:[0-9]+]] = llvm.load %[[P]] {alignment = 4 : i64} : !llvm.ptr -> f32
  // CHECK:   llvm.store %[[E]], %{{.*}} : f32, !llvm.ptr
  // CHECK: llvm.load %[[ROW]] {alignment = 4 : i64} : !llvm.ptr -> vector<64xf32>
  tt.func public @gather_wide(%in: !tt.ptr<f32>, %idx_ptr: !tt.ptr<i32>, %out: !tt.ptr<f32>) {
    %offsets = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
    %i = tt.splat %idx_ptr : !tt.ptr<i32> -> tensor<64x!tt.ptr<i32>>
    %i_1 = tt.addptr %i, %offsets : tensor<64x!tt.ptr<i32>>, tensor<64xi32>
    %idx = tt.load %i_1 : tensor<64x!tt.ptr<i32>>
    %x = tt.splat %in : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>>
    %x_1 = tt.addptr %x, %idx : tensor<64x!tt.ptr<f32>>, tensor<64xi32>
    %v = tt.load %x_1 : tensor<64x!tt.ptr<f32>>
    %y = tt.splat %out : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>>
    %y_1 = tt.addptr %y, %offsets : tensor<64x!tt.ptr<f32>>, tensor<64xi32>
    tt.store %y_1, %v : tensor<64x!tt.ptr<f32>>
    tt.return
  }
  // Rows of a 2-D block are contiguous, the rows themselves strided: one load per row. The
  // first row's address is built from the scalars (row * stride + column 0; an unmasked tile,
  // so not from the address vector), each next row's steps from it by the rows' stride in
  // bytes (buildLaneStep), so LLVM advances one pointer instead of keeping every row's.
  // CHECK-LABEL: tt.func public @rows(
  // CHECK-NOT: scf.for
  // CHECK: %[[P0:[0-9]+]] = tt.addptr %arg0, %{{[0-9]+}} : !tt.ptr<f32>, i32
  // CHECK: %[[Q0:[0-9]+]] = builtin.unrealized_conversion_cast %[[P0]] : !tt.ptr<f32> to !llvm.ptr
  // CHECK: llvm.load %[[Q0]] {alignment = 4 : i64} : !llvm.ptr -> vector<4xf32>
  // CHECK: vector.insert %{{.*}}, %{{.*}} [0] : vector<4xf32> into vector<2x4xf32>
  // CHECK: %[[WIDE:[0-9]+]] = arith.extsi %arg1 : i32 to i64
  // CHECK: %[[BYTES:[0-9]+]] = arith.muli %[[WIDE]], %c4_i64 : i64
  // CHECK: %[[Q1:[0-9]+]] = llvm.getelementptr %[[Q0]][%[[BYTES]]] : (!llvm.ptr, i64) -> !llvm.ptr, i8
  // CHECK: llvm.load %[[Q1]] {alignment = 4 : i64} : !llvm.ptr -> vector<4xf32>
  // CHECK: vector.insert %{{.*}}, %{{.*}} [1] : vector<4xf32> into vector<2x4xf32>
  tt.func public @rows(%in: !tt.ptr<f32>, %stride: i32) -> tensor<2x4xf32> {
    %r = tt.make_range {end = 2 : i32, start = 0 : i32} : tensor<2xi32>
    %c = tt.make_range {end = 4 : i32, start = 0 : i32} : tensor<4xi32>
    %r1 = tt.expand_dims %r {axis = 1 : i32} : tensor<2xi32> -> tensor<2x1xi32>
    %s = tt.splat %stride : i32 -> tensor<2x1xi32>
    %r2 = arith.muli %r1, %s : tensor<2x1xi32>
    %r3 = tt.broadcast %r2 : tensor<2x1xi32> -> tensor<2x4xi32>
    %c1 = tt.expand_dims %c {axis = 0 : i32} : tensor<4xi32> -> tensor<1x4xi32>
    %c2 = tt.broadcast %c1 : tensor<1x4xi32> -> tensor<2x4xi32>
    %o = arith.addi %r3, %c2 : tensor<2x4xi32>
    %p = tt.splat %in : !tt.ptr<f32> -> tensor<2x4x!tt.ptr<f32>>
    %p1 = tt.addptr %p, %o : tensor<2x4x!tt.ptr<f32>>, tensor<2x4xi32>
    %v = tt.load %p1 : tensor<2x4x!tt.ptr<f32>>
    tt.return %v : tensor<2x4xf32>
  }
  // Stores of a short tile step the same way (tiles of up to 8 rows; taller ones compute
  // each row's address).
  // CHECK-LABEL: tt.func public @store_rows(
  // CHECK: %[[P0:[0-9]+]] = tt.addptr %arg0, %{{[0-9]+}} : !tt.ptr<f32>, i32
  // CHECK: %[[Q0:[0-9]+]] = builtin.unrealized_conversion_cast %[[P0]] : !tt.ptr<f32> to !llvm.ptr
  // CHECK: llvm.store %{{[0-9]+}}, %[[Q0]] {alignment = 4 : i64} : vector<4xf32>, !llvm.ptr
  // CHECK: %[[WIDE:[0-9]+]] = arith.extsi %arg2 : i32 to i64
  // CHECK: %[[BYTES:[0-9]+]] = arith.muli %[[WIDE]], %c4_i64 : i64
  // CHECK: %[[Q1:[0-9]+]] = llvm.getelementptr %[[Q0]][%[[BYTES]]] : (!llvm.ptr, i64) -> !llvm.ptr, i8
  // CHECK: llvm.store %{{[0-9]+}}, %[[Q1]] {alignment = 4 : i64} : vector<4xf32>, !llvm.ptr
  tt.func public @store_rows(%out: !tt.ptr<f32>, %v: tensor<2x4xf32>, %stride: i32) {
    %r = tt.make_range {end = 2 : i32, start = 0 : i32} : tensor<2xi32>
    %c = tt.make_range {end = 4 : i32, start = 0 : i32} : tensor<4xi32>
    %r1 = tt.expand_dims %r {axis = 1 : i32} : tensor<2xi32> -> tensor<2x1xi32>
    %s = tt.splat %stride : i32 -> tensor<2x1xi32>
    %r2 = arith.muli %r1, %s : tensor<2x1xi32>
    %r3 = tt.broadcast %r2 : tensor<2x1xi32> -> tensor<2x4xi32>
    %c1 = tt.expand_dims %c {axis = 0 : i32} : tensor<4xi32> -> tensor<1x4xi32>
    %c2 = tt.broadcast %c1 : tensor<1x4xi32> -> tensor<2x4xi32>
    %o = arith.addi %r3, %c2 : tensor<2x4xi32>
    %p = tt.splat %out : !tt.ptr<f32> -> tensor<2x4x!tt.ptr<f32>>
    %p1 = tt.addptr %p, %o : tensor<2x4x!tt.ptr<f32>>, tensor<2x4xi32>
    tt.store %p1, %v : tensor<2x4x!tt.ptr<f32>>
    tt.return
  }
  // Rows at row * row * stride are not evenly spaced: each row's address from the scalars.
  // CHECK-LABEL: tt.func public @rows_not_affine(
  // CHECK-NOT: llvm.getelementptr
  // CHECK-COUNT-3: tt.addptr %arg0, %{{[0-9]+}} : !tt.ptr<f32>, i32
  // CHECK-NOT: llvm.getelementptr
  // CHECK: tt.return
  tt.func public @rows_not_affine(%in: !tt.ptr<f32>, %stride: i32) -> tensor<3x4xf32> {
    %r = tt.make_range {end = 3 : i32, start = 0 : i32} : tensor<3xi32>
    %c = tt.make_range {end = 4 : i32, start = 0 : i32} : tensor<4xi32>
    %r1 = tt.expand_dims %r {axis = 1 : i32} : tensor<3xi32> -> tensor<3x1xi32>
    %rr = arith.muli %r1, %r1 : tensor<3x1xi32>
    %s = tt.splat %stride : i32 -> tensor<3x1xi32>
    %r2 = arith.muli %rr, %s : tensor<3x1xi32>
    %r3 = tt.broadcast %r2 : tensor<3x1xi32> -> tensor<3x4xi32>
    %c1 = tt.expand_dims %c {axis = 0 : i32} : tensor<4xi32> -> tensor<1x4xi32>
    %c2 = tt.broadcast %c1 : tensor<1x4xi32> -> tensor<3x4xi32>
    %o = arith.addi %r3, %c2 : tensor<3x4xi32>
    %p = tt.splat %in : !tt.ptr<f32> -> tensor<3x4x!tt.ptr<f32>>
    %p1 = tt.addptr %p, %o : tensor<3x4x!tt.ptr<f32>>, tensor<3x4xi32>
    %v = tt.load %p1 : tensor<3x4x!tt.ptr<f32>>
    tt.return %v : tensor<3x4xf32>
  }
  // vector_width never cuts a run the analysis proves: 4 on an 8-element run is one access.
  // CHECK-LABEL: tt.func public @hinted(
  // CHECK: llvm.load %{{.*}} {alignment = 4 : i64} : !llvm.ptr -> vector<8xf32>
  // CHECK-NOT: llvm.load
  // CHECK: tt.return
  tt.func public @hinted(%in: !tt.ptr<f32>) -> tensor<8xf32> {
    %offsets = tt.make_range {end = 8 : i32, start = 0 : i32} : tensor<8xi32>
    %x = tt.splat %in : !tt.ptr<f32> -> tensor<8x!tt.ptr<f32>>
    %x_1 = tt.addptr %x, %offsets : tensor<8x!tt.ptr<f32>>, tensor<8xi32>
    %v = tt.load %x_1 {tcpu.hints = {vector_width = 4 : i64}} : tensor<8x!tt.ptr<f32>>
    tt.return %v : tensor<8xf32>
  }
  // vector_width = 1 on a contiguous masked row changes nothing: one whole-mask test, one
  // vector access each way.
  // CHECK-LABEL: tt.func public @width_one(
  // CHECK: llvm.load %{{.*}} {alignment = 4 : i64} : !llvm.ptr -> vector<4xf32>
  // CHECK-NOT: vector<1xf32>
  // CHECK: llvm.store %{{.*}} {alignment = 4 : i64} : vector<4xf32>, !llvm.ptr
  // CHECK-NOT: vector<1xf32>
  // CHECK: tt.return
  tt.func public @width_one(%in: !tt.ptr<f32>, %out: !tt.ptr<f32>, %n: i32) {
    %offsets = tt.make_range {end = 4 : i32, start = 0 : i32} : tensor<4xi32>
    %bound = tt.splat %n : i32 -> tensor<4xi32>
    %mask = arith.cmpi slt, %offsets, %bound : tensor<4xi32>
    %x = tt.splat %in : !tt.ptr<f32> -> tensor<4x!tt.ptr<f32>>
    %x_1 = tt.addptr %x, %offsets : tensor<4x!tt.ptr<f32>>, tensor<4xi32>
    %v = tt.load %x_1, %mask {tcpu.hints = {vector_width = 1 : i64}} : tensor<4x!tt.ptr<f32>>
    %y = tt.splat %out : !tt.ptr<f32> -> tensor<4x!tt.ptr<f32>>
    %y_1 = tt.addptr %y, %offsets : tensor<4x!tt.ptr<f32>>, tensor<4xi32>
    tt.store %y_1, %v, %mask {tcpu.hints = {vector_width = 1 : i64}} : tensor<4x!tt.ptr<f32>>
    tt.return
  }
  // Offsets loaded from memory prove no run; vector_width = 4 is the author's word that they
  // come in runs of four: two vector<4> accesses from lanes 0 and 4 instead of eight scalars.
  // CHECK-LABEL: tt.func public @claimed_runs(
  // CHECK: %[[ADDRESSES:[0-9]+]] = builtin.unrealized_conversion_cast %{{[0-9]+}} : tensor<8x!tt.ptr<f32>> to vector<8xi64>
  // CHECK: vector.extract %[[ADDRESSES]][0] : i64 from vector<8xi64>
  // CHECK: llvm.load %{{.*}} {alignment = 4 : i64} : !llvm.ptr -> vector<4xf32>
  // CHECK: vector.extract %[[ADDRESSES]][4] : i64 from vector<8xi64>
  // CHECK: llvm.load %{{.*}} {alignment = 4 : i64} : !llvm.ptr -> vector<4xf32>
  // CHECK-NOT: llvm.load %{{.*}} -> f32
  // CHECK: tt.return
  tt.func public @claimed_runs(%in: !tt.ptr<f32>, %offs_ptr: !tt.ptr<i32>) -> tensor<8xf32> {
    %lanes = tt.make_range {end = 8 : i32, start = 0 : i32} : tensor<8xi32>
    %o = tt.splat %offs_ptr : !tt.ptr<i32> -> tensor<8x!tt.ptr<i32>>
    %o_1 = tt.addptr %o, %lanes : tensor<8x!tt.ptr<i32>>, tensor<8xi32>
    %offsets = tt.load %o_1 : tensor<8x!tt.ptr<i32>>
    %x = tt.splat %in : !tt.ptr<f32> -> tensor<8x!tt.ptr<f32>>
    %x_1 = tt.addptr %x, %offsets : tensor<8x!tt.ptr<f32>>, tensor<8xi32>
    %v = tt.load %x_1 {tcpu.hints = {vector_width = 4 : i64}} : tensor<8x!tt.ptr<f32>>
    tt.return %v : tensor<8xf32>
  }
  // A masked scalar load reads only under its mask and takes `other` otherwise.
  // CHECK-LABEL: tt.func public @scalar(
  // CHECK: %[[S:[0-9]+]] = scf.if %{{.*}} -> (f32) {
  // CHECK:   llvm.load %{{.*}} : !llvm.ptr -> f32
  // CHECK: } else {
  // CHECK:   scf.yield %{{.*}} : f32
  // CHECK: scf.if %{{.*}} {
  // CHECK-NEXT: llvm.store %[[S]], %{{.*}} : f32, !llvm.ptr
  tt.func public @scalar(%in: !tt.ptr<f32>, %m: i1) -> f32 {
    %cst = arith.constant 1.0 : f32
    %v = tt.load %in, %m, %cst : !tt.ptr<f32>
    tt.store %in, %v, %m : !tt.ptr<f32>
    tt.return %v : f32
  }
  // A masked run whose mask compares an index range with a bound: the whole-mask test is
  // scalar (max(block_start + range) < n, computed in i64; block_start = pid * 16 is a
  // multiple of 16, so block_start + 15 fits i32 without a test). When some lane is off, the lanes that are on are copied lane by lane into a
  // stack buffer (allocated once, in the entry block) and the vector load reads the buffer:
  // one select of the address, so the load stays where its value is used. Masked-off lanes
  // are never read or written. The run's first address and each lane's mask bit are scalars
  // (block_start + lane < n), so the mask vector is never built. A run wider than two
  // registers (16 f32 here) is gathered into a stack buffer of its own, holding `other` first,
  // and loaded from it whole; carried in registers (as @gather's 8 lanes are), each lane's
  // vector.insert made the backend store and reload the whole row.
  // CHECK-LABEL: tt.func public @masked(
  // CHECK: llvm.alloca %{{.*}} x f32 {alignment = 16 : i64}
  // CHECK: llvm.alloca %{{.*}} x f32 {alignment = 16 : i64}
  // CHECK: %[[BUFFER:[0-9]+]] = llvm.alloca %{{.*}} x f32 {alignment = 16 : i64}
  // CHECK: %[[START:[0-9]+]] = arith.extsi %{{.*}} : i32 to i64
  // CHECK: %[[LAST:[0-9]+]] = arith.addi %c15_i64, %[[START]] : i64
  // CHECK: %[[N:[0-9]+]] = arith.extsi %arg2 : i32 to i64
  // CHECK: %[[BELOW:[0-9]+]] = arith.cmpi slt, %[[LAST]], %[[N]] : i64
  // CHECK-NOT: arith.andi
  // CHECK: %[[SOME_OFF:[0-9]+]] = arith.xori %[[BELOW]], %{{.*}} : i1
  // CHECK: scf.if %[[SOME_OFF]] {
  // CHECK:   %[[FIRST_ADDR:[0-9]+]] = tt.addptr %arg0, %{{[0-9]+}} : !tt.ptr<f32>, i32
  // CHECK:   %[[PART_ON:[0-9]+]] = arith.cmpi slt, %{{[0-9]+}}, %{{[0-9]+}} : i64
  // CHECK:   scf.if %[[PART_ON]] -> (vector<16xf32>) {
  // CHECK:   } else {
  // CHECK:     llvm.store %{{.*}}, %[[ROW:[0-9]+]] {alignment = 4 : i64} : vector<16xf32>, !llvm.ptr
  // CHECK:     scf.for %[[LANE:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
  // CHECK:       %[[L:[0-9]+]] = arith.index_cast %[[LANE]] : index to i32
  // CHECK:       %[[I:[0-9]+]] = arith.addi %{{.*}}, %[[L]] : i32
  // CHECK:       %[[AT:[0-9]+]] = arith.addi %{{[0-9]+}}, %[[I]] : i32
  // CHECK:       %[[ON:[0-9]+]] = arith.cmpi slt, %[[AT]], %arg2 : i32
  // CHECK:       scf.if %[[ON]] {
  // CHECK:         %[[E:[0-9]+]] = llvm.load %{{.*}} : !llvm.ptr -> f32
  // CHECK:         %[[SLOT:[0-9]+]] = llvm.getelementptr %[[ROW]][%{{.*}}]
  // CHECK:         llvm.store %[[E]], %[[SLOT]] {alignment = 4 : i64} : f32, !llvm.ptr
  // CHECK:     llvm.load %[[ROW]] {alignment = 4 : i64} : !llvm.ptr -> vector<16xf32>
  // CHECK:   %[[PLACE:[0-9]+]] = llvm.getelementptr %[[BUFFER]][%{{.*}}]
  // CHECK:   llvm.store %{{.*}}, %[[PLACE]] {alignment = 4 : i64} : vector<16xf32>, !llvm.ptr
  // CHECK: }
  // CHECK: %[[FROM:[0-9]+]] = arith.select %[[SOME_OFF]], %{{.*}}, %{{.*}} : !llvm.ptr
  // CHECK: %[[X:[0-9]+]] = llvm.load %[[FROM]] {alignment = 4 : i64} : !llvm.ptr -> vector<16xf32>
  // CHECK: scf.if %{{.*}} {
  // CHECK:   llvm.store %[[X]], %{{.*}} : vector<16xf32>, !llvm.ptr
  // CHECK: } else {
  // CHECK:   scf.for
  // CHECK:     scf.if
  // CHECK:       llvm.store %{{.*}}, %{{.*}} : f32, !llvm.ptr
  tt.func public @masked(%x_ptr: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %y_ptr: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i32) attributes {noinline = false} {
    %c16_i32 = arith.constant 16 : i32
    %pid = tt.get_program_id x : i32
    %block_start = arith.muli %pid, %c16_i32 : i32
    %offsets = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
    %offsets_0 = tt.splat %block_start : i32 -> tensor<16xi32>
    %offsets_1 = arith.addi %offsets_0, %offsets : tensor<16xi32>
    %mask = tt.splat %n : i32 -> tensor<16xi32>
    %mask_2 = arith.cmpi slt, %offsets_1, %mask : tensor<16xi32>
    %x = tt.splat %x_ptr : !tt.ptr<f32> -> tensor<16x!tt.ptr<f32>>
    %x_3 = tt.addptr %x, %offsets_1 : tensor<16x!tt.ptr<f32>>, tensor<16xi32>
    %x_4 = tt.load %x_3, %mask_2 : tensor<16x!tt.ptr<f32>>
    %y = tt.splat %y_ptr : !tt.ptr<f32> -> tensor<16x!tt.ptr<f32>>
    %y_5 = tt.addptr %y, %offsets_1 : tensor<16x!tt.ptr<f32>>, tensor<16xi32>
    tt.store %y_5, %x_4, %mask_2 : tensor<16x!tt.ptr<f32>>
    tt.return
  }

  // A 1-D row wider than four registers under `offs < n`: the lanes on, [0, n - start), are
  // copied with no test per lane where start + 63 fits in i32, 16 lanes at once while they
  // fit, then 4, then one, in a loop that runs at least once (LLVM makes it no memcpy call and
  // forwards no `other` past an emptiness test); lane by lane under each bit where it might
  // wrap. The store writes its lanes on the same way.
  // CHECK-LABEL: tt.func public @masked_wide(
  // CHECK:   } else {
  // CHECK:     llvm.store %{{.*}}, %[[WIDE:[0-9]+]] {alignment = 4 : i64} : vector<64xf32>, !llvm.ptr
  // CHECK:     %[[NO_WRAP:[0-9]+]] = arith.cmpi sle, %{{[0-9]+}}, %c2147483584_i32 : i32
  // CHECK:     %[[N64:[0-9]+]] = arith.extsi %arg2 : i32 to i64
  // CHECK:     %[[START64:[0-9]+]] = arith.extsi %{{[0-9]+}} : i32 to i64
  // CHECK:     %[[ON_LANES:[0-9]+]] = arith.subi %[[N64]], %[[START64]] : i64
  // CHECK:     %[[ABOVE0:[0-9]+]] = arith.maxsi %[[ON_LANES]], %{{.*}} : i64
  // CHECK:     %[[HIGH:[0-9]+]] = arith.minsi %[[ABOVE0]], %{{.*}} : i64
  // CHECK:     scf.if %[[NO_WRAP]] {
  // CHECK:       %[[END:[0-9]+]] = arith.index_cast %[[HIGH]] : i64 to index
  // CHECK:       scf.while (%[[K:.*]] = %{{[0-9]+}}) : (index) -> index {
  // CHECK:         %[[FITS16:[0-9]+]] = arith.cmpi sle, %{{[0-9]+}}, %[[END]] : index
  // CHECK:         scf.if %[[FITS16]] -> (index) {
  // CHECK:           %[[V16:[0-9]+]] = llvm.load %{{.*}} : !llvm.ptr -> vector<16xf32>
  // CHECK:           llvm.store %[[V16]], %{{.*}} : vector<16xf32>, !llvm.ptr
  // CHECK:         } else {
  // CHECK:           scf.if %{{[0-9]+}} -> (index) {
  // CHECK:             %[[V4:[0-9]+]] = llvm.load %{{.*}} : !llvm.ptr -> vector<4xf32>
  // CHECK:             llvm.store %[[V4]], %{{.*}} : vector<4xf32>, !llvm.ptr
  // CHECK:           } else {
  // CHECK:             %[[INSIDE:[0-9]+]] = arith.cmpi slt, %[[K]], %[[END]] : index
  // CHECK:             scf.if %[[INSIDE]] {
  // CHECK:               %[[E0:[0-9]+]] = llvm.load %{{.*}} : !llvm.ptr -> f32
  // CHECK:               %[[SLOT0:[0-9]+]] = llvm.getelementptr %[[WIDE]][%{{.*}}]
  // CHECK:               llvm.store %[[E0]], %[[SLOT0]] {alignment = 4 : i64} : f32, !llvm.ptr
  // CHECK:         %[[MORE:[0-9]+]] = arith.cmpi slt, %{{[0-9]+}}, %[[END]] : index
  // CHECK:         scf.condition(%[[MORE]])
  // CHECK:     } else {
  // CHECK:       scf.for
  // CHECK:         scf.if
  // CHECK:           llvm.store %{{.*}}, %{{.*}} : f32, !llvm.ptr
  // CHECK:   scf.if %{{[0-9]+}} {
  // CHECK:     llvm.store %{{.*}}, %{{.*}} : vector<64xf32>, !llvm.ptr
  // CHECK:   } else {
  // CHECK:     scf.while
  // CHECK:       llvm.store %{{.*}}, %{{.*}} : vector<16xf32>, !llvm.ptr
  // CHECK:       llvm.store %{{.*}}, %{{.*}} : vector<4xf32>, !llvm.ptr
  // CHECK:       llvm.store %{{.*}}, %{{.*}} : f32, !llvm.ptr
  // CHECK: tt.return
  tt.func public @masked_wide(%x_ptr: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %y_ptr: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i32) attributes {noinline = false} {
    %c64_i32 = arith.constant 64 : i32
    %pid = tt.get_program_id x : i32
    %block_start = arith.muli %pid, %c64_i32 : i32
    %offsets = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
    %offsets_0 = tt.splat %block_start : i32 -> tensor<64xi32>
    %offsets_1 = arith.addi %offsets_0, %offsets : tensor<64xi32>
    %mask = tt.splat %n : i32 -> tensor<64xi32>
    %mask_2 = arith.cmpi slt, %offsets_1, %mask : tensor<64xi32>
    %x = tt.splat %x_ptr : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>>
    %x_3 = tt.addptr %x, %offsets_1 : tensor<64x!tt.ptr<f32>>, tensor<64xi32>
    %x_4 = tt.load %x_3, %mask_2 : tensor<64x!tt.ptr<f32>>
    %y = tt.splat %y_ptr : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>>
    %y_5 = tt.addptr %y, %offsets_1 : tensor<64x!tt.ptr<f32>>, tensor<64xi32>
    tt.store %y_5, %x_4, %mask_2 : tensor<64x!tt.ptr<f32>>
    tt.return
  }

  // A 0-D tensor of pointers: one scalar access (under its mask), broadcast back to 0-D.
  // CHECK-LABEL: tt.func public @zero_d(
  // CHECK: %[[ADDR:[0-9]+]] = vector.extractelement %{{[0-9]+}}[] : vector<i64>
  // CHECK: %[[PTR:[0-9]+]] = llvm.inttoptr %[[ADDR]] : i64 to !llvm.ptr
  // CHECK: %[[V:[0-9]+]] = llvm.load %[[PTR]] {alignment = 4 : i64} : !llvm.ptr -> f32
  // CHECK: vector.broadcast %[[V]] : f32 to vector<f32>
  // CHECK: %[[ON:[0-9]+]] = vector.extractelement %{{[0-9]+}}[] : vector<i1>
  // CHECK: scf.if %[[ON]] -> (f32)
  // CHECK: llvm.load
  // CHECK: scf.if %{{[0-9]+}} {
  // CHECK: llvm.store %{{[0-9]+}}, %{{[0-9]+}} {alignment = 4 : i64} : f32, !llvm.ptr
  tt.func public @zero_d(%p: !tt.ptr<f32>, %m: i1) {
    %q = tt.splat %p : !tt.ptr<f32> -> tensor<!tt.ptr<f32>>
    %v = tt.load %q : tensor<!tt.ptr<f32>>
    %on = tt.splat %m : i1 -> tensor<i1>
    %w = tt.load %q, %on : tensor<!tt.ptr<f32>>
    %s = arith.addf %v, %w : tensor<f32>
    tt.store %q, %s, %on : tensor<!tt.ptr<f32>>
    tt.return
  }

  // A mask of another form (here an equality) is tested lane by lane: its rows widened to
  // bytes, ANDed and reduced.
  // CHECK-LABEL: tt.func public @other_mask(
  // CHECK: arith.extui %{{.*}} : vector<2x8xi1> to vector<2x8xi8>
  // CHECK: arith.andi %{{.*}}, %{{.*}} : vector<8xi8>
  // CHECK: vector.reduction <and>, %{{.*}} : vector<8xi8> into i8
  tt.func public @other_mask(%in: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %k: i32) -> tensor<2x8xf32> {
    %r = tt.make_range {end = 2 : i32, start = 0 : i32} : tensor<2xi32>
    %c = tt.make_range {end = 8 : i32, start = 0 : i32} : tensor<8xi32>
    %r1 = tt.expand_dims %r {axis = 1 : i32} : tensor<2xi32> -> tensor<2x1xi32>
    %r2 = arith.muli %r1, %r1 : tensor<2x1xi32>
    %r3 = tt.broadcast %r2 : tensor<2x1xi32> -> tensor<2x8xi32>
    %c1 = tt.expand_dims %c {axis = 0 : i32} : tensor<8xi32> -> tensor<1x8xi32>
    %c2 = tt.broadcast %c1 : tensor<1x8xi32> -> tensor<2x8xi32>
    %o = arith.addi %r3, %c2 : tensor<2x8xi32>
    %ks = tt.splat %k : i32 -> tensor<2x8xi32>
    %m = arith.cmpi ne, %o, %ks : tensor<2x8xi32>
    %p = tt.splat %in : !tt.ptr<f32> -> tensor<2x8x!tt.ptr<f32>>
    %p1 = tt.addptr %p, %o : tensor<2x8x!tt.ptr<f32>>, tensor<2x8xi32>
    %v = tt.load %p1, %m : tensor<2x8x!tt.ptr<f32>>
    tt.return %v : tensor<2x8xf32>
  }

  // A 2-D tile under the ANDed row and column masks of a matmul: the test is the conjunction
  // of the two scalar comparisons (the column bound k is already an i32, so only the rows'
  // last index is checked to fit i32).
  // CHECK-LABEL: tt.func public @tile_mask(
  // CHECK: %[[ROWS:[0-9]+]] = arith.cmpi slt, %{{.*}}, %{{.*}} : i64
  // CHECK: %[[COLUMNS:[0-9]+]] = arith.cmpi slt, %c7_i64, %{{.*}} : i64
  // CHECK: arith.andi %{{.*}}, %[[COLUMNS]] : i1
  // CHECK-NOT: vector.reduction
  // CHECK: scf.if
  tt.func public @tile_mask(%in: !tt.ptr<i8> {tt.divisibility = 16 : i32}, %row0: i32, %m: i32, %k: i32, %stride: i32) -> tensor<4x8xi8> {
    %r = tt.make_range {end = 4 : i32, start = 0 : i32} : tensor<4xi32>
    %rs = tt.splat %row0 : i32 -> tensor<4xi32>
    %rows = arith.addi %rs, %r : tensor<4xi32>
    %r1 = tt.expand_dims %rows {axis = 1 : i32} : tensor<4xi32> -> tensor<4x1xi32>
    %st = tt.splat %stride : i32 -> tensor<4x1xi32>
    %r2 = arith.muli %r1, %st : tensor<4x1xi32>
    %r3 = tt.broadcast %r2 : tensor<4x1xi32> -> tensor<4x8xi32>
    %c = tt.make_range {end = 8 : i32, start = 0 : i32} : tensor<8xi32>
    %c1 = tt.expand_dims %c {axis = 0 : i32} : tensor<8xi32> -> tensor<1x8xi32>
    %c2 = tt.broadcast %c1 : tensor<1x8xi32> -> tensor<4x8xi32>
    %o = arith.addi %r3, %c2 : tensor<4x8xi32>
    %ms = tt.splat %m : i32 -> tensor<4x1xi32>
    %mm = arith.cmpi slt, %r1, %ms : tensor<4x1xi32>
    %mm2 = tt.broadcast %mm : tensor<4x1xi1> -> tensor<4x8xi1>
    %ks = tt.splat %k : i32 -> tensor<1x8xi32>
    %mk = arith.cmpi slt, %c1, %ks : tensor<1x8xi32>
    %mk2 = tt.broadcast %mk : tensor<1x8xi1> -> tensor<4x8xi1>
    %mask = arith.andi %mm2, %mk2 : tensor<4x8xi1>
    %p = tt.splat %in : !tt.ptr<i8> -> tensor<4x8x!tt.ptr<i8>>
    %p1 = tt.addptr %p, %o : tensor<4x8x!tt.ptr<i8>>, tensor<4x8xi32>
    %v = tt.load %p1, %mask : tensor<4x8x!tt.ptr<i8>>
    tt.return %v : tensor<4x8xi8>
  }

  // A block pointer's bounds check (tt-lower-block-pointers): i32 indices sign-extended to i64
  // and compared with the tensor's i64 sizes. The whole test is still scalar: the rows'
  // `0 <= r && r < m` is one unsigned comparison of the first row with max(m, 3) - 3 (the last
  // row is below m, the first not negative), the extended i32 rows' last index checked to fit
  // i32 (row0 + 3; the columns' 0..7 evidently do). Each row's first address comes from the
  // scalars too (a tile of at most 8 rows): no address vector is taken apart. A tile of
  // several rows and at most 128 bytes joins its two branches: all on, four plain loads.
  // CHECK-LABEL: tt.func public @tile_mask_i64(
  // CHECK: %[[AT_LEAST:[0-9]+]] = arith.maxsi %arg2, %c3_i64 : i64
  // CHECK: %[[BOUND:[0-9]+]] = arith.subi %[[AT_LEAST]], %c3_i64 : i64
  // CHECK: %[[FIRST_ROW:[0-9]+]] = arith.extsi %arg1 : i32 to i64
  // CHECK: arith.cmpi ult, %[[FIRST_ROW]], %[[BOUND]] : i64
  // CHECK: %[[LAST_ROW:[0-9]+]] = arith.addi %c3_i64{{.*}}, %{{.*}} : i64
  // CHECK: arith.cmpi sle, %[[LAST_ROW]], %c2147483647_i64 : i64
  // CHECK: arith.cmpi slt, %c7_i64, %arg3 : i64
  // CHECK-NOT: vector.reduction
  // CHECK: scf.if %{{[0-9]+}} -> (vector<4x8xf32>) {
  // CHECK-COUNT-4: llvm.load %{{[0-9]+}} {alignment = 4 : i64} : !llvm.ptr -> vector<8xf32>
  // CHECK-NOT: scf.if
  // CHECK: } else {
  // CHECK-NOT: vector.extract %{{.*}} : i64 from vector<8xi64>
  // CHECK: tt.return
  tt.func public @tile_mask_i64(%in: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %row0: i32, %m: i64, %n: i64, %stride: i64) -> tensor<4x8xf32> {
    %r = tt.make_range {end = 4 : i32, start = 0 : i32} : tensor<4xi32>
    %rs = tt.splat %row0 : i32 -> tensor<4xi32>
    %rows = arith.addi %rs, %r : tensor<4xi32>
    %rows64 = arith.extsi %rows : tensor<4xi32> to tensor<4xi64>
    %r1 = tt.expand_dims %rows64 {axis = 1 : i32} : tensor<4xi64> -> tensor<4x1xi64>
    %r2 = tt.broadcast %r1 : tensor<4x1xi64> -> tensor<4x8xi64>
    %st = tt.splat %stride : i64 -> tensor<4x8xi64>
    %r3 = arith.muli %r2, %st : tensor<4x8xi64>
    %c = tt.make_range {end = 8 : i32, start = 0 : i32} : tensor<8xi32>
    %c64 = arith.extsi %c : tensor<8xi32> to tensor<8xi64>
    %c1 = tt.expand_dims %c64 {axis = 0 : i32} : tensor<8xi64> -> tensor<1x8xi64>
    %c2 = tt.broadcast %c1 : tensor<1x8xi64> -> tensor<4x8xi64>
    %o = arith.addi %r3, %c2 : tensor<4x8xi64>
    %zero = arith.constant dense<0> : tensor<4x8xi64>
    %ms = tt.splat %m : i64 -> tensor<4x8xi64>
    %above = arith.cmpi sge, %r2, %zero : tensor<4x8xi64>
    %below = arith.cmpi slt, %r2, %ms : tensor<4x8xi64>
    %mm = arith.andi %above, %below : tensor<4x8xi1>
    %ns = tt.splat %n : i64 -> tensor<4x8xi64>
    %mk = arith.cmpi slt, %c2, %ns : tensor<4x8xi64>
    %mask = arith.andi %mm, %mk : tensor<4x8xi1>
    %p = tt.splat %in : !tt.ptr<f32> -> tensor<4x8x!tt.ptr<f32>>
    %p1 = tt.addptr %p, %o : tensor<4x8x!tt.ptr<f32>>, tensor<4x8xi64>
    %zeros = arith.constant dense<0.0> : tensor<4x8xf32>
    %v = tt.load %p1, %mask, %zeros : tensor<4x8x!tt.ptr<f32>>
    tt.return %v : tensor<4x8xf32>
  }

  // Rows from `pid * 4` (tutorial-style `tl.program_id(0) * BLOCK_M`): a multiple of 4 is at
  // most 2^31 - 4, so its last row fits i32 with no test; only the bounds are compared.
  // CHECK-LABEL: tt.func public @tile_rows_from_program_id(
  // CHECK-NOT: 2147483647
  // CHECK: scf.if %{{[0-9]+}} -> (vector<4x8xf32>) {
  // CHECK: tt.return
  tt.func public @tile_rows_from_program_id(%in: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %m: i64, %n: i64, %stride: i64) -> tensor<4x8xf32> {
    %c4_i32 = arith.constant 4 : i32
    %pid = tt.get_program_id x : i32
    %row0 = arith.muli %pid, %c4_i32 : i32
    %r = tt.make_range {end = 4 : i32, start = 0 : i32} : tensor<4xi32>
    %rs = tt.splat %row0 : i32 -> tensor<4xi32>
    %rows = arith.addi %rs, %r : tensor<4xi32>
    %rows64 = arith.extsi %rows : tensor<4xi32> to tensor<4xi64>
    %r1 = tt.expand_dims %rows64 {axis = 1 : i32} : tensor<4xi64> -> tensor<4x1xi64>
    %r2 = tt.broadcast %r1 : tensor<4x1xi64> -> tensor<4x8xi64>
    %st = tt.splat %stride : i64 -> tensor<4x8xi64>
    %r3 = arith.muli %r2, %st : tensor<4x8xi64>
    %c = tt.make_range {end = 8 : i32, start = 0 : i32} : tensor<8xi32>
    %c64 = arith.extsi %c : tensor<8xi32> to tensor<8xi64>
    %c1 = tt.expand_dims %c64 {axis = 0 : i32} : tensor<8xi64> -> tensor<1x8xi64>
    %c2 = tt.broadcast %c1 : tensor<1x8xi64> -> tensor<4x8xi64>
    %o = arith.addi %r3, %c2 : tensor<4x8xi64>
    %zero = arith.constant dense<0> : tensor<4x8xi64>
    %ms = tt.splat %m : i64 -> tensor<4x8xi64>
    %above = arith.cmpi sge, %r2, %zero : tensor<4x8xi64>
    %below = arith.cmpi slt, %r2, %ms : tensor<4x8xi64>
    %mm = arith.andi %above, %below : tensor<4x8xi1>
    %ns = tt.splat %n : i64 -> tensor<4x8xi64>
    %mk = arith.cmpi slt, %c2, %ns : tensor<4x8xi64>
    %mask = arith.andi %mm, %mk : tensor<4x8xi1>
    %p = tt.splat %in : !tt.ptr<f32> -> tensor<4x8x!tt.ptr<f32>>
    %p1 = tt.addptr %p, %o : tensor<4x8x!tt.ptr<f32>>, tensor<4x8xi64>
    %zeros = arith.constant dense<0.0> : tensor<4x8xf32>
    %v = tt.load %p1, %mask, %zeros : tensor<4x8x!tt.ptr<f32>>
    tt.return %v : tensor<4x8xf32>
  }

  // Arithmetic on i64 index tensors could wrap: such a mask keeps the vector test.
  // CHECK-LABEL: tt.func public @mask_i64_arithmetic(
  // CHECK: vector.reduction <and>
  tt.func public @mask_i64_arithmetic(%in: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %start: i64, %n: i64) -> tensor<16xf32> {
    %r = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
    %r64 = arith.extsi %r : tensor<16xi32> to tensor<16xi64>
    %s = tt.splat %start : i64 -> tensor<16xi64>
    %i = arith.addi %s, %r64 : tensor<16xi64>
    %ns = tt.splat %n : i64 -> tensor<16xi64>
    %mask = arith.cmpi slt, %i, %ns : tensor<16xi64>
    %p = tt.splat %in : !tt.ptr<f32> -> tensor<16x!tt.ptr<f32>>
    %p1 = tt.addptr %p, %i : tensor<16x!tt.ptr<f32>>, tensor<16xi64>
    %v = tt.load %p1, %mask : tensor<16x!tt.ptr<f32>>
    tt.return %v : tensor<16xf32>
  }

  // A tile of 32 rows or more, masked: when some lane is off, the copy into the stack buffer
  // (load) and the lane-by-lane write (store) are loops over rows and lanes, each lane's mask
  // bit and address built from the TTIR's scalars, so the code does not grow with the rows.
  // A loaded tile wholly past the bound (its first row at or past %m) is filled with `other` by
  // rows. The whole tile on is still one vector access per row.
  // CHECK-LABEL: tt.func public @tall_tile_mask(
  // CHECK: %[[STORED:[0-9]+]] = llvm.alloca %{{.*}} x f32
  // CHECK: %[[LOADED:[0-9]+]] = llvm.alloca %{{.*}} x f32
  // CHECK: scf.if
  // CHECK: %[[NONE_ON:[0-9]+]] = arith.cmpi sge, %c0_i64, %{{[0-9]+}} : i64
  // CHECK: scf.if %[[NONE_ON]] {
  // CHECK: scf.for %{{.*}} = %c0 to %c32 step %c1 {
  // CHECK: llvm.getelementptr %[[LOADED]][%{{.*}}] : (!llvm.ptr, i64) -> !llvm.ptr, f32
  // CHECK-NEXT: llvm.store %{{.*}} : vector<8xf32>, !llvm.ptr
  // CHECK: } else {
  // CHECK: scf.for %{{.*}} = %c0 to %c32 step %c1 {
  // CHECK-NEXT: scf.for %{{.*}} = %c0 to %c8 step %c1 {
  // CHECK: arith.cmpi slt, %{{.*}}, %arg2 : i32
  // CHECK: scf.if %{{.*}} -> (f32) {
  // CHECK: tt.addptr %arg0, %{{.*}} : !tt.ptr<f32>, i32
  // CHECK: llvm.load %{{.*}} {alignment = 4 : i64} : !llvm.ptr -> f32
  // CHECK: llvm.getelementptr %[[LOADED]][%{{.*}}] : (!llvm.ptr, i64) -> !llvm.ptr, f32
  // CHECK-NEXT: llvm.store %{{.*}} : f32, !llvm.ptr
  // CHECK-COUNT-32: llvm.load %{{.*}} {alignment = 4 : i64} : !llvm.ptr -> vector<8xf32>
  // CHECK: scf.if
  // CHECK-COUNT-32: llvm.store %{{.*}} : vector<8xf32>, !llvm.ptr
  // CHECK: } else {
  // CHECK-COUNT-32: llvm.store %{{.*}}, %{{.*}} {alignment = 4 : i64} : vector<8xf32>, !llvm.ptr
  // CHECK: scf.for %{{.*}} = %c0 to %c32 step %c1 {
  // CHECK-NEXT: scf.for %{{.*}} = %c0 to %c8 step %c1 {
  // CHECK: scf.if %{{.*}} {
  // CHECK-NEXT: llvm.getelementptr %[[STORED]][%{{.*}}] : (!llvm.ptr, i64) -> !llvm.ptr, f32
  // CHECK-NEXT: llvm.load %{{.*}} : !llvm.ptr -> f32
  // CHECK: tt.addptr %arg1, %{{.*}} : !tt.ptr<f32>, i32
  // CHECK: llvm.store %{{.*}} : f32, !llvm.ptr
  // CHECK-NOT: llvm.store %{{.*}} : vector<8xf32>, !llvm.ptr
  // CHECK: tt.return
  tt.func public @tall_tile_mask(%in: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %out: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %m: i32, %stride: i32) {
    %r = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32>
    %r1 = tt.expand_dims %r {axis = 1 : i32} : tensor<32xi32> -> tensor<32x1xi32>
    %st = tt.splat %stride : i32 -> tensor<32x1xi32>
    %r2 = arith.muli %r1, %st : tensor<32x1xi32>
    %r3 = tt.broadcast %r2 : tensor<32x1xi32> -> tensor<32x8xi32>
    %c = tt.make_range {end = 8 : i32, start = 0 : i32} : tensor<8xi32>
    %c1 = tt.expand_dims %c {axis = 0 : i32} : tensor<8xi32> -> tensor<1x8xi32>
    %c2 = tt.broadcast %c1 : tensor<1x8xi32> -> tensor<32x8xi32>
    %o = arith.addi %r3, %c2 : tensor<32x8xi32>
    %ms = tt.splat %m : i32 -> tensor<32x1xi32>
    %mm = arith.cmpi slt, %r1, %ms : tensor<32x1xi32>
    %mask = tt.broadcast %mm : tensor<32x1xi1> -> tensor<32x8xi1>
    %p = tt.splat %in : !tt.ptr<f32> -> tensor<32x8x!tt.ptr<f32>>
    %p1 = tt.addptr %p, %o : tensor<32x8x!tt.ptr<f32>>, tensor<32x8xi32>
    %v = tt.load %p1, %mask : tensor<32x8x!tt.ptr<f32>>
    %q = tt.splat %out : !tt.ptr<f32> -> tensor<32x8x!tt.ptr<f32>>
    %q1 = tt.addptr %q, %o : tensor<32x8x!tt.ptr<f32>>, tensor<32x8xi32>
    tt.store %q1, %v, %mask : tensor<32x8x!tt.ptr<f32>>
    tt.return
  }

  // A mask the same in every lane (Inductor's `x0 = x % 32; x0 < 16` over a block of 16 at a
  // multiple of 16, tt/Analysis/Contiguity.h) is tested as its first lane, in scalars; the
  // addresses `x // 32 * 16 + x0` are one run of 16 (the quotient is constant over it).
  // CHECK-LABEL: tt.func public @uniform_mask(
  // CHECK-NOT: vector.reduction
  // CHECK: %[[FIRST:[0-9]+]] = arith.remsi %{{[0-9]+}}, %c32_i32{{.*}} : i32
  // CHECK: %[[ON:[0-9]+]] = arith.cmpi slt, %[[FIRST]], %c16_i32{{.*}} : i32
  // CHECK: arith.xori %[[ON]], %true : i1
  // CHECK: %[[RUN_ON:[0-9]+]] = arith.cmpi slt, %{{[0-9]+}}, %c16_i32{{.*}} : i32
  // CHECK-NEXT: scf.if %[[RUN_ON]] -> (vector<16xf32>) {
  // CHECK-NEXT: llvm.load %{{[0-9]+}} {alignment = 4 : i64} : !llvm.ptr -> vector<16xf32>
  tt.func public @uniform_mask(%in: !tt.ptr<f32> {tt.divisibility = 16 : i32}) -> tensor<16xf32> {
    %c16_i32 = arith.constant 16 : i32
    %half = arith.constant dense<16> : tensor<16xi32>
    %row = arith.constant dense<32> : tensor<16xi32>
    %zero = arith.constant dense<0.000000e+00> : tensor<16xf32>
    %pid = tt.get_program_id x : i32
    %start = arith.muli %pid, %c16_i32 : i32
    %range = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
    %starts = tt.splat %start : i32 -> tensor<16xi32>
    %x = arith.addi %starts, %range : tensor<16xi32>
    %x0 = arith.remsi %x, %row : tensor<16xi32>
    %x1 = arith.divsi %x, %row : tensor<16xi32>
    %low = arith.cmpi slt, %x0, %half : tensor<16xi32>
    %row_start = arith.muli %x1, %half : tensor<16xi32>
    %offsets = arith.addi %row_start, %x0 : tensor<16xi32>
    %base = tt.splat %in : !tt.ptr<f32> -> tensor<16x!tt.ptr<f32>>
    %ptrs = tt.addptr %base, %offsets : tensor<16x!tt.ptr<f32>>, tensor<16xi32>
    %vals = tt.load %ptrs, %low, %zero : tensor<16x!tt.ptr<f32>>
    tt.return %vals : tensor<16xf32>
  }
}
