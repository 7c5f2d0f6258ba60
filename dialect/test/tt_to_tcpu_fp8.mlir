// fp8 is storage: the type converter holds fp8 tensors as i8 vectors (their bits), loads and
// stores move one byte per element, tt.bitcast to i8 changes nothing, and tt.fp_to_fp decodes
// and encodes on integer vectors through f32 (FloatBits.h). Widening places the fields in an
// f16 (e5m2 is its upper byte; a 4-bit exponent is then scaled by 2^(15 - bias)) or, for
// e5m2fnuz, rebiases them. Narrowing shifts with a round-to-nearest-even increment (none for
// rtz; e4m3fn and e5m2 round their subnormals by an f32 addition) and saturates as Triton: e4m3fn to 0x7e (448), e5m2 to 0x7b (57344), their NaN 0x7f /
// 0x7e; the FNUZ types' NaN is 0x80 and they have no -0. fp8 constants become their bits;
// arithmetic on fp8 is refused.
// RUN: tcpu-opt %s -split-input-file --tt-to-tcpu-memory --tt-to-tcpu-pointers --tt-to-tcpu-elementwise -verify-diagnostics | FileCheck %s

module {
  // CHECK-LABEL: tt.func @copy_fp8(
  // CHECK: llvm.load %{{.*}} {alignment = 1 : i64} : !llvm.ptr -> vector<8xi8>
  // CHECK: llvm.store %{{.*}}, %{{.*}} {alignment = 1 : i64} : vector<8xi8>, !llvm.ptr
  tt.func @copy_fp8(%p: !tt.ptr<f8E4M3FN>, %q: !tt.ptr<i8>) {
    %r = tt.make_range {end = 8 : i32, start = 0 : i32} : tensor<8xi32>
    %ps = tt.splat %p : !tt.ptr<f8E4M3FN> -> tensor<8x!tt.ptr<f8E4M3FN>>
    %pp = tt.addptr %ps, %r : tensor<8x!tt.ptr<f8E4M3FN>>, tensor<8xi32>
    %a = tt.load %pp : tensor<8x!tt.ptr<f8E4M3FN>>
    %bits = tt.bitcast %a : tensor<8xf8E4M3FN> -> tensor<8xi8>
    %qs = tt.splat %q : !tt.ptr<i8> -> tensor<8x!tt.ptr<i8>>
    %qq = tt.addptr %qs, %r : tensor<8x!tt.ptr<i8>>, tensor<8xi32>
    tt.store %qq, %bits : tensor<8x!tt.ptr<i8>>
    tt.return
  }
}

// -----

module {
  // e4m3fn's fields as an f16's (magnitude << 7, sign << 8), widened, times 2^(15 - 7); 0x7f
  // and 0xff are NaN.
  // CHECK-LABEL: tt.func @widen_e4m3fn(
  // CHECK: arith.extui %{{.*}} : vector<8xi8> to vector<8xi16>
  // CHECK: arith.bitcast %{{.*}} : vector<8xi16> to vector<8xf16>
  // CHECK: arith.extf %{{.*}} : vector<8xf16> to vector<8xf32>
  // CHECK: arith.constant dense<2.560000e+02> : vector<8xf32>
  // CHECK: arith.mulf
  // CHECK: arith.constant dense<127> : vector<8xi16>
  // CHECK: arith.cmpi eq
  // CHECK: arith.select
  tt.func @widen_e4m3fn(%a: tensor<8xf8E4M3FN>) -> tensor<8xf32> {
    %w = tt.fp_to_fp %a : tensor<8xf8E4M3FN> -> tensor<8xf32>
    tt.return %w : tensor<8xf32>
  }

  // A normal result rounds the f32 bits with one addition (2^20 - 1 plus the kept lsb) and a
  // shift by 21, then rebiases (448 = (127 - 15) << 2); a subnormal one is the f32 sum with
  // 1.5 * 2^7 = 192 (whose ulp is e5m2's smallest subnormal, 2^-16) less 192's bits.
  // CHECK-LABEL: tt.func @narrow_e5m2(
  // CHECK: arith.bitcast %{{.*}} : vector<8xf32> to vector<8xi32>
  // CHECK: arith.constant dense<1048575> : vector<8xi32>
  // CHECK: arith.addi
  // CHECK: arith.constant dense<21> : vector<8xi32>
  // CHECK: arith.shrui
  // CHECK: arith.constant dense<448> : vector<8xi32>
  // CHECK: arith.subi
  // CHECK: arith.constant dense<1.920000e+02> : vector<8xf32>
  // CHECK: arith.addf
  // CHECK: arith.select
  // CHECK: arith.constant dense<123> : vector<8xi32>
  // CHECK: arith.minui
  // CHECK: arith.constant dense<126> : vector<8xi32>
  // CHECK: arith.trunci %{{.*}} : vector<8xi32> to vector<8xi8>
  tt.func @narrow_e5m2(%x: tensor<8xf32>) -> tensor<8xf8E5M2> {
    %n = tt.fp_to_fp %x, rounding = rtne : tensor<8xf32> -> tensor<8xf8E5M2>
    tt.return %n : tensor<8xf8E5M2>
  }

  // Toward zero: no rounding addition; a subnormal is the magnitude times 2^9, truncated.
  // CHECK-LABEL: tt.func @narrow_e4m3fn_rtz(
  // CHECK-NOT: arith.addi
  // CHECK: arith.shrui
  // CHECK: arith.constant dense<5.120000e+02> : vector<8xf32>
  // CHECK: arith.mulf
  // CHECK: arith.fptoui
  // CHECK: arith.constant dense<126> : vector<8xi32>
  // CHECK: arith.minui
  // CHECK: arith.constant dense<127> : vector<8xi32>
  // CHECK: arith.trunci %{{.*}} : vector<8xi32> to vector<8xi8>
  tt.func @narrow_e4m3fn_rtz(%x: tensor<8xf32>) -> tensor<8xf8E4M3FN> {
    %n = tt.fp_to_fp %x, rounding = rtz : tensor<8xf32> -> tensor<8xf8E4M3FN>
    tt.return %n : tensor<8xf8E4M3FN>
  }

  // FNUZ: a zero magnitude drops the sign (0x80 is the NaN).
  // CHECK-LABEL: tt.func @narrow_e4m3fnuz(
  // CHECK: arith.constant dense<127> : vector<8xi32>
  // CHECK: arith.minui
  // CHECK: arith.cmpi eq
  // CHECK: arith.select
  // CHECK: arith.constant dense<128> : vector<8xi32>
  // CHECK: arith.select
  tt.func @narrow_e4m3fnuz(%x: tensor<8xf16>) -> tensor<8xf8E4M3FNUZ> {
    %n = tt.fp_to_fp %x, rounding = rtne : tensor<8xf16> -> tensor<8xf8E4M3FNUZ>
    tt.return %n : tensor<8xf8E4M3FNUZ>
  }

  // Constants are their bits: 1.0 in e4m3fn is 0x38, -2.0 in e5m2 is 0xc0.
  // CHECK-LABEL: tt.func @constants(
  // CHECK: arith.constant dense<56> : vector<8xi8>
  // CHECK: arith.constant -64 : i8
  // CHECK: arith.select %{{.*}}, %{{.*}}, %{{.*}} : vector<8xi1>, vector<8xi8>
  tt.func @constants(%m: tensor<8xi1>, %a: tensor<8xf8E4M3FN>) -> (tensor<8xf8E4M3FN>, f8E5M2) {
    %one = arith.constant dense<1.000000e+00> : tensor<8xf8E4M3FN>
    %two = arith.constant -2.000000e+00 : f8E5M2
    %s = arith.select %m, %a, %one : tensor<8xi1>, tensor<8xf8E4M3FN>
    tt.return %s, %two : tensor<8xf8E4M3FN>, f8E5M2
  }
}

// -----

// Scalars the same way; arith.extf / arith.truncf on fp8 as tt.fp_to_fp (to nearest even).
module {
  // CHECK-LABEL: tt.func @scalars(
  // CHECK: arith.extui %{{.*}} : i8 to i32
  // CHECK: arith.bitcast %{{.*}} : i32 to f32
  // CHECK: arith.extui %{{.*}} : vector<4xi8> to vector<4xi16>
  // CHECK: arith.constant dense<1.600000e+01> : vector<4xf32>
  // CHECK: arith.truncf %{{.*}} : vector<4xf32> to vector<4xf16>
  // CHECK: arith.trunci %{{.*}} : vector<4xi32> to vector<4xi8>
  // CHECK: tt.return
  tt.func @scalars(%a: f8E5M2FNUZ, %v: tensor<4xf8E4M3B11FNUZ>, %x: tensor<4xf32>) -> (f32, tensor<4xf16>, tensor<4xf8E5M2>) {
    %w = tt.fp_to_fp %a : f8E5M2FNUZ -> f32
    %h = arith.extf %v : tensor<4xf8E4M3B11FNUZ> to tensor<4xf16>
    %n = arith.truncf %x : tensor<4xf32> to tensor<4xf8E5M2>
    tt.return %w, %h, %n : f32, tensor<4xf16>, tensor<4xf8E5M2>
  }
}

// -----

module {
  tt.func @fp8_add(%a: tensor<8xf8E4M3FN>) -> tensor<8xf8E4M3FN> {
    // expected-error @+2 {{arithmetic on fp8 is not supported (Arm has no fp8 arithmetic); convert to f16, bf16 or f32 with tt.fp_to_fp first}}
    // expected-error @+1 {{failed to legalize operation 'arith.addf'}}
    %s = arith.addf %a, %a : tensor<8xf8E4M3FN>
    tt.return %s : tensor<8xf8E4M3FN>
  }
}

// -----

module {
  tt.func @f64_to_fp8(%x: tensor<8xf64>) -> tensor<8xf8E5M2> {
    // expected-error @+2 {{converting 'f64' to 'f8E5M2' is not supported: only f32, f16, bf16 and fp8 meet fp8 or rtz}}
    // expected-error @+1 {{failed to legalize operation 'tt.fp_to_fp'}}
    %n = tt.fp_to_fp %x, rounding = rtne : tensor<8xf64> -> tensor<8xf8E5M2>
    tt.return %n : tensor<8xf8E5M2>
  }
}

// -----

// MLIR's IEEE-style f8E4M3 (with infinities) is no type Triton prints.
module {
  tt.func @ieee_e4m3(%x: tensor<8xf32>) -> tensor<8xf8E4M3> {
    // expected-error @+2 {{'f8E4M3' is not an fp8 type Triton prints (f8E4M3FN, f8E5M2, f8E4M3FNUZ, f8E5M2FNUZ, f8E4M3B11FNUZ)}}
    // expected-error @+1 {{failed to legalize operation 'arith.truncf'}}
    %n = arith.truncf %x : tensor<8xf32> to tensor<8xf8E4M3>
    tt.return %n : tensor<8xf8E4M3>
  }
}
