// tcpu-compile on a Triton 3.x dump as the cache writes it (tutorial 02's fused softmax:
// #loc aliases before and after the module, callsite locations, Python value names, a
// persistent scf.for over rows): it detects TTIR, runs the whole pipeline and emits
// aarch64 code defining the kernel `softmax_kernel` (triton-cpu's ABI), its launcher
// `tcpu_launch_softmax_kernel` (calling the runtime's tcpu_triton_launch) and
// `tcpu_variant_softmax_kernel`; exp is vector FMA code, not an expf call per element.
// --emit=header declares the three functions for C.
// Triton writes the combine regions' block argument locations as
// `loc(callsite(#loc1 at #loc11))` with #loc1 and #loc11 defined after the module, which
// MLIR 19's parser alone rejects ("undefined symbol alias id"); tcpu-compile hoists the
// aliases first (mlir::tt::hoistLocationAliases). Triton 3.3+ prints
// `llvm.intr.assume %c : i1`, MLIR 20's form, which tcpu-compile reads as the generic form.
// RUN: tcpu-compile %s -o - --emit=asm | FileCheck %s --check-prefix=ASM
// RUN: tcpu-compile %s -o %t.o && od -An -c -N 4 %t.o | FileCheck %s --check-prefix=ELF
// RUN: tcpu-compile %s -o - --emit=header | FileCheck %s --check-prefix=HEADER

// ASM: .globl softmax_kernel
// ASM: softmax_kernel:
// ASM: fmaxnm v{{[0-9]+}}.4s, v{{[0-9]+}}.4s, v{{[0-9]+}}.4s
// ASM: fmla v{{[0-9]+}}.4s, v{{[0-9]+}}.4s, v{{[0-9]+}}.4s
// ASM: softmax_kernel__programs:
// ASM: .globl tcpu_launch_softmax_kernel
// ASM: tcpu_launch_softmax_kernel:
// ASM: bl tcpu_triton_launch
// ASM: .globl tcpu_variant_softmax_kernel
// ASM: tcpu_variant_softmax_kernel:
// ASM: bl tcpu_triton_select
// ASM-NOT: expf
// ELF: 177 E L F
// HEADER: void softmax_kernel(void* a0, void* a1, int32_t a2, int32_t a3, int32_t a4, int32_t a5, int32_t pid_x, int32_t pid_y, int32_t pid_z, int32_t grid_x, int32_t grid_y, int32_t grid_z);
// HEADER: int tcpu_launch_softmax_kernel(void* a0, void* a1, int32_t a2, int32_t a3, int32_t a4, int32_t a5, int32_t grid_x, int32_t grid_y, int32_t grid_z);
// HEADER: const char* tcpu_variant_softmax_kernel(void);

#loc = loc("/home/user/triton/python/tutorials/02-fused-softmax.py":78:0)
module {
  tt.func public @softmax_kernel(%output_ptr: !tt.ptr<f32> {tt.divisibility = 16 : i32} loc("/home/user/triton/python/tutorials/02-fused-softmax.py":78:0), %input_ptr: !tt.ptr<f32> {tt.divisibility = 16 : i32} loc("/home/user/triton/python/tutorials/02-fused-softmax.py":78:0), %input_row_stride: i32 loc("/home/user/triton/python/tutorials/02-fused-softmax.py":78:0), %output_row_stride: i32 loc("/home/user/triton/python/tutorials/02-fused-softmax.py":78:0), %n_rows: i32 loc("/home/user/triton/python/tutorials/02-fused-softmax.py":78:0), %n_cols: i32 loc("/home/user/triton/python/tutorials/02-fused-softmax.py":78:0)) attributes {noinline = false} {
    %cst = arith.constant dense<0xFF800000> : tensor<32xf32> loc(#loc1)
    %row_start = tt.get_program_id x : i32 loc(#loc2)
    %row_step = tt.get_num_programs x : i32 loc(#loc3)
    %c1_i32 = arith.constant 1 : i32 loc(#loc1)
    %positive = arith.cmpi sgt, %n_cols, %c1_i32 : i32 loc(#loc1)
    llvm.intr.assume %positive : i1 loc(#loc1)
    scf.for %row_idx = %row_start to %n_rows step %row_step  : i32 {
      %row_start_ptr = arith.muli %row_idx, %input_row_stride : i32 loc(#loc5)
      %row_start_ptr_0 = tt.addptr %input_ptr, %row_start_ptr : !tt.ptr<f32>, i32 loc(#loc6)
      %col_offsets = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32> loc(#loc7)
      %input_ptrs = tt.splat %row_start_ptr_0 : !tt.ptr<f32> -> tensor<32x!tt.ptr<f32>> loc(#loc8)
      %input_ptrs_1 = tt.addptr %input_ptrs, %col_offsets : tensor<32x!tt.ptr<f32>>, tensor<32xi32> loc(#loc8)
      %mask = tt.splat %n_cols : i32 -> tensor<32xi32> loc(#loc9)
      %mask_2 = arith.cmpi slt, %col_offsets, %mask : tensor<32xi32> loc(#loc9)
      %row = tt.load %input_ptrs_1, %mask_2, %cst : tensor<32x!tt.ptr<f32>> loc(#loc10)
      %row_minus_max = "tt.reduce"(%row) <{axis = 0 : i32}> ({
      ^bb0(%row_minus_max_7: f32 loc(callsite(#loc1 at #loc11)), %row_minus_max_8: f32 loc(callsite(#loc1 at #loc11))):
        %row_minus_max_9 = arith.maxnumf %row_minus_max_7, %row_minus_max_8 : f32 loc(#loc24)
        tt.reduce.return %row_minus_max_9 : f32 loc(#loc22)
      }) : (tensor<32xf32>) -> f32 loc(#loc22)
      %row_minus_max_3 = tt.splat %row_minus_max : f32 -> tensor<32xf32> loc(#loc13)
      %row_minus_max_4 = arith.subf %row, %row_minus_max_3 : tensor<32xf32> loc(#loc13)
      %numerator = math.exp %row_minus_max_4 : tensor<32xf32> loc(#loc14)
      %denominator = "tt.reduce"(%numerator) <{axis = 0 : i32}> ({
      ^bb0(%denominator_7: f32 loc(callsite(#loc1 at #loc15)), %denominator_8: f32 loc(callsite(#loc1 at #loc15))):
        %denominator_9 = arith.addf %denominator_7, %denominator_8 : f32 loc(#loc25)
        tt.reduce.return %denominator_9 : f32 loc(#loc23)
      }) : (tensor<32xf32>) -> f32 loc(#loc23)
      %softmax_output = tt.splat %denominator : f32 -> tensor<32xf32> loc(#loc17)
      %softmax_output_5 = arith.divf %numerator, %softmax_output : tensor<32xf32> loc(#loc17)
      %output_row_start_ptr = arith.muli %row_idx, %output_row_stride : i32 loc(#loc18)
      %output_row_start_ptr_6 = tt.addptr %output_ptr, %output_row_start_ptr : !tt.ptr<f32>, i32 loc(#loc19)
      %output_ptrs = tt.splat %output_row_start_ptr_6 : !tt.ptr<f32> -> tensor<32x!tt.ptr<f32>> loc(#loc20)
      %output_ptrs_7 = tt.addptr %output_ptrs, %col_offsets : tensor<32x!tt.ptr<f32>>, tensor<32xi32> loc(#loc20)
      tt.store %output_ptrs_7, %softmax_output_5, %mask_2 : tensor<32x!tt.ptr<f32>> loc(#loc21)
    } loc(#loc4)
    tt.return loc(#loc)
  } loc(#loc)
} loc(#loc)
#loc1 = loc(unknown)
#loc2 = loc("/home/user/triton/python/tutorials/02-fused-softmax.py":81:28)
#loc3 = loc("/home/user/triton/python/tutorials/02-fused-softmax.py":82:27)
#loc4 = loc("/home/user/triton/python/tutorials/02-fused-softmax.py":82:41)
#loc5 = loc("/home/user/triton/python/tutorials/02-fused-softmax.py":84:42)
#loc6 = loc("/home/user/triton/python/tutorials/02-fused-softmax.py":84:32)
#loc7 = loc("/home/user/triton/python/tutorials/02-fused-softmax.py":87:31)
#loc8 = loc("/home/user/triton/python/tutorials/02-fused-softmax.py":88:33)
#loc9 = loc("/home/user/triton/python/tutorials/02-fused-softmax.py":90:33)
#loc10 = loc("/home/user/triton/python/tutorials/02-fused-softmax.py":91:18)
#loc11 = loc("/home/user/triton/python/tutorials/02-fused-softmax.py":93:35)
#loc12 = loc("/home/user/triton/python/language/standard.py":184:40)
#loc13 = loc("/home/user/triton/python/tutorials/02-fused-softmax.py":93:29)
#loc14 = loc("/home/user/triton/python/tutorials/02-fused-softmax.py":95:25)
#loc15 = loc("/home/user/triton/python/tutorials/02-fused-softmax.py":96:33)
#loc16 = loc("/home/user/triton/python/language/standard.py":267:36)
#loc17 = loc("/home/user/triton/python/tutorials/02-fused-softmax.py":97:33)
#loc18 = loc("/home/user/triton/python/tutorials/02-fused-softmax.py":99:49)
#loc19 = loc("/home/user/triton/python/tutorials/02-fused-softmax.py":99:39)
#loc20 = loc("/home/user/triton/python/tutorials/02-fused-softmax.py":100:41)
#loc21 = loc("/home/user/triton/python/tutorials/02-fused-softmax.py":101:26)
#loc22 = loc(callsite(#loc12 at #loc11))
#loc23 = loc(callsite(#loc16 at #loc15))
#loc24 = loc("/home/user/triton/python/language/standard.py":163:27)
#loc25 = loc("/home/user/triton/python/language/standard.py":256:15)
