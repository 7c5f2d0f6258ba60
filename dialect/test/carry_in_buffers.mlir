// tcpu-carry-in-buffers: a loop value each iteration stores whole into a stack buffer first
// and loads whole from it last (an SMMLA accumulator too large for the registers) stays in the
// buffer: one store before the loop, one load after it, and the loop no longer carries it.
// The two branches of an scf.if doing the same with buffers of their own (a body versioned per
// iteration) first share one buffer. A value the body also reads otherwise, a buffer read after
// the load or written before the store, stays as it is. Last, a value one branch of an scf.if
// loads whole from its buffer and the code after the if stores whole into another stays in the
// second: the branch works on it, the other branch stores its value there. Loops nested in
// loops all qualify (a K loop around its chunk loop): carrying an inner loop's value leaves the
// enclosing loop's argument passed through it, which is dropped before the enclosing loop is
// looked at.
// RUN: tcpu-opt %s --tcpu-carry-in-buffers --canonicalize | FileCheck %s

module {
  // CHECK-LABEL: func.func @carried(
  // CHECK-SAME: %[[INIT:[^:]+]]: vector<2x4xi32>
  // CHECK: %[[BUF:.+]] = memref.alloca() : memref<2x4xi32>
  // CHECK: %[[VIEW:[0-9]+]] = vector.type_cast %[[BUF]]
  // CHECK: memref.store %[[INIT]], %[[VIEW]][]
  // CHECK: scf.for
  // CHECK-NOT: iter_args
  // CHECK-NOT: memref.store %{{.*}}, %[[VIEW]][]
  // CHECK: vector.load %[[BUF]]
  // CHECK: vector.store %{{.*}}, %[[BUF]]
  // CHECK: }
  // CHECK: %[[OUT:[0-9]+]] = memref.load %[[VIEW]][]
  // CHECK: return %[[OUT]]
  func.func @carried(%init: vector<2x4xi32>, %n: index) -> vector<2x4xi32> {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %buf = memref.alloca() : memref<2x4xi32>
    %view = vector.type_cast %buf : memref<2x4xi32> to memref<vector<2x4xi32>>
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %init) -> (vector<2x4xi32>) {
      memref.store %acc, %view[] : memref<vector<2x4xi32>>
      %row = vector.load %buf[%i, %c0] : memref<2x4xi32>, vector<4xi32>
      %twice = arith.addi %row, %row : vector<4xi32>
      vector.store %twice, %buf[%i, %c0] : memref<2x4xi32>, vector<4xi32>
      %next = memref.load %view[] : memref<vector<2x4xi32>>
      scf.yield %next : vector<2x4xi32>
    }
    return %r : vector<2x4xi32>
  }

  // The inner loop works on the buffer the outer one stores first and loads last: both stop
  // carrying the value (the inner first; the outer once the inner's pass-through is gone).
  // CHECK-LABEL: func.func @nested(
  // CHECK-SAME: %[[INIT:[^:]+]]: vector<2x4xi32>
  // CHECK: %[[BUF:.+]] = memref.alloca() : memref<2x4xi32>
  // CHECK: %[[VIEW:[0-9]+]] = vector.type_cast %[[BUF]]
  // CHECK: memref.store %[[INIT]], %[[VIEW]][]
  // CHECK: scf.for
  // CHECK-NOT: iter_args
  // CHECK-NOT: memref.store %{{.*}}, %[[VIEW]][]
  // CHECK: scf.for
  // CHECK-NOT: iter_args
  // CHECK-NOT: memref.store %{{.*}}, %[[VIEW]][]
  // CHECK: vector.store %{{.*}}, %[[BUF]]
  // CHECK: }
  // CHECK-NEXT: }
  // CHECK: %[[OUT:[0-9]+]] = memref.load %[[VIEW]][]
  // CHECK: return %[[OUT]]
  func.func @nested(%init: vector<2x4xi32>, %n: index) -> vector<2x4xi32> {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %buf = memref.alloca() : memref<2x4xi32>
    %view = vector.type_cast %buf : memref<2x4xi32> to memref<vector<2x4xi32>>
    %r = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %init) -> (vector<2x4xi32>) {
      %chunks = scf.for %i = %c0 to %c2 step %c1 iter_args(%blocks = %acc) -> (vector<2x4xi32>) {
        memref.store %blocks, %view[] : memref<vector<2x4xi32>>
        %row = vector.load %buf[%i, %c0] : memref<2x4xi32>, vector<4xi32>
        %twice = arith.addi %row, %row : vector<4xi32>
        vector.store %twice, %buf[%i, %c0] : memref<2x4xi32>, vector<4xi32>
        %next = memref.load %view[] : memref<vector<2x4xi32>>
        scf.yield %next : vector<2x4xi32>
      }
      scf.yield %chunks : vector<2x4xi32>
    }
    return %r : vector<2x4xi32>
  }

  // Each branch has its own buffer; they become one, stored before the if and loaded after it,
  // and then the loop carries nothing.
  // CHECK-LABEL: func.func @versioned(
  // CHECK-SAME: %[[INIT:[^:]+]]: vector<2x4xi32>
  // CHECK: %[[BUF:.+]] = memref.alloca() : memref<2x4xi32>
  // CHECK-NOT: memref.alloca
  // CHECK: memref.store %[[INIT]]
  // CHECK: scf.for
  // CHECK-NOT: iter_args
  // CHECK: scf.if
  // CHECK: vector.store %{{.*}}, %[[BUF]]
  // CHECK: } else {
  // CHECK: vector.store %{{.*}}, %[[BUF]]
  // CHECK: }
  // CHECK-NEXT: }
  // CHECK: %[[OUT:[0-9]+]] = memref.load
  // CHECK: return %[[OUT]]
  func.func @versioned(%init: vector<2x4xi32>, %n: index, %fast: i1) -> vector<2x4xi32> {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %buf0 = memref.alloca() : memref<2x4xi32>
    %view0 = vector.type_cast %buf0 : memref<2x4xi32> to memref<vector<2x4xi32>>
    %buf1 = memref.alloca() : memref<2x4xi32>
    %view1 = vector.type_cast %buf1 : memref<2x4xi32> to memref<vector<2x4xi32>>
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %init) -> (vector<2x4xi32>) {
      %next = scf.if %fast -> (vector<2x4xi32>) {
        memref.store %acc, %view0[] : memref<vector<2x4xi32>>
        %row = vector.load %buf0[%c0, %c0] : memref<2x4xi32>, vector<4xi32>
        vector.store %row, %buf0[%c1, %c0] : memref<2x4xi32>, vector<4xi32>
        %v = memref.load %view0[] : memref<vector<2x4xi32>>
        scf.yield %v : vector<2x4xi32>
      } else {
        memref.store %acc, %view1[] : memref<vector<2x4xi32>>
        %row = vector.load %buf1[%c1, %c0] : memref<2x4xi32>, vector<4xi32>
        vector.store %row, %buf1[%c0, %c0] : memref<2x4xi32>, vector<4xi32>
        %v = memref.load %view1[] : memref<vector<2x4xi32>>
        scf.yield %v : vector<2x4xi32>
      }
      scf.yield %next : vector<2x4xi32>
    }
    return %r : vector<2x4xi32>
  }

  // The body reads the carried value besides storing it: unchanged.
  // CHECK-LABEL: func.func @also_read(
  // CHECK: scf.for {{.*}} iter_args
  // CHECK: memref.store %{{.*}}, %{{.*}}[]
  // CHECK: memref.load %{{.*}}[]
  func.func @also_read(%init: vector<2x4xi32>, %n: index, %out: memref<2x4xi32>) -> vector<2x4xi32> {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %buf = memref.alloca() : memref<2x4xi32>
    %view = vector.type_cast %buf : memref<2x4xi32> to memref<vector<2x4xi32>>
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %init) -> (vector<2x4xi32>) {
      memref.store %acc, %view[] : memref<vector<2x4xi32>>
      %row = vector.extract %acc[0] : vector<4xi32> from vector<2x4xi32>
      vector.store %row, %out[%i, %c0] : memref<2x4xi32>, vector<4xi32>
      %next = memref.load %view[] : memref<vector<2x4xi32>>
      scf.yield %next : vector<2x4xi32>
    }
    return %r : vector<2x4xi32>
  }

  // The buffer is written after the load: unchanged (the next iteration's store restores it).
  // CHECK-LABEL: func.func @written_after(
  // CHECK: scf.for {{.*}} iter_args
  // CHECK: memref.store %{{.*}}, %{{.*}}[]
  // CHECK: memref.load %{{.*}}[]
  func.func @written_after(%init: vector<2x4xi32>, %n: index, %row: vector<4xi32>) -> vector<2x4xi32> {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %buf = memref.alloca() : memref<2x4xi32>
    %view = vector.type_cast %buf : memref<2x4xi32> to memref<vector<2x4xi32>>
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %init) -> (vector<2x4xi32>) {
      memref.store %acc, %view[] : memref<vector<2x4xi32>>
      %next = memref.load %view[] : memref<vector<2x4xi32>>
      vector.store %row, %buf[%c0, %c0] : memref<2x4xi32>, vector<4xi32>
      scf.yield %next : vector<2x4xi32>
    }
    return %r : vector<2x4xi32>
  }

  // The unmasked loop's accumulator (buffer A) handed to the loop that finishes (buffer B): the
  // first loop works on B, the else branch stores the initial value into B, and nothing is
  // copied between the two.
  // CHECK-LABEL: func.func @handed_on(
  // CHECK-SAME: %[[INIT:[^:]+]]: vector<2x4xi32>
  // CHECK: %[[B:.+]] = memref.alloca() : memref<2x4xi32>
  // CHECK-NOT: memref.alloca
  // CHECK: %[[VIEW:[0-9]+]] = vector.type_cast %[[B]]
  // CHECK: scf.if %{{.*}} {
  // CHECK:   %[[IN_BRANCH:[0-9]+]] = vector.type_cast %[[B]]
  // CHECK:   memref.store %[[INIT]], %[[IN_BRANCH]][]
  // CHECK:   scf.for
  // CHECK:     vector.store %{{.*}}, %[[B]]
  // CHECK-NOT: memref.load
  // CHECK: } else {
  // CHECK:   memref.store %[[INIT]], %[[VIEW]][]
  // CHECK: }
  // CHECK-NEXT: scf.for
  // CHECK:   vector.store %{{.*}}, %[[B]]
  // CHECK: %[[OUT:[0-9]+]] = memref.load %[[VIEW]][]
  // CHECK: return %[[OUT]]
  func.func @handed_on(%init: vector<2x4xi32>, %n: index, %first: i1) -> vector<2x4xi32> {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %a = memref.alloca() : memref<2x4xi32>
    %b = memref.alloca() : memref<2x4xi32>
    %b_view = vector.type_cast %b : memref<2x4xi32> to memref<vector<2x4xi32>>
    %handed = scf.if %first -> (vector<2x4xi32>) {
      %a_view = vector.type_cast %a : memref<2x4xi32> to memref<vector<2x4xi32>>
      memref.store %init, %a_view[] : memref<vector<2x4xi32>>
      scf.for %i = %c0 to %n step %c1 {
        %row = vector.load %a[%c0, %c0] : memref<2x4xi32>, vector<4xi32>
        %twice = arith.addi %row, %row : vector<4xi32>
        vector.store %twice, %a[%c0, %c0] : memref<2x4xi32>, vector<4xi32>
      }
      %out = memref.load %a_view[] : memref<vector<2x4xi32>>
      scf.yield %out : vector<2x4xi32>
    } else {
      scf.yield %init : vector<2x4xi32>
    }
    memref.store %handed, %b_view[] : memref<vector<2x4xi32>>
    scf.for %i = %c0 to %n step %c1 {
      %row = vector.load %b[%c1, %c0] : memref<2x4xi32>, vector<4xi32>
      %twice = arith.addi %row, %row : vector<4xi32>
      vector.store %twice, %b[%c1, %c0] : memref<2x4xi32>, vector<4xi32>
    }
    %r = memref.load %b_view[] : memref<vector<2x4xi32>>
    return %r : vector<2x4xi32>
  }
}
