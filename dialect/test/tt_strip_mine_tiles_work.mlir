// tt-strip-mine-tiles: a function whose tiles are all within 1024 elements is still cut when its
// straight-line work is large: a 1024-lane pointwise kernel computing math functions of every
// lane (Inductor's rotary embedding: cos, sin and pow of each lane) runs as a loop over chunks,
// of 128 lanes here (about 70 ops a lane: at most 16 K element-ops a chunk). A pure tt.extern_elementwise (libdevice) is an elementwise op like any other there; a
// cheap 1024-lane kernel (vector add) is only cut to register-sized rows of 64 lanes
// (tt_strip_mine_tiles_register_rows.mlir).
// RUN: tcpu-opt %s --tt-strip-mine-tiles | FileCheck %s

module {
  // CHECK-LABEL: tt.func public @rotary_like(
  // CHECK: scf.for
  // CHECK: tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32>
  // CHECK: tt.extern_elementwise {{.*}} : (tensor<128xf32>, tensor<128xf32>) -> tensor<128xf32>
  // CHECK: math.cos {{.*}} : tensor<128xf32>
  // CHECK: math.sin {{.*}} : tensor<128xf32>
  // CHECK: arith.divf {{.*}} : tensor<128xf32>
  // CHECK: tt.store {{.*}} : tensor<128x!tt.ptr<f32>>
  tt.func public @rotary_like(%x_ptr: !tt.ptr<f32>, %y_ptr: !tt.ptr<f32>, %n: i32) {
    %c1024 = arith.constant 1024 : i32
    %base = arith.constant dense<1.000000e+04> : tensor<1024xf32>
    %pid = tt.get_program_id x : i32
    %start = arith.muli %pid, %c1024 : i32
    %r = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32>
    %s = tt.splat %start : i32 -> tensor<1024xi32>
    %offs = arith.addi %s, %r : tensor<1024xi32>
    %ns = tt.splat %n : i32 -> tensor<1024xi32>
    %mask = arith.cmpi slt, %offs, %ns : tensor<1024xi32>
    %xp = tt.splat %x_ptr : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>>
    %xa = tt.addptr %xp, %offs : tensor<1024x!tt.ptr<f32>>, tensor<1024xi32>
    %x = tt.load %xa, %mask : tensor<1024x!tt.ptr<f32>>
    %p = tt.extern_elementwise %base, %x {libname = "", libpath = "", pure = true, symbol = "__nv_powf"} : (tensor<1024xf32>, tensor<1024xf32>) -> tensor<1024xf32>
    %c = math.cos %p : tensor<1024xf32>
    %si = math.sin %p : tensor<1024xf32>
    %q = arith.divf %c, %si : tensor<1024xf32>
    %y = arith.addf %q, %x : tensor<1024xf32>
    %yp = tt.splat %y_ptr : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>>
    %ya = tt.addptr %yp, %offs : tensor<1024x!tt.ptr<f32>>, tensor<1024xi32>
    tt.store %ya, %y, %mask : tensor<1024x!tt.ptr<f32>>
    tt.return
  }

  // CHECK-LABEL: tt.func public @add_like(
  // CHECK: scf.for
  // CHECK: tt.store {{.*}} : tensor<64x!tt.ptr<f32>>
  // CHECK-NOT: tensor<1024xf32>
  // CHECK: tt.return
  tt.func public @add_like(%x_ptr: !tt.ptr<f32>, %y_ptr: !tt.ptr<f32>, %n: i32) {
    %c1024 = arith.constant 1024 : i32
    %pid = tt.get_program_id x : i32
    %start = arith.muli %pid, %c1024 : i32
    %r = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32>
    %s = tt.splat %start : i32 -> tensor<1024xi32>
    %offs = arith.addi %s, %r : tensor<1024xi32>
    %ns = tt.splat %n : i32 -> tensor<1024xi32>
    %mask = arith.cmpi slt, %offs, %ns : tensor<1024xi32>
    %xp = tt.splat %x_ptr : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>>
    %xa = tt.addptr %xp, %offs : tensor<1024x!tt.ptr<f32>>, tensor<1024xi32>
    %x = tt.load %xa, %mask : tensor<1024x!tt.ptr<f32>>
    %y = arith.addf %x, %x : tensor<1024xf32>
    %yp = tt.splat %y_ptr : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>>
    %ya = tt.addptr %yp, %offs : tensor<1024x!tt.ptr<f32>>, tensor<1024xi32>
    tt.store %ya, %y, %mask : tensor<1024x!tt.ptr<f32>>
    tt.return
  }
}
