// tt-version-masked-loops: a K loop (it holds a tt.dot) whose loads have range-versus-bound
// masks runs unmasked while the scalar test says every mask is on. An accumulator that fits
// the registers (16 of them) gets a loop of its own for those iterations, a do-while guarded by
// the first iteration's test, and the original loop finishes from where it stopped; a larger
// one (in memory either way) has its body versioned per iteration instead. A loop without a
// dot is split when it carries little, else left alone.
// RUN: tcpu-opt %s --tt-version-masked-loops | FileCheck %s

module {
  // CHECK-LABEL: tt.func @k_loop(
  // CHECK: %[[FIRST:[0-9]+]] = arith.andi %{{[0-9]+}}, %{{[0-9]+}} : i1
  // CHECK: %[[SPLIT:[0-9]+]]:2 = scf.if %[[FIRST]] -> (i32, tensor<2x2xi32>) {
  // CHECK:   %[[LOOP:[0-9]+]]:2 = scf.while (%[[K:.*]] = %c0_i32, %[[ACC:.*]] = %cst) : (i32, tensor<2x2xi32>) -> (i32, tensor<2x2xi32>) {
  // CHECK:     %[[A:[0-9]+]] = tt.load %{{[0-9]+}} : tensor<2x8x!tt.ptr<i8>>
  // CHECK:     %[[DOT:[0-9]+]] = tt.dot %[[A]], %{{.*}}, %[[ACC]]
  // CHECK:     %[[NEXT:[0-9]+]] = arith.addi %[[K]], %c1_i32 : i32
  // CHECK:     %[[IN:[0-9]+]] = arith.cmpi slt, %[[NEXT]], %arg3 : i32
  // CHECK:     %[[GO:[0-9]+]] = arith.andi %[[IN]], %{{[0-9]+}} : i1
  // CHECK:     scf.condition(%[[GO]]) %[[NEXT]], %[[DOT]] : i32, tensor<2x2xi32>
  // CHECK:   } do {
  // CHECK:   ^bb0(%[[K2:.*]]: i32, %[[ACC2:.*]]: tensor<2x2xi32>):
  // CHECK:     scf.yield %[[K2]], %[[ACC2]] : i32, tensor<2x2xi32>
  // CHECK:   }
  // CHECK:   scf.yield %[[LOOP]]#0, %[[LOOP]]#1 : i32, tensor<2x2xi32>
  // CHECK: } else {
  // CHECK:   scf.yield %c0_i32, %cst : i32, tensor<2x2xi32>
  // CHECK: }
  // CHECK: %[[REST:[0-9]+]] = scf.for %{{.*}} = %[[SPLIT]]#0 to %arg3 step %c1_i32 iter_args(%{{.*}} = %[[SPLIT]]#1) -> (tensor<2x2xi32>)
  // CHECK:   tt.load %{{[0-9]+}}, %{{[0-9]+}}, %{{.*}} : tensor<2x8x!tt.ptr<i8>>
  // CHECK:   tt.dot
  // CHECK: tt.return %[[REST]] : tensor<2x2xi32>
  tt.func @k_loop(%a: !tt.ptr<i8>, %b: tensor<8x2xi8>, %k: i32, %n: i32) -> tensor<2x2xi32> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c8 = arith.constant 8 : i32
    %zero = arith.constant dense<0> : tensor<2x2xi32>
    %other = arith.constant dense<0> : tensor<2x8xi8>
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<2x2xi32>) : i32 {
      %col = tt.make_range {end = 8 : i32, start = 0 : i32} : tensor<8xi32>
      %col1 = tt.expand_dims %col {axis = 0 : i32} : tensor<8xi32> -> tensor<1x8xi32>
      %col2 = tt.broadcast %col1 : tensor<1x8xi32> -> tensor<2x8xi32>
      %base = tt.splat %a : !tt.ptr<i8> -> tensor<2x8x!tt.ptr<i8>>
      %ptrs = tt.addptr %base, %col2 : tensor<2x8x!tt.ptr<i8>>, tensor<2x8xi32>
      %start = arith.muli %i, %c8 : i32
      %left = arith.subi %k, %start : i32
      %bound = tt.splat %left : i32 -> tensor<1x8xi32>
      %in = arith.cmpi slt, %col1, %bound : tensor<1x8xi32>
      %mask = tt.broadcast %in : tensor<1x8xi1> -> tensor<2x8xi1>
      %x = tt.load %ptrs, %mask, %other : tensor<2x8x!tt.ptr<i8>>
      %d = tt.dot %x, %b, %acc : tensor<2x8xi8> * tensor<8x2xi8> -> tensor<2x2xi32>
      scf.yield %d : tensor<2x2xi32>
    }
    tt.return %r : tensor<2x2xi32>
  }

  // A 16x32 int32 accumulator (128 registers), without SMMLA (no i8mm target): the body is
  // versioned per iteration.
  // CHECK-LABEL: tt.func @k_loop_in_memory(
  // CHECK-NOT: scf.while
  // CHECK: scf.for
  // CHECK: %[[ON:[0-9]+]] = arith.cmpi slt, %c7_i64, %{{.*}} : i64
  // CHECK: %[[DOT:[0-9]+]] = scf.if %[[ON]] -> (tensor<16x32xi32>) {
  // CHECK:   %[[A:[0-9]+]] = tt.load %{{[0-9]+}} : tensor<16x8x!tt.ptr<i8>>
  // CHECK:   tt.dot %[[A]]
  // CHECK: } else {
  // CHECK:   tt.load %{{[0-9]+}}, %{{[0-9]+}}, %{{.*}} : tensor<16x8x!tt.ptr<i8>>
  // CHECK:   tt.dot
  // CHECK: }
  // CHECK: scf.yield %[[DOT]] : tensor<16x32xi32>
  tt.func @k_loop_in_memory(%a: !tt.ptr<i8>, %b: tensor<8x32xi8>, %k: i32, %n: i32) -> tensor<16x32xi32> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c8 = arith.constant 8 : i32
    %zero = arith.constant dense<0> : tensor<16x32xi32>
    %other = arith.constant dense<0> : tensor<16x8xi8>
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<16x32xi32>) : i32 {
      %col = tt.make_range {end = 8 : i32, start = 0 : i32} : tensor<8xi32>
      %col1 = tt.expand_dims %col {axis = 0 : i32} : tensor<8xi32> -> tensor<1x8xi32>
      %col2 = tt.broadcast %col1 : tensor<1x8xi32> -> tensor<16x8xi32>
      %base = tt.splat %a : !tt.ptr<i8> -> tensor<16x8x!tt.ptr<i8>>
      %ptrs = tt.addptr %base, %col2 : tensor<16x8x!tt.ptr<i8>>, tensor<16x8xi32>
      %start = arith.muli %i, %c8 : i32
      %left = arith.subi %k, %start : i32
      %bound = tt.splat %left : i32 -> tensor<1x8xi32>
      %in = arith.cmpi slt, %col1, %bound : tensor<1x8xi32>
      %mask = tt.broadcast %in : tensor<1x8xi1> -> tensor<16x8xi1>
      %x = tt.load %ptrs, %mask, %other : tensor<16x8x!tt.ptr<i8>>
      %d = tt.dot %x, %b, %acc : tensor<16x8xi8> * tensor<8x32xi8> -> tensor<16x32xi32>
      scf.yield %d : tensor<16x32xi32>
    }
    tt.return %r : tensor<16x32xi32>
  }

  // A mask computed outside the loop: its test is built from the outside values.
  // CHECK-LABEL: tt.func @invariant_mask(
  // CHECK: scf.if %{{[0-9]+}} -> (i32, tensor<2x2xi32>) {
  // CHECK:   scf.while
  // CHECK:     tt.load %{{[0-9]+}} : tensor<2x8x!tt.ptr<i8>>
  // CHECK: scf.for
  // CHECK:   tt.load %{{[0-9]+}}, %{{[0-9]+}}, %{{.*}} : tensor<2x8x!tt.ptr<i8>>
  tt.func @invariant_mask(%a: !tt.ptr<i8>, %b: tensor<8x2xi8>, %k: i32, %n: i32) -> tensor<2x2xi32> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zero = arith.constant dense<0> : tensor<2x2xi32>
    %other = arith.constant dense<0> : tensor<2x8xi8>
    %col = tt.make_range {end = 8 : i32, start = 0 : i32} : tensor<8xi32>
    %col1 = tt.expand_dims %col {axis = 0 : i32} : tensor<8xi32> -> tensor<1x8xi32>
    %col2 = tt.broadcast %col1 : tensor<1x8xi32> -> tensor<2x8xi32>
    %bound = tt.splat %k : i32 -> tensor<1x8xi32>
    %in = arith.cmpi slt, %col1, %bound : tensor<1x8xi32>
    %mask = tt.broadcast %in : tensor<1x8xi1> -> tensor<2x8xi1>
    %base = tt.splat %a : !tt.ptr<i8> -> tensor<2x8x!tt.ptr<i8>>
    %ptrs = tt.addptr %base, %col2 : tensor<2x8x!tt.ptr<i8>>, tensor<2x8xi32>
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<2x2xi32>) : i32 {
      %x = tt.load %ptrs, %mask, %other : tensor<2x8x!tt.ptr<i8>>
      %d = tt.dot %x, %b, %acc : tensor<2x8xi8> * tensor<8x2xi8> -> tensor<2x2xi32>
      scf.yield %d : tensor<2x2xi32>
    }
    tt.return %r : tensor<2x2xi32>
  }

  // A loop without a dot that carries little (here nothing) is split the same way; in the
  // unmasked loop the mask is known to be on, so the select that used it folds away.
  // CHECK-LABEL: tt.func @lane_wise(
  // CHECK: scf.if %{{[0-9]+}} -> (i32) {
  // CHECK:   scf.while
  // CHECK:     %[[ON:.*]] = arith.constant dense<true> : tensor<8xi1>
  // CHECK:     %[[X:[0-9]+]] = tt.load %{{[0-9]+}} : tensor<8x!tt.ptr<f32>>
  // CHECK:     %[[Y:[0-9]+]] = arith.select %[[ON]], %[[X]], %{{.*}}
  // CHECK:     tt.store %{{[0-9]+}}, %[[Y]] : tensor<8x!tt.ptr<f32>>
  // CHECK: scf.for
  // CHECK:   %[[M:[0-9]+]] = arith.cmpi slt
  // CHECK:   tt.load %{{[0-9]+}}, %[[M]] : tensor<8x!tt.ptr<f32>>
  // CHECK:   arith.select %[[M]]
  // CHECK:   tt.store %{{[0-9]+}}, %{{[0-9]+}}, %[[M]] : tensor<8x!tt.ptr<f32>>
  tt.func @lane_wise(%a: !tt.ptr<f32>, %n: i32, %m: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<8xf32>
    scf.for %i = %c0 to %n step %c1 : i32 {
      %col = tt.make_range {end = 8 : i32, start = 0 : i32} : tensor<8xi32>
      %base = tt.splat %a : !tt.ptr<f32> -> tensor<8x!tt.ptr<f32>>
      %ptrs = tt.addptr %base, %col : tensor<8x!tt.ptr<f32>>, tensor<8xi32>
      %bound = tt.splat %m : i32 -> tensor<8xi32>
      %mask = arith.cmpi slt, %col, %bound : tensor<8xi32>
      %x = tt.load %ptrs, %mask : tensor<8x!tt.ptr<f32>>
      %y = arith.select %mask, %x, %zero : tensor<8xi1>, tensor<8xf32>
      tt.store %ptrs, %y, %mask : tensor<8x!tt.ptr<f32>>
    }
    tt.return
  }

  // A select on its own copy of the mask (tt-strip-mine-tiles keeps each use's index
  // computation apart) is tested with the accesses' masks: in the unmasked loop it is on too.
  // A select on a splat condition (one choice for every lane) is no mask and keeps its
  // condition in both copies.
  // CHECK-LABEL: tt.func @select_own_mask(
  // CHECK: scf.while
  // CHECK-DAG: %[[ON:.*]] = arith.constant dense<true> : tensor<8xi1>
  // CHECK-DAG: %[[X:[0-9]+]] = tt.load %{{[0-9]+}} : tensor<8x!tt.ptr<f32>>
  // CHECK:     %[[Y:[0-9]+]] = arith.select %[[ON]], %[[X]], %{{.*}}
  // CHECK:     %[[U:[0-9]+]] = tt.splat %{{.*}} : i1 -> tensor<8xi1>
  // CHECK:     arith.select %[[U]], %[[Y]], %{{.*}}
  // CHECK: scf.for
  // CHECK:   arith.cmpi slt, %{{.*}}, %{{.*}} : tensor<8xi32>
  // CHECK:   %[[M2:[0-9]+]] = arith.cmpi slt, %{{.*}}, %{{.*}} : tensor<8xi32>
  // CHECK:   arith.select %[[M2]]
  tt.func @select_own_mask(%a: !tt.ptr<f32>, %n: i32, %m: i32, %flag: i1) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<8xf32>
    scf.for %i = %c0 to %n step %c1 : i32 {
      %col = tt.make_range {end = 8 : i32, start = 0 : i32} : tensor<8xi32>
      %base = tt.splat %a : !tt.ptr<f32> -> tensor<8x!tt.ptr<f32>>
      %ptrs = tt.addptr %base, %col : tensor<8x!tt.ptr<f32>>, tensor<8xi32>
      %bound = tt.splat %m : i32 -> tensor<8xi32>
      %mask = arith.cmpi slt, %col, %bound : tensor<8xi32>
      %x = tt.load %ptrs, %mask : tensor<8x!tt.ptr<f32>>
      %col2 = tt.make_range {end = 8 : i32, start = 0 : i32} : tensor<8xi32>
      %bound2 = tt.splat %m : i32 -> tensor<8xi32>
      %mask2 = arith.cmpi slt, %col2, %bound2 : tensor<8xi32>
      %y = arith.select %mask2, %x, %zero : tensor<8xi1>, tensor<8xf32>
      %uniform = tt.splat %flag : i1 -> tensor<8xi1>
      %z = arith.select %uniform, %y, %zero : tensor<8xi1>, tensor<8xf32>
      tt.store %ptrs, %z, %mask : tensor<8x!tt.ptr<f32>>
    }
    tt.return
  }

  // A loop without a dot carrying a row wider than the registers (64 of them) is left alone:
  // versioned, the row spilled where the two versions join (measured on layer norm before
  // tt-split-wide-loops cut such rows into slices).
  // CHECK-LABEL: tt.func @wide_row(
  // CHECK-NOT: scf.if
  // CHECK: tt.return
  tt.func @wide_row(%a: !tt.ptr<f32>, %n: i32, %m: i32) -> tensor<256xf32> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<256xf32>
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<256xf32>) : i32 {
      %col = tt.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32>
      %base = tt.splat %a : !tt.ptr<f32> -> tensor<256x!tt.ptr<f32>>
      %ptrs = tt.addptr %base, %col : tensor<256x!tt.ptr<f32>>, tensor<256xi32>
      %bound = tt.splat %m : i32 -> tensor<256xi32>
      %mask = arith.cmpi slt, %col, %bound : tensor<256xi32>
      %x = tt.load %ptrs, %mask, %zero : tensor<256x!tt.ptr<f32>>
      %s = arith.addf %acc, %x : tensor<256xf32>
      scf.yield %s : tensor<256xf32>
    }
    tt.return %r : tensor<256xf32>
  }

  // With i8mm such a loop's dot keeps SMMLA blocks in a stack buffer: its unmasked iterations
  // run as many at a time as make a K depth of 128 first, here four of K 32 (four unmasked
  // bodies, their dots chained, while the four iterations ahead are all in range with every
  // mask on; `ub - k > 3 * step` counted in i64), and the original loop, versioned per
  // iteration, finishes the rest.
  module attributes {tcpu.target = #tcpu.target<arch = "armv8.6-a", features = ["i8mm"], vector_bits = 0>} {
    // CHECK-LABEL: tt.func @k_loop_smmla_in_memory(
    // CHECK: %[[SPLIT:[0-9]+]]:2 = scf.if %{{[0-9]+}} -> (i32, tensor<16x32xi32>) {
    // CHECK:   scf.while (%[[K:.*]] = %c0_i32, %[[ACC:.*]] = %cst) : (i32, tensor<16x32xi32>) -> (i32, tensor<16x32xi32>) {
    // CHECK:     %[[A0:[0-9]+]] = tt.load %{{[0-9]+}} : tensor<16x32x!tt.ptr<i8>>
    // CHECK:     %[[D0:[0-9]+]] = tt.dot %[[A0]], %{{.*}}, %[[ACC]]
    // CHECK:     %[[K1:[0-9]+]] = arith.addi %[[K]], %c1_i32 : i32
    // CHECK:     arith.muli %[[K1]], %c32_i32
    // CHECK:     %[[A1:[0-9]+]] = tt.load %{{[0-9]+}} : tensor<16x32x!tt.ptr<i8>>
    // CHECK:     %[[D1:[0-9]+]] = tt.dot %[[A1]], %{{.*}}, %[[D0]]
    // CHECK-COUNT-1: tt.dot
    // CHECK:     %[[D3:[0-9]+]] = tt.dot
    // CHECK-NOT: tt.dot
    // CHECK:     %[[NEXT:[0-9]+]] = arith.addi %[[K]], %c4_i32{{.*}} : i32
    // CHECK:     %[[LEFT:[0-9]+]] = arith.subi %{{[0-9]+}}, %{{[0-9]+}} : i64
    // CHECK:     %[[SPAN:[0-9]+]] = arith.muli %{{[0-9]+}}, %c3_i64{{.*}} : i64
    // CHECK:     arith.cmpi sgt, %[[LEFT]], %[[SPAN]] : i64
    // CHECK:     scf.condition(%{{[0-9]+}}) %[[NEXT]], %[[D3]] : i32, tensor<16x32xi32>
    // CHECK: scf.for %{{.*}} = %[[SPLIT]]#0 to %arg3 step %c1_i32 iter_args(%{{.*}} = %[[SPLIT]]#1) -> (tensor<16x32xi32>)
    // CHECK:   scf.if %{{[0-9]+}} -> (tensor<16x32xi32>) {
    // CHECK:     tt.dot
    // CHECK:   } else {
    // CHECK:     tt.load %{{[0-9]+}}, %{{[0-9]+}}, %{{.*}} : tensor<16x32x!tt.ptr<i8>>
    // CHECK:     tt.dot
    tt.func @k_loop_smmla_in_memory(%a: !tt.ptr<i8>, %b: tensor<32x32xi8>, %k: i32, %n: i32) -> tensor<16x32xi32> {
      %c0 = arith.constant 0 : i32
      %c1 = arith.constant 1 : i32
      %c32 = arith.constant 32 : i32
      %zero = arith.constant dense<0> : tensor<16x32xi32>
      %other = arith.constant dense<0> : tensor<16x32xi8>
      %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<16x32xi32>) : i32 {
        %col = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32>
        %col1 = tt.expand_dims %col {axis = 0 : i32} : tensor<32xi32> -> tensor<1x32xi32>
        %col2 = tt.broadcast %col1 : tensor<1x32xi32> -> tensor<16x32xi32>
        %base = tt.splat %a : !tt.ptr<i8> -> tensor<16x32x!tt.ptr<i8>>
        %ptrs = tt.addptr %base, %col2 : tensor<16x32x!tt.ptr<i8>>, tensor<16x32xi32>
        %start = arith.muli %i, %c32 : i32
        %left = arith.subi %k, %start : i32
        %bound = tt.splat %left : i32 -> tensor<1x32xi32>
        %in = arith.cmpi slt, %col1, %bound : tensor<1x32xi32>
        %mask = tt.broadcast %in : tensor<1x32xi1> -> tensor<16x32xi1>
        %x = tt.load %ptrs, %mask, %other : tensor<16x32x!tt.ptr<i8>>
        %d = tt.dot %x, %b, %acc : tensor<16x32xi8> * tensor<32x32xi8> -> tensor<16x32xi32>
        scf.yield %d : tensor<16x32xi32>
      }
      tt.return %r : tensor<16x32xi32>
    }
  }

  // A K loop whose dot tt-strip-mine-tiles split into a loop over two 16-deep chunks (4
  // BFMMLA chunks each): its unmasked iterations run from a copy of the body with the chunk
  // loop unrolled, 32 / 8 = 4 at a time (eight chained dots); the original loop keeps its
  // chunk loop, versioned per chunk (its 2 trips never make the 8 a summed split would need).
  module attributes {tcpu.target = #tcpu.target<arch = "armv8.2-a", features = ["bf16"], vector_bits = 0>} {
    // CHECK-LABEL: tt.func @k_loop_of_chunk_loops(
    // CHECK: scf.while
    // CHECK-COUNT-8: tt.dot %{{.*}} : tensor<16x16xbf16> * tensor<16x32xbf16> -> tensor<16x32xf32>
    // CHECK-NOT: tt.dot
    // CHECK: arith.addi %{{.*}}, %c4_i32{{.*}} : i32
    // CHECK: scf.condition
    // CHECK: scf.for
    // CHECK-NOT: scf.while
    // CHECK:   scf.for %{{.*}} = %c0_i32 to %c2_i32
    // CHECK:     scf.if
    // CHECK:       tt.dot
    // CHECK:     } else {
    // CHECK:       tt.load %{{.*}}, %{{.*}}, %{{.*}} : tensor<16x16x!tt.ptr<bf16>>
    // CHECK:       tt.dot
    tt.func @k_loop_of_chunk_loops(%a: !tt.ptr<bf16>, %b: tensor<16x32xbf16>, %k: i32, %n: i32) -> tensor<16x32xf32> {
      %c0 = arith.constant 0 : i32
      %c1 = arith.constant 1 : i32
      %c2 = arith.constant 2 : i32
      %c16 = arith.constant 16 : i32
      %c32 = arith.constant 32 : i32
      %zero = arith.constant dense<0.000000e+00> : tensor<16x32xf32>
      %other = arith.constant dense<0.000000e+00> : tensor<16x16xbf16>
      %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<16x32xf32>) : i32 {
        %s = scf.for %j = %c0 to %c2 step %c1 iter_args(%part = %acc) -> (tensor<16x32xf32>) : i32 {
          %first = arith.muli %j, %c16 : i32
          %col = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
          %firsts = tt.splat %first : i32 -> tensor<16xi32>
          %cols = arith.addi %firsts, %col : tensor<16xi32>
          %col1 = tt.expand_dims %cols {axis = 0 : i32} : tensor<16xi32> -> tensor<1x16xi32>
          %col2 = tt.broadcast %col1 : tensor<1x16xi32> -> tensor<16x16xi32>
          %base = tt.splat %a : !tt.ptr<bf16> -> tensor<16x16x!tt.ptr<bf16>>
          %ptrs = tt.addptr %base, %col2 : tensor<16x16x!tt.ptr<bf16>>, tensor<16x16xi32>
          %start = arith.muli %i, %c32 : i32
          %left = arith.subi %k, %start : i32
          %bound = tt.splat %left : i32 -> tensor<1x16xi32>
          %in = arith.cmpi slt, %col1, %bound : tensor<1x16xi32>
          %mask = tt.broadcast %in : tensor<1x16xi1> -> tensor<16x16xi1>
          %x = tt.load %ptrs, %mask, %other : tensor<16x16x!tt.ptr<bf16>>
          %d = tt.dot %x, %b, %part : tensor<16x16xbf16> * tensor<16x32xbf16> -> tensor<16x32xf32>
          scf.yield %d : tensor<16x32xf32>
        }
        scf.yield %s : tensor<16x32xf32>
      }
      tt.return %r : tensor<16x32xf32>
    }

  // The same with fp8 operands, which BFMMLA takes widened to bf16: 4 k an instruction, as
  // bf16 (not 8, as their bytes would say), so 4 iterations at a time too.
  module attributes {tcpu.target = #tcpu.target<arch = "armv8.2-a", features = ["bf16"], vector_bits = 0>} {
    // CHECK-LABEL: tt.func @k_loop_of_fp8_chunk_loops(
    // CHECK: scf.while
    // CHECK-COUNT-8: tt.dot %{{.*}} : tensor<16x16xf8E4M3FN> * tensor<16x32xf8E5M2> -> tensor<16x32xf32>
    // CHECK-NOT: tt.dot
    // CHECK: arith.addi %{{.*}}, %c4_i32{{.*}} : i32
    // CHECK: scf.condition
    // CHECK: scf.for
    // CHECK-NOT: scf.while
    // CHECK:   scf.for %{{.*}} = %c0_i32 to %c2_i32
    // CHECK:     scf.if
    // CHECK:       tt.dot
    // CHECK:     } else {
    // CHECK:       tt.load %{{.*}}, %{{.*}}, %{{.*}} : tensor<16x16x!tt.ptr<f8E4M3FN>>
    // CHECK:       tt.dot
    tt.func @k_loop_of_fp8_chunk_loops(%a: !tt.ptr<f8E4M3FN>, %b: tensor<16x32xf8E5M2>, %k: i32, %n: i32) -> tensor<16x32xf32> {
      %c0 = arith.constant 0 : i32
      %c1 = arith.constant 1 : i32
      %c2 = arith.constant 2 : i32
      %c16 = arith.constant 16 : i32
      %c32 = arith.constant 32 : i32
      %zero = arith.constant dense<0.000000e+00> : tensor<16x32xf32>
      %other = arith.constant dense<0.000000e+00> : tensor<16x16xf8E4M3FN>
      %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<16x32xf32>) : i32 {
        %s = scf.for %j = %c0 to %c2 step %c1 iter_args(%part = %acc) -> (tensor<16x32xf32>) : i32 {
          %first = arith.muli %j, %c16 : i32
          %col = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
          %firsts = tt.splat %first : i32 -> tensor<16xi32>
          %cols = arith.addi %firsts, %col : tensor<16xi32>
          %col1 = tt.expand_dims %cols {axis = 0 : i32} : tensor<16xi32> -> tensor<1x16xi32>
          %col2 = tt.broadcast %col1 : tensor<1x16xi32> -> tensor<16x16xi32>
          %base = tt.splat %a : !tt.ptr<f8E4M3FN> -> tensor<16x16x!tt.ptr<f8E4M3FN>>
          %ptrs = tt.addptr %base, %col2 : tensor<16x16x!tt.ptr<f8E4M3FN>>, tensor<16x16xi32>
          %start = arith.muli %i, %c32 : i32
          %left = arith.subi %k, %start : i32
          %bound = tt.splat %left : i32 -> tensor<1x16xi32>
          %in = arith.cmpi slt, %col1, %bound : tensor<1x16xi32>
          %mask = tt.broadcast %in : tensor<1x16xi1> -> tensor<16x16xi1>
          %x = tt.load %ptrs, %mask, %other : tensor<16x16x!tt.ptr<f8E4M3FN>>
          %d = tt.dot %x, %b, %part : tensor<16x16xf8E4M3FN> * tensor<16x32xf8E5M2> -> tensor<16x32xf32>
          scf.yield %d : tensor<16x32xf32>
        }
        scf.yield %s : tensor<16x32xf32>
      }
      tt.return %r : tensor<16x32xf32>
    }
  }

  // Rows wrapped into bounds before the loop, `(offs + arange(16)) % M` (tutorial 03's rows of
  // a): the summed unmasked loop runs only while the first row is at least 0, the last below M
  // and the first at most the last, and computes the rows inside without the remainder, so
  // their addresses are affine; the loop finishing the edge iterations keeps the remainder.
  module attributes {tcpu.target = #tcpu.target<arch = "armv8.2-a", features = ["bf16"], vector_bits = 0>} {
    // CHECK-LABEL: tt.func @wrapped_rows(
    // CHECK: %[[WRAPPED:[0-9]+]] = arith.remsi %[[ROWS:[0-9]+]], %{{[0-9]+}} : tensor<16xi32>
    // CHECK: %[[FIRST:[0-9]+]] = arith.addi %arg2, %{{[0-9]+}} : i32
    // CHECK: %[[LAST:[0-9]+]] = arith.addi %arg2, %{{[0-9]+}} : i32
    // CHECK: %[[GE0:[0-9]+]] = arith.cmpi sge, %[[FIRST]], %{{.*}} : i32
    // CHECK: %[[LTM:[0-9]+]] = arith.cmpi slt, %[[LAST]], %arg3 : i32
    // CHECK: %[[ORDERED:[0-9]+]] = arith.cmpi sle, %[[FIRST]], %[[LAST]] : i32
    // CHECK: %[[BOTH:[0-9]+]] = arith.andi %[[LTM]], %[[ORDERED]] : i1
    // CHECK: %[[IN_RANGE:[0-9]+]] = arith.andi %[[GE0]], %[[BOTH]] : i1
    // CHECK: arith.andi %{{.*}}, %[[IN_RANGE]] : i1
    // CHECK: scf.while
    // CHECK-NOT: arith.remsi
    // CHECK: tt.expand_dims %[[ROWS]] {axis = 1 : i32}
    // CHECK-NOT: arith.remsi
    // CHECK: scf.condition
    // CHECK: scf.for
    // CHECK-NOT: scf.while
    // CHECK: tt.load
    tt.func @wrapped_rows(%a: !tt.ptr<bf16>, %b: tensor<16x32xbf16>, %offs: i32, %m: i32, %stride: i32, %k: i32, %n: i32) -> tensor<16x32xf32> {
      %c0 = arith.constant 0 : i32
      %c1 = arith.constant 1 : i32
      %c2 = arith.constant 2 : i32
      %c16 = arith.constant 16 : i32
      %c32 = arith.constant 32 : i32
      %zero = arith.constant dense<0.000000e+00> : tensor<16x32xf32>
      %other = arith.constant dense<0.000000e+00> : tensor<16x16xbf16>
      %range = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
      %offs_splat = tt.splat %offs : i32 -> tensor<16xi32>
      %rows = arith.addi %offs_splat, %range : tensor<16xi32>
      %m_splat = tt.splat %m : i32 -> tensor<16xi32>
      %wrapped = arith.remsi %rows, %m_splat : tensor<16xi32>
      %row1 = tt.expand_dims %wrapped {axis = 1 : i32} : tensor<16xi32> -> tensor<16x1xi32>
      %strides = tt.splat %stride : i32 -> tensor<16x1xi32>
      %row_offsets = arith.muli %row1, %strides : tensor<16x1xi32>
      %row2 = tt.broadcast %row_offsets : tensor<16x1xi32> -> tensor<16x16xi32>
      %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<16x32xf32>) : i32 {
        %s = scf.for %j = %c0 to %c2 step %c1 iter_args(%part = %acc) -> (tensor<16x32xf32>) : i32 {
          %first = arith.muli %j, %c16 : i32
          %col = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
          %firsts = tt.splat %first : i32 -> tensor<16xi32>
          %cols = arith.addi %firsts, %col : tensor<16xi32>
          %col1 = tt.expand_dims %cols {axis = 0 : i32} : tensor<16xi32> -> tensor<1x16xi32>
          %col2 = tt.broadcast %col1 : tensor<1x16xi32> -> tensor<16x16xi32>
          %offsets = arith.addi %row2, %col2 : tensor<16x16xi32>
          %base = tt.splat %a : !tt.ptr<bf16> -> tensor<16x16x!tt.ptr<bf16>>
          %ptrs = tt.addptr %base, %offsets : tensor<16x16x!tt.ptr<bf16>>, tensor<16x16xi32>
          %start = arith.muli %i, %c32 : i32
          %left = arith.subi %k, %start : i32
          %bound = tt.splat %left : i32 -> tensor<1x16xi32>
          %in = arith.cmpi slt, %col1, %bound : tensor<1x16xi32>
          %mask = tt.broadcast %in : tensor<1x16xi1> -> tensor<16x16xi1>
          %x = tt.load %ptrs, %mask, %other : tensor<16x16x!tt.ptr<bf16>>
          %d = tt.dot %x, %b, %part : tensor<16x16xbf16> * tensor<16x32xbf16> -> tensor<16x32xf32>
          scf.yield %d : tensor<16x32xf32>
        }
        scf.yield %s : tensor<16x32xf32>
      }
      tt.return %r : tensor<16x32xf32>
    }
  }
  }

  // A loop over a tile's row chunks (constant bounds: tutorial 05's dw/db after
  // tt-strip-mine-tiles) summing each chunk's columns: after the unmasked iterations, a chunk
  // wholly past %m (its first row at or past it) loads nothing. The skipped branch computes the
  // same results from the load's other value (the column sums of a zero tile are zero: the
  // reduction becomes that constant), so a -0.0 accumulator still becomes +0.0 as the body would
  // make it.
  // CHECK-LABEL: tt.func @chunks_past_the_rows(
  // CHECK: scf.while
  // CHECK: scf.for %[[C:.*]] = %{{.*}} to %c8_i32 step %c1_i32 iter_args(%[[ACC:.*]] = %{{.*}}) -> (tensor<32xf32>)
  // CHECK:   %[[FIRST:[0-9]+]] = arith.extsi %{{[0-9]+}} : i32 to i64
  // CHECK:   %[[OFF:[0-9]+]] = arith.cmpi sge, %[[FIRST]], %{{[0-9]+}} : i64
  // CHECK:   %[[SKIP:[0-9]+]] = scf.if %{{[0-9]+}} -> (tensor<32xf32>) {
  // CHECK-NOT: tt.load
  // CHECK:     %[[ZERO:.*]] = arith.constant dense<0.000000e+00> : tensor<32xf32>
  // CHECK:     %[[SUM:[0-9]+]] = arith.addf %[[ACC]], %[[ZERO]] : tensor<32xf32>
  // CHECK:     scf.yield %[[SUM]] : tensor<32xf32>
  // CHECK:   } else {
  // CHECK:     tt.load
  // CHECK:     "tt.reduce"
  // CHECK:   scf.yield %[[SKIP]] : tensor<32xf32>
  tt.func @chunks_past_the_rows(%p: !tt.ptr<f32>, %m: i32, %n: i32) -> tensor<32xf32> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c8 = arith.constant 8 : i32
    %c32 = arith.constant 32 : i32
    %zeros = arith.constant dense<0.0> : tensor<32xf32>
    %other = arith.constant dense<0.0> : tensor<32x32xf32>
    %r = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32>
    %cols = tt.expand_dims %r {axis = 0 : i32} : tensor<32xi32> -> tensor<1x32xi32>
    %sum = scf.for %c = %c0 to %c8 step %c1 iter_args(%acc = %zeros) -> (tensor<32xf32>) : i32 {
      %first = arith.muli %c, %c32 : i32
      %fs = tt.splat %first : i32 -> tensor<32xi32>
      %rows = arith.addi %fs, %r : tensor<32xi32>
      %rows2 = tt.expand_dims %rows {axis = 1 : i32} : tensor<32xi32> -> tensor<32x1xi32>
      %ms = tt.splat %m : i32 -> tensor<32x1xi32>
      %in = arith.cmpi slt, %rows2, %ms : tensor<32x1xi32>
      %mask = tt.broadcast %in : tensor<32x1xi1> -> tensor<32x32xi1>
      %ns = tt.splat %n : i32 -> tensor<32x1xi32>
      %offs = arith.muli %rows2, %ns : tensor<32x1xi32>
      %ob = tt.broadcast %offs : tensor<32x1xi32> -> tensor<32x32xi32>
      %cb = tt.broadcast %cols : tensor<1x32xi32> -> tensor<32x32xi32>
      %o = arith.addi %ob, %cb : tensor<32x32xi32>
      %ps = tt.splat %p : !tt.ptr<f32> -> tensor<32x32x!tt.ptr<f32>>
      %pp = tt.addptr %ps, %o : tensor<32x32x!tt.ptr<f32>>, tensor<32x32xi32>
      %x = tt.load %pp, %mask, %other : tensor<32x32x!tt.ptr<f32>>
      %s = "tt.reduce"(%x) <{axis = 0 : i32}> ({
      ^bb0(%a: f32, %b: f32):
        %t = arith.addf %a, %b : f32
        tt.reduce.return %t : f32
      }) : (tensor<32x32xf32>) -> tensor<32xf32>
      %next = arith.addf %acc, %s : tensor<32xf32>
      scf.yield %next : tensor<32xf32>
    }
    tt.return %sum : tensor<32xf32>
  }

  // The same loop to a bound known only at run time (`for off in range(0, N, BLOCK)`): no
  // iteration is wholly masked off, and it is not tested for.
  // CHECK-LABEL: tt.func @runtime_bound(
  // CHECK: scf.for
  // CHECK-NOT: scf.if
  // CHECK: tt.return
  tt.func @runtime_bound(%p: !tt.ptr<f32>, %m: i32) -> tensor<32xf32> {
    %c0 = arith.constant 0 : i32
    %c32 = arith.constant 32 : i32
    %zeros = arith.constant dense<0.0> : tensor<32xf32>
    %r = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32>
    %sum = scf.for %off = %c0 to %m step %c32 iter_args(%acc = %zeros) -> (tensor<32xf32>) : i32 {
      %fs = tt.splat %off : i32 -> tensor<32xi32>
      %i = arith.addi %fs, %r : tensor<32xi32>
      %ms = tt.splat %m : i32 -> tensor<32xi32>
      %mask = arith.cmpi slt, %i, %ms : tensor<32xi32>
      %ps = tt.splat %p : !tt.ptr<f32> -> tensor<32x!tt.ptr<f32>>
      %pp = tt.addptr %ps, %i : tensor<32x!tt.ptr<f32>>, tensor<32xi32>
      %x = tt.load %pp, %mask, %zeros : tensor<32x!tt.ptr<f32>>
      %next = arith.addf %acc, %x : tensor<32xf32>
      scf.yield %next : tensor<32xf32>
    }
    tt.return %sum : tensor<32xf32>
  }
}
