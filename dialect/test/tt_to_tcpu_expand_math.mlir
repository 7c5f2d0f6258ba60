// tcpu-expand-math: exp, exp2, log and tanh on vectors become polynomial approximations
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
