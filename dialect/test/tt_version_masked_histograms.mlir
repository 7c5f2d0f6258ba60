// tt-version-masked-histograms: a histogram whose mask compares a block's lanes with a bound
// counts without the mask when every lane is on; an unmasked histogram of the same source
// before it is reused there. A mask the scalar test cannot see through is left as it is.
// RUN: tcpu-opt %s --tt-version-masked-histograms | FileCheck %s

module {
  // Both histograms of a block, as the histogram kernel counts them: the masked one is the
  // unmasked one's result when the block is full.
  // CHECK-LABEL: tt.func @both(
  // CHECK: %[[ALL:.*]] = tt.histogram %[[X:[0-9]+]] : tensor<64xi32> -> tensor<16xi32>
  // CHECK: %[[VALID:.*]] = scf.if %{{.*}} -> (tensor<16xi32>) {
  // CHECK-NEXT: scf.yield %[[ALL]] : tensor<16xi32>
  // CHECK-NEXT: } else {
  // CHECK-NEXT: %[[MASKED:.*]] = tt.histogram %[[X]], %{{.*}} : tensor<64xi32> -> tensor<16xi32>
  // CHECK-NEXT: scf.yield %[[MASKED]] : tensor<16xi32>
  // CHECK: tt.store %{{.*}}, %[[VALID]] : tensor<16x!tt.ptr<i32>>
  tt.func @both(%x_ptr: !tt.ptr<i32>, %out: !tt.ptr<i32>, %n: i32) {
    %c64 = arith.constant 64 : i32
    %pid = tt.get_program_id x : i32
    %start = arith.muli %pid, %c64 : i32
    %range = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
    %s = tt.splat %start : i32 -> tensor<64xi32>
    %offsets = arith.addi %s, %range : tensor<64xi32>
    %bound = tt.splat %n : i32 -> tensor<64xi32>
    %mask = arith.cmpi slt, %offsets, %bound : tensor<64xi32>
    %zero = arith.constant dense<0> : tensor<64xi32>
    %xs = tt.splat %x_ptr : !tt.ptr<i32> -> tensor<64x!tt.ptr<i32>>
    %xp = tt.addptr %xs, %offsets : tensor<64x!tt.ptr<i32>>, tensor<64xi32>
    %x = tt.load %xp, %mask, %zero : tensor<64x!tt.ptr<i32>>
    %all = tt.histogram %x : tensor<64xi32> -> tensor<16xi32>
    %valid = tt.histogram %x, %mask : tensor<64xi32> -> tensor<16xi32>
    %bins = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
    %os = tt.splat %out : !tt.ptr<i32> -> tensor<16x!tt.ptr<i32>>
    %op = tt.addptr %os, %bins : tensor<16x!tt.ptr<i32>>, tensor<16xi32>
    %sum = arith.addi %all, %valid : tensor<16xi32>
    tt.store %op, %valid : tensor<16x!tt.ptr<i32>>
    tt.store %op, %sum : tensor<16x!tt.ptr<i32>>
    tt.return
  }

  // Alone, the unmasked branch counts without the mask.
  // CHECK-LABEL: tt.func @alone(
  // CHECK: scf.if %{{.*}} -> (tensor<16xi32>) {
  // CHECK-NEXT: %[[ALL:.*]] = tt.histogram %{{[0-9]+}} : tensor<64xi32> -> tensor<16xi32>
  // CHECK-NEXT: scf.yield %[[ALL]] : tensor<16xi32>
  // CHECK-NEXT: } else {
  // CHECK-NEXT: tt.histogram %{{[0-9]+}}, %{{[0-9]+}} : tensor<64xi32> -> tensor<16xi32>
  tt.func @alone(%x_ptr: !tt.ptr<i32>, %out: !tt.ptr<i32>, %n: i32) {
    %range = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
    %bound = tt.splat %n : i32 -> tensor<64xi32>
    %mask = arith.cmpi slt, %range, %bound : tensor<64xi32>
    %xs = tt.splat %x_ptr : !tt.ptr<i32> -> tensor<64x!tt.ptr<i32>>
    %xp = tt.addptr %xs, %range : tensor<64x!tt.ptr<i32>>, tensor<64xi32>
    %x = tt.load %xp, %mask : tensor<64x!tt.ptr<i32>>
    %valid = tt.histogram %x, %mask : tensor<64xi32> -> tensor<16xi32>
    %bins = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
    %os = tt.splat %out : !tt.ptr<i32> -> tensor<16x!tt.ptr<i32>>
    %op = tt.addptr %os, %bins : tensor<16x!tt.ptr<i32>>, tensor<16xi32>
    tt.store %op, %valid : tensor<16x!tt.ptr<i32>>
    tt.return
  }

  // A mask computed from loaded values has no scalar test: unchanged.
  // CHECK-LABEL: tt.func @data_mask(
  // CHECK-NOT: scf.if
  // CHECK: tt.histogram %{{[0-9]+}}, %{{[0-9]+}} : tensor<64xi32> -> tensor<16xi32>
  tt.func @data_mask(%x_ptr: !tt.ptr<i32>, %out: !tt.ptr<i32>) {
    %range = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
    %xs = tt.splat %x_ptr : !tt.ptr<i32> -> tensor<64x!tt.ptr<i32>>
    %xp = tt.addptr %xs, %range : tensor<64x!tt.ptr<i32>>, tensor<64xi32>
    %x = tt.load %xp : tensor<64x!tt.ptr<i32>>
    %mask = arith.cmpi slt, %x, %range : tensor<64xi32>
    %valid = tt.histogram %x, %mask : tensor<64xi32> -> tensor<16xi32>
    %bins = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
    %os = tt.splat %out : !tt.ptr<i32> -> tensor<16x!tt.ptr<i32>>
    %op = tt.addptr %os, %bins : tensor<16x!tt.ptr<i32>>, tensor<16xi32>
    tt.store %op, %valid : tensor<16x!tt.ptr<i32>>
    tt.return
  }
}
