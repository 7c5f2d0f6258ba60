// Round trip of the tt memory ops as Triton 3.x prints them: tt.addptr (i32 and i64 offsets,
// scalar and tensor), tt.load / tt.store (mask, other, cache and eviction hints, volatile),
// block pointers (tt.make_tensor_ptr, tt.advance, boundaryCheck, padding), tensor
// descriptors (tt.make_tensor_descriptor, tt.descriptor_load / tt.descriptor_store),
// atomics and pointer casts. The generic form reparses too.
// RUN: tcpu-opt %s | tcpu-opt | FileCheck %s
// RUN: tcpu-opt %s -mlir-print-op-generic | tcpu-opt | FileCheck %s

module {
  // CHECK-LABEL: tt.func public @add_kernel(
  // CHECK-SAME: %[[X:[a-z0-9_#]+]]: !tt.ptr<f32> {tt.divisibility = 16 : i32}
  tt.func public @add_kernel(%x_ptr: !tt.ptr<f32> {tt.divisibility = 16 : i32},
                             %out_ptr: !tt.ptr<f32> {tt.divisibility = 16 : i32},
                             %n_elements: i32 {tt.divisibility = 16 : i32}) attributes {noinline = false} {
    %cst = arith.constant dense<0.000000e+00> : tensor<128xf32>
    %pid = tt.get_program_id x : i32
    %offsets = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32>
    %offsets_0 = tt.splat %pid : i32 -> tensor<128xi32>
    %offsets_1 = arith.addi %offsets_0, %offsets : tensor<128xi32>
    %mask = tt.splat %n_elements : i32 -> tensor<128xi32>
    %mask_2 = arith.cmpi slt, %offsets_1, %mask : tensor<128xi32>
    // CHECK: %[[PTRS:[a-z0-9_#]+]] = tt.splat %[[X]] : !tt.ptr<f32> -> tensor<128x!tt.ptr<f32>>
    // CHECK: %[[ADDR:[a-z0-9_#]+]] = tt.addptr %[[PTRS]], %{{.*}} : tensor<128x!tt.ptr<f32>>, tensor<128xi32>
    %x = tt.splat %x_ptr : !tt.ptr<f32> -> tensor<128x!tt.ptr<f32>>
    %x_3 = tt.addptr %x, %offsets_1 : tensor<128x!tt.ptr<f32>>, tensor<128xi32>
    // CHECK: tt.load %[[ADDR]] : tensor<128x!tt.ptr<f32>>
    // CHECK: tt.load %[[ADDR]], %[[MASK:[a-z0-9_#]+]] : tensor<128x!tt.ptr<f32>>
    // CHECK: tt.load %[[ADDR]], %[[MASK]], %{{.*}} : tensor<128x!tt.ptr<f32>>
    %x_4 = tt.load %x_3 : tensor<128x!tt.ptr<f32>>
    %x_5 = tt.load %x_3, %mask_2 : tensor<128x!tt.ptr<f32>>
    %x_6 = tt.load %x_3, %mask_2, %cst : tensor<128x!tt.ptr<f32>>
    // Cache, eviction and volatile hints, in both orders of the keywords.
    // CHECK: tt.load %[[ADDR]], %[[MASK]] cacheModifier = ca evictionPolicy = evict_last : tensor<128x!tt.ptr<f32>>
    // CHECK: tt.load %[[ADDR]] cacheModifier = cg evictionPolicy = evict_first {isVolatile = true} : tensor<128x!tt.ptr<f32>>
    // CHECK: tt.load %[[ADDR]] cacheModifier = cv : tensor<128x!tt.ptr<f32>>
    %x_7 = tt.load %x_3, %mask_2 cacheModifier = ca evictionPolicy = evict_last : tensor<128x!tt.ptr<f32>>
    %x_8 = tt.load %x_3 evictionPolicy = evict_first cacheModifier = cg {isVolatile = true} : tensor<128x!tt.ptr<f32>>
    %x_9 = tt.load %x_3 cacheModifier = cv evictionPolicy = evict_normal : tensor<128x!tt.ptr<f32>>
    %sum = arith.addf %x_4, %x_5 : tensor<128xf32>
    %out = tt.splat %out_ptr : !tt.ptr<f32> -> tensor<128x!tt.ptr<f32>>
    %out_10 = tt.addptr %out, %offsets_1 : tensor<128x!tt.ptr<f32>>, tensor<128xi32>
    // CHECK: tt.store %[[OUT:[a-z0-9_#]+]], %{{.*}} : tensor<128x!tt.ptr<f32>>
    // CHECK: tt.store %[[OUT]], %{{.*}}, %[[MASK]] : tensor<128x!tt.ptr<f32>>
    // CHECK: tt.store %[[OUT]], %{{.*}}, %[[MASK]] cacheModifier = wb evictionPolicy = evict_first : tensor<128x!tt.ptr<f32>>
    // CHECK: tt.store %[[OUT]], %{{.*}} cacheModifier = cs : tensor<128x!tt.ptr<f32>>
    // CHECK: tt.store %[[OUT]], %{{.*}} cacheModifier = wt : tensor<128x!tt.ptr<f32>>
    tt.store %out_10, %sum : tensor<128x!tt.ptr<f32>>
    tt.store %out_10, %x_6, %mask_2 : tensor<128x!tt.ptr<f32>>
    tt.store %out_10, %x_7, %mask_2 evictionPolicy = evict_first cacheModifier = wb : tensor<128x!tt.ptr<f32>>
    tt.store %out_10, %x_8 cacheModifier = cs : tensor<128x!tt.ptr<f32>>
    tt.store %out_10, %x_9 cacheModifier = wt : tensor<128x!tt.ptr<f32>>
    tt.return
  }

  // Scalar pointers, i32 and i64 offsets; scalar loads and stores with an i1 mask.
  // CHECK-LABEL: tt.func @scalar_pointers(
  tt.func @scalar_pointers(%p: !tt.ptr<i32>, %i: i32, %j: i64, %m: i1) {
    // CHECK: tt.addptr %{{.*}}, %{{.*}} : !tt.ptr<i32>, i32
    // CHECK: tt.addptr %{{.*}}, %{{.*}} : !tt.ptr<i32>, i64
    %a = tt.addptr %p, %i : !tt.ptr<i32>, i32
    %b = tt.addptr %a, %j : !tt.ptr<i32>, i64
    // CHECK: tt.load %{{.*}} : !tt.ptr<i32>
    // CHECK: tt.load %{{.*}}, %{{.*}}, %{{.*}} : !tt.ptr<i32>
    %v = tt.load %b : !tt.ptr<i32>
    %w = tt.load %b, %m, %i : !tt.ptr<i32>
    // CHECK: tt.store %{{.*}}, %{{.*}}, %{{.*}} : !tt.ptr<i32>
    tt.store %a, %v, %m : !tt.ptr<i32>
    // i64 offsets on a tensor of pointers.
    // CHECK: tt.addptr %{{.*}}, %{{.*}} : tensor<64x!tt.ptr<i32>>, tensor<64xi64>
    %r = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
    %r64 = arith.extsi %r : tensor<64xi32> to tensor<64xi64>
    %ps = tt.splat %p : !tt.ptr<i32> -> tensor<64x!tt.ptr<i32>>
    %ps_1 = tt.addptr %ps, %r64 : tensor<64x!tt.ptr<i32>>, tensor<64xi64>
    // Pointer casts.
    // CHECK: tt.ptr_to_int %{{.*}} : !tt.ptr<i32> -> i64
    // CHECK: tt.int_to_ptr %{{.*}} : i64 -> !tt.ptr<i32>
    // CHECK: tt.ptr_to_int %{{.*}} : tensor<64x!tt.ptr<i32>> -> tensor<64xi64>
    // CHECK: tt.int_to_ptr %{{.*}} : tensor<64xi64> -> tensor<64x!tt.ptr<i32>>
    // CHECK: tt.bitcast %{{.*}} : !tt.ptr<i32> -> !tt.ptr<f32>
    %addr = tt.ptr_to_int %p : !tt.ptr<i32> -> i64
    %back = tt.int_to_ptr %addr : i64 -> !tt.ptr<i32>
    %addrs = tt.ptr_to_int %ps_1 : tensor<64x!tt.ptr<i32>> -> tensor<64xi64>
    %backs = tt.int_to_ptr %addrs : tensor<64xi64> -> tensor<64x!tt.ptr<i32>>
    %fp = tt.bitcast %back : !tt.ptr<i32> -> !tt.ptr<f32>
    tt.return
  }

  // Block pointers (tl.make_block_ptr, tl.advance).
  // CHECK-LABEL: tt.func @block_pointers(
  tt.func @block_pointers(%base: !tt.ptr<f16>, %m: i64, %k: i64, %stride: i64, %pid: i32) {
    %c0_i32 = arith.constant 0 : i32
    %c1_i64 = arith.constant 1 : i64
    %c32_i32 = arith.constant 32 : i32
    // CHECK: %[[BP:[a-z0-9_#]+]] = tt.make_tensor_ptr %{{.*}}, [%{{.*}}, %{{.*}}], [%{{.*}}, %{{.*}}], [%{{.*}}, %{{.*}}] {order = array<i32: 1, 0>} : <tensor<64x32xf16>>
    %a_block_ptr = tt.make_tensor_ptr %base, [%m, %k], [%stride, %c1_i64], [%pid, %c0_i32] {order = array<i32: 1, 0>} : <tensor<64x32xf16>>
    // CHECK: tt.load %[[BP]] {boundaryCheck = array<i32: 0, 1>, padding = 1 : i32} : !tt.ptr<tensor<64x32xf16>>
    // CHECK: tt.load %[[BP]] {boundaryCheck = array<i32: 1>, padding = 2 : i32} : !tt.ptr<tensor<64x32xf16>>
    %a = tt.load %a_block_ptr {boundaryCheck = array<i32: 0, 1>, padding = 1 : i32} : !tt.ptr<tensor<64x32xf16>>
    %a_1 = tt.load %a_block_ptr {boundaryCheck = array<i32: 1>, padding = 2 : i32} : !tt.ptr<tensor<64x32xf16>>
    // CHECK: %[[NEXT:[a-z0-9_#]+]] = tt.advance %[[BP]], [%{{.*}}, %{{.*}}] : <tensor<64x32xf16>>
    %a_block_ptr_2 = tt.advance %a_block_ptr, [%c0_i32, %c32_i32] : <tensor<64x32xf16>>
    // CHECK: tt.store %[[NEXT]], %{{.*}} {boundaryCheck = array<i32: 0>} : !tt.ptr<tensor<64x32xf16>>
    tt.store %a_block_ptr_2, %a {boundaryCheck = array<i32: 0>} : !tt.ptr<tensor<64x32xf16>>
    tt.return
  }

  // Tensor descriptors, with the type in both spellings.
  // CHECK-LABEL: tt.func @descriptors(
  tt.func @descriptors(%base: !tt.ptr<f32>, %rows: i32, %cols: i32, %stride: i64, %i: i32) {
    %c1_i64 = arith.constant 1 : i64
    // CHECK: %[[D:[a-z0-9_#]+]] = tt.make_tensor_descriptor %{{.*}}, [%{{.*}}, %{{.*}}], [%{{.*}}, %{{.*}}] : <f32>, <8x8xf32>
    %desc = tt.make_tensor_descriptor %base, [%rows, %cols], [%stride, %c1_i64] : <f32>, <tensor<8x8xf32>>
    // CHECK: tt.make_tensor_descriptor %{{.*}} {padding = 2 : i32} : <f32>, <8x8xf32>
    %desc_nan = tt.make_tensor_descriptor %base, [%rows, %cols], [%stride, %c1_i64] {padding = 2 : i32} : <f32>, <8x8xf32>
    // CHECK: %[[T:[a-z0-9_#]+]] = tt.descriptor_load %[[D]][%{{.*}}, %{{.*}}] : !tt.tensordesc<8x8xf32> -> tensor<8x8xf32>
    %tile = tt.descriptor_load %desc[%i, %i] : !tt.tensordesc<tensor<8x8xf32>> -> tensor<8x8xf32>
    // CHECK: tt.descriptor_load %[[D]][%{{.*}}, %{{.*}}] cacheModifier = cg evictionPolicy = evict_last : !tt.tensordesc<8x8xf32> -> tensor<8x8xf32>
    %tile_1 = tt.descriptor_load %desc[%i, %i] cacheModifier = cg evictionPolicy = evict_last : !tt.tensordesc<8x8xf32> -> tensor<8x8xf32>
    // CHECK: tt.descriptor_store %[[D]][%{{.*}}, %{{.*}}], %[[T]] : !tt.tensordesc<8x8xf32>, tensor<8x8xf32>
    tt.descriptor_store %desc[%i, %i], %tile : !tt.tensordesc<tensor<8x8xf32>>, tensor<8x8xf32>
    tt.return
  }

  // Atomics (tl.atomic_add, tl.atomic_max, tl.atomic_xchg, tl.atomic_cas).
  // CHECK-LABEL: tt.func @atomics(
  tt.func @atomics(%p: !tt.ptr<f32>, %q: !tt.ptr<i32>, %v: f32, %w: i32, %m: i1,
                   %ps: tensor<32x!tt.ptr<f32>>, %vs: tensor<32xf32>, %ms: tensor<32xi1>) {
    // CHECK: tt.atomic_rmw fadd, acq_rel, gpu, %{{.*}}, %{{.*}}, %{{.*}} : (!tt.ptr<f32>, f32, i1) -> f32
    // CHECK: tt.atomic_rmw max, relaxed, cta, %{{.*}}, %{{.*}} : (!tt.ptr<i32>, i32) -> i32
    // CHECK: tt.atomic_rmw exch, release, sys, %{{.*}}, %{{.*}} : (!tt.ptr<i32>, i32) -> i32
    // CHECK: tt.atomic_rmw fadd, acquire, gpu, %{{.*}}, %{{.*}}, %{{.*}} : (tensor<32x!tt.ptr<f32>>, tensor<32xf32>, tensor<32xi1>) -> tensor<32xf32>
    %0 = tt.atomic_rmw fadd, acq_rel, gpu, %p, %v, %m : (!tt.ptr<f32>, f32, i1) -> f32
    %1 = tt.atomic_rmw max, relaxed, cta, %q, %w : (!tt.ptr<i32>, i32) -> i32
    %2 = tt.atomic_rmw exch, release, sys, %q, %w : (!tt.ptr<i32>, i32) -> i32
    %3 = tt.atomic_rmw fadd, acquire, gpu, %ps, %vs, %ms : (tensor<32x!tt.ptr<f32>>, tensor<32xf32>, tensor<32xi1>) -> tensor<32xf32>
    %4 = tt.atomic_rmw and, acq_rel, gpu, %q, %w : (!tt.ptr<i32>, i32) -> i32
    %5 = tt.atomic_rmw or, acq_rel, gpu, %q, %w : (!tt.ptr<i32>, i32) -> i32
    %6 = tt.atomic_rmw xor, acq_rel, gpu, %q, %w : (!tt.ptr<i32>, i32) -> i32
    %7 = tt.atomic_rmw add, acq_rel, gpu, %q, %w : (!tt.ptr<i32>, i32) -> i32
    %8 = tt.atomic_rmw min, acq_rel, gpu, %q, %w : (!tt.ptr<i32>, i32) -> i32
    %9 = tt.atomic_rmw umax, acq_rel, gpu, %q, %w : (!tt.ptr<i32>, i32) -> i32
    %10 = tt.atomic_rmw umin, acq_rel, gpu, %q, %w : (!tt.ptr<i32>, i32) -> i32
    // CHECK-COUNT-7: tt.atomic_rmw {{and|or|xor|add|min|umax|umin}}, acq_rel, gpu
    // CHECK: tt.atomic_cas acq_rel, gpu, %{{.*}}, %{{.*}}, %{{.*}} : (!tt.ptr<i32>, i32, i32) -> i32
    %11 = tt.atomic_cas acq_rel, gpu, %q, %w, %w : (!tt.ptr<i32>, i32, i32) -> i32
    tt.return
  }
}
