// tt-to-tcpu-debug: tt.print prints a tensor element by element with its index (tcpu.print
// in a loop) and scalars as they are; tt.assert on a tensor asserts the and-reduction of
// its lanes; Triton 3.0's file/function/line go into the message. llvm.intr.assume stays
// (the LLVM dialect lowers it).
// RUN: tcpu-opt %s --tt-to-tcpu-debug | FileCheck %s

// CHECK-LABEL: tt.func @debug(
// CHECK: %[[X:[0-9]+]] = vector.shape_cast %{{.*}} : vector<4xf32> to vector<4xf32>
// CHECK: scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK:   %[[E:[0-9]+]] = vector.extract %[[X]][%[[I]]] : f32 from vector<4xf32>
// CHECK:   %[[IDX:[0-9]+]] = arith.index_cast %[[I]] : index to i64
// CHECK:   tcpu.print " x: " %[[IDX]], %[[E]] : i64, f32
// CHECK: }
// CHECK: tcpu.print " x: " %{{.*}} : i32
// CHECK: %[[ALL:[0-9]+]] = vector.reduction <and>, %{{.*}} : vector<4xi1> into i1
// CHECK: tcpu.assert %[[ALL]], "x must be positive"
// CHECK: tcpu.assert %{{.*}}, "k.py:12: kernel: n > 0"
// CHECK: "llvm.intr.assume"(%{{.*}}) : (i1) -> ()
// CHECK-NOT: tt.print
// CHECK-NOT: tt.assert
module {
  tt.func @debug(%x: tensor<4xf32>, %n: i32, %c: i1, %m: tensor<4xi1>) {
    tt.print " x: " {hex = false, isSigned = array<i32: 0, 1>} : %x, %n : tensor<4xf32>, i32
    tt.assert %m, "x must be positive" : tensor<4xi1>
    tt.assert %c, "n > 0", "k.py", "kernel", 12 : i1
    "llvm.intr.assume"(%c) : (i1) -> ()
    tt.return
  }
}
