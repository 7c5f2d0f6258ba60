// The whole TTIR pipeline (tcpu-opt --triton-to-llvm) on a small softmax row kernel, both
// reduce spellings: every tt, tcpu and cast op is gone; the row is two NEON vectors (its
// exp chain is long enough for tcpu-slice-rows), loaded and stored one by one, the reductions are log-step vector max/add, exp is an FMA polynomial (no
// expf call), and the launchers are there. --triton-to-tcpu stops before the LLVM dialect.
// RUN: tcpu-opt %s --triton-to-llvm | FileCheck %s
// RUN: tcpu-opt %s --triton-to-tcpu | FileCheck %s --check-prefix=TCPU

// CHECK-NOT: {{ tt\.}}
// CHECK-NOT: unrealized_conversion_cast
// CHECK-LABEL: llvm.func @softmax_row(
// CHECK-SAME: %{{[a-z0-9]+}}: !llvm.ptr, %{{[a-z0-9]+}}: !llvm.ptr, %{{[a-z0-9]+}}: i32, %{{[a-z0-9]+}}: i32, %{{[a-z0-9]+}}: i32, %{{[a-z0-9]+}}: i32, %{{[a-z0-9]+}}: i32, %{{[a-z0-9]+}}: i32, %{{[a-z0-9]+}}: i32)
// CHECK: llvm.load %{{.*}} : !llvm.ptr -> vector<4xf32>
// CHECK: llvm.intr.maxnum(%{{.*}}, %{{.*}}) : (vector<4xf32>, vector<4xf32>) -> vector<4xf32>
// CHECK: llvm.intr.maxnum(%{{.*}}, %{{.*}}) : (vector<2xf32>, vector<2xf32>) -> vector<2xf32>
// CHECK: llvm.intr.maxnum(%{{.*}}, %{{.*}}) : (vector<1xf32>, vector<1xf32>) -> vector<1xf32>
// CHECK: llvm.intr.fma(%{{.*}}, %{{.*}}, %{{.*}}) : (vector<4xf32>, vector<4xf32>, vector<4xf32>) -> vector<4xf32>
// CHECK: llvm.fadd %{{.*}}, %{{.*}} : vector<4xf32>
// CHECK: llvm.fdiv %{{.*}}, %{{.*}} : vector<4xf32>
// CHECK: llvm.store %{{.*}}, %{{.*}} {alignment = 4 : i64} : vector<4xf32>, !llvm.ptr
// CHECK: llvm.return
// CHECK-LABEL: llvm.func internal @softmax_row__programs(
// CHECK: llvm.call @softmax_row(
// CHECK-LABEL: llvm.func @tcpu_launch_softmax_row(
// CHECK-SAME: -> i32
// CHECK: llvm.call @tcpu_triton_launch(
// CHECK-LABEL: llvm.func @tcpu_variant_softmax_row()
// CHECK-NOT: llvm.call @expf
// CHECK-NOT: {{ tt\.}}

// TCPU-LABEL: func.func @softmax_row(
// TCPU-SAME: attributes {tcpu.triton_kernel}
// TCPU: llvm.load %{{.*}} : !llvm.ptr -> vector<4xf32>
// TCPU: arith.maxnumf %{{.*}}, %{{.*}} : vector<4xf32>
// TCPU: math.fma
// TCPU: arith.divf %{{.*}}, %{{.*}} : vector<4xf32>
// TCPU: llvm.store %{{.*}}, %{{.*}} {alignment = 4 : i64} : vector<4xf32>, !llvm.ptr
// TCPU-NOT: math.exp
// TCPU-NOT: {{ tt\.}}
// TCPU-NOT: tcpu_launch
module {
  tt.func public @softmax_row(%in_ptr: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %out_ptr: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %stride: i32) attributes {noinline = false} {
    %row = tt.get_program_id x : i32
    %start = arith.muli %row, %stride : i32
    %in_row = tt.addptr %in_ptr, %start : !tt.ptr<f32>, i32
    %cols = tt.make_range {end = 8 : i32, start = 0 : i32} : tensor<8xi32>
    %ptrs = tt.splat %in_row : !tt.ptr<f32> -> tensor<8x!tt.ptr<f32>>
    %ptrs_0 = tt.addptr %ptrs, %cols : tensor<8x!tt.ptr<f32>>, tensor<8xi32>
    %x = tt.load %ptrs_0 : tensor<8x!tt.ptr<f32>>
    %max = "tt.reduce"(%x) <{axis = 0 : i32}> ({
    ^bb0(%a: f32, %b: f32):
      %m = arith.maxnumf %a, %b : f32
      tt.reduce.return %m : f32
    }) : (tensor<8xf32>) -> f32
    %max_1 = tt.splat %max : f32 -> tensor<8xf32>
    %shifted = arith.subf %x, %max_1 : tensor<8xf32>
    %num = math.exp %shifted : tensor<8xf32>
    %den = "tt.reduce"(%num) ({
    ^bb0(%a: f32, %b: f32):
      %s = arith.addf %a, %b : f32
      tt.reduce.return %s : f32
    }) {axis = 0 : i32} : (tensor<8xf32>) -> f32
    %den_2 = tt.splat %den : f32 -> tensor<8xf32>
    %y = arith.divf %num, %den_2 : tensor<8xf32>
    %out_row = tt.addptr %out_ptr, %start : !tt.ptr<f32>, i32
    %outs = tt.splat %out_row : !tt.ptr<f32> -> tensor<8x!tt.ptr<f32>>
    %outs_3 = tt.addptr %outs, %cols : tensor<8x!tt.ptr<f32>>, tensor<8xi32>
    tt.store %outs_3, %y : tensor<8x!tt.ptr<f32>>
    tt.return
  }
}
