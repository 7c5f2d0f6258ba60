// tcpu-flatten-narrow-vectors: n-D vectors (rank >= 3) whose rows are narrower than a
// register become 1-D vectors of all their elements, row-major. tl.sort's compare-and-swap
// along one dimension of a 2x2x2 view: the xor-reduce's strided slices, the broadcast back
// and the shape cast become shuffles with constant masks; elementwise ops act on the flat
// vectors. Without it each op is four ops on <2 x i32>.
// RUN: tcpu-opt %s -split-input-file --tcpu-flatten-narrow-vectors | FileCheck %s
// RUN: tcpu-opt %s -split-input-file --tcpu-flatten-narrow-vectors --tcpu-to-llvm | FileCheck %s --check-prefix=LLVM

// CHECK-LABEL: func.func @partner_swap(
// CHECK-SAME: %[[X:.*]]: vector<2x4xi32>
// CHECK: %[[FLAT:.*]] = vector.shape_cast %[[X]] : vector<2x4xi32> to vector<8xi32>
// The halves along the middle dimension: lanes whose bit 1 is 0, then those whose bit 1 is 1.
// CHECK: %[[LO:.*]] = vector.shuffle %[[FLAT]], %[[FLAT]] [0, 1, 4, 5] : vector<8xi32>, vector<8xi32>
// CHECK: %[[HI:.*]] = vector.shuffle %[[FLAT]], %[[FLAT]] [2, 3, 6, 7] : vector<8xi32>, vector<8xi32>
// CHECK: %[[R:.*]] = arith.xori %[[LO]], %[[HI]] : vector<4xi32>
// Broadcast back over the middle dimension.
// CHECK: %[[B:.*]] = vector.shuffle %[[R]], %[[R]] [0, 1, 0, 1, 2, 3, 2, 3] : vector<4xi32>, vector<4xi32>
// CHECK: %[[Y:.*]] = arith.xori %[[FLAT]], %[[B]] : vector<8xi32>
// CHECK: %[[C:.*]] = arith.constant dense<[0, 1, 0, 1, 0, 1, 0, 1]> : vector<8xi32>
// CHECK: %[[SEL:.*]] = arith.cmpi slt, %[[Y]], %[[C]] : vector<8xi32>
// CHECK: %[[OUT:.*]] = arith.select %[[SEL]], %[[Y]], %[[FLAT]] : vector<8xi1>, vector<8xi32>
// CHECK: vector.shape_cast %[[OUT]] : vector<8xi32> to vector<2x4xi32>
// CHECK-NOT: vector<2x2x2x
// LLVM-LABEL: llvm.func @partner_swap(
// LLVM: llvm.shufflevector
// LLVM-NOT: vector<2xi32>
// LLVM: llvm.return
func.func @partner_swap(%x: vector<2x4xi32>) -> vector<2x4xi32> {
  %v = vector.shape_cast %x : vector<2x4xi32> to vector<2x2x2xi32>
  %lo = vector.extract_strided_slice %v {offsets = [0, 0, 0], sizes = [2, 1, 2], strides = [1, 1, 1]} : vector<2x2x2xi32> to vector<2x1x2xi32>
  %hi = vector.extract_strided_slice %v {offsets = [0, 1, 0], sizes = [2, 1, 2], strides = [1, 1, 1]} : vector<2x2x2xi32> to vector<2x1x2xi32>
  %r = arith.xori %lo, %hi : vector<2x1x2xi32>
  %b = vector.broadcast %r : vector<2x1x2xi32> to vector<2x2x2xi32>
  %y = arith.xori %v, %b : vector<2x2x2xi32>
  %c = arith.constant dense<[[[0, 1], [0, 1]], [[0, 1], [0, 1]]]> : vector<2x2x2xi32>
  %s = arith.cmpi slt, %y, %c : vector<2x2x2xi32>
  %o = arith.select %s, %y, %v : vector<2x2x2xi1>, vector<2x2x2xi32>
  %out = vector.shape_cast %o : vector<2x2x2xi32> to vector<2x4xi32>
  return %out : vector<2x4xi32>
}

// -----

// Transposes and constant extracts are shuffles and lane extracts too.
// CHECK-LABEL: func.func @transpose_and_extract(
// CHECK: vector.shuffle %{{.*}}, %{{.*}} [0, 4, 2, 6, 1, 5, 3, 7] : vector<8xf32>, vector<8xf32>
// CHECK: vector.extract %{{.*}}[5] : f32 from vector<8xf32>
func.func @transpose_and_extract(%x: vector<8xf32>) -> f32 {
  %v = vector.shape_cast %x : vector<8xf32> to vector<2x2x2xf32>
  %t = vector.transpose %v, [2, 1, 0] : vector<2x2x2xf32> to vector<2x2x2xf32>
  %e = vector.extract %t[1, 0, 1] : f32 from vector<2x2x2xf32>
  return %e : f32
}

// -----

// An op the pass does not know on such vectors (here a loop carrying one) leaves the function
// as it is: casts back to n-D would cost what flattening saves.
// CHECK-LABEL: func.func @loop_carried(
// CHECK: arith.addf %{{.*}}, %{{.*}} : vector<2x2x2xf32>
func.func @loop_carried(%x: vector<2x2x2xf32>, %n: index) -> vector<2x2x2xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%a = %x) -> (vector<2x2x2xf32>) {
    %s = arith.addf %a, %x : vector<2x2x2xf32>
    scf.yield %s : vector<2x2x2xf32>
  }
  return %r : vector<2x2x2xf32>
}
