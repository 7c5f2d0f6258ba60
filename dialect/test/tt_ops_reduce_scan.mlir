// Round trip of tt.reduce / tt.reduce.return and tt.scan / tt.scan.return as Triton 3.x
// prints them (generic form): axis as a property (<{axis = 0 : i32}>) and, as older dumps
// write it, as an attribute ({axis = 0 : i32}); several operands (argmax: values and
// indices); 2-D reductions to a tensor; reverse scans; locations on the region's ops.
// RUN: tcpu-opt %s | tcpu-opt | FileCheck %s
// RUN: tcpu-opt %s -mlir-print-op-generic | tcpu-opt | FileCheck %s

module {
  // CHECK-LABEL: tt.func @reduce_sum(
  tt.func @reduce_sum(%x: tensor<128xf32>) -> f32 {
    // CHECK: %[[S:[a-z0-9_#]+]] = "tt.reduce"(%{{.*}}) <{axis = 0 : i32}> ({
    // CHECK-NEXT: ^bb0(%[[A:[a-z0-9_#]+]]: f32, %[[B:[a-z0-9_#]+]]: f32):
    // CHECK-NEXT: %[[R:[a-z0-9_#]+]] = arith.addf %[[A]], %[[B]] : f32
    // CHECK-NEXT: tt.reduce.return %[[R]] : f32
    // CHECK-NEXT: }) : (tensor<128xf32>) -> f32
    %sum = "tt.reduce"(%x) <{axis = 0 : i32}> ({
    ^bb0(%a: f32 loc(unknown), %b: f32 loc(unknown)):
      %s = arith.addf %a, %b : f32 loc(#loc1)
      tt.reduce.return %s : f32 loc(#loc1)
    }) : (tensor<128xf32>) -> f32 loc(#loc2)
    // CHECK: tt.return %[[S]] : f32
    tt.return %sum : f32
  }

  // The attribute spelling reparses into the same op.
  // CHECK-LABEL: tt.func @reduce_max_attribute(
  // CHECK: "tt.reduce"(%{{.*}}) <{axis = 1 : i32}> ({
  // CHECK: arith.maxnumf
  // CHECK: tt.reduce.return %{{.*}} : f32
  // CHECK: }) : (tensor<16x32xf32>) -> tensor<16xf32>
  tt.func @reduce_max_attribute(%x: tensor<16x32xf32>) -> tensor<16xf32> {
    %m = "tt.reduce"(%x) ({
    ^bb0(%a: f32, %b: f32):
      %r = arith.maxnumf %a, %b : f32
      tt.reduce.return %r : f32
    }) {axis = 1 : i32} : (tensor<16x32xf32>) -> tensor<16xf32>
    tt.return %m : tensor<16xf32>
  }

  // Two operands reduced together (tl.argmax).
  // CHECK-LABEL: tt.func @argmax(
  // CHECK: %{{.*}}:2 = "tt.reduce"(%{{.*}}, %{{.*}}) <{axis = 0 : i32}> ({
  // CHECK-NEXT: ^bb0(%{{.*}}: f32, %{{.*}}: i32, %{{.*}}: f32, %{{.*}}: i32):
  // CHECK: tt.reduce.return %{{.*}}, %{{.*}} : f32, i32
  // CHECK-NEXT: }) : (tensor<64xf32>, tensor<64xi32>) -> (f32, i32)
  tt.func @argmax(%x: tensor<64xf32>) -> i32 {
    %cols = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
    %result:2 = "tt.reduce"(%x, %cols) <{axis = 0 : i32}> ({
    ^bb0(%v0: f32, %i0: i32, %v1: f32, %i1: i32):
      %gt = arith.cmpf ogt, %v0, %v1 : f32
      %v = arith.select %gt, %v0, %v1 : f32
      %i = arith.select %gt, %i0, %i1 : i32
      tt.reduce.return %v, %i : f32, i32
    }) : (tensor<64xf32>, tensor<64xi32>) -> (f32, i32)
    tt.return %result#1 : i32
  }

  // CHECK-LABEL: tt.func @scans(
  tt.func @scans(%x: tensor<4x32xi32>, %y: tensor<128xf32>) {
    // CHECK: "tt.scan"(%{{.*}}) <{axis = 0 : i32, reverse = false}> ({
    // CHECK-NEXT: ^bb0(%{{.*}}: f32, %{{.*}}: f32):
    // CHECK: tt.scan.return %{{.*}} : f32
    // CHECK-NEXT: }) : (tensor<128xf32>) -> tensor<128xf32>
    %cumsum = "tt.scan"(%y) <{axis = 0 : i32, reverse = false}> ({
    ^bb0(%a: f32, %b: f32):
      %s = arith.addf %a, %b : f32
      tt.scan.return %s : f32
    }) : (tensor<128xf32>) -> tensor<128xf32>
    // Reverse scan of two operands along axis 1.
    // CHECK: %{{.*}}:2 = "tt.scan"(%{{.*}}, %{{.*}}) <{axis = 1 : i32, reverse = true}> ({
    // CHECK-NEXT: ^bb0(%{{.*}}: i32, %{{.*}}: i32, %{{.*}}: i32, %{{.*}}: i32):
    // CHECK: tt.scan.return %{{.*}}, %{{.*}} : i32, i32
    // CHECK-NEXT: }) : (tensor<4x32xi32>, tensor<4x32xi32>) -> (tensor<4x32xi32>, tensor<4x32xi32>)
    %r:2 = "tt.scan"(%x, %x) <{axis = 1 : i32, reverse = true}> ({
    ^bb0(%a0: i32, %b0: i32, %a1: i32, %b1: i32):
      %s0 = arith.addi %a0, %a1 : i32
      %s1 = arith.maxsi %b0, %b1 : i32
      tt.scan.return %s0, %s1 : i32, i32
    }) : (tensor<4x32xi32>, tensor<4x32xi32>) -> (tensor<4x32xi32>, tensor<4x32xi32>)
    // The attribute spelling; reverse defaults to false.
    // CHECK: "tt.scan"(%{{.*}}) <{axis = 0 : i32, reverse = false}> ({
    %p = "tt.scan"(%y) ({
    ^bb0(%a: f32, %b: f32):
      %m = arith.mulf %a, %b : f32
      tt.scan.return %m : f32
    }) {axis = 0 : i32} : (tensor<128xf32>) -> tensor<128xf32>
    tt.return
  }
}
#loc1 = loc("reduce.py":10:20)
#loc2 = loc("reduce.py":10:8)
