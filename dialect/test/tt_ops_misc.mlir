// Round trip of the remaining tt ops as Triton 3.x prints them: tt.func (public or not,
// argument and result attributes, noinline, declarations), tt.call, tt.return, the
// elementwise ops (tt.fp_to_fp, tt.bitcast, tt.clampf, tt.precise_sqrt, tt.precise_divf,
// tt.mulhiui, tt.extern_elementwise), tt.histogram, tt.print and tt.assert (3.2+ and
// the 3.0/3.1 spelling with file, function and line), and what else real dumps carry:
// llvm.intr.assume (both spellings), scf/cf, and #loc aliases before and after the module, checked with
// -mlir-print-debuginfo.
// RUN: tcpu-opt %s | tcpu-opt | FileCheck %s
// RUN: tcpu-opt %s -mlir-print-op-generic | tcpu-opt | FileCheck %s
// RUN: tcpu-opt %s -mlir-print-debuginfo | tcpu-opt -mlir-print-debuginfo | FileCheck %s --check-prefix=LOC

#loc = loc("/tmp/misc.py":12:0)
module {
  // CHECK-LABEL: tt.func private @helper(
  // CHECK-SAME: %{{.*}}: tensor<32xf32>) -> tensor<32xf32> attributes {noinline = true}
  tt.func private @helper(%x: tensor<32xf32> loc("/tmp/misc.py":5:0)) -> tensor<32xf32> attributes {noinline = true} {
    %y = math.exp %x : tensor<32xf32> loc(#loc1)
    tt.return %y : tensor<32xf32> loc(#loc1)
  } loc(#loc)

  // A declaration without a body.
  // CHECK-LABEL: tt.func private @external(i32) -> i32
  tt.func private @external(i32) -> i32

  // CHECK-LABEL: tt.func public @kernel(
  // CHECK-SAME: %{{.*}}: !tt.ptr<f32> {tt.divisibility = 16 : i32, tt.pointer_range = 32 : i32}
  // CHECK-SAME: %{{.*}}: i32 {tt.divisibility = 16 : i32}
  // CHECK-SAME: attributes {noinline = false}
  tt.func public @kernel(%in_ptr: !tt.ptr<f32> {tt.divisibility = 16 : i32, tt.pointer_range = 32 : i32} loc("/tmp/misc.py":12:0),
                         %n: i32 {tt.divisibility = 16 : i32} loc("/tmp/misc.py":12:0),
                         %bits: tensor<32xi32> loc("/tmp/misc.py":12:0)) attributes {noinline = false} {
    %c0_i32 = arith.constant 0 : i32 loc(#loc2)
    %cst = arith.constant dense<1.000000e+00> : tensor<32xf32> loc(#loc2)
    %cst_0 = arith.constant dense<0.000000e+00> : tensor<32xf32> loc(#loc2)
    %cond = arith.cmpi sgt, %n, %c0_i32 : i32 loc(#loc2)
    // Triton >= 3.3 prints MLIR 20's `llvm.intr.assume %cond : i1`, which MLIR 19 has no
    // syntax for: the tools read it as the generic form (tt/TritonSource.h). Both parse.
    // CHECK: "llvm.intr.assume"(%{{.*}}) : (i1) -> ()
    // CHECK: "llvm.intr.assume"(%{{.*}}) : (i1) -> ()
    "llvm.intr.assume"(%cond) : (i1) -> () loc(#loc2)
    llvm.intr.assume %cond : i1 loc(#loc2)
    %in = tt.splat %in_ptr : !tt.ptr<f32> -> tensor<32x!tt.ptr<f32>> loc(#loc3)
    %x = tt.load %in : tensor<32x!tt.ptr<f32>> loc(#loc3)
    // CHECK: tt.call @helper(%{{.*}}) : (tensor<32xf32>) -> tensor<32xf32>
    %e = tt.call @helper(%x) : (tensor<32xf32>) -> tensor<32xf32> loc(#loc4)
    // CHECK: tt.call @external(%{{.*}}) : (i32) -> i32
    %ext = tt.call @external(%n) : (i32) -> i32 loc(#loc4)
    // CHECK: tt.fp_to_fp %{{.*}}, rounding = rtne : tensor<32xf32> -> tensor<32xbf16>
    // CHECK: tt.fp_to_fp %{{.*}}, rounding = rtz : tensor<32xf32> -> tensor<32xf16>
    // CHECK: tt.fp_to_fp %{{.*}} : tensor<32xbf16> -> tensor<32xf32>
    // CHECK: tt.fp_to_fp %{{.*}}, rounding = rtne : tensor<32xf32> -> tensor<32xf8E5M2>
    // CHECK: tt.fp_to_fp %{{.*}} : tensor<32xf8E4M3FN> -> tensor<32xf16>
    %bf = tt.fp_to_fp %e, rounding = rtne : tensor<32xf32> -> tensor<32xbf16> loc(#loc5)
    %h = tt.fp_to_fp %e, rounding = rtz : tensor<32xf32> -> tensor<32xf16> loc(#loc5)
    %f = tt.fp_to_fp %bf : tensor<32xbf16> -> tensor<32xf32> loc(#loc5)
    %f8 = tt.fp_to_fp %e, rounding = rtne : tensor<32xf32> -> tensor<32xf8E5M2> loc(#loc5)
    %f8b = tt.bitcast %f8 : tensor<32xf8E5M2> -> tensor<32xf8E4M3FN> loc(#loc5)
    %wide = tt.fp_to_fp %f8b : tensor<32xf8E4M3FN> -> tensor<32xf16> loc(#loc5)
    // CHECK: tt.bitcast %{{.*}} : tensor<32xf32> -> tensor<32xi32>
    // CHECK: tt.bitcast %{{.*}} : i32 -> f32
    %as_int = tt.bitcast %f : tensor<32xf32> -> tensor<32xi32> loc(#loc5)
    %as_float = tt.bitcast %n : i32 -> f32 loc(#loc5)
    // CHECK: tt.clampf %{{.*}}, %{{.*}}, %{{.*}}, propagateNan = none : tensor<32xf32>
    // CHECK: tt.clampf %{{.*}}, %{{.*}}, %{{.*}}, propagateNan = all : tensor<32xf32>
    %c = tt.clampf %f, %cst_0, %cst, propagateNan = none : tensor<32xf32> loc(#loc6)
    %c_1 = tt.clampf %f, %cst_0, %cst, propagateNan = all : tensor<32xf32> loc(#loc6)
    // CHECK: tt.precise_sqrt %{{.*}} : tensor<32xf32>
    // CHECK: tt.precise_divf %{{.*}}, %{{.*}} : tensor<32xf32>
    // CHECK: tt.mulhiui %{{.*}}, %{{.*}} : tensor<32xi32>
    // CHECK: tt.mulhiui %{{.*}}, %{{.*}} : i32
    %sq = tt.precise_sqrt %c : tensor<32xf32> loc(#loc6)
    %dv = tt.precise_divf %sq, %c_1 : tensor<32xf32> loc(#loc6)
    %hi = tt.mulhiui %as_int, %bits : tensor<32xi32> loc(#loc6)
    %hi_s = tt.mulhiui %n, %ext : i32 loc(#loc6)
    // CHECK: tt.extern_elementwise %{{.*}} {libname = "", libpath = "", pure = true, symbol = "__nv_expf"} : (tensor<32xf32>) -> tensor<32xf32>
    // CHECK: tt.extern_elementwise %{{.*}}, %{{.*}} {libname = "libdevice", libpath = "/lib/libdevice.10.bc", pure = true, symbol = "__nv_powf"} : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %ex = tt.extern_elementwise %dv {libname = "", libpath = "", pure = true, symbol = "__nv_expf"} : (tensor<32xf32>) -> tensor<32xf32> loc(#loc7)
    %pw = tt.extern_elementwise %ex, %dv {libname = "libdevice", libpath = "/lib/libdevice.10.bc", pure = true, symbol = "__nv_powf"} : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32> loc(#loc7)
    // CHECK: tt.histogram %{{.*}} : tensor<32xi32> -> tensor<8xi32>
    // CHECK: tt.histogram %{{.*}}, %{{.*}} : tensor<32xi32> -> tensor<8xi32>
    %hist = tt.histogram %hi : tensor<32xi32> -> tensor<8xi32> loc(#loc8)
    %m = arith.cmpf olt, %pw, %cst : tensor<32xf32> loc(#loc8)
    %hist_m = tt.histogram %hi, %m : tensor<32xi32> -> tensor<8xi32> loc(#loc8)
    // CHECK: tt.print " x: " {hex = false, isSigned = array<i32: 0, 1>} : %{{.*}}, %{{.*}} : tensor<32xf32>, tensor<32xi32>
    // CHECK: tt.print "pid" {hex = true} : %{{.*}} : i32
    // CHECK: tt.print "done" {hex = false}
    tt.print " x: " {hex = false, isSigned = array<i32: 0, 1>} : %pw, %hi : tensor<32xf32>, tensor<32xi32> loc(#loc9)
    tt.print "pid" {hex = true} : %n : i32 loc(#loc9)
    tt.print "done" {hex = false} loc(#loc9)
    // CHECK: tt.assert %{{.*}}, "x must be below 1" : tensor<32xi1>
    // CHECK: tt.assert %{{.*}}, "n > 0", "/tmp/misc.py", "kernel", 30 : i1
    tt.assert %m, "x must be below 1" : tensor<32xi1> loc(#loc10)
    tt.assert %cond, "n > 0", "/tmp/misc.py", "kernel", 30 : i1 loc(#loc10)
    // scf and cf as Triton keeps them.
    // CHECK: scf.for
    // CHECK: scf.yield %{{.*}} : tensor<32xf32>
    %c1_i32 = arith.constant 1 : i32 loc(#loc2)
    %acc = scf.for %i = %c0_i32 to %n step %c1_i32 iter_args(%a = %cst_0) -> (tensor<32xf32>) : i32 {
      %a_2 = arith.addf %a, %pw : tensor<32xf32> loc(#loc11)
      scf.yield %a_2 : tensor<32xf32> loc(#loc11)
    } loc(#loc11)
    // CHECK: cf.br ^bb1
    cf.br ^bb1 loc(#loc12)
  ^bb1:
    tt.return loc(#loc12)
  } loc(#loc)
} loc(#loc)
#loc1 = loc("/tmp/misc.py":6:11)
#loc2 = loc(unknown)
#loc3 = loc("/tmp/misc.py":14:8)
#loc4 = loc("/tmp/misc.py":15:8)
#loc5 = loc("/tmp/misc.py":16:8)
#loc6 = loc("/tmp/misc.py":17:8)
#loc7 = loc("/tmp/misc.py":18:8)
#loc8 = loc("/tmp/misc.py":19:8)
#loc9 = loc("/tmp/misc.py":20:4)
#loc10 = loc("/tmp/misc.py":21:4)
#loc11 = loc("/tmp/misc.py":22:4)
#loc12 = loc("/tmp/misc.py":23:4)

// The locations survive the round trip as #loc aliases.
// LOC: tt.call @helper(%{{.*}}) : (tensor<32xf32>) -> tensor<32xf32> loc([[CALL:#loc[0-9]*]])
// LOC: tt.histogram %{{.*}} : tensor<32xi32> -> tensor<8xi32> loc([[HIST:#loc[0-9]*]])
// LOC-DAG: [[CALL]] = loc("/tmp/misc.py":15:8)
// LOC-DAG: [[HIST]] = loc("/tmp/misc.py":19:8)
