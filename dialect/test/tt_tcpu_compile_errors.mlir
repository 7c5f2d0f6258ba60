// TTIR the CPU backend cannot lower is refused with an error naming the op, its Python
// source location and why, and a non-zero exit: by tcpu-opt's pipeline and by tcpu-compile
// (not an unnamed cast failing in LLVM translation). GPU inline assembly here; every refused
// construct: tt_tcpu_refused_ops.mlir.
// RUN: not tcpu-opt %s --triton-to-llvm 2>&1 | FileCheck %s
// RUN: not tcpu-compile %s -o %t.o 2>&1 | FileCheck %s

// CHECK: /tmp/cvt.py:5:10: error: 'tt.elementwise_inline_asm' is not supported by the CPU backend: its body is GPU assembly
// CHECK-NOT: LLVM Translation failed

#loc = loc("/tmp/cvt.py":3:0)
module {
  tt.func public @cvt(%ptr: !tt.ptr<f32> loc("/tmp/cvt.py":3:0)) attributes {noinline = false} {
    %x = tt.load %ptr : !tt.ptr<f32> loc(#loc2)
    %y = tt.elementwise_inline_asm "mov.b32 $0, $1;" {constraints = "=r,r", packed_element = 1 : i32, pure = true} %x : f32 -> f32 loc(#loc1)
    tt.store %ptr, %y : !tt.ptr<f32> loc(#loc2)
    tt.return loc(#loc2)
  } loc(#loc)
} loc(#loc)
#loc1 = loc("/tmp/cvt.py":5:10)
#loc2 = loc("/tmp/cvt.py":6:4)
