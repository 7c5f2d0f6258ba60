// tt-strip-mine-tiles: a function within every budget still has its parallel rows cut to 16
// lanes (four NEON registers of f32) when it computes a math function expanded to a
// polynomial: computed op by op over 256 lanes, the polynomial's live values spill (the
// tutorial-style exp kernel: 28.4 -> 13.1 instructions per element at VL128). A row that is
// reduced (softmax) stays whole. A pointwise function loading a row of cheap ops or of
// single-instruction math (sqrt) wider than 64 lanes has it cut to 64 (16 registers of f32):
// LLVM issues every load of a straight-line row first and spills what does not fit. An f32 ->
// f16/bf16 tt.fp_to_fp (rounding and NaN handling in integer ops on the bits) counts as a
// polynomial: 64 lanes cut to 16 (half_narrow -20%); a widening one does not.
// RUN: tcpu-opt %s --tt-strip-mine-tiles | FileCheck %s

module {
  // CHECK-LABEL: tt.func public @narrow_row(
  // CHECK: scf.for
  // CHECK: tt.fp_to_fp {{.*}}, rounding = rtz : tensor<16xf32> -> tensor<16xbf16>
  // CHECK-LABEL: tt.func public @widen_row(
  // CHECK-NOT: scf.for
  // CHECK: tt.fp_to_fp {{.*}} : tensor<64xf16> -> tensor<64xf32>
  tt.func public @narrow_row(%x_ptr: !tt.ptr<f32>, %y_ptr: !tt.ptr<bf16>) {
    %r = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
    %xp = tt.splat %x_ptr : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>>
    %xa = tt.addptr %xp, %r : tensor<64x!tt.ptr<f32>>, tensor<64xi32>
    %x = tt.load %xa : tensor<64x!tt.ptr<f32>>
    %y = tt.fp_to_fp %x, rounding = rtz : tensor<64xf32> -> tensor<64xbf16>
    %yp = tt.splat %y_ptr : !tt.ptr<bf16> -> tensor<64x!tt.ptr<bf16>>
    %ya = tt.addptr %yp, %r : tensor<64x!tt.ptr<bf16>>, tensor<64xi32>
    tt.store %ya, %y : tensor<64x!tt.ptr<bf16>>
    tt.return
  }
  tt.func public @widen_row(%x_ptr: !tt.ptr<f16>, %y_ptr: !tt.ptr<f32>) {
    %r = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
    %xp = tt.splat %x_ptr : !tt.ptr<f16> -> tensor<64x!tt.ptr<f16>>
    %xa = tt.addptr %xp, %r : tensor<64x!tt.ptr<f16>>, tensor<64xi32>
    %x = tt.load %xa : tensor<64x!tt.ptr<f16>>
    %y = tt.fp_to_fp %x : tensor<64xf16> -> tensor<64xf32>
    %yp = tt.splat %y_ptr : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>>
    %ya = tt.addptr %yp, %r : tensor<64x!tt.ptr<f32>>, tensor<64xi32>
    tt.store %ya, %y : tensor<64x!tt.ptr<f32>>
    tt.return
  }
  // CHECK-LABEL: tt.func public @exp_row(
  // CHECK: scf.for
  // CHECK: tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
  // CHECK: math.exp {{.*}} : tensor<16xf32>
  // CHECK: tt.store {{.*}} : tensor<16x!tt.ptr<f32>>
  tt.func public @exp_row(%x_ptr: !tt.ptr<f32>, %y_ptr: !tt.ptr<f32>, %n: i32) {
    %c256 = arith.constant 256 : i32
    %pid = tt.get_program_id x : i32
    %start = arith.muli %pid, %c256 : i32
    %r = tt.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32>
    %s = tt.splat %start : i32 -> tensor<256xi32>
    %offs = arith.addi %s, %r : tensor<256xi32>
    %ns = tt.splat %n : i32 -> tensor<256xi32>
    %mask = arith.cmpi slt, %offs, %ns : tensor<256xi32>
    %xp = tt.splat %x_ptr : !tt.ptr<f32> -> tensor<256x!tt.ptr<f32>>
    %xa = tt.addptr %xp, %offs : tensor<256x!tt.ptr<f32>>, tensor<256xi32>
    %x = tt.load %xa, %mask : tensor<256x!tt.ptr<f32>>
    %e = math.exp %x : tensor<256xf32>
    %yp = tt.splat %y_ptr : !tt.ptr<f32> -> tensor<256x!tt.ptr<f32>>
    %ya = tt.addptr %yp, %offs : tensor<256x!tt.ptr<f32>>, tensor<256xi32>
    tt.store %ya, %e, %mask : tensor<256x!tt.ptr<f32>>
    tt.return
  }

  // CHECK-LABEL: tt.func public @softmax_row(
  // CHECK-NOT: scf.for
  // CHECK: math.exp {{.*}} : tensor<256xf32>
  // CHECK: tt.return
  tt.func public @softmax_row(%x_ptr: !tt.ptr<f32>, %y_ptr: !tt.ptr<f32>) {
    %r = tt.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32>
    %xp = tt.splat %x_ptr : !tt.ptr<f32> -> tensor<256x!tt.ptr<f32>>
    %xa = tt.addptr %xp, %r : tensor<256x!tt.ptr<f32>>, tensor<256xi32>
    %x = tt.load %xa : tensor<256x!tt.ptr<f32>>
    %m = "tt.reduce"(%x) <{axis = 0 : i32}> ({
    ^bb0(%a: f32, %b: f32):
      %mx = arith.maxnumf %a, %b : f32
      tt.reduce.return %mx : f32
    }) : (tensor<256xf32>) -> f32
    %ms = tt.splat %m : f32 -> tensor<256xf32>
    %d = arith.subf %x, %ms : tensor<256xf32>
    %e = math.exp %d : tensor<256xf32>
    %yp = tt.splat %y_ptr : !tt.ptr<f32> -> tensor<256x!tt.ptr<f32>>
    %ya = tt.addptr %yp, %r : tensor<256x!tt.ptr<f32>>, tensor<256xi32>
    tt.store %ya, %e : tensor<256x!tt.ptr<f32>>
    tt.return
  }

  // CHECK-LABEL: tt.func public @sqrt_add_row(
  // CHECK: scf.for
  // CHECK: math.sqrt {{.*}} : tensor<64xf32>
  // CHECK-NOT: tensor<256xf32>
  // CHECK: tt.return
  tt.func public @sqrt_add_row(%x_ptr: !tt.ptr<f32>, %y_ptr: !tt.ptr<f32>) {
    %r = tt.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32>
    %xp = tt.splat %x_ptr : !tt.ptr<f32> -> tensor<256x!tt.ptr<f32>>
    %xa = tt.addptr %xp, %r : tensor<256x!tt.ptr<f32>>, tensor<256xi32>
    %x = tt.load %xa : tensor<256x!tt.ptr<f32>>
    %s = math.sqrt %x : tensor<256xf32>
    %y = arith.addf %s, %x : tensor<256xf32>
    %yp = tt.splat %y_ptr : !tt.ptr<f32> -> tensor<256x!tt.ptr<f32>>
    %ya = tt.addptr %yp, %r : tensor<256x!tt.ptr<f32>>, tensor<256xi32>
    tt.store %ya, %y : tensor<256x!tt.ptr<f32>>
    tt.return
  }
}

// An n-D tile under a polynomial is cut to 16 elements as well (Llama's rotary embedding as
// Inductor writes it, cos and sin of an 8x32 tile: 50.7 -> 33.2 instructions per element).
module {
  // CHECK-LABEL: tt.func public @cos_tile(
  // CHECK: scf.for
  // CHECK: scf.for
  // CHECK: math.cos %{{[0-9]+}} : tensor<2x8xf32>
  tt.func public @cos_tile(%x_ptr: !tt.ptr<f32>, %y_ptr: !tt.ptr<f32>) {
    %rows = tt.make_range {end = 8 : i32, start = 0 : i32} : tensor<8xi32>
    %cols = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32>
    %r = tt.expand_dims %rows {axis = 1 : i32} : tensor<8xi32> -> tensor<8x1xi32>
    %stride = arith.constant dense<32> : tensor<8x1xi32>
    %rs = arith.muli %r, %stride : tensor<8x1xi32>
    %c = tt.expand_dims %cols {axis = 0 : i32} : tensor<32xi32> -> tensor<1x32xi32>
    %rb = tt.broadcast %rs : tensor<8x1xi32> -> tensor<8x32xi32>
    %cb = tt.broadcast %c : tensor<1x32xi32> -> tensor<8x32xi32>
    %o = arith.addi %rb, %cb : tensor<8x32xi32>
    %xp = tt.splat %x_ptr : !tt.ptr<f32> -> tensor<8x32x!tt.ptr<f32>>
    %xa = tt.addptr %xp, %o : tensor<8x32x!tt.ptr<f32>>, tensor<8x32xi32>
    %x = tt.load %xa : tensor<8x32x!tt.ptr<f32>>
    %y = math.cos %x : tensor<8x32xf32>
    %yp = tt.splat %y_ptr : !tt.ptr<f32> -> tensor<8x32x!tt.ptr<f32>>
    %ya = tt.addptr %yp, %o : tensor<8x32x!tt.ptr<f32>>, tensor<8x32xi32>
    tt.store %ya, %y : tensor<8x32x!tt.ptr<f32>>
    tt.return
  }
}
