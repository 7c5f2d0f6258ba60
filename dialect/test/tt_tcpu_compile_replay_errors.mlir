// Bad input to --emit=replay and --kernel-suffix is a diagnostic and a non-zero exit, never a
// crash or a half-written entry: a kernel argument the ABI cannot pass (a tensor, an fp8 scalar,
// a block pointer) names the argument and its type, and nothing is written; a suffix that is
// not a C identifier's tail, one that gives a kernel the name of a function the module only
// declares (declarations keep their names), and either option on a module that holds no TTIR
// kernel name the option.
// RUN: split-file %s %t
// RUN: not tcpu-compile %t/tensor_arg.mlir -o %t/out.c --emit=replay 2>&1 | FileCheck %s --check-prefix=TENSOR
// RUN: not test -e %t/out.c
// RUN: not tcpu-compile %t/fp8_scalar.mlir -o - --emit=replay 2>&1 | FileCheck %s --check-prefix=FP8 --implicit-check-not=tcpu_replay_
// RUN: not tcpu-compile %t/block_ptr_arg.mlir -o - --emit=replay 2>&1 | FileCheck %s --check-prefix=BLOCK
// RUN: not tcpu-compile %t/fp8_scalar.mlir -o - --emit=replay --kernel-suffix=a-b 2>&1 | FileCheck %s --check-prefix=SUFFIX
// RUN: not tcpu-compile %t/collision.mlir -o - --emit=replay --kernel-suffix=_2 2>&1 | FileCheck %s --check-prefix=COLLIDE
// RUN: not tcpu-compile %t/not_ttir.mlir -o - --emit=replay 2>&1 | FileCheck %s --check-prefix=NOTTIR
// RUN: not tcpu-compile %t/not_ttir.mlir -o - --kernel-suffix=_x 2>&1 | FileCheck %s --check-prefix=NOTTIR-SUFFIX

// TENSOR: tensor_arg.mlir:2:3: error: kernel argument 1 has type 'tensor<4xf32>', which the kernel ABI does not pass (pointers, tensor descriptors and scalars of up to 64 bits only)
// TENSOR: tcpu-compile: cannot write the replay entries of '{{.*}}tensor_arg.mlir' (see above)
// FP8: fp8_scalar.mlir:2:3: error: kernel argument 0 has type 'f8E4M3FN', which the kernel ABI does not pass
// BLOCK: block_ptr_arg.mlir:2:3: error: kernel argument 0 has type '!tt.ptr<tensor<4xf32>>', which the kernel ABI does not pass
// SUFFIX: error: kernel suffix 'a-b': expected letters, digits and '_'
// SUFFIX: tcpu-compile: --kernel-suffix=a-b: cannot rename the kernels (see above)
// COLLIDE: collision.mlir:3:3: error: cannot rename @k to @k_2: the module already defines it
// NOTTIR: tcpu-compile: --emit=replay needs a TTIR module (tt.func kernels); '{{.*}}not_ttir.mlir' has none
// NOTTIR-SUFFIX: tcpu-compile: --kernel-suffix applies to TTIR modules (Triton kernels) only

//--- tensor_arg.mlir
module {
  tt.func public @k(%p: !tt.ptr<f32>, %x: tensor<4xf32>) {
    tt.return
  }
}
//--- fp8_scalar.mlir
module {
  tt.func public @k(%x: f8E4M3FN, %p: !tt.ptr<f8E4M3FN>) {
    tt.return
  }
}
//--- block_ptr_arg.mlir
module {
  tt.func public @k(%x: !tt.ptr<tensor<4xf32>>) {
    tt.return
  }
}
//--- collision.mlir
module {
  tt.func private @k_2(%p: !tt.ptr<f32>)
  tt.func public @k(%p: !tt.ptr<f32>) {
    tt.call @k_2(%p) : (!tt.ptr<f32>) -> ()
    tt.return
  }
}
//--- not_ttir.mlir
func.func @f(%x: i32) -> i32 {
  return %x : i32
}
