// tt-strip-mine-tiles: Inductor's reduction loops (`triton_red_*`: XBLOCK = 1, an RBLOCK-wide
// accumulator carried over `for r0_offset in range(0, r0_numel, RBLOCK)`, reduced after the
// loop) often also store a pointwise result and assert an index inside the loop. The loop
// writes only the lanes of its own axis, so it runs once per chunk, inside the chunk loop
// that reduces its result: each chunk's accumulator is carried over the whole r0 loop, then
// reduced and combined with the chunks before it. (Left whole, the 1x2048 accumulator and its
// gathers were 1.9 MB of LLVM IR, and LLVM 19's type legalizer crashed on them.)
// RUN: tcpu-opt %s -split-input-file --tt-strip-mine-tiles | FileCheck %s

module {
  // CHECK-LABEL: tt.func public @reduction_loop_that_stores(
  // CHECK: %[[SUM:.*]] = scf.for {{.*}} -> (tensor<1xf32>)
  // CHECK: scf.for {{.*}} -> (tensor<1x[[C:[0-9]+]]xf32>)
  // CHECK: tt.load {{.*}} : tensor<1x[[C]]x!tt.ptr<i64>>
  // CHECK: tt.assert {{.*}} : tensor<1x[[C]]xi1>
  // CHECK: tt.store {{.*}} : tensor<1x[[C]]x!tt.ptr<f32>>
  // CHECK: scf.yield {{.*}} : tensor<1x[[C]]xf32>
  // CHECK: "tt.reduce"
  // CHECK: scf.yield {{.*}} : tensor<1xf32>
  // CHECK-NOT: tensor<1x2048x
  // CHECK: tt.store {{.*}} : tensor<1x1x!tt.ptr<f32>>
  tt.func public @reduction_loop_that_stores(%index: !tt.ptr<i64>, %table: !tt.ptr<f32>,
                                             %out0: !tt.ptr<f32>, %out1: !tt.ptr<f32>) {
    %c0 = arith.constant 0 : i32
    %c2048 = arith.constant 2048 : i32
    %c8192 = arith.constant 8192 : i32
    %numel = arith.constant dense<8192> : tensor<1x2048xi32>
    %width = arith.constant dense<64> : tensor<1x2048xi32>
    %rows = arith.constant dense<256> : tensor<1x2048xi64>
    %zero64 = arith.constant dense<0> : tensor<1x2048xi64>
    %zero = arith.constant dense<0.000000e+00> : tensor<1x2048xf32>
    %r = tt.make_range {end = 2048 : i32, start = 0 : i32} : tensor<2048xi32>
    %r2 = tt.expand_dims %r {axis = 0 : i32} : tensor<2048xi32> -> tensor<1x2048xi32>
    %acc = scf.for %off = %c0 to %c8192 step %c2048 iter_args(%a = %zero) -> (tensor<1x2048xf32>) : i32 {
      %s = tt.splat %off : i32 -> tensor<1x2048xi32>
      %idx = arith.addi %s, %r2 : tensor<1x2048xi32>
      %mask = arith.cmpi slt, %idx, %numel : tensor<1x2048xi32>
      %row = arith.divsi %idx, %width : tensor<1x2048xi32>
      %col = arith.remsi %idx, %width : tensor<1x2048xi32>
      %ip = tt.splat %index : !tt.ptr<i64> -> tensor<1x2048x!tt.ptr<i64>>
      %ia = tt.addptr %ip, %row : tensor<1x2048x!tt.ptr<i64>>, tensor<1x2048xi32>
      %i = tt.load %ia, %mask, %zero64 : tensor<1x2048x!tt.ptr<i64>>
      %ge = arith.cmpi sge, %i, %zero64 : tensor<1x2048xi64>
      %lt = arith.cmpi slt, %i, %rows : tensor<1x2048xi64>
      %ok = arith.andi %ge, %lt : tensor<1x2048xi1>
      tt.assert %ok, "index out of bounds: 0 <= tmp4 < 256" : tensor<1x2048xi1>
      %base = arith.muli %i, %zero64 : tensor<1x2048xi64>
      %col64 = arith.extsi %col : tensor<1x2048xi32> to tensor<1x2048xi64>
      %at = arith.addi %base, %col64 : tensor<1x2048xi64>
      %tp = tt.splat %table : !tt.ptr<f32> -> tensor<1x2048x!tt.ptr<f32>>
      %ta = tt.addptr %tp, %at : tensor<1x2048x!tt.ptr<f32>>, tensor<1x2048xi64>
      %x = tt.load %ta, %mask, %zero : tensor<1x2048x!tt.ptr<f32>>
      %t = math.tanh %x : tensor<1x2048xf32>
      %sum = arith.addf %a, %t : tensor<1x2048xf32>
      %next = arith.select %mask, %sum, %a : tensor<1x2048xi1>, tensor<1x2048xf32>
      %op = tt.splat %out0 : !tt.ptr<f32> -> tensor<1x2048x!tt.ptr<f32>>
      %oa = tt.addptr %op, %idx : tensor<1x2048x!tt.ptr<f32>>, tensor<1x2048xi32>
      tt.store %oa, %x, %mask : tensor<1x2048x!tt.ptr<f32>>
      scf.yield %next : tensor<1x2048xf32>
    }
    %total = "tt.reduce"(%acc) <{axis = 1 : i32}> ({
    ^bb0(%x0: f32, %x1: f32):
      %y = arith.addf %x0, %x1 : f32
      tt.reduce.return %y : f32
    }) : (tensor<1x2048xf32>) -> tensor<1xf32>
    %t2 = tt.expand_dims %total {axis = 1 : i32} : tensor<1xf32> -> tensor<1x1xf32>
    %p = tt.splat %out1 : !tt.ptr<f32> -> tensor<1x1x!tt.ptr<f32>>
    tt.store %p, %t2 : tensor<1x1x!tt.ptr<f32>>
    tt.return
  }

  // A load after the loop reads what the loop stored: the loop cannot move past it, and the
  // axis stays whole (correctness first).
  // CHECK-LABEL: tt.func public @reduction_loop_read_after(
  // CHECK: scf.for {{.*}} -> (tensor<1x2048xf32>)
  tt.func public @reduction_loop_read_after(%in: !tt.ptr<f32>, %out: !tt.ptr<f32>, %res: !tt.ptr<f32>) {
    %c0 = arith.constant 0 : i32
    %c2048 = arith.constant 2048 : i32
    %c8192 = arith.constant 8192 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<1x2048xf32>
    %r = tt.make_range {end = 2048 : i32, start = 0 : i32} : tensor<2048xi32>
    %r2 = tt.expand_dims %r {axis = 0 : i32} : tensor<2048xi32> -> tensor<1x2048xi32>
    %acc = scf.for %off = %c0 to %c8192 step %c2048 iter_args(%a = %zero) -> (tensor<1x2048xf32>) : i32 {
      %s = tt.splat %off : i32 -> tensor<1x2048xi32>
      %idx = arith.addi %s, %r2 : tensor<1x2048xi32>
      %ip = tt.splat %in : !tt.ptr<f32> -> tensor<1x2048x!tt.ptr<f32>>
      %ia = tt.addptr %ip, %idx : tensor<1x2048x!tt.ptr<f32>>, tensor<1x2048xi32>
      %x = tt.load %ia : tensor<1x2048x!tt.ptr<f32>>
      %e = math.exp %x : tensor<1x2048xf32>
      %sum = arith.addf %a, %e : tensor<1x2048xf32>
      %op = tt.splat %out : !tt.ptr<f32> -> tensor<1x2048x!tt.ptr<f32>>
      %oa = tt.addptr %op, %idx : tensor<1x2048x!tt.ptr<f32>>, tensor<1x2048xi32>
      tt.store %oa, %e : tensor<1x2048x!tt.ptr<f32>>
      scf.yield %sum : tensor<1x2048xf32>
    }
    %first = tt.load %out : !tt.ptr<f32>
    %total = "tt.reduce"(%acc) <{axis = 1 : i32}> ({
    ^bb0(%x0: f32, %x1: f32):
      %y = arith.addf %x0, %x1 : f32
      tt.reduce.return %y : f32
    }) : (tensor<1x2048xf32>) -> tensor<1xf32>
    %t2 = tt.expand_dims %total {axis = 1 : i32} : tensor<1xf32> -> tensor<1x1xf32>
    %f = tt.splat %first : f32 -> tensor<1x1xf32>
    %sum2 = arith.addf %t2, %f : tensor<1x1xf32>
    %p = tt.splat %res : !tt.ptr<f32> -> tensor<1x1x!tt.ptr<f32>>
    tt.store %p, %sum2 : tensor<1x1x!tt.ptr<f32>>
    tt.return
  }
}

// -----

// An assert on other lanes between a tile's load and the loop that uses it (Inductor checks
// an index tensor of the reduced axis only) writes nothing the load could read: the load runs
// later, still after the assert, and the rows are cut.
module {
  // CHECK-LABEL: tt.func public @assert_between_load_and_use(
  // CHECK: tt.assert {{.*}} : tensor<1x16xi1>
  // CHECK: scf.for
  // CHECK: tt.load {{.*}} : tensor<{{[0-9]+}}x16x!tt.ptr<f32>>
  // CHECK: "tt.reduce"
  tt.func public @assert_between_load_and_use(%in: !tt.ptr<f32>, %idx: !tt.ptr<i64>, %out: !tt.ptr<f32>) {
    %c16 = arith.constant dense<16> : tensor<128x1xi32>
    %n = arith.constant dense<16> : tensor<1x16xi64>
    %rows = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32>
    %rows2 = tt.expand_dims %rows {axis = 1 : i32} : tensor<128xi32> -> tensor<128x1xi32>
    %rowoff = arith.muli %rows2, %c16 : tensor<128x1xi32>
    %cols = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
    %cols2 = tt.expand_dims %cols {axis = 0 : i32} : tensor<16xi32> -> tensor<1x16xi32>
    %rb = tt.broadcast %rowoff : tensor<128x1xi32> -> tensor<128x16xi32>
    %cb = tt.broadcast %cols2 : tensor<1x16xi32> -> tensor<128x16xi32>
    %offs = arith.addi %rb, %cb : tensor<128x16xi32>
    %p = tt.splat %in : !tt.ptr<f32> -> tensor<128x16x!tt.ptr<f32>>
    %a = tt.addptr %p, %offs : tensor<128x16x!tt.ptr<f32>>, tensor<128x16xi32>
    %x = tt.load %a : tensor<128x16x!tt.ptr<f32>>
    %ip = tt.splat %idx : !tt.ptr<i64> -> tensor<1x16x!tt.ptr<i64>>
    %ia = tt.addptr %ip, %cols2 : tensor<1x16x!tt.ptr<i64>>, tensor<1x16xi32>
    %i = tt.load %ia : tensor<1x16x!tt.ptr<i64>>
    %ok = arith.cmpi slt, %i, %n : tensor<1x16xi64>
    tt.assert %ok, "index out of bounds: 0 <= tmp11 < 16" : tensor<1x16xi1>
    %e = math.exp %x : tensor<128x16xf32>
    %s = "tt.reduce"(%e) <{axis = 1 : i32}> ({
    ^bb0(%l: f32, %r: f32):
      %y = arith.addf %l, %r : f32
      tt.reduce.return %y : f32
    }) : (tensor<128x16xf32>) -> tensor<128xf32>
    %op = tt.splat %out : !tt.ptr<f32> -> tensor<128x!tt.ptr<f32>>
    %oa = tt.addptr %op, %rows : tensor<128x!tt.ptr<f32>>, tensor<128xi32>
    tt.store %oa, %s : tensor<128x!tt.ptr<f32>>
    tt.return
  }
}
