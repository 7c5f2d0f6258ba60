// tt-to-tcpu-shapes: the shape ops on vectors. make_range is a constant vector, splat and
// broadcast vector.broadcast, expand_dims and reshape vector.shape_cast, trans
// vector.transpose, cat two strided inserts, join vector.interleave, split
// vector.deinterleave, unsplat a vector.extract of the one element.
// RUN: tcpu-opt %s --tt-to-tcpu-shapes | FileCheck %s

module {
  // CHECK-LABEL: tt.func @shapes(
  tt.func @shapes(%s: i32, %x: tensor<2x4xf32>) -> (tensor<2x4xi32>, tensor<4x2xf32>, tensor<8xf32>, tensor<4xi32>) {
    // CHECK: %[[R:.*]] = arith.constant dense<[0, 1, 2, 3]> : vector<4xi32>
    // CHECK: %[[E:[0-9]+]] = vector.shape_cast %[[R]] : vector<4xi32> to vector<1x4xi32>
    // CHECK: vector.broadcast %[[E]] : vector<1x4xi32> to vector<2x4xi32>
    // CHECK: vector.broadcast %{{.*}} : i32 to vector<4xi32>
    // CHECK: vector.transpose %{{.*}}, [1, 0] : vector<2x4xf32> to vector<4x2xf32>
    // CHECK: vector.shape_cast %{{.*}} : vector<2x4xf32> to vector<8xf32>
    // CHECK-NOT: tt.make_range
    // CHECK-NOT: tt.expand_dims
    // CHECK-NOT: tt.broadcast
    // CHECK-NOT: tt.splat
    // CHECK-NOT: tt.trans
    // CHECK-NOT: tt.reshape
    %r = tt.make_range {end = 4 : i32, start = 0 : i32} : tensor<4xi32>
    %e = tt.expand_dims %r {axis = 0 : i32} : tensor<4xi32> -> tensor<1x4xi32>
    %b = tt.broadcast %e : tensor<1x4xi32> -> tensor<2x4xi32>
    %sp = tt.splat %s : i32 -> tensor<4xi32>
    %t = tt.trans %x {order = array<i32: 1, 0>} : tensor<2x4xf32> -> tensor<4x2xf32>
    %f = tt.reshape %x allow_reorder : tensor<2x4xf32> -> tensor<8xf32>
    tt.return %b, %t, %f, %sp : tensor<2x4xi32>, tensor<4x2xf32>, tensor<8xf32>, tensor<4xi32>
  }

  // CHECK-LABEL: tt.func @unsplat(
  // CHECK: vector.extract %{{.*}}[0, 0] : f32 from vector<1x1xf32>
  // CHECK-NOT: tt.unsplat
  tt.func @unsplat(%x: tensor<1x1xf32>) -> f32 {
    %s = tt.unsplat %x : tensor<1x1xf32>
    tt.return %s : f32
  }

  // A range not starting at 0.
  // CHECK-LABEL: tt.func @offset_range(
  // CHECK: arith.constant dense<[16, 17, 18, 19]> : vector<4xi32>
  tt.func @offset_range() -> tensor<4xi32> {
    %r = tt.make_range {end = 20 : i32, start = 16 : i32} : tensor<4xi32>
    tt.return %r : tensor<4xi32>
  }

  // CHECK-LABEL: tt.func @joins(
  // CHECK-SAME: %[[XT:[a-z0-9]+]]: tensor<4xf32>, %[[YT:[a-z0-9]+]]: tensor<4xf32>)
  tt.func @joins(%x: tensor<4xf32>, %y: tensor<4xf32>) -> (tensor<8xf32>, tensor<4xf32>, tensor<4xf32>) {
    // CHECK-DAG: %[[X:[0-9]+]] = builtin.unrealized_conversion_cast %[[XT]] : tensor<4xf32> to vector<4xf32>
    // CHECK-DAG: %[[Y:[0-9]+]] = builtin.unrealized_conversion_cast %[[YT]] : tensor<4xf32> to vector<4xf32>
    // CHECK: %[[LO:[0-9]+]] = vector.insert_strided_slice %[[X]], %{{.*}} {offsets = [0], strides = [1]} : vector<4xf32> into vector<8xf32>
    // CHECK: vector.insert_strided_slice %[[Y]], %[[LO]] {offsets = [4], strides = [1]} : vector<4xf32> into vector<8xf32>
    // CHECK: %[[J:[0-9]+]] = vector.interleave %[[X]], %[[Y]] : vector<4xf32> -> vector<8xf32>
    // CHECK: vector.shape_cast %[[J]] : vector<8xf32> to vector<4x2xf32>
    // CHECK: vector.deinterleave %{{.*}} : vector<8xf32> -> vector<4xf32>
    %c = tt.cat %x, %y : tensor<4xf32> -> tensor<8xf32>
    %j = tt.join %x, %y : tensor<4xf32> -> tensor<4x2xf32>
    %lo, %hi = tt.split %j : tensor<4x2xf32> -> tensor<4xf32>
    tt.return %c, %lo, %hi : tensor<8xf32>, tensor<4xf32>, tensor<4xf32>
  }

  // 0-D tensors: join makes a 2-element vector lane by lane, split of a 2-element tensor takes
  // one element each (it crashed on the missing second-last dimension).
  // CHECK-LABEL: tt.func @join_split_0d(
  // CHECK: %[[Z:.*]] = arith.constant dense<0.000000e+00> : vector<2xf32>
  // CHECK: %[[A:[0-9]+]] = vector.extract %{{.*}}[] : f32 from vector<f32>
  // CHECK: %[[J0:[0-9]+]] = vector.insert %[[A]], %[[Z]] [0] : f32 into vector<2xf32>
  // CHECK: %[[B:[0-9]+]] = vector.extract %{{.*}}[] : f32 from vector<f32>
  // CHECK: %[[J:[0-9]+]] = vector.insert %[[B]], %[[J0]] [1] : f32 into vector<2xf32>
  // CHECK: %[[LO:[0-9]+]] = vector.extract %[[J]][0] : f32 from vector<2xf32>
  // CHECK: vector.broadcast %[[LO]] : f32 to vector<f32>
  // CHECK: %[[HI:[0-9]+]] = vector.extract %[[J]][1] : f32 from vector<2xf32>
  // CHECK: vector.broadcast %[[HI]] : f32 to vector<f32>
  tt.func @join_split_0d(%x: tensor<f32>, %y: tensor<f32>) -> (tensor<f32>, tensor<f32>) {
    %j = tt.join %x, %y : tensor<f32> -> tensor<2xf32>
    %lo, %hi = tt.split %j : tensor<2xf32> -> tensor<f32>
    tt.return %lo, %hi : tensor<f32>, tensor<f32>
  }
}

// A reshape that regroups dimensions (Inductor's bitonic sort: [XBLOCK, RBLOCK] into
// [XBLOCK * 2^i, 2, RBLOCK / 2^(i+1)] and back) goes through the flat vector; one that only
// merges or splits neighbours is one shape_cast.
module {
  // CHECK-LABEL: tt.func @regroup(
  tt.func @regroup(%x: tensor<2x8xi32>) -> (tensor<2x8xi32>, tensor<2x2x4xi32>) {
    // CHECK: %[[F:.*]] = vector.shape_cast %{{.*}} : vector<2x8xi32> to vector<16xi32>
    // CHECK: %[[G:.*]] = vector.shape_cast %[[F]] : vector<16xi32> to vector<4x2x2xi32>
    // CHECK: %[[B:.*]] = vector.shape_cast %[[G]] : vector<4x2x2xi32> to vector<16xi32>
    // CHECK: vector.shape_cast %[[B]] : vector<16xi32> to vector<2x8xi32>
    // CHECK: vector.shape_cast %{{.*}} : vector<2x8xi32> to vector<2x2x4xi32>
    %g = tt.reshape %x : tensor<2x8xi32> -> tensor<4x2x2xi32>
    %b = tt.reshape %g : tensor<4x2x2xi32> -> tensor<2x8xi32>
    %s = tt.reshape %x : tensor<2x8xi32> -> tensor<2x2x4xi32>
    tt.return %b, %s : tensor<2x8xi32>, tensor<2x2x4xi32>
  }
}

// tt.gather: each lane's source position is one vector computation (the other dimension's
// part a constant), -1 outside the axis; a loop over the lanes reads the source from a stack
// buffer allocated in the entry block.
module {
  // CHECK-LABEL: tt.func @gather(
  tt.func @gather(%x: tensor<2x4xf32>, %i: tensor<2x3xi64>, %m: tensor<4xi1>, %j: tensor<4xi32>) -> (tensor<2x3xf32>, tensor<4xi1>) {
    // CHECK-DAG: memref.alloca() {alignment = 16 : i64} : memref<8xf32>
    // CHECK-DAG: memref.alloca() {alignment = 16 : i64} : memref<6xi32>
    // CHECK-DAG: memref.alloca() {alignment = 16 : i64} : memref<6xf32>
    // CHECK: arith.cmpi ult, %{{.*}}, %{{.*}} : vector<6xi64>
    // CHECK: arith.constant dense<[0, 0, 0, 4, 4, 4]> : vector<6xi32>
    // CHECK: scf.for
    // CHECK: scf.if
    // CHECK: memref.load
    // CHECK-NOT: tt.gather
    // CHECK: memref<4xi8>
    %g = tt.gather %x[%i] {axis = 1 : i32} : (tensor<2x4xf32>, tensor<2x3xi64>) -> tensor<2x3xf32>
    %b = tt.gather %m[%j] {axis = 0 : i32} : (tensor<4xi1>, tensor<4xi32>) -> tensor<4xi1>
    tt.return %g, %b : tensor<2x3xf32>, tensor<4xi1>
  }
}
