// TTIR the CPU backend cannot lower yet is refused with an error naming the op and its
// Python source location, and a non-zero exit: by tcpu-opt's pipeline and by tcpu-compile
// (not an unnamed cast failing in LLVM translation). Atomics here; histograms, block
// pointers and tensor descriptors take the same path.
// RUN: not tcpu-opt %s --triton-to-llvm 2>&1 | FileCheck %s
// RUN: not tcpu-compile %s -o %t.o 2>&1 | FileCheck %s

// CHECK: /tmp/count.py:5:10: error: 'tt.atomic_rmw' is not supported by the CPU backend
// CHECK-NOT: LLVM Translation failed

#loc = loc("/tmp/count.py":3:0)
module {
  tt.func public @count(%counter_ptr: !tt.ptr<i32> loc("/tmp/count.py":3:0), %v: i32 loc("/tmp/count.py":3:0)) attributes {noinline = false} {
    %old = tt.atomic_rmw add, acq_rel, gpu, %counter_ptr, %v : (!tt.ptr<i32>, i32) -> i32 loc(#loc1)
    tt.return loc(#loc2)
  } loc(#loc)
} loc(#loc)
#loc1 = loc("/tmp/count.py":5:10)
#loc2 = loc("/tmp/count.py":6:4)
