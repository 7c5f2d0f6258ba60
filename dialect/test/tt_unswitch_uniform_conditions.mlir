// tt-unswitch-uniform-conditions: a comparison with the same answer in every lane of the
// program's block (`(pid * 128 + arange(128)) % 256 < 128`) splits the rest of the kernel into
// an scf.if on its first lane; each copy drops the masks it leaves on, the loads it masks off
// (their `other`), the stores it masks off and the select's other side. Comparisons that can
// change inside the block (a bound of 64, a block of 32 over a period of 16) stay as they are.
// RUN: tcpu-opt %s --tt-unswitch-uniform-conditions | FileCheck %s

module {
  // Inductor's `torch.cat([a, b], -1)` over rows of 256: each program of 128 lanes lies in one half.
  // CHECK-LABEL: tt.func public @cat_halves(
  // CHECK: %[[FIRST:[0-9]+]] = arith.remsi %{{[0-9]+}}, %c256_i32 : i32
  // CHECK: %[[IN_A:[0-9]+]] = arith.cmpi slt, %[[FIRST]], %c128_i32{{.*}} : i32
  // CHECK: scf.if %[[IN_A]] {
  // CHECK-NOT: arith.select
  // CHECK:   %[[A:[0-9]+]] = tt.load %{{[0-9]+}} : tensor<128x!tt.ptr<f32>>
  // CHECK-NOT: tt.load
  // CHECK:   %[[EXP:[0-9]+]] = math.exp %[[A]] : tensor<128xf32>
  // CHECK-NOT: tt.load
  // CHECK:   tt.store %{{[0-9]+}}, %[[EXP]] : tensor<128x!tt.ptr<f32>>
  // CHECK: } else {
  // CHECK-NOT: math.exp
  // CHECK:   %[[B:[0-9]+]] = tt.load %{{[0-9]+}} : tensor<128x!tt.ptr<f32>>
  // CHECK-NOT: math.exp
  // CHECK:   %[[NEG:[0-9]+]] = arith.negf %[[B]] : tensor<128xf32>
  // CHECK:   tt.store %{{[0-9]+}}, %[[NEG]] : tensor<128x!tt.ptr<f32>>
  // CHECK: }
  // CHECK-NEXT: tt.return
  tt.func public @cat_halves(%a: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %b: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %out: !tt.ptr<f32> {tt.divisibility = 16 : i32}) {
    %c128_i32 = arith.constant 128 : i32
    %half = arith.constant dense<128> : tensor<128xi32>
    %minus_half = arith.constant dense<-128> : tensor<128xi32>
    %row = arith.constant dense<256> : tensor<128xi32>
    %zero = arith.constant dense<0.000000e+00> : tensor<128xf32>
    %pid = tt.get_program_id x : i32
    %start = arith.muli %pid, %c128_i32 : i32
    %range = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32>
    %starts = tt.splat %start : i32 -> tensor<128xi32>
    %x = arith.addi %starts, %range : tensor<128xi32>
    %x0 = arith.remsi %x, %row : tensor<128xi32>
    %x1 = arith.divsi %x, %row : tensor<128xi32>
    %in_a = arith.cmpi slt, %x0, %half : tensor<128xi32>
    %in_b = arith.cmpi sge, %x0, %half : tensor<128xi32>
    %row_start = arith.muli %x1, %half : tensor<128xi32>
    %a_offsets = arith.addi %row_start, %x0 : tensor<128xi32>
    %a_base = tt.splat %a : !tt.ptr<f32> -> tensor<128x!tt.ptr<f32>>
    %a_ptrs = tt.addptr %a_base, %a_offsets : tensor<128x!tt.ptr<f32>>, tensor<128xi32>
    %a_vals = tt.load %a_ptrs, %in_a, %zero : tensor<128x!tt.ptr<f32>>
    %a_exp = math.exp %a_vals : tensor<128xf32>
    %b_column = arith.addi %x0, %minus_half : tensor<128xi32>
    %b_offsets = arith.addi %row_start, %b_column : tensor<128xi32>
    %b_base = tt.splat %b : !tt.ptr<f32> -> tensor<128x!tt.ptr<f32>>
    %b_ptrs = tt.addptr %b_base, %b_offsets : tensor<128x!tt.ptr<f32>>, tensor<128xi32>
    %b_vals = tt.load %b_ptrs, %in_b, %zero : tensor<128x!tt.ptr<f32>>
    %b_neg = arith.negf %b_vals : tensor<128xf32>
    %b_side = arith.select %in_b, %b_neg, %zero : tensor<128xi1>, tensor<128xf32>
    %result = arith.select %in_a, %a_exp, %b_side : tensor<128xi1>, tensor<128xf32>
    %out_base = tt.splat %out : !tt.ptr<f32> -> tensor<128x!tt.ptr<f32>>
    %out_ptrs = tt.addptr %out_base, %x : tensor<128x!tt.ptr<f32>>, tensor<128xi32>
    tt.store %out_ptrs, %result : tensor<128x!tt.ptr<f32>>
    tt.return
  }

  // A uniform mask of a store alone: the copy where it is off stores nothing.
  // CHECK-LABEL: tt.func public @store_mask(
  // CHECK: scf.if %{{[0-9]+}} {
  // CHECK:   tt.store %{{[0-9]+}}, %{{[0-9]+}} : tensor<64x!tt.ptr<f32>>
  // CHECK-NEXT: } else {
  // CHECK-NEXT: }
  tt.func public @store_mask(%out: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %value: f32) {
    %c64_i32 = arith.constant 64 : i32
    %limit = arith.constant dense<191> : tensor<64xi32>
    %period = arith.constant dense<512> : tensor<64xi32>
    %pid = tt.get_program_id x : i32
    %start = arith.muli %pid, %c64_i32 : i32
    %range = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
    %starts = tt.splat %start : i32 -> tensor<64xi32>
    %x = arith.addi %starts, %range : tensor<64xi32>
    %column = arith.remsi %x, %period : tensor<64xi32>
    %keep = arith.cmpi sle, %column, %limit : tensor<64xi32>
    %values = tt.splat %value : f32 -> tensor<64xf32>
    %base = tt.splat %out : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>>
    %ptrs = tt.addptr %base, %x : tensor<64x!tt.ptr<f32>>, tensor<64xi32>
    tt.store %ptrs, %values, %keep : tensor<64x!tt.ptr<f32>>
    tt.return
  }

  // A bound inside the block (64 in a block of 128) and a period shorter than the block (16
  // in 32 lanes, Llama's rotary halves): the comparisons change across the lanes.
  // CHECK-LABEL: tt.func public @not_uniform(
  // CHECK-NOT: scf.if
  // CHECK: tt.return
  tt.func public @not_uniform(%out: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %value: f32) {
    %c128_i32 = arith.constant 128 : i32
    %c32_i32 = arith.constant 32 : i32
    %bound = arith.constant dense<64> : tensor<128xi32>
    %row = arith.constant dense<256> : tensor<128xi32>
    %pid = tt.get_program_id x : i32
    %start = arith.muli %pid, %c128_i32 : i32
    %range = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32>
    %starts = tt.splat %start : i32 -> tensor<128xi32>
    %x = arith.addi %starts, %range : tensor<128xi32>
    %x0 = arith.remsi %x, %row : tensor<128xi32>
    %low = arith.cmpi slt, %x0, %bound : tensor<128xi32>
    %values = tt.splat %value : f32 -> tensor<128xf32>
    %base = tt.splat %out : !tt.ptr<f32> -> tensor<128x!tt.ptr<f32>>
    %ptrs = tt.addptr %base, %x : tensor<128x!tt.ptr<f32>>, tensor<128xi32>
    tt.store %ptrs, %values, %low : tensor<128x!tt.ptr<f32>>
    %start32 = arith.muli %pid, %c32_i32 : i32
    %range32 = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32>
    %starts32 = tt.splat %start32 : i32 -> tensor<32xi32>
    %y = arith.addi %starts32, %range32 : tensor<32xi32>
    %sixteen = arith.constant dense<16> : tensor<32xi32>
    %eight = arith.constant dense<8> : tensor<32xi32>
    %y0 = arith.remsi %y, %sixteen : tensor<32xi32>
    %first_half = arith.cmpi slt, %y0, %eight : tensor<32xi32>
    %values32 = tt.splat %value : f32 -> tensor<32xf32>
    %base32 = tt.splat %out : !tt.ptr<f32> -> tensor<32x!tt.ptr<f32>>
    %ptrs32 = tt.addptr %base32, %y : tensor<32x!tt.ptr<f32>>, tensor<32xi32>
    tt.store %ptrs32, %values32, %first_half : tensor<32x!tt.ptr<f32>>
    tt.return
  }

  // A reduction loop testing a loop-invariant uniform comparison of the program's rows
  // (`xindex < 8` over blocks of 2 rows): the comparison is hoisted and the loop unswitched.
  // CHECK-LABEL: tt.func public @loop_invariant(
  // CHECK: %[[ROWS:[0-9]+]] = arith.cmpi slt, %{{[0-9]+}}, %c8_i32{{.*}} : i32
  // CHECK: scf.if %[[ROWS]] {
  // CHECK:   scf.for
  // CHECK:     math.sin
  // CHECK-NOT: arith.select
  // CHECK:     scf.yield
  // CHECK: } else {
  // CHECK:   scf.for
  // CHECK-NOT: math.sin
  // CHECK:     scf.yield
  // CHECK: }
  tt.func public @loop_invariant(%in: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %out: !tt.ptr<f32> {tt.divisibility = 16 : i32}) {
    %c0_i32 = arith.constant 0 : i32
    %c2_i32 = arith.constant 2 : i32
    %c64_i32 = arith.constant 64 : i32
    %c128_i32 = arith.constant 128 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<2x64xf32>
    %eight = arith.constant dense<8> : tensor<2x1xi32>
    %row_stride = arith.constant dense<128> : tensor<2x1xi32>
    %pid = tt.get_program_id x : i32
    %start = arith.muli %pid, %c2_i32 : i32
    %rows = tt.make_range {end = 2 : i32, start = 0 : i32} : tensor<2xi32>
    %rows2 = tt.expand_dims %rows {axis = 1 : i32} : tensor<2xi32> -> tensor<2x1xi32>
    %starts = tt.splat %start : i32 -> tensor<2x1xi32>
    %x = arith.addi %starts, %rows2 : tensor<2x1xi32>
    %cols = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
    %cols2 = tt.expand_dims %cols {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
    %base = tt.splat %in : !tt.ptr<f32> -> tensor<2x64x!tt.ptr<f32>>
    %sum = scf.for %r = %c0_i32 to %c128_i32 step %c64_i32 iter_args(%acc = %zero) -> (tensor<2x64xf32>) : i32 {
      %low = arith.cmpi slt, %x, %eight : tensor<2x1xi32>
      %low2 = tt.broadcast %low : tensor<2x1xi1> -> tensor<2x64xi1>
      %r_splat = tt.splat %r : i32 -> tensor<1x64xi32>
      %c = arith.addi %r_splat, %cols2 : tensor<1x64xi32>
      %row_offsets = arith.muli %x, %row_stride : tensor<2x1xi32>
      %ro = tt.broadcast %row_offsets : tensor<2x1xi32> -> tensor<2x64xi32>
      %co = tt.broadcast %c : tensor<1x64xi32> -> tensor<2x64xi32>
      %offsets = arith.addi %ro, %co : tensor<2x64xi32>
      %ptrs = tt.addptr %base, %offsets : tensor<2x64x!tt.ptr<f32>>, tensor<2x64xi32>
      %v = tt.load %ptrs, %low2, %zero : tensor<2x64x!tt.ptr<f32>>
      %s = math.sin %v : tensor<2x64xf32>
      %picked = arith.select %low2, %s, %zero : tensor<2x64xi1>, tensor<2x64xf32>
      %next = arith.addf %acc, %picked : tensor<2x64xf32>
      scf.yield %next : tensor<2x64xf32>
    }
    %total = "tt.reduce"(%sum) <{axis = 1 : i32}> ({
    ^bb0(%a: f32, %b: f32):
      %ab = arith.addf %a, %b : f32
      tt.reduce.return %ab : f32
    }) : (tensor<2x64xf32>) -> tensor<2xf32>
    %out_base = tt.splat %out : !tt.ptr<f32> -> tensor<2x!tt.ptr<f32>>
    %xs = arith.addi %starts, %rows2 : tensor<2x1xi32>
    %xr = tt.reshape %xs : tensor<2x1xi32> -> tensor<2xi32>
    %out_ptrs = tt.addptr %out_base, %xr : tensor<2x!tt.ptr<f32>>, tensor<2xi32>
    tt.store %out_ptrs, %total : tensor<2x!tt.ptr<f32>>
    tt.return
  }

  // Only i1 constants decide: an integer `andi` with 255 in a copy stays as it is.
  // CHECK-LABEL: tt.func public @integer_and(
  // CHECK: scf.if
  // CHECK:   arith.andi %{{[0-9]+}}, %cst{{.*}} : tensor<64xi32>
  // CHECK: } else {
  tt.func public @integer_and(%out: !tt.ptr<i32> {tt.divisibility = 16 : i32}) {
    %c64_i32 = arith.constant 64 : i32
    %limit = arith.constant dense<128> : tensor<64xi32>
    %byte = arith.constant dense<255> : tensor<64xi32>
    %pid = tt.get_program_id x : i32
    %start = arith.muli %pid, %c64_i32 : i32
    %range = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
    %starts = tt.splat %start : i32 -> tensor<64xi32>
    %x = arith.addi %starts, %range : tensor<64xi32>
    %keep = arith.cmpi slt, %x, %limit : tensor<64xi32>
    %low = arith.andi %x, %byte : tensor<64xi32>
    %base = tt.splat %out : !tt.ptr<i32> -> tensor<64x!tt.ptr<i32>>
    %ptrs = tt.addptr %base, %x : tensor<64x!tt.ptr<i32>>, tensor<64xi32>
    tt.store %ptrs, %low, %keep : tensor<64x!tt.ptr<i32>>
    tt.return
  }
}
