// tt-to-tcpu-reductions: tt.reduce becomes log-step halving, the combine region applied to
// whole half-vectors (several operands together: argmax), along any axis; tt.scan becomes
// a Hillis-Steele scan of shifted shuffles and selects. Non-power-of-two dimensions are
// refused with a diagnostic naming the size. tt.histogram is one pass over the lanes in
// order, adding 1 to the bin of each lane in [0, bins) whose mask is on.
// RUN: tcpu-opt %s -split-input-file --tt-to-tcpu-reductions -verify-diagnostics | FileCheck %s

module {
  // 8 -> 4 -> 2 -> 1 lanes, three vector adds.
  // CHECK-LABEL: tt.func @sum(
  // CHECK: %[[A:[0-9]+]] = vector.extract_strided_slice %{{.*}} {offsets = [0], sizes = [4], strides = [1]} : vector<8xf32> to vector<4xf32>
  // CHECK: %[[B:[0-9]+]] = vector.extract_strided_slice %{{.*}} {offsets = [4], sizes = [4], strides = [1]} : vector<8xf32> to vector<4xf32>
  // CHECK: arith.addf %[[A]], %[[B]] : vector<4xf32>
  // CHECK: arith.addf %{{.*}}, %{{.*}} : vector<2xf32>
  // CHECK: %[[LAST:[0-9]+]] = arith.addf %{{.*}}, %{{.*}} : vector<1xf32>
  // CHECK: %[[S:[0-9]+]] = vector.extract %[[LAST]][0] : f32 from vector<1xf32>
  // CHECK-NOT: tt.reduce
  // CHECK: tt.return %[[S]] : f32
  tt.func @sum(%x: tensor<8xf32>) -> f32 {
    %s = "tt.reduce"(%x) <{axis = 0 : i32}> ({
    ^bb0(%a: f32, %b: f32):
      %r = arith.addf %a, %b : f32
      tt.reduce.return %r : f32
    }) : (tensor<8xf32>) -> f32
    tt.return %s : f32
  }
  // Inclusive scan of 4 lanes: shifts by 1 and 2, each added where the lane has a
  // predecessor at that distance.
  // CHECK-LABEL: tt.func @cumsum(
  // CHECK: %[[X:[0-9]+]] = builtin.unrealized_conversion_cast %{{.*}} : tensor<4xi32> to vector<4xi32>
  // CHECK: %[[SH1:[0-9]+]] = vector.shuffle %[[X]], %[[X]] [0, 0, 1, 2] : vector<4xi32>, vector<4xi32>
  // CHECK: %[[ADD1:[0-9]+]] = arith.addi %[[SH1]], %[[X]] : vector<4xi32>
  // CHECK: %[[M1:.*]] = arith.constant dense<[false, true, true, true]> : vector<4xi1>
  // CHECK: %[[S1:[0-9]+]] = arith.select %[[M1]], %[[ADD1]], %[[X]] : vector<4xi1>, vector<4xi32>
  // CHECK: %[[SH2:[0-9]+]] = vector.shuffle %[[S1]], %[[S1]] [0, 1, 0, 1] : vector<4xi32>, vector<4xi32>
  // CHECK: %[[ADD2:[0-9]+]] = arith.addi %[[SH2]], %[[S1]] : vector<4xi32>
  // CHECK: %[[M2:.*]] = arith.constant dense<[false, false, true, true]> : vector<4xi1>
  // CHECK: arith.select %[[M2]], %[[ADD2]], %[[S1]] : vector<4xi1>, vector<4xi32>
  // CHECK-NOT: tt.scan
  tt.func @cumsum(%x: tensor<4xi32>) -> tensor<4xi32> {
    %y = "tt.scan"(%x) <{axis = 0 : i32, reverse = false}> ({
    ^bb0(%a: i32, %b: i32):
      %r = arith.addi %a, %b : i32
      tt.scan.return %r : i32
    }) : (tensor<4xi32>) -> tensor<4xi32>
    tt.return %y : tensor<4xi32>
  }
  // Along axis 1 of a 2-D tensor: the halving works on columns, every row at once.
  // CHECK-LABEL: tt.func @row_max(
  // CHECK: vector.extract_strided_slice %{{.*}} {offsets = [0, 2], sizes = [2, 2], strides = [1, 1]} : vector<2x4xf32> to vector<2x2xf32>
  // CHECK: arith.maxnumf %{{.*}}, %{{.*}} : vector<2x2xf32>
  // CHECK: %[[M:[0-9]+]] = arith.maxnumf %{{.*}}, %{{.*}} : vector<2x1xf32>
  // CHECK: vector.shape_cast %[[M]] : vector<2x1xf32> to vector<2xf32>
  tt.func @row_max(%x: tensor<2x4xf32>) -> tensor<2xf32> {
    %m = "tt.reduce"(%x) <{axis = 1 : i32}> ({
    ^bb0(%a: f32, %b: f32):
      %r = arith.maxnumf %a, %b : f32
      tt.reduce.return %r : f32
    }) : (tensor<2x4xf32>) -> tensor<2xf32>
    tt.return %m : tensor<2xf32>
  }
  // Two operands: one comparison chooses both the value and the index.
  // CHECK-LABEL: tt.func @argmax(
  // CHECK: %[[GT:[0-9]+]] = arith.cmpf ogt, %{{.*}}, %{{.*}} : vector<2xf32>
  // CHECK: arith.select %[[GT]], %{{.*}}, %{{.*}} : vector<2xi1>, vector<2xf32>
  // CHECK: arith.select %[[GT]], %{{.*}}, %{{.*}} : vector<2xi1>, vector<2xi32>
  // CHECK: %[[GT1:[0-9]+]] = arith.cmpf ogt, %{{.*}}, %{{.*}} : vector<1xf32>
  // CHECK: %[[I:[0-9]+]] = arith.select %[[GT1]], %{{.*}}, %{{.*}} : vector<1xi1>, vector<1xi32>
  // CHECK: %[[IDX:[0-9]+]] = vector.extract %[[I]][0] : i32 from vector<1xi32>
  // CHECK: tt.return %[[IDX]] : i32
  tt.func @argmax(%x: tensor<4xf32>, %i: tensor<4xi32>) -> i32 {
    %r:2 = "tt.reduce"(%x, %i) <{axis = 0 : i32}> ({
    ^bb0(%v0: f32, %i0: i32, %v1: f32, %i1: i32):
      %gt = arith.cmpf ogt, %v0, %v1 : f32
      %v = arith.select %gt, %v0, %v1 : f32
      %j = arith.select %gt, %i0, %i1 : i32
      tt.reduce.return %v, %j : f32, i32
    }) : (tensor<4xf32>, tensor<4xi32>) -> (f32, i32)
    tt.return %r#1 : i32
  }

  // The values, the mask (as bytes) and the counts go through stack buffers: read and updated
  // at a dynamic lane as vectors, the backend stored and reloaded them whole for every lane.
  // The counts have one more bin, where lanes out of range or masked off count: no branch per
  // lane. Four lanes an iteration.
  // CHECK-LABEL: tt.func @histogram(
  // CHECK-DAG: %[[COUNTS:.*]] = llvm.alloca %{{.*}} x i32
  // CHECK-DAG: %[[MASK:.*]] = llvm.alloca %{{.*}} x i8
  // CHECK-DAG: %[[VALUES:.*]] = llvm.alloca %{{.*}} x i32
  // CHECK: %[[BINS:.*]] = arith.constant 8 : i32
  // CHECK: llvm.store %{{.*}}, %[[VALUES]] : vector<16xi32>, !llvm.ptr
  // CHECK: llvm.store %{{.*}}, %[[MASK]] : vector<16xi8>, !llvm.ptr
  // CHECK: llvm.store %{{.*}}, %[[COUNTS]] : vector<8xi32>, !llvm.ptr
  // CHECK: %[[OVERFLOW:.*]] = arith.constant 8 : index
  // CHECK: scf.for %[[LANE:.*]] = %{{.*}} to %{{.*}} step %c4 {
  // CHECK:   %[[V:.*]] = llvm.load %{{.*}} : !llvm.ptr -> i32
  // CHECK:   %[[LOW:.*]] = arith.cmpi sge, %[[V]], %{{.*}} : i32
  // CHECK:   %[[HIGH:.*]] = arith.cmpi slt, %[[V]], %[[BINS]] : i32
  // CHECK:   %[[IN:.*]] = arith.andi %[[LOW]], %[[HIGH]] : i1
  // CHECK:   %[[BYTE:.*]] = llvm.load %{{.*}} : !llvm.ptr -> i8
  // CHECK:   %[[ON:.*]] = arith.cmpi ne, %[[BYTE]], %{{.*}} : i8
  // CHECK:   %[[COUNT:.*]] = arith.andi %[[IN]], %[[ON]] : i1
  // CHECK:   %[[BIN:.*]] = arith.select %[[COUNT]], %{{.*}}, %[[OVERFLOW]] : index
  // CHECK:   %[[PLACE:.*]] = llvm.getelementptr %[[COUNTS]][%{{.*}}] : (!llvm.ptr, i64) -> !llvm.ptr, i32
  // CHECK:   %[[OLD:.*]] = llvm.load %[[PLACE]] : !llvm.ptr -> i32
  // CHECK:   %[[NEW:.*]] = arith.addi %[[OLD]], %{{.*}} : i32
  // CHECK:   llvm.store %[[NEW]], %[[PLACE]] : i32, !llvm.ptr
  // CHECK-COUNT-3: arith.select
  // CHECK: llvm.load %[[COUNTS]] : !llvm.ptr -> vector<8xi32>
  // CHECK-NOT: tt.histogram
  tt.func @histogram(%x: tensor<16xi32>, %m: tensor<16xi1>) -> tensor<8xi32> {
    %h = tt.histogram %x, %m : tensor<16xi32> -> tensor<8xi32>
    tt.return %h : tensor<8xi32>
  }

  // i8 values all have a bin among 256: no upper test.
  // CHECK-LABEL: tt.func @byte_histogram(
  // CHECK: scf.for
  // CHECK: arith.cmpi sge
  // CHECK-NOT: arith.cmpi slt
  // CHECK: arith.select %{{.*}}, %{{.*}}, %c256 : index
  tt.func @byte_histogram(%x: tensor<16xi8>) -> tensor<256xi32> {
    %h = tt.histogram %x : tensor<16xi8> -> tensor<256xi32>
    tt.return %h : tensor<256xi32>
  }
}

// -----

module {
  tt.func @sum6(%x: tensor<6xf32>) -> f32 {
    // expected-error @+2 {{reduction over a dimension of 6 elements; Triton tensors have power-of-two dimensions}}
    // expected-error @+1 {{failed to legalize operation 'tt.reduce'}}
    %s = "tt.reduce"(%x) <{axis = 0 : i32}> ({
    ^bb0(%a: f32, %b: f32):
      %r = arith.addf %a, %b : f32
      tt.reduce.return %r : f32
    }) : (tensor<6xf32>) -> f32
    tt.return %s : f32
  }
}

// -----

// A scalar from outside the combine region (canonicalization hoists the Welford combine's
// 0.0 to the function's entry) applies to every lane: broadcast once per combine step.
module {
  // CHECK-LABEL: tt.func @outer_scalar_in_combine(
  // CHECK: vector.broadcast %{{.*}} : f32 to vector<4xf32>
  // CHECK: arith.cmpf oeq, %{{.*}}, %{{.*}} : vector<4xf32>
  // CHECK-NOT: tt.reduce
  tt.func @outer_scalar_in_combine(%x: tensor<8xf32>, %w: tensor<8xf32>) -> (f32, f32) {
    %zero = arith.constant 0.000000e+00 : f32
    %s:2 = "tt.reduce"(%x, %w) <{axis = 0 : i32}> ({
    ^bb0(%a: f32, %aw: f32, %b: f32, %bw: f32):
      %nw = arith.addf %aw, %bw : f32
      %empty = arith.cmpf oeq, %nw, %zero : f32
      %ratio = arith.divf %bw, %nw : f32
      %r = arith.select %empty, %zero, %ratio : f32
      %d = arith.subf %b, %a : f32
      %m = arith.mulf %d, %r : f32
      %mean = arith.addf %a, %m : f32
      tt.reduce.return %mean, %nw : f32, f32
    }) : (tensor<8xf32>, tensor<8xf32>) -> (f32, f32)
    tt.return %s#0, %s#1 : f32, f32
  }
}
