// tt-strip-mine-tiles: Inductor's foreach kernels (an AdamW step over several tensors) handle
// one tensor per `elif pid < n_k` branch, each an scf.if nested in the previous one's else,
// with splat constants shared by every branch. Each branch's row is strip-mined inside its own
// branch: the chunk loop rebuilds the shared constants.
// RUN: tcpu-opt %s --tt-strip-mine-tiles | FileCheck %s

module {
  // CHECK-LABEL: tt.func public @foreach_like(
  // CHECK: scf.if
  // CHECK: scf.for
  // CHECK: math.sqrt {{.*}} : tensor<{{[0-9]+}}xf32>
  // CHECK: arith.divf {{.*}} : tensor<{{[0-9]+}}xf32>
  // CHECK: tt.store {{.*}} : tensor<{{[0-9]+}}x!tt.ptr<f32>>
  // CHECK: } else {
  // CHECK: scf.if
  // CHECK: scf.for
  // CHECK: math.sqrt {{.*}} : tensor<{{[0-9]+}}xf32>
  // CHECK: arith.divf {{.*}} : tensor<{{[0-9]+}}xf32>
  // CHECK: tt.store {{.*}} : tensor<{{[0-9]+}}x!tt.ptr<f32>>
  tt.func public @foreach_like(%a: !tt.ptr<f32>, %b: !tt.ptr<f32>, %c: !tt.ptr<f32>,
                               %d: !tt.ptr<f32>) {
    %eps = arith.constant dense<1.000000e-08> : tensor<1024xf32>
    %lr = arith.constant dense<1.000000e-03> : tensor<1024xf32>
    %c1024 = arith.constant 1024 : i32
    %c4 = arith.constant 4 : i32
    %c8 = arith.constant 8 : i32
    %pid = tt.get_program_id x : i32
    %first = arith.cmpi slt, %pid, %c4 : i32
    scf.if %first {
      %start = arith.muli %pid, %c1024 : i32
      %r = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32>
      %s = tt.splat %start : i32 -> tensor<1024xi32>
      %offs = arith.addi %s, %r : tensor<1024xi32>
      %ap = tt.splat %a : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>>
      %aa = tt.addptr %ap, %offs : tensor<1024x!tt.ptr<f32>>, tensor<1024xi32>
      %x = tt.load %aa : tensor<1024x!tt.ptr<f32>>
      %q = math.sqrt %x : tensor<1024xf32>
      %qe = arith.addf %q, %eps : tensor<1024xf32>
      %u = arith.divf %lr, %qe : tensor<1024xf32>
      %y = arith.subf %x, %u : tensor<1024xf32>
      %bp = tt.splat %b : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>>
      %ba = tt.addptr %bp, %offs : tensor<1024x!tt.ptr<f32>>, tensor<1024xi32>
      tt.store %ba, %y : tensor<1024x!tt.ptr<f32>>
    } else {
      %second = arith.cmpi slt, %pid, %c8 : i32
      scf.if %second {
        %p = arith.subi %pid, %c4 : i32
        %start = arith.muli %p, %c1024 : i32
        %r = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32>
        %s = tt.splat %start : i32 -> tensor<1024xi32>
        %offs = arith.addi %s, %r : tensor<1024xi32>
        %cp = tt.splat %c : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>>
        %ca = tt.addptr %cp, %offs : tensor<1024x!tt.ptr<f32>>, tensor<1024xi32>
        %x = tt.load %ca : tensor<1024x!tt.ptr<f32>>
        %q = math.sqrt %x : tensor<1024xf32>
        %qe = arith.addf %q, %eps : tensor<1024xf32>
        %u = arith.divf %lr, %qe : tensor<1024xf32>
        %y = arith.subf %x, %u : tensor<1024xf32>
        %dp = tt.splat %d : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>>
        %da = tt.addptr %dp, %offs : tensor<1024x!tt.ptr<f32>>, tensor<1024xi32>
        tt.store %da, %y : tensor<1024x!tt.ptr<f32>>
      }
    }
    tt.return
  }
}
