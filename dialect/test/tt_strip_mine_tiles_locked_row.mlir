// tt-strip-mine-tiles on tutorial 05 backward's pattern: a row reduced twice, then stored, then
// added into a shared partial row under a spin lock. Every use of the row becomes a chunk loop
// in its place: one loop for both sums (the mean of the first, computed between them, moves
// after it), the store's loop, and the partial update's loop between the lock's atomic_cas and
// its release. The update needs the row again
// after writes (the row's store, the lock): rather than reload it from memory those writes might
// have changed, the first loop that loads each chunk keeps a copy on the stack, which the update
// reads back. The branch writing the Count flag and yielding the partial rows is split first:
// the scalar write runs once in a branch of its own on the same condition, the branch yielding
// rows once per chunk. A row (1-D) of a function over the budgets is cut to 256 lanes.
// RUN: tcpu-opt %s --tt-strip-mine-tiles | FileCheck %s

module {
  // CHECK-LABEL: tt.func @locked_partial_row(
  // The stack copies of the row's two loads, at the function's entry.
  // CHECK: %[[N:.*]] = llvm.mlir.constant(4096 : i64) : i64
  // CHECK: %[[COPY_A:.*]] = llvm.alloca %[[N]] x f32 {alignment = 16 : i64}
  // CHECK: tt.int_to_ptr
  // CHECK: llvm.alloca %{{.*}} x f32 {alignment = 16 : i64}
  // CHECK: tt.int_to_ptr
  // The sums: each chunk loaded once from the row and copied to the stack, both sums carried
  // as rows of partials (lane by lane) and reduced after the loop.
  // CHECK: %[[SUMS:.*]]:2 = scf.for %[[C:.*]] = %{{.*}} to %c16_i32{{.*}} step %{{.*}} iter_args(%{{.*}}, %{{.*}}) -> (tensor<256xf32>, tensor<256xf32>)
  // CHECK:   arith.muli %[[C]], %c256_i32 : i32
  // CHECK:   %[[X:.*]] = tt.load %{{.*}}, %{{.*}}, %{{.*}} : tensor<256x!tt.ptr<f32>>
  // CHECK:   tt.store %{{.*}}, %[[X]] : tensor<256x!tt.ptr<f32>>
  // CHECK:   arith.addf %{{.*}}, %{{.*}} : tensor<256xf32>
  // CHECK:   arith.addf %{{.*}}, %{{.*}} : tensor<256xf32>
  // CHECK:   scf.yield
  // CHECK-DAG: %[[C1:.*]] = "tt.reduce"(%[[SUMS]]#0)
  // CHECK-DAG: %[[C2:.*]] = "tt.reduce"(%[[SUMS]]#1)
  // CHECK: arith.divf %[[C1]]
  // CHECK: arith.divf %[[C2]]
  // The row's store, each chunk reloaded (nothing wrote in between).
  // CHECK: scf.for %{{.*}} = %{{.*}} to %c16_i32{{.*}} step %{{.*}} : i32 {
  // CHECK:   tt.load %{{.*}}, %{{.*}}, %{{.*}} : tensor<256x!tt.ptr<f32>>
  // CHECK:   tt.store %{{.*}}, %{{.*}}, %{{.*}} : tensor<256x!tt.ptr<f32>>
  // CHECK: }
  // The lock, then Count's write alone in its branch.
  // CHECK: scf.while
  // CHECK:   tt.atomic_cas
  // CHECK: scf.if %{{.*}} {
  // CHECK-NEXT: tt.atomic_rmw exch
  // CHECK-NEXT: }
  // The partial update inside the lock: the row read back from the stack copies (no mask), the
  // branch yielding rows once per chunk.
  // CHECK: scf.for %{{.*}} = %{{.*}} to %c16_i32{{.*}} step %{{.*}} : i32 {
  // CHECK:   tt.load %{{.*}} : tensor<256x!tt.ptr<f32>>
  // CHECK:   tt.load %{{.*}} : tensor<256x!tt.ptr<f32>>
  // CHECK:   scf.if %{{.*}} -> (tensor<256xf32>) {
  // CHECK:   } else {
  // CHECK:     tt.load %{{.*}}, %{{.*}} : tensor<256x!tt.ptr<f32>>
  // CHECK:   }
  // CHECK:   tt.store %{{.*}}, %{{.*}}, %{{.*}} : tensor<256x!tt.ptr<f32>>
  // CHECK: }
  // CHECK-NEXT: tt.atomic_rmw exch
  // CHECK-NEXT: tt.return
  tt.func @locked_partial_row(%X: !tt.ptr<f32>, %DY: !tt.ptr<f32>, %DX: !tt.ptr<f32>,
                              %P: !tt.ptr<f32>, %Lock: !tt.ptr<i32>, %N: i32) {
    %true = arith.constant true
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<4096xf32>
    %cols = tt.make_range {end = 4096 : i32, start = 0 : i32} : tensor<4096xi32>
    %bound = tt.splat %N : i32 -> tensor<4096xi32>
    %mask = arith.cmpi slt, %cols, %bound : tensor<4096xi32>
    %xs = tt.splat %X : !tt.ptr<f32> -> tensor<4096x!tt.ptr<f32>>
    %xp = tt.addptr %xs, %cols : tensor<4096x!tt.ptr<f32>>, tensor<4096xi32>
    %x = tt.load %xp, %mask, %zero : tensor<4096x!tt.ptr<f32>>
    %dys = tt.splat %DY : !tt.ptr<f32> -> tensor<4096x!tt.ptr<f32>>
    %dyp = tt.addptr %dys, %cols : tensor<4096x!tt.ptr<f32>>, tensor<4096xi32>
    %dy = tt.load %dyp, %mask, %zero : tensor<4096x!tt.ptr<f32>>
    %xdy = arith.mulf %x, %dy : tensor<4096xf32>
    %sum = "tt.reduce"(%xdy) <{axis = 0 : i32}> ({
    ^bb0(%a: f32, %b: f32):
      %s = arith.addf %a, %b : f32
      tt.reduce.return %s : f32
    }) : (tensor<4096xf32>) -> f32
    %n = arith.sitofp %N : i32 to f32
    %mean = arith.divf %sum, %n : f32
    %dysum = "tt.reduce"(%dy) <{axis = 0 : i32}> ({
    ^bb0(%a: f32, %b: f32):
      %s = arith.addf %a, %b : f32
      tt.reduce.return %s : f32
    }) : (tensor<4096xf32>) -> f32
    %dymean = arith.divf %dysum, %n : f32
    %means = tt.splat %mean : f32 -> tensor<4096xf32>
    %dymeans = tt.splat %dymean : f32 -> tensor<4096xf32>
    %centered = arith.subf %dy, %means : tensor<4096xf32>
    %dx = arith.mulf %centered, %dymeans : tensor<4096xf32>
    %dxs = tt.splat %DX : !tt.ptr<f32> -> tensor<4096x!tt.ptr<f32>>
    %dxp = tt.addptr %dxs, %cols : tensor<4096x!tt.ptr<f32>>, tensor<4096xi32>
    tt.store %dxp, %dx, %mask : tensor<4096x!tt.ptr<f32>>
    scf.while : () -> () {
      %old = tt.atomic_cas acq_rel, gpu, %Lock, %c0, %c1 : (!tt.ptr<i32>, i32, i32) -> i32
      %held = arith.cmpi eq, %old, %c1 : i32
      scf.condition(%held)
    } do {
      scf.yield
    }
    %Count = tt.addptr %Lock, %c1 : !tt.ptr<i32>, i32
    %count = tt.load %Count : !tt.ptr<i32>
    %first = arith.cmpi eq, %count, %c0 : i32
    %ps = tt.splat %P : !tt.ptr<f32> -> tensor<4096x!tt.ptr<f32>>
    %pp = tt.addptr %ps, %cols : tensor<4096x!tt.ptr<f32>>, tensor<4096xi32>
    %partial = scf.if %first -> (tensor<4096xf32>) {
      %set = tt.atomic_rmw exch, acq_rel, gpu, %Count, %c1, %true : (!tt.ptr<i32>, i32, i1) -> i32
      scf.yield %xdy : tensor<4096xf32>
    } else {
      %old = tt.load %pp, %mask : tensor<4096x!tt.ptr<f32>>
      %added = arith.addf %xdy, %old : tensor<4096xf32>
      scf.yield %added : tensor<4096xf32>
    }
    tt.store %pp, %partial, %mask : tensor<4096x!tt.ptr<f32>>
    %released = tt.atomic_rmw exch, acq_rel, gpu, %Lock, %c0, %true : (!tt.ptr<i32>, i32, i1) -> i32
    tt.return
  }

  // The same for a 64x64 tile, row sums stored, then a flag, then the tile again: the copy is
  // row-major over the whole tile, each chunk at its rows and columns (here 32x32 chunks: the
  // column chunks of the sums' loop, which writes only its own lanes of the copy, inside row
  // chunks; then the second use).
  // CHECK-LABEL: tt.func @tile_again_after_write(
  // CHECK: llvm.alloca %{{.*}} x f32
  // CHECK: %[[COPY:.*]] = tt.int_to_ptr
  // CHECK: scf.for
  // CHECK:   scf.for
  // CHECK:     %[[X:.*]] = tt.load %{{.*}} : tensor<32x32x!tt.ptr<f32>>
  // CHECK:     tt.splat %[[COPY]] : !tt.ptr<f32> -> tensor<32x32x!tt.ptr<f32>>
  // CHECK:     tt.store %{{.*}}, %[[X]] : tensor<32x32x!tt.ptr<f32>>
  // CHECK:     "tt.reduce"
  // CHECK:   tt.store %{{.*}}, %{{.*}} : tensor<32x!tt.ptr<f32>>
  // CHECK: tt.store %{{.*}}, %{{.*}} : !tt.ptr<i32>
  // CHECK: scf.for
  // CHECK:   scf.for
  // CHECK:     tt.splat %[[COPY]] : !tt.ptr<f32> -> tensor<32x32x!tt.ptr<f32>>
  // CHECK:     %[[AGAIN:.*]] = tt.load %{{.*}} : tensor<32x32x!tt.ptr<f32>>
  // CHECK:     arith.mulf %[[AGAIN]], %[[AGAIN]] : tensor<32x32xf32>
  tt.func @tile_again_after_write(%X: !tt.ptr<f32>, %Y: !tt.ptr<f32>, %S: !tt.ptr<f32>,
                                   %flag: !tt.ptr<i32>) {
    %r = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
    %rows = tt.expand_dims %r {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
    %c64 = arith.constant dense<64> : tensor<64x1xi32>
    %rowoff = arith.muli %rows, %c64 : tensor<64x1xi32>
    %c = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
    %cols = tt.expand_dims %c {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
    %rb = tt.broadcast %rowoff : tensor<64x1xi32> -> tensor<64x64xi32>
    %cb = tt.broadcast %cols : tensor<1x64xi32> -> tensor<64x64xi32>
    %off = arith.addi %rb, %cb : tensor<64x64xi32>
    %xs = tt.splat %X : !tt.ptr<f32> -> tensor<64x64x!tt.ptr<f32>>
    %xp = tt.addptr %xs, %off : tensor<64x64x!tt.ptr<f32>>, tensor<64x64xi32>
    %x = tt.load %xp : tensor<64x64x!tt.ptr<f32>>
    %sum = "tt.reduce"(%x) <{axis = 1 : i32}> ({
    ^bb0(%a: f32, %b: f32):
      %s = arith.addf %a, %b : f32
      tt.reduce.return %s : f32
    }) : (tensor<64x64xf32>) -> tensor<64xf32>
    %ss = tt.splat %S : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>>
    %sp = tt.addptr %ss, %r : tensor<64x!tt.ptr<f32>>, tensor<64xi32>
    tt.store %sp, %sum : tensor<64x!tt.ptr<f32>>
    %one = arith.constant 1 : i32
    tt.store %flag, %one : !tt.ptr<i32>
    %y = arith.mulf %x, %x : tensor<64x64xf32>
    %ys = tt.splat %Y : !tt.ptr<f32> -> tensor<64x64x!tt.ptr<f32>>
    %yp = tt.addptr %ys, %off : tensor<64x64x!tt.ptr<f32>>, tensor<64x64xi32>
    tt.store %yp, %y : tensor<64x64x!tt.ptr<f32>>
    tt.return
  }
}
