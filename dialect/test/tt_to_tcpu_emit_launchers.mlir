// tcpu-emit-triton-launchers (on the LLVM dialect, after the pipeline): for the kernel NAME
// (marked tcpu.triton_kernel by tt-to-tcpu-funcs) it adds
// NAME__programs(args, pid_x, pid_y, pid_z, count, grid...), which unpacks the argument
// struct once and calls NAME for `count` programs from the given one on, x fastest: a loop
// over rows of x in which x alone steps, y and z (carried into z at the grid's edge) once a
// row. NAME becomes always_inline where it is small, some path through it runs no loop and its
// vector constants fit 32 registers, so LLVM puts its code in the program loop; otherwise
// no_inline. tcpu_launch_NAME(args..., grid_x, grid_y, grid_z) packs the arguments and calls
// the runtime's tcpu_triton_launch with the table of variants and returns its status; and
// tcpu_variant_NAME. With variant=S the kernel is one variant (NAME__S, NAME__S__programs
// only); with dispatch the baseline's table lists the variants first, each with its feature
// bits.
// RUN: tcpu-opt %s --tcpu-emit-triton-launchers | FileCheck %s
// RUN: tcpu-opt %s '--tcpu-emit-triton-launchers=variant=i8mm' | FileCheck %s --check-prefix=VARIANT
// RUN: tcpu-opt %s '--tcpu-emit-triton-launchers=dispatch=i8mm=12,dotprod=4' | FileCheck %s --check-prefix=DISPATCH

module {
  llvm.func @scale(%x: !llvm.ptr, %n: i32, %s: f32, %w: i64, %pid_x: i32, %pid_y: i32, %pid_z: i32, %grid_x: i32, %grid_y: i32, %grid_z: i32) attributes {tcpu.triton_kernel} {
    llvm.return
  }

  // A tile's all-on path runs no loop; the partial tile's lanes are copied by one.
  llvm.func @lanes_off_path(%x: !llvm.ptr, %n: i64, %pid_x: i32, %pid_y: i32, %pid_z: i32, %grid_x: i32, %grid_y: i32, %grid_z: i32) attributes {tcpu.triton_kernel} {
    %zero = llvm.mlir.constant(0 : i64) : i64
    %one = llvm.mlir.constant(1 : i64) : i64
    %four = llvm.mlir.constant(4 : i64) : i64
    %all_on = llvm.icmp "sge" %n, %four : i64
    llvm.cond_br %all_on, ^done, ^lane(%zero : i64)
  ^lane(%i: i64):
    %next = llvm.add %i, %one : i64
    %more = llvm.icmp "slt" %next, %n : i64
    llvm.cond_br %more, ^lane(%next : i64), ^done
  ^done:
    llvm.return
  }

  // Every path runs the loop.
  llvm.func @looped(%x: !llvm.ptr, %n: i64, %pid_x: i32, %pid_y: i32, %pid_z: i32, %grid_x: i32, %grid_y: i32, %grid_z: i32) attributes {tcpu.triton_kernel} {
    %zero = llvm.mlir.constant(0 : i64) : i64
    %one = llvm.mlir.constant(1 : i64) : i64
    llvm.br ^loop(%zero : i64)
  ^loop(%i: i64):
    %next = llvm.add %i, %one : i64
    %more = llvm.icmp "slt" %next, %n : i64
    llvm.cond_br %more, ^loop(%next : i64), ^done
  ^done:
    llvm.return
  }

  // No loop, but a 512-lane constant: 128 registers, which the program loop would hold.
  llvm.func @wide_constants(%x: !llvm.ptr, %pid_x: i32, %pid_y: i32, %pid_z: i32, %grid_x: i32, %grid_y: i32, %grid_z: i32) attributes {tcpu.triton_kernel} {
    %lanes = llvm.mlir.constant(dense<1.0> : vector<512xf32>) : vector<512xf32>
    llvm.store %lanes, %x : vector<512xf32>, !llvm.ptr
    llvm.return
  }
}

// The kernel keeps its name and triton-cpu's signature; the marker goes.
// CHECK: llvm.func @scale(%{{.*}}: !llvm.ptr, %{{.*}}: i32, %{{.*}}: f32, %{{.*}}: i64, %{{.*}}: i32, %{{.*}}: i32, %{{.*}}: i32, %{{.*}}: i32, %{{.*}}: i32, %{{.*}}: i32) attributes {always_inline} {
// A kernel with a loop on every path, or past 32 registers of vector constants, stays a call.
// CHECK: llvm.func @lanes_off_path({{.*}}) attributes {always_inline} {
// CHECK: llvm.func @looped({{.*}}) attributes {no_inline} {
// CHECK: llvm.func @wide_constants({{.*}}) attributes {no_inline} {
// CHECK-LABEL: llvm.func internal @scale__programs(
// CHECK-SAME: %[[ARGS:[a-z0-9]+]]: !llvm.ptr, %[[PX:[a-z0-9]+]]: i32, %[[PY:[a-z0-9]+]]: i32, %[[PZ:[a-z0-9]+]]: i32, %[[COUNT:[a-z0-9]+]]: i64, %[[GX:[a-z0-9]+]]: i32, %[[GY:[a-z0-9]+]]: i32, %[[GZ:[a-z0-9]+]]: i32)
// CHECK: llvm.getelementptr %[[ARGS]][0, 0] : (!llvm.ptr) -> !llvm.ptr, !llvm.struct<(ptr, i32, f32, i64)>
// CHECK: %[[A0:[0-9]+]] = llvm.load %{{.*}} : !llvm.ptr -> !llvm.ptr
// CHECK: %[[A1:[0-9]+]] = llvm.load %{{.*}} : !llvm.ptr -> i32
// CHECK: %[[A2:[0-9]+]] = llvm.load %{{.*}} : !llvm.ptr -> f32
// CHECK: %[[A3:[0-9]+]] = llvm.load %{{.*}} : !llvm.ptr -> i64
// CHECK: %[[ZERO:[0-9]+]] = llvm.mlir.constant(0 : i64) : i64
// CHECK: %[[ANY:[0-9]+]] = llvm.icmp "sgt" %[[COUNT]], %[[ZERO]] : i64
// CHECK: llvm.cond_br %[[ANY]], ^[[ROW:bb[0-9]+]](%[[COUNT]], %[[PX]], %[[PY]], %[[PZ]] : i64, i32, i32, i32), ^[[EXIT:bb[0-9]+]]
// A row: min(grid_x - x, remaining) programs, at least one.
// CHECK: ^[[ROW]](%[[LEFT:[0-9]+]]: i64, %[[X:[0-9]+]]: i32, %[[Y:[0-9]+]]: i32, %[[Z:[0-9]+]]: i32):
// CHECK: %[[IN_ROW:[0-9]+]] = llvm.sub %[[GX]], %[[X]] : i32
// CHECK: %[[IN_ROW64:[0-9]+]] = llvm.sext %[[IN_ROW]] : i32 to i64
// CHECK: %[[FEWER:[0-9]+]] = llvm.intr.smin(%[[IN_ROW64]], %[[LEFT]])
// CHECK: %[[RUNS:[0-9]+]] = llvm.intr.smax(%[[FEWER]], %{{.*}})
// CHECK: %[[RUNS32:[0-9]+]] = llvm.trunc %[[RUNS]] : i64 to i32
// CHECK: %[[X_END:[0-9]+]] = llvm.add %[[X]], %[[RUNS32]] : i32
// CHECK: llvm.br ^[[EACH:bb[0-9]+]](%[[X]] : i32)
// One program, then x + 1 until the row's end.
// CHECK: ^[[EACH]](%[[PID:[0-9]+]]: i32):
// CHECK: llvm.call @scale(%[[A0]], %[[A1]], %[[A2]], %[[A3]], %[[PID]], %[[Y]], %[[Z]], %[[GX]], %[[GY]], %[[GZ]])
// CHECK: %[[NEXT:[0-9]+]] = llvm.add %[[PID]], %{{.*}} : i32
// CHECK: %[[MORE_X:[0-9]+]] = llvm.icmp "ne" %[[NEXT]], %[[X_END]] : i32
// CHECK: llvm.cond_br %[[MORE_X]], ^[[EACH]](%[[NEXT]] : i32), ^[[NEXT_ROW:bb[0-9]+]]
// The next row from x = 0: y + 1, carried into z at the grid's edge.
// CHECK: ^[[NEXT_ROW]]:
// CHECK: %[[REST:[0-9]+]] = llvm.sub %[[LEFT]], %[[RUNS]] : i64
// CHECK: %[[Y1:[0-9]+]] = llvm.add %[[Y]], %{{.*}} : i32
// CHECK: %[[YW:[0-9]+]] = llvm.icmp "eq" %[[Y1]], %[[GY]] : i32
// CHECK: %[[NY:[0-9]+]] = llvm.select %[[YW]], %{{.*}}, %[[Y1]] : i1, i32
// CHECK: %[[YC:[0-9]+]] = llvm.zext %[[YW]] : i1 to i32
// CHECK: %[[NZ:[0-9]+]] = llvm.add %[[Z]], %[[YC]] : i32
// CHECK: %[[MORE:[0-9]+]] = llvm.icmp "sgt" %[[REST]], %{{.*}} : i64
// CHECK: llvm.cond_br %[[MORE]], ^[[ROW]](%[[REST]], %{{.*}}, %[[NY]], %[[NZ]] : i64, i32, i32, i32), ^[[EXIT]]
// CHECK: ^[[EXIT]]:
// CHECK-NEXT: llvm.return
// CHECK: llvm.mlir.global internal constant @scale__variant_baseline("scale:baseline\00")
// CHECK: llvm.mlir.global internal constant @scale__variants() {{.*}} : !llvm.array<1 x struct<(ptr, i32, ptr)>>
// CHECK: llvm.func @tcpu_triton_launch(!llvm.ptr, !llvm.ptr, i32, !llvm.ptr, i32, i32, i32) -> i32
// CHECK-LABEL: llvm.func @tcpu_launch_scale(
// CHECK-SAME: %[[X:[a-z0-9]+]]: !llvm.ptr, %[[N:[a-z0-9]+]]: i32, %[[S:[a-z0-9]+]]: f32, %[[W:[a-z0-9]+]]: i64, %[[GRIDX:[a-z0-9]+]]: i32, %[[GRIDY:[a-z0-9]+]]: i32, %[[GRIDZ:[a-z0-9]+]]: i32) -> i32
// CHECK: %[[STRUCT:[0-9]+]] = llvm.alloca %{{.*}} x !llvm.struct<(ptr, i32, f32, i64)>
// CHECK: llvm.store %[[X]], %{{.*}} : !llvm.ptr, !llvm.ptr
// CHECK: llvm.store %[[N]], %{{.*}} : i32, !llvm.ptr
// CHECK: llvm.store %[[S]], %{{.*}} : f32, !llvm.ptr
// CHECK: llvm.store %[[W]], %{{.*}} : i64, !llvm.ptr
// CHECK: %[[NAME:[0-9]+]] = llvm.mlir.addressof @scale__name
// CHECK: %[[TABLE:[0-9]+]] = llvm.mlir.addressof @scale__variants
// CHECK: %[[STATUS:[0-9]+]] = llvm.call @tcpu_triton_launch(%[[NAME]], %[[TABLE]], %{{.*}}, %[[STRUCT]], %[[GRIDX]], %[[GRIDY]], %[[GRIDZ]])
// CHECK: llvm.return %[[STATUS]] : i32
// CHECK-LABEL: llvm.func @tcpu_variant_scale() -> !llvm.ptr
// CHECK: llvm.call @tcpu_triton_select(
// CHECK-NOT: tcpu.triton_kernel

// VARIANT: llvm.func @scale__i8mm(
// VARIANT: llvm.func @scale__i8mm__programs(
// VARIANT-NOT: tcpu_launch_scale
// VARIANT-NOT: tcpu_variant_scale

// DISPATCH: llvm.func @scale__i8mm__programs(!llvm.ptr, i32, i32, i32, i64, i32, i32, i32)
// DISPATCH: llvm.func @scale__dotprod__programs(!llvm.ptr, i32, i32, i32, i64, i32, i32, i32)
// DISPATCH: llvm.mlir.global internal constant @scale__variants() {{.*}} : !llvm.array<3 x struct<(ptr, i32, ptr)>>
// DISPATCH: llvm.mlir.addressof @scale__variant_i8mm
// DISPATCH-NEXT: llvm.mlir.constant(12 : i32)
// DISPATCH-NEXT: llvm.mlir.addressof @scale__i8mm__programs
// DISPATCH: llvm.mlir.addressof @scale__variant_dotprod
// DISPATCH-NEXT: llvm.mlir.constant(4 : i32)
// DISPATCH-NEXT: llvm.mlir.addressof @scale__dotprod__programs
// DISPATCH: llvm.mlir.addressof @scale__variant_baseline
// DISPATCH-NEXT: llvm.mlir.constant(0 : i32)
// DISPATCH-NEXT: llvm.mlir.addressof @scale__programs
// DISPATCH: llvm.func @tcpu_launch_scale(
