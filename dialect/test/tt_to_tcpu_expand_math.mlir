// tcpu-expand-math: exp, exp2, log, sin, cos and tanh on vectors become polynomial approximations
// (chains of math.fma on the vector, no libm call per element); sqrt stays, a single
// instruction. The whole pipeline then lowers with no call to expf/logf/tanhf.
// RUN: tcpu-opt %s --tcpu-expand-math | FileCheck %s
// RUN: tcpu-opt %s --tcpu-expand-math --tcpu-to-llvm | FileCheck %s --check-prefix=LLVM

// CHECK-LABEL: func.func @math(
// CHECK-NOT: math.exp
// CHECK-NOT: math.log
// CHECK-NOT: math.tanh
// CHECK-NOT: call
// CHECK: math.fma %{{.*}}, %{{.*}}, %{{.*}} : vector<8xf32>
// CHECK-NOT: math.exp
// CHECK-NOT: math.log
// CHECK-NOT: math.tanh
// CHECK-NOT: call
// CHECK: math.sqrt %{{.*}} : vector<8xf32>
// CHECK: return

// LLVM-LABEL: llvm.func @math(
// LLVM-NOT: llvm.call
// LLVM-NOT: @expf
// LLVM-NOT: @logf
// LLVM-NOT: @tanhf
// LLVM: llvm.intr.fma(%{{.*}}, %{{.*}}, %{{.*}}) : (vector<8xf32>, vector<8xf32>, vector<8xf32>) -> vector<8xf32>
// LLVM-NOT: llvm.call
// LLVM: llvm.intr.sqrt(%{{.*}}) : (vector<8xf32>) -> vector<8xf32>
// LLVM-NOT: llvm.call
// LLVM: llvm.return
func.func @math(%x: vector<8xf32>) -> (vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>) {
  %e = math.exp %x : vector<8xf32>
  %e2 = math.exp2 %x : vector<8xf32>
  %l = math.log %x : vector<8xf32>
  %t = math.tanh %x : vector<8xf32>
  %s = math.sqrt %x : vector<8xf32>
  return %e, %e2, %l, %t, %s : vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>
}

// f32 exp: clamps as maximum / minimum (no cmpf + select), k = roundeven(x log2 e) with only
// its top clamped, r = x - k ln2 in two FMAs, the polynomial by Estrin's scheme (three leaves
// from constants, then two FMAs on computed values), and 2^k applied inside the last FMA.
// CHECK-LABEL: func.func @exp_f32(
// CHECK-NOT: arith.select
// CHECK: %[[LOW:.*]] = arith.maximumf %arg0, %{{.*}} : vector<4xf32>
// CHECK: %[[X:.*]] = arith.minimumf %[[LOW]], %{{.*}} : vector<4xf32>
// CHECK: %[[XL:.*]] = arith.mulf %[[X]], %{{.*}} : vector<4xf32>
// CHECK: %[[K0:.*]] = math.roundeven %[[XL]] : vector<4xf32>
// CHECK: %[[K:.*]] = arith.minimumf %[[K0]], %{{.*}} : vector<4xf32>
// CHECK: %[[R0:.*]] = math.fma %[[K]], %{{.*}}, %[[X]] : vector<4xf32>
// CHECK: %[[R:.*]] = math.fma %[[K]], %{{.*}}, %[[R0]] : vector<4xf32>
// CHECK: %[[R2:.*]] = arith.mulf %[[R]], %[[R]] : vector<4xf32>
// CHECK-COUNT-3: math.fma %[[R]], %{{.*}}, %{{.*}} : vector<4xf32>
// CHECK: %[[P03:.*]] = math.fma %[[R2]], %{{.*}}, %{{.*}} : vector<4xf32>
// CHECK: %[[R4:.*]] = arith.mulf %[[R2]], %[[R2]] : vector<4xf32>
// CHECK: %[[P:.*]] = math.fma %[[R4]], %{{.*}}, %[[P03]] : vector<4xf32>
// CHECK: %[[Q:.*]] = math.fma %[[P]], %[[R2]], %[[R]] : vector<4xf32>
// CHECK: %[[SCALE:.*]] = arith.bitcast %{{.*}} : vector<4xi32> to vector<4xf32>
// CHECK: %[[E:.*]] = math.fma %[[Q]], %[[SCALE]], %[[SCALE]] : vector<4xf32>
// CHECK-NOT: arith.select
// CHECK: return %[[E]]
func.func @exp_f32(%x: vector<4xf32>) -> vector<4xf32> {
  %e = math.exp %x : vector<4xf32>
  return %e : vector<4xf32>
}

// f32 exp2: x - k is exact (k = roundeven(x), its top clamped), then r = (x - k) ln2 goes
// through exp's polynomial and scale; no exp(x ln 2), which rounds x ln 2.
// CHECK-LABEL: func.func @exp2_f32(
// CHECK: %[[LOW:.*]] = arith.maximumf %arg0, %{{.*}} : vector<4xf32>
// CHECK: %[[X:.*]] = arith.minimumf %[[LOW]], %{{.*}} : vector<4xf32>
// CHECK: %[[K0:.*]] = math.roundeven %[[X]] : vector<4xf32>
// CHECK: %[[K:.*]] = arith.minimumf %[[K0]], %{{.*}} : vector<4xf32>
// CHECK: %[[F:.*]] = arith.subf %[[X]], %[[K]] : vector<4xf32>
// CHECK: %[[R:.*]] = arith.mulf %[[F]], %{{.*}} : vector<4xf32>
// CHECK: %[[R2:.*]] = arith.mulf %[[R]], %[[R]] : vector<4xf32>
// CHECK: %[[SCALE:.*]] = arith.bitcast %{{.*}} : vector<4xi32> to vector<4xf32>
// CHECK: %[[E:.*]] = math.fma %{{.*}}, %[[SCALE]], %[[SCALE]] : vector<4xf32>
// CHECK: return %[[E]]
func.func @exp2_f32(%x: vector<4xf32>) -> vector<4xf32> {
  %e = math.exp2 %x : vector<4xf32>
  return %e : vector<4xf32>
}

// f32 sin and cos: m = roundeven(x / pi) (cos: of x / pi + 1/2, and n = m - 1/2), r = x - n pi
// in three FMAs against pi's three parts, clamped, one odd polynomial, and m's parity XORed
// into the sign bit.
// CHECK-LABEL: func.func @sin_cos_f32(
// CHECK: %[[XS:.*]] = arith.mulf %arg0, %{{.*}} : vector<4xf32>
// CHECK: %[[MS:.*]] = math.roundeven %[[XS]] : vector<4xf32>
// CHECK: %[[RS0:.*]] = math.fma %[[MS]], %{{.*}}, %arg0 : vector<4xf32>
// CHECK: %[[RS1:.*]] = math.fma %[[MS]], %{{.*}}, %[[RS0]] : vector<4xf32>
// CHECK: %[[RS2:.*]] = math.fma %[[MS]], %{{.*}}, %[[RS1]] : vector<4xf32>
// CHECK: arith.maximumf %[[RS2]], %{{.*}} : vector<4xf32>
// CHECK: %[[IS:.*]] = arith.fptosi %[[MS]] : vector<4xf32> to vector<4xi32>
// CHECK: %[[SIGNS:.*]] = arith.shli %[[IS]], %{{.*}} : vector<4xi32>
// CHECK: %[[SIN:.*]] = arith.xori %{{.*}}, %[[SIGNS]] : vector<4xi32>
// CHECK: %[[XC:.*]] = math.fma %arg0, %{{.*}}, %{{.*}} : vector<4xf32>
// CHECK: %[[MC:.*]] = math.roundeven %[[XC]] : vector<4xf32>
// CHECK: %[[NC:.*]] = arith.subf %[[MC]], %{{.*}} : vector<4xf32>
// CHECK: %[[RC0:.*]] = math.fma %[[NC]], %{{.*}}, %arg0 : vector<4xf32>
// CHECK: arith.fptosi %[[MC]] : vector<4xf32> to vector<4xi32>
// CHECK-NOT: math.sin
// CHECK-NOT: math.cos
// CHECK: return
func.func @sin_cos_f32(%x: vector<4xf32>) -> (vector<4xf32>, vector<4xf32>) {
  %s = math.sin %x : vector<4xf32>
  %c = math.cos %x : vector<4xf32>
  return %s, %c : vector<4xf32>, vector<4xf32>
}

// f32 log: an argument below 2^-126 (a subnormal has no exponent field to read) is scaled by
// 2^23; k and 1 + f in [2/3, 4/3) come from its bits less those of 2/3 (shift, mask, add),
// log1p(f) is a polynomial, k ln2 is added in one FMA, and 0, negatives, NaN and +inf get
// their values by selects.
// CHECK-LABEL: func.func @log_f32(
// CHECK: %[[SUB:.*]] = arith.cmpf olt, %arg0, %{{.*}} : vector<4xf32>
// CHECK: %[[SCALED:.*]] = arith.mulf %arg0, %{{.*}} : vector<4xf32>
// CHECK: %[[X:.*]] = arith.select %[[SUB]], %[[SCALED]], %arg0 : vector<4xi1>, vector<4xf32>
// CHECK: %[[BITS:.*]] = arith.bitcast %[[X]] : vector<4xf32> to vector<4xi32>
// CHECK: %[[U:.*]] = arith.subi %[[BITS]], %{{.*}} : vector<4xi32>
// CHECK: arith.andi %[[U]], %{{.*}} : vector<4xi32>
// CHECK: arith.shrsi %[[U]], %{{.*}} : vector<4xi32>
// CHECK-NOT: math.log
// CHECK: math.fma
// CHECK: arith.cmpf oeq, %arg0
// CHECK: arith.cmpf ogt, %arg0
// CHECK: arith.select
// CHECK: arith.cmpf oeq, %arg0
// CHECK: %[[L:.*]] = arith.select
// CHECK-NEXT: return %[[L]]
func.func @log_f32(%x: vector<4xf32>) -> vector<4xf32> {
  %l = math.log %x : vector<4xf32>
  return %l : vector<4xf32>
}

// A select against a constant: unordered predicates keep a NaN (maximumf/minimumf), ordered
// ones pick the constant (maxnumf/minnumf); a zero bound (the sign of a zero result would
// change) or a non-constant one stays a select.
// CHECK-LABEL: func.func @selects(
// CHECK: %[[A:.*]] = arith.maximumf %arg0, %[[C:.*]] : f32
// CHECK: %[[B:.*]] = arith.minimumf %arg0, %[[C]] : f32
// CHECK: %[[D:.*]] = arith.maxnumf %arg0, %[[C]] : f32
// CHECK: %[[E:.*]] = arith.minnumf %arg0, %[[C]] : f32
// CHECK: %[[Z:.*]] = arith.select %{{.*}}, %arg0, %{{.*}} : f32
// CHECK: %[[V:.*]] = arith.select %{{.*}}, %arg0, %arg1 : f32
// CHECK: return %[[A]], %[[B]], %[[D]], %[[E]], %[[Z]], %[[V]]
func.func @selects(%a: f32, %b: f32) -> (f32, f32, f32, f32, f32, f32) {
  %c = arith.constant 2.5 : f32
  %zero = arith.constant 0.0 : f32
  %p = arith.cmpf uge, %a, %c : f32
  %r0 = arith.select %p, %a, %c : f32
  %q = arith.cmpf ult, %a, %c : f32
  %r1 = arith.select %q, %a, %c : f32
  %o = arith.cmpf ogt, %a, %c : f32
  %r2 = arith.select %o, %a, %c : f32
  %l = arith.cmpf ole, %a, %c : f32
  %r3 = arith.select %l, %a, %c : f32
  %z = arith.cmpf uge, %a, %zero : f32
  %r4 = arith.select %z, %a, %zero : f32
  %v = arith.cmpf uge, %a, %b : f32
  %r5 = arith.select %v, %a, %b : f32
  return %r0, %r1, %r2, %r3, %r4, %r5 : f32, f32, f32, f32, f32, f32
}
