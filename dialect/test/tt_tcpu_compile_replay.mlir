// tcpu-compile --kernel-suffix=S appends S to every function the module defines, so kernels of
// the same name from several TTIR files (Inductor's triton_poi_fused_add_0 recurs across models)
// link into one program: the kernel, its launcher and variant query, its program entry, a
// per-target variant (--variant) and its helpers, which are global symbols too.
// --emit=replay writes a C source with one generic entry per kernel (tcpu/triton_replay.h):
// tcpu_replay_NAME(args, count, grid...) checks the values against the TTIR signature, unpacks
// each as the kernel ABI passes it (pointer -> void*, i1..i32 -> int32_t, i64 -> int64_t,
// f16/bf16/f32 -> float, f64 -> double, a rank-r descriptor -> base, r sizes, r strides) and
// calls tcpu_launch_NAME, declared exactly as --emit=header declares it; the table of parameters
// says each TTIR argument's kind and element type.
// RUN: tcpu-compile %s -o - --emit=replay --kernel-suffix=_k1 | FileCheck %s --check-prefix=REPLAY
// RUN: tcpu-compile %s -o - --emit=asm --kernel-suffix=_k1 | FileCheck %s --check-prefix=ASM
// RUN: tcpu-compile %s -o - --emit=asm --kernel-suffix=_k1 --variant=sve2 | FileCheck %s --check-prefix=VARIANT
// RUN: tcpu-compile %s -o %t.h --emit=header --kernel-suffix=_k1
// RUN: tcpu-compile %s -o %t.c --emit=replay --kernel-suffix=_k1
// RUN: cat %t.h %t.c | FileCheck %s --check-prefix=SAME

// REPLAY: #include "tcpu/triton_replay.h"
// REPLAY: int tcpu_launch_mixed_k1(void* a0, void* a1, int64_t a2, int64_t a3, int64_t a4, int64_t a5, int32_t a6, int32_t a7, int32_t a8, int32_t a9, int64_t a10, float a11, float a12, float a13, double a14, void* a15, void* a16, int32_t grid_x, int32_t grid_y, int32_t grid_z);
// REPLAY: const char* tcpu_variant_mixed_k1(void);
// REPLAY: static const tcpu_replay_param tcpu_replay_params_mixed_k1[13] = {
// REPLAY-NEXT: {"!tt.ptr<f32>", TCPU_REPLAY_PTR, "f32", 0},
// REPLAY-NEXT: {"!tt.tensordesc<2x4xf16>", TCPU_REPLAY_DESC, "f16", 2},
// REPLAY-NEXT: {"i1", TCPU_REPLAY_INT, "i1", 0},
// REPLAY-NEXT: {"i8", TCPU_REPLAY_INT, "i8", 0},
// REPLAY-NEXT: {"i16", TCPU_REPLAY_INT, "i16", 0},
// REPLAY-NEXT: {"i32", TCPU_REPLAY_INT, "i32", 0},
// REPLAY-NEXT: {"i64", TCPU_REPLAY_INT, "i64", 0},
// REPLAY-NEXT: {"f16", TCPU_REPLAY_FLOAT, "f16", 0},
// REPLAY-NEXT: {"bf16", TCPU_REPLAY_FLOAT, "bf16", 0},
// REPLAY-NEXT: {"f32", TCPU_REPLAY_FLOAT, "f32", 0},
// REPLAY-NEXT: {"f64", TCPU_REPLAY_FLOAT, "f64", 0},
// REPLAY-NEXT: {"!tt.ptr<!tt.ptr<i8>>", TCPU_REPLAY_PTR, "!tt.ptr<i8>", 0},
// REPLAY-NEXT: {"!tt.ptr<f8E4M3FN>", TCPU_REPLAY_PTR, "f8E4M3FN", 0},
// REPLAY-NEXT: };
// REPLAY: const tcpu_replay_kernel tcpu_replay_kernel_mixed_k1 = {"mixed_k1", tcpu_replay_params_mixed_k1, 13, tcpu_replay_mixed_k1, tcpu_variant_mixed_k1};
// REPLAY: int tcpu_replay_mixed_k1(const tcpu_replay_arg* args, int32_t count, int32_t grid_x, int32_t grid_y, int32_t grid_z) {
// REPLAY-NEXT: int status = tcpu_replay_check_args(&tcpu_replay_kernel_mixed_k1, args, count);
// REPLAY-NEXT: if (status != 0) return status;
// REPLAY-NEXT: return tcpu_launch_mixed_k1(args[0].ptr, args[1].ptr, args[1].sizes[0], args[1].sizes[1], args[1].strides[0], args[1].strides[1], (int32_t)args[2].i, (int32_t)args[3].i, (int32_t)args[4].i, (int32_t)args[5].i, (int64_t)args[6].i, (float)args[7].f, (float)args[8].f, (float)args[9].f, (double)args[10].f, args[11].ptr, args[12].ptr, grid_x, grid_y, grid_z);
// REPLAY-NEXT: }

// ASM-NOT: .globl scaled{{$}}
// ASM-NOT: .globl mixed{{$}}
// ASM: .globl scaled_k1
// ASM: .globl mixed_k1
// ASM: mixed_k1__programs:
// ASM: .globl tcpu_launch_mixed_k1
// ASM: .globl tcpu_variant_mixed_k1
// ASM: .asciz "mixed_k1:baseline"

// VARIANT: .globl mixed_k1__sve2
// VARIANT: .globl mixed_k1__sve2__programs

// SAME: int [[LAUNCH:tcpu_launch_mixed_k1\(.*\)]];
// SAME: #include "tcpu/triton_replay.h"
// SAME: int [[LAUNCH]];

module {
  tt.func private @scaled(%x: f32, %s: f32) -> f32 attributes {noinline = true} {
    %y = arith.mulf %x, %s : f32
    tt.return %y : f32
  }
  tt.func public @mixed(%out: !tt.ptr<f32>, %in: !tt.tensordesc<tensor<2x4xf16>>, %flag: i1, %small: i8, %half: i16, %n: i32, %big: i64, %h: f16, %b: bf16, %s: f32, %d: f64, %table: !tt.ptr<!tt.ptr<i8>>, %q: !tt.ptr<f8E4M3FN>) {
    %pid = tt.get_program_id x : i32
    %v = tt.call @scaled(%s, %s) : (f32, f32) -> f32
    %p = tt.addptr %out, %pid : !tt.ptr<f32>, i32
    tt.store %p, %v : !tt.ptr<f32>
    tt.return
  }
}
