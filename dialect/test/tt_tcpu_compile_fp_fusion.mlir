// A Triton kernel's float multiplies and adds fuse into FMAs, as Triton compiles them for a GPU
// (its enable_fp_fusion, on by default); --fp-fusion=false keeps every op's own rounding.
// RUN: tcpu-compile %s -o - --emit=asm | FileCheck %s --check-prefix=FUSED
// RUN: tcpu-compile %s -o - --emit=asm --fp-fusion=false | FileCheck %s --check-prefix=SEPARATE

// FUSED-LABEL: scale_shift:
// FUSED-NOT: fmul
// FUSED: fmla v{{[0-9]+}}.4s
// FUSED-NOT: fmul
// SEPARATE-LABEL: scale_shift:
// SEPARATE: fmul v{{[0-9]+}}.4s
// SEPARATE: fadd v{{[0-9]+}}.4s
// SEPARATE-NOT: fmla
module {
  tt.func public @scale_shift(%x: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %y: !tt.ptr<f32> {tt.divisibility = 16 : i32}) {
    %three = arith.constant dense<3.000000e+00> : tensor<4xf32>
    %one = arith.constant dense<1.000000e+00> : tensor<4xf32>
    %range = tt.make_range {end = 4 : i32, start = 0 : i32} : tensor<4xi32>
    %xs = tt.splat %x : !tt.ptr<f32> -> tensor<4x!tt.ptr<f32>>
    %xp = tt.addptr %xs, %range : tensor<4x!tt.ptr<f32>>, tensor<4xi32>
    %v = tt.load %xp : tensor<4x!tt.ptr<f32>>
    %scaled = arith.mulf %v, %three : tensor<4xf32>
    %shifted = arith.addf %scaled, %one : tensor<4xf32>
    %ys = tt.splat %y : !tt.ptr<f32> -> tensor<4x!tt.ptr<f32>>
    %yp = tt.addptr %ys, %range : tensor<4x!tt.ptr<f32>>, tensor<4xi32>
    tt.store %yp, %shifted : tensor<4x!tt.ptr<f32>>
    tt.return
  }
}
