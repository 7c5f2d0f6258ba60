// tt-to-tcpu-elementwise: arith/math on tensors become the same ops on vectors; tt.clampf
// maxnum/minnum (propagateNan = all: maximum/minimum, which keep NaNs), precise_sqrt /
// precise_divf the IEEE ops, libdevice-style extern_elementwise names the math ops,
// mulhiui a widened multiply's high half, fp_to_fp with rtne a truncf (FCVT); with
// rounding = rtz, which no Arm instruction does, integer ops on the f32 bits (no libcall).
// RUN: tcpu-opt %s -split-input-file --tt-to-tcpu-elementwise -verify-diagnostics | FileCheck %s

module {
  // CHECK-LABEL: tt.func @elementwise(
  // CHECK: %[[SUM:[0-9]+]] = arith.addf %{{.*}}, %{{.*}} : vector<8xf32>
  // CHECK: %[[EXP:[0-9]+]] = math.exp %[[SUM]] : vector<8xf32>
  // CHECK: %[[LO:[0-9]+]] = arith.maxnumf %[[EXP]], %{{.*}} : vector<8xf32>
  // CHECK: %[[C:[0-9]+]] = arith.minnumf %[[LO]], %{{.*}} : vector<8xf32>
  // CHECK: %[[LO2:[0-9]+]] = arith.maximumf %[[C]], %{{.*}} : vector<8xf32>
  // CHECK: %[[C2:[0-9]+]] = arith.minimumf %[[LO2]], %{{.*}} : vector<8xf32>
  // CHECK: %[[SQ:[0-9]+]] = math.sqrt %[[C2]] : vector<8xf32>
  // CHECK: %[[DIV:[0-9]+]] = arith.divf %[[SQ]], %{{.*}} : vector<8xf32>
  // CHECK: %[[TANH:[0-9]+]] = math.tanh %[[DIV]] : vector<8xf32>
  // CHECK: %[[RSQ:[0-9]+]] = math.rsqrt %[[TANH]] : vector<8xf32>
  // CHECK: %[[WA:[0-9]+]] = arith.extui %{{.*}} : vector<8xi32> to vector<8xi64>
  // CHECK: %[[WB:[0-9]+]] = arith.extui %{{.*}} : vector<8xi32> to vector<8xi64>
  // CHECK: %[[PROD:[0-9]+]] = arith.muli %[[WA]], %[[WB]] : vector<8xi64>
  // CHECK: %[[HI:[0-9]+]] = arith.shrui %[[PROD]], %{{.*}} : vector<8xi64>
  // CHECK: arith.trunci %[[HI]] : vector<8xi64> to vector<8xi32>
  // CHECK: arith.truncf %[[RSQ]] : vector<8xf32> to vector<8xbf16>
  // CHECK: arith.bitcast %[[RSQ]] : vector<8xf32> to vector<8xi32>
  // CHECK: arith.cmpf olt, %{{.*}}, %{{.*}} : vector<8xf32>
  // CHECK: arith.select %{{.*}}, %{{.*}}, %[[RSQ]] : vector<8xi1>, vector<8xf32>
  // CHECK-NOT: tt.clampf
  // CHECK-NOT: tt.extern_elementwise
  // CHECK: tt.return
  tt.func @elementwise(%x: tensor<8xf32>, %y: tensor<8xf32>, %i: tensor<8xi32>) -> (tensor<8xf32>, tensor<8xi32>, tensor<8xbf16>) {
    %cst = arith.constant dense<0.000000e+00> : tensor<8xf32>
    %cst_1 = arith.constant dense<6.000000e+00> : tensor<8xf32>
    %a = arith.addf %x, %y : tensor<8xf32>
    %e = math.exp %a : tensor<8xf32>
    %c = tt.clampf %e, %cst, %cst_1, propagateNan = none : tensor<8xf32>
    %c2 = tt.clampf %c, %cst, %cst_1, propagateNan = all : tensor<8xf32>
    %s = tt.precise_sqrt %c2 : tensor<8xf32>
    %d = tt.precise_divf %s, %y : tensor<8xf32>
    %t = tt.extern_elementwise %d {libname = "", libpath = "", pure = true, symbol = "__nv_tanhf"} : (tensor<8xf32>) -> tensor<8xf32>
    %r = tt.extern_elementwise %t {libname = "", libpath = "", pure = true, symbol = "__nv_rsqrtf"} : (tensor<8xf32>) -> tensor<8xf32>
    %h = tt.mulhiui %i, %i : tensor<8xi32>
    %b = tt.fp_to_fp %r, rounding = rtne : tensor<8xf32> -> tensor<8xbf16>
    %bi = tt.bitcast %r : tensor<8xf32> -> tensor<8xi32>
    %cmp = arith.cmpf olt, %x, %y : tensor<8xf32>
    %sel = arith.select %cmp, %x, %r : tensor<8xi1>, tensor<8xf32>
    tt.return %sel, %h, %b : tensor<8xf32>, tensor<8xi32>, tensor<8xbf16>
  }
}

// -----

// f32 -> f16 toward zero: FCVTN's nearest value (truncf), widened back (extf) and compared
// by magnitude with the input; where it is beyond, its encoding steps one toward zero (a
// finite overflow to infinity becomes the largest finite value). NaN is the quiet NaN 0x7e00
// (32256).
module {
  // CHECK-LABEL: tt.func @rtz(
  // CHECK: %[[NEAREST:.*]] = arith.truncf %{{.*}} : vector<8xf32> to vector<8xf16>
  // CHECK: %[[BACK:.*]] = arith.extf %[[NEAREST]] : vector<8xf16> to vector<8xf32>
  // CHECK: %[[BACK_ABS:.*]] = math.absf %[[BACK]] : vector<8xf32>
  // CHECK: %[[ABS:.*]] = math.absf %{{.*}} : vector<8xf32>
  // CHECK: %[[BEYOND:.*]] = arith.cmpf ogt, %[[BACK_ABS]], %[[ABS]] : vector<8xf32>
  // CHECK: %[[BITS:.*]] = arith.bitcast %[[NEAREST]] : vector<8xf16> to vector<8xi16>
  // CHECK: %[[STEP:.*]] = arith.extui %[[BEYOND]] : vector<8xi1> to vector<8xi16>
  // CHECK: %[[TOWARD_ZERO:.*]] = arith.subi %[[BITS]], %[[STEP]] : vector<8xi16>
  // CHECK: arith.select %{{.*}}, %{{.*}}, %[[TOWARD_ZERO]] : vector<8xi1>, vector<8xi16>
  // CHECK: arith.bitcast %{{.*}} : vector<8xi16> to vector<8xf16>
  tt.func @rtz(%x: tensor<8xf32>) -> tensor<8xf16> {
    %h = tt.fp_to_fp %x, rounding = rtz : tensor<8xf32> -> tensor<8xf16>
    tt.return %h : tensor<8xf16>
  }
}

// -----

// Integer operands to a float library function are refused by name (they built an invalid
// math.powf on integer vectors).
module {
  tt.func @int_pow(%x: tensor<4xi32>) -> tensor<4xi32> {
    // expected-error @+2 {{tt.extern_elementwise symbol '__nv_powf' needs operands and result of one floating-point type, got ('tensor<4xi32>', 'tensor<4xi32>') -> 'tensor<4xi32>'}}
    // expected-error @+1 {{failed to legalize operation 'tt.extern_elementwise'}}
    %a = tt.extern_elementwise %x, %x {libname = "", libpath = "", pure = true, symbol = "__nv_powf"} : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
    tt.return %a : tensor<4xi32>
  }
}

// -----

// libdevice's float tests return int32 (Inductor's logcumsumexp calls `libdevice.isinf`):
// compares on the float (|x| == inf, x unordered with itself, |x| < inf) or its sign bit,
// widened to the result's integer type.
module {
  // CHECK-LABEL: tt.func @float_tests(
  // CHECK: %[[ABS:.*]] = math.absf %{{.*}} : vector<8xf32>
  // CHECK: %[[INF:.*]] = arith.constant dense<0x7F800000> : vector<8xf32>
  // CHECK: %[[ISINF:.*]] = arith.cmpf oeq, %[[ABS]], %[[INF]] : vector<8xf32>
  // CHECK: arith.extui %[[ISINF]] : vector<8xi1> to vector<8xi32>
  // CHECK: %[[ISNAN:.*]] = arith.cmpf uno, %{{.*}}, %{{.*}} : vector<8xf32>
  // CHECK: arith.extui %[[ISNAN]] : vector<8xi1> to vector<8xi32>
  // CHECK: arith.cmpf olt, %{{.*}}, %{{.*}} : vector<8xf32>
  // CHECK: %[[BITS:.*]] = arith.bitcast %{{.*}} : vector<4xf64> to vector<4xi64>
  // CHECK: arith.cmpi slt, %[[BITS]], %{{.*}} : vector<4xi64>
  // CHECK-NOT: tt.extern_elementwise
  tt.func @float_tests(%x: tensor<8xf32>, %d: tensor<4xf64>) -> (tensor<8xi32>, tensor<8xi32>, tensor<8xi32>, tensor<4xi32>) {
    %inf = tt.extern_elementwise %x {libname = "", libpath = "", pure = true, symbol = "__nv_isinff"} : (tensor<8xf32>) -> tensor<8xi32>
    %nan = tt.extern_elementwise %x {libname = "", libpath = "", pure = true, symbol = "__nv_isnanf"} : (tensor<8xf32>) -> tensor<8xi32>
    %fin = tt.extern_elementwise %x {libname = "", libpath = "", pure = true, symbol = "__nv_finitef"} : (tensor<8xf32>) -> tensor<8xi32>
    %neg = tt.extern_elementwise %d {libname = "", libpath = "", pure = true, symbol = "__nv_signbitd"} : (tensor<4xf64>) -> tensor<4xi32>
    tt.return %inf, %nan, %fin, %neg : tensor<8xi32>, tensor<8xi32>, tensor<8xi32>, tensor<4xi32>
  }
}

// -----

module {
  tt.func @int_isinf(%x: tensor<4xi32>) -> tensor<4xi32> {
    // expected-error @+2 {{tt.extern_elementwise symbol '__nv_isinff' needs one floating-point operand and an integer result, got ('tensor<4xi32>') -> 'tensor<4xi32>'}}
    // expected-error @+1 {{failed to legalize operation 'tt.extern_elementwise'}}
    %a = tt.extern_elementwise %x {libname = "", libpath = "", pure = true, symbol = "__nv_isinff"} : (tensor<4xi32>) -> tensor<4xi32>
    tt.return %a : tensor<4xi32>
  }
}
