// tt-strip-mine-tiles copies index computations apart per use (SeparateSharedSources), but not
// a long chain computed from ranges alone (philox's rounds for tl.rand: each value feeds two
// ops, so copies per use doubled every round, 2^rounds): the first two rounds are small enough
// to count as index computations and are copied for their uses (10 more xori), the other ten
// are not: 22 xori, not thousands (before, this test did not finish in a minute).
// RUN: tcpu-opt %s --tt-strip-mine-tiles | FileCheck %s

module {
  // CHECK-LABEL: tt.func public @chain(
  // CHECK: scf.for
  // CHECK-COUNT-22: arith.xori
  // CHECK-NOT: arith.xori
  // CHECK: tt.return
  tt.func public @chain(%p: !tt.ptr<i32>) {
    %r = tt.make_range {end = 2048 : i32, start = 0 : i32} : tensor<2048xi32>
    %m0 = arith.muli %r, %r : tensor<2048xi32>
    %x0 = arith.xori %m0, %r : tensor<2048xi32>
    %m1 = arith.muli %x0, %x0 : tensor<2048xi32>
    %x1 = arith.xori %m1, %x0 : tensor<2048xi32>
    %m2 = arith.muli %x1, %x1 : tensor<2048xi32>
    %x2 = arith.xori %m2, %x1 : tensor<2048xi32>
    %m3 = arith.muli %x2, %x2 : tensor<2048xi32>
    %x3 = arith.xori %m3, %x2 : tensor<2048xi32>
    %m4 = arith.muli %x3, %x3 : tensor<2048xi32>
    %x4 = arith.xori %m4, %x3 : tensor<2048xi32>
    %m5 = arith.muli %x4, %x4 : tensor<2048xi32>
    %x5 = arith.xori %m5, %x4 : tensor<2048xi32>
    %m6 = arith.muli %x5, %x5 : tensor<2048xi32>
    %x6 = arith.xori %m6, %x5 : tensor<2048xi32>
    %m7 = arith.muli %x6, %x6 : tensor<2048xi32>
    %x7 = arith.xori %m7, %x6 : tensor<2048xi32>
    %m8 = arith.muli %x7, %x7 : tensor<2048xi32>
    %x8 = arith.xori %m8, %x7 : tensor<2048xi32>
    %m9 = arith.muli %x8, %x8 : tensor<2048xi32>
    %x9 = arith.xori %m9, %x8 : tensor<2048xi32>
    %m10 = arith.muli %x9, %x9 : tensor<2048xi32>
    %x10 = arith.xori %m10, %x9 : tensor<2048xi32>
    %m11 = arith.muli %x10, %x10 : tensor<2048xi32>
    %x11 = arith.xori %m11, %x10 : tensor<2048xi32>
    %ps = tt.splat %p : !tt.ptr<i32> -> tensor<2048x!tt.ptr<i32>>
    %pa = tt.addptr %ps, %r : tensor<2048x!tt.ptr<i32>>, tensor<2048xi32>
    tt.store %pa, %x11 : tensor<2048x!tt.ptr<i32>>
    tt.return
  }
}
