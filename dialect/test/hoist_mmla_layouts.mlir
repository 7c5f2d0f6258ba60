// tcpu-hoist-mmla-layouts: a loop accumulator converted to SMMLA blocks at the top of the
// body and back at the yield is carried in blocks; the conversions run once, before and after
// the loop, also when both branches of an scf.if (a body versioned by tt-version-masked-loops)
// convert back, and through the do-while scf.while of unmasked iterations that the same pass
// splits off (its body is the condition region, the other region forwards). An accumulator
// the body also reads in rows keeps its conversions. Tiled blocks (an accumulator kept in a
// buffer) that an scf.if hands on are converted in its branches.
// RUN: tcpu-opt %s --tcpu-hoist-mmla-layouts | FileCheck %s

module {
  // CHECK-LABEL: func.func @carried(
  // CHECK-SAME: %[[C:[^:]+]]: vector<4x16xi32>
  // CHECK: %[[IN:[0-9]+]] = tcpu.to_mmla_blocks %[[C]] {column_stride = 8 : i64} : vector<4x16xi32> to vector<2x8x4xi32>
  // CHECK: %[[LOOP:[0-9]+]] = scf.for {{.*}} iter_args(%[[ACC:.+]] = %[[IN]]) -> (vector<2x8x4xi32>)
  // CHECK-NOT: mmla_blocks
  // CHECK: vector.extract %[[ACC]][0, 0]
  // CHECK: tcpu.smmla
  // CHECK: %[[NEXT:[0-9]+]] = vector.insert %{{[0-9]+}}, %[[ACC]] [0, 0]
  // CHECK-NEXT: scf.yield %[[NEXT]] : vector<2x8x4xi32>
  // CHECK: %[[OUT:[0-9]+]] = tcpu.from_mmla_blocks %[[LOOP]] {column_stride = 8 : i64} : vector<2x8x4xi32> to vector<4x16xi32>
  // CHECK: return %[[OUT]]
  func.func @carried(%c: vector<4x16xi32>, %a: vector<16xi8>, %n: index) -> vector<4x16xi32> {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %c) -> (vector<4x16xi32>) {
      %blocks = tcpu.to_mmla_blocks %acc {column_stride = 8 : i64} : vector<4x16xi32> to vector<2x8x4xi32>
      %b = vector.extract %blocks[0, 0] : vector<4xi32> from vector<2x8x4xi32>
      %s = tcpu.smmla %b, %a, %a : vector<16xi8> into vector<4xi32>
      %nb = vector.insert %s, %blocks [0, 0] : vector<4xi32> into vector<2x8x4xi32>
      %back = tcpu.from_mmla_blocks %nb {column_stride = 8 : i64} : vector<2x8x4xi32> to vector<4x16xi32>
      scf.yield %back : vector<4x16xi32>
    }
    return %r : vector<4x16xi32>
  }

  // CHECK-LABEL: func.func @read_in_rows(
  // CHECK: scf.for {{.*}} -> (vector<4x16xi32>)
  // CHECK: tcpu.to_mmla_blocks
  // CHECK: tcpu.from_mmla_blocks
  func.func @read_in_rows(%c: vector<4x16xi32>, %a: vector<16xi8>, %n: index, %out: memref<16xi32>) -> vector<4x16xi32> {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %c) -> (vector<4x16xi32>) {
      %row = vector.extract %acc[0] : vector<16xi32> from vector<4x16xi32>
      vector.store %row, %out[%c0] : memref<16xi32>, vector<16xi32>
      %blocks = tcpu.to_mmla_blocks %acc {column_stride = 8 : i64} : vector<4x16xi32> to vector<2x8x4xi32>
      %b = vector.extract %blocks[0, 0] : vector<4xi32> from vector<2x8x4xi32>
      %s = tcpu.smmla %b, %a, %a : vector<16xi8> into vector<4xi32>
      %nb = vector.insert %s, %blocks [0, 0] : vector<4xi32> into vector<2x8x4xi32>
      %back = tcpu.from_mmla_blocks %nb {column_stride = 8 : i64} : vector<2x8x4xi32> to vector<4x16xi32>
      scf.yield %back : vector<4x16xi32>
    }
    return %r : vector<4x16xi32>
  }

  // CHECK-LABEL: func.func @versioned(
  // CHECK: scf.for {{.*}} -> (vector<2x8x4xi32>)
  // CHECK-NOT: mmla_blocks
  // CHECK: scf.if %{{.*}} -> (vector<2x8x4xi32>)
  // CHECK-NOT: mmla_blocks
  // CHECK: scf.yield %{{[0-9]+}} : vector<2x8x4xi32>
  // CHECK: tcpu.from_mmla_blocks %{{.*}} {column_stride = 8 : i64} : vector<2x8x4xi32> to vector<4x16xi32>
  func.func @versioned(%c: vector<4x16xi32>, %a: vector<16xi8>, %n: index, %on: i1) -> vector<4x16xi32> {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %c) -> (vector<4x16xi32>) {
      %v = scf.if %on -> (vector<4x16xi32>) {
        %blocks = tcpu.to_mmla_blocks %acc {column_stride = 8 : i64} : vector<4x16xi32> to vector<2x8x4xi32>
        %b = vector.extract %blocks[0, 0] : vector<4xi32> from vector<2x8x4xi32>
        %s = tcpu.smmla %b, %a, %a : vector<16xi8> into vector<4xi32>
        %nb = vector.insert %s, %blocks [0, 0] : vector<4xi32> into vector<2x8x4xi32>
        %back = tcpu.from_mmla_blocks %nb {column_stride = 8 : i64} : vector<2x8x4xi32> to vector<4x16xi32>
        scf.yield %back : vector<4x16xi32>
      } else {
        %blocks = tcpu.to_mmla_blocks %acc {column_stride = 8 : i64} : vector<4x16xi32> to vector<2x8x4xi32>
        %b = vector.extract %blocks[1, 0] : vector<4xi32> from vector<2x8x4xi32>
        %s = tcpu.smmla %b, %a, %a : vector<16xi8> into vector<4xi32>
        %nb = vector.insert %s, %blocks [1, 0] : vector<4xi32> into vector<2x8x4xi32>
        %back = tcpu.from_mmla_blocks %nb {column_stride = 8 : i64} : vector<2x8x4xi32> to vector<4x16xi32>
        scf.yield %back : vector<4x16xi32>
      }
      scf.yield %v : vector<4x16xi32>
    }
    return %r : vector<4x16xi32>
  }

  // CHECK-LABEL: func.func @do_while(
  // CHECK: %[[IN:[0-9]+]] = tcpu.to_mmla_blocks %{{.*}} {column_stride = 8 : i64} : vector<4x16xi32> to vector<2x8x4xi32>
  // CHECK: %[[LOOP:[0-9]+]]:2 = scf.while (%{{.*}} = %{{.*}}, %[[ACC:.*]] = %[[IN]]) : (index, vector<2x8x4xi32>) -> (index, vector<2x8x4xi32>)
  // CHECK-NOT: mmla_blocks
  // CHECK: vector.extract %[[ACC]][0, 0]
  // CHECK: scf.condition(%{{[0-9]+}}) %{{[0-9]+}}, %{{[0-9]+}} : index, vector<2x8x4xi32>
  // CHECK: } do {
  // CHECK: ^bb0(%{{.*}}: index, %{{.*}}: vector<2x8x4xi32>):
  // CHECK: tcpu.from_mmla_blocks %[[LOOP]]#1 {column_stride = 8 : i64} : vector<2x8x4xi32> to vector<4x16xi32>
  func.func @do_while(%c: vector<4x16xi32>, %a: vector<16xi8>, %n: index) -> vector<4x16xi32> {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %r:2 = scf.while (%i = %c0, %acc = %c) : (index, vector<4x16xi32>) -> (index, vector<4x16xi32>) {
      %blocks = tcpu.to_mmla_blocks %acc {column_stride = 8 : i64} : vector<4x16xi32> to vector<2x8x4xi32>
      %b = vector.extract %blocks[0, 0] : vector<4xi32> from vector<2x8x4xi32>
      %s = tcpu.smmla %b, %a, %a : vector<16xi8> into vector<4xi32>
      %nb = vector.insert %s, %blocks [0, 0] : vector<4xi32> into vector<2x8x4xi32>
      %back = tcpu.from_mmla_blocks %nb {column_stride = 8 : i64} : vector<2x8x4xi32> to vector<4x16xi32>
      %next = arith.addi %i, %c1 : index
      %go = arith.cmpi slt, %next, %n : index
      scf.condition(%go) %next, %back : index, vector<4x16xi32>
    } do {
    ^bb0(%j: index, %v: vector<4x16xi32>):
      scf.yield %j, %v : index, vector<4x16xi32>
    }
    return %r#1 : vector<4x16xi32>
  }

  // The unmasked loop's blocks or the first iteration's rows, handed to the loop that finishes:
  // the conversion moves into the branches, where the then branch's pair folds (canonicalize).
  // CHECK-LABEL: func.func @tiled_through_if(
  // CHECK-SAME: %[[B:[^:]+]]: vector<2x4x4x4xi32>, %[[C:[^:]+]]: vector<8x16xi32>
  // CHECK: %[[R:.+]] = scf.if %{{.*}} -> (vector<2x4x4x4xi32>) {
  // CHECK:   scf.yield %[[B]] : vector<2x4x4x4xi32>
  // CHECK: } else {
  // CHECK:   %[[IN:[0-9]+]] = tcpu.to_mmla_blocks %[[C]] {column_stride = 8 : i64} : vector<8x16xi32> to vector<2x4x4x4xi32>
  // CHECK:   scf.yield %[[IN]] : vector<2x4x4x4xi32>
  // CHECK: }
  // CHECK: return %[[R]] : vector<2x4x4x4xi32>
  func.func @tiled_through_if(%b: vector<2x4x4x4xi32>, %c: vector<8x16xi32>, %on: i1) -> vector<2x4x4x4xi32> {
    %r = scf.if %on -> (vector<8x16xi32>) {
      %rows = tcpu.from_mmla_blocks %b {column_stride = 8 : i64} : vector<2x4x4x4xi32> to vector<8x16xi32>
      scf.yield %rows : vector<8x16xi32>
    } else {
      scf.yield %c : vector<8x16xi32>
    }
    %t = tcpu.to_mmla_blocks %r {column_stride = 8 : i64} : vector<8x16xi32> to vector<2x4x4x4xi32>
    return %t : vector<2x4x4x4xi32>
  }
}
