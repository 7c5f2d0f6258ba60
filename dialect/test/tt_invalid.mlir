// Every verifier check of the tt ops: the error names the operand, attribute or dimension
// that is wrong and what was expected.
// RUN: tcpu-opt %s -split-input-file -verify-diagnostics

// expected-error @+1 {{'tt.func' op entry block must have 1 arguments to match function signature}}
"tt.func"() <{function_type = (i32) -> (), sym_name = "f"}> ({
  "tt.return"() : () -> ()
}) : () -> ()

// -----

tt.func @f(%x: i32) -> f32 {
  // expected-error @+1 {{'tt.return' op returns 0 values but @f declares 1}}
  tt.return
}

// -----

tt.func @f(%x: i32) -> f32 {
  // expected-error @+1 {{'tt.return' op value 0 has type 'i32' but @f returns 'f32'}}
  tt.return %x : i32
}

// -----

tt.func @f(%x: i32) {
  // expected-error @+1 {{'tt.call' op calls @missing, which is not a tt.func of the module}}
  tt.call @missing(%x) : (i32) -> ()
  tt.return
}

// -----

tt.func private @g(%x: i32, %y: i32)
tt.func @f(%x: i32) {
  // expected-error @+1 {{'tt.call' op passes 1 arguments to @g, which takes 2}}
  tt.call @g(%x) : (i32) -> ()
  tt.return
}

// -----

tt.func private @g(%x: i32)
tt.func @f(%x: f32) {
  // expected-error @+1 {{'tt.call' op argument 0 has type 'f32' but @g takes 'i32'}}
  tt.call @g(%x) : (f32) -> ()
  tt.return
}

// -----

tt.func private @g(%x: i32) -> i32
tt.func @f(%x: i32) {
  // expected-error @+1 {{'tt.call' op result types do not match those of @g}}
  %y = tt.call @g(%x) : (i32) -> f32
  tt.return
}

// -----

tt.func @f() {
  // expected-error @+1 {{'tt.make_range' op result must be a 1-D tensor of i32, got 'tensor<16xi64>'}}
  %r = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi64>
  tt.return
}

// -----

tt.func @f() {
  // expected-error @+1 {{'tt.make_range' op end (0) must be greater than start (16)}}
  %r = tt.make_range {end = 0 : i32, start = 16 : i32} : tensor<16xi32>
  tt.return
}

// -----

tt.func @f() {
  // expected-error @+1 {{'tt.make_range' op result has 32 elements but the range [0, 16) has 16}}
  %r = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<32xi32>
  tt.return
}

// -----

tt.func @f(%x: tensor<16xi32>) {
  // expected-error @+1 {{'tt.splat' op source must be a scalar, got 'tensor<16xi32>'}}
  %s = tt.splat %x : tensor<16xi32> -> tensor<16xi32>
  tt.return
}

// -----

tt.func @f(%x: tensor<16xi32>) {
  // expected-error @+1 {{'tt.broadcast' op source rank 1 differs from result rank 2 (use tt.expand_dims first)}}
  %b = tt.broadcast %x : tensor<16xi32> -> tensor<16x16xi32>
  tt.return
}

// -----

tt.func @f(%x: tensor<16x2xi32>) {
  // expected-error @+1 {{'tt.broadcast' op dimension 1 of the source is 2; only size-1 dimensions can grow (to 8)}}
  %b = tt.broadcast %x : tensor<16x2xi32> -> tensor<16x8xi32>
  tt.return
}

// -----

tt.func @f(%x: tensor<16xi32>) {
  // expected-error @+1 {{'tt.expand_dims' op axis 2 is outside [0, 1]}}
  %e = tt.expand_dims %x {axis = 2 : i32} : tensor<16xi32> -> tensor<16x1xi32>
  tt.return
}

// -----

tt.func @f(%x: tensor<16xi32>) {
  // expected-error @+1 {{'tt.expand_dims' op result shape [16, 1] should be [1, 16]}}
  %e = tt.expand_dims %x {axis = 0 : i32} : tensor<16xi32> -> tensor<16x1xi32>
  tt.return
}

// -----

tt.func @f(%x: tensor<16x32xf32>) {
  // expected-error @+1 {{'tt.reshape' op source has 512 elements but result 'tensor<16x16xf32>' has 256}}
  %r = tt.reshape %x allow_reorder : tensor<16x32xf32> -> tensor<16x16xf32>
  tt.return
}

// -----

tt.func @f(%x: tensor<16x32xf32>) {
  // expected-error @+1 {{'tt.trans' op order has 3 entries for a rank-2 tensor}}
  %t = tt.trans %x {order = array<i32: 1, 0, 2>} : tensor<16x32xf32> -> tensor<32x16xf32>
  tt.return
}

// -----

tt.func @f(%x: tensor<16x32xf32>) {
  // expected-error @+1 {{'tt.trans' op order must be a permutation of 0..1}}
  %t = tt.trans %x {order = array<i32: 1, 1>} : tensor<16x32xf32> -> tensor<32x16xf32>
  tt.return
}

// -----

tt.func @f(%x: tensor<16x32xf32>) {
  // expected-error @+1 {{'tt.trans' op result dimension 0 is 16 but source dimension 1 is 32}}
  %t = tt.trans %x {order = array<i32: 1, 0>} : tensor<16x32xf32> -> tensor<16x32xf32>
  tt.return
}

// -----

tt.func @f(%x: tensor<16x32xf32>) {
  // expected-error @+1 {{'tt.cat' op concatenating two [16, 32] tensors gives twice dimension 0, not [16, 64]}}
  %c = tt.cat %x, %x : tensor<16x32xf32> -> tensor<16x64xf32>
  tt.return
}

// -----

tt.func @f(%x: tensor<16xf32>) {
  // expected-error @+1 {{'tt.join' op result shape should be [16, 2]}}
  %j = tt.join %x, %x : tensor<16xf32> -> tensor<2x16xf32>
  tt.return
}

// -----

tt.func @f(%x: tensor<16xf32>) {
  // expected-error @+1 {{'tt.join' op result element type differs from the operands'}}
  %j = tt.join %x, %x : tensor<16xf32> -> tensor<16x2xf16>
  tt.return
}

// -----

tt.func @f(%x: tensor<16x4xf32>) {
  // expected-error @+1 {{'tt.split' op source's last dimension must be 2, got [16, 4]}}
  %a, %b = tt.split %x : tensor<16x4xf32> -> tensor<16xf32>
  tt.return
}

// -----

tt.func @f(%x: tensor<16x2xf32>) {
  // expected-error @+1 {{'tt.split' op results should have shape [16]}}
  %a, %b = tt.split %x : tensor<16x2xf32> -> tensor<8xf32>
  tt.return
}

// -----

tt.func @f(%p: !tt.ptr<tensor<16x16xf32>>, %i: i32) {
  // expected-error @+1 {{'tt.advance' op has 1 offsets for a rank-2 block}}
  %q = tt.advance %p, [%i] : <tensor<16x16xf32>>
  tt.return
}

// -----

tt.func @f(%x: tensor<16xf32>) {
  // expected-error @+1 {{'tt.bitcast' op cannot reinterpret 'tensor<16xf32>' as 'tensor<16xi16>': element widths differ}}
  %b = tt.bitcast %x : tensor<16xf32> -> tensor<16xi16>
  tt.return
}

// -----

tt.func @f(%x: tensor<16xf32>) {
  // expected-error @+1 {{'tt.fp_to_fp' op narrowing 'f32' to 'bf16' needs a rounding mode (rounding = rtne or rtz)}}
  %b = tt.fp_to_fp %x : tensor<16xf32> -> tensor<16xbf16>
  tt.return
}

// -----

tt.func @f(%x: tensor<4x4xi32>) {
  // expected-error @+1 {{'tt.histogram' op source and result must be 1-D tensors}}
  %h = tt.histogram %x : tensor<4x4xi32> -> tensor<8xi32>
  tt.return
}

// -----

tt.func @f(%p: tensor<16x!tt.ptr<f32>>) {
  // expected-error @+1 {{'tt.load' op boundaryCheck applies only to block pointers}}
  %x = tt.load %p {boundaryCheck = array<i32: 0>} : tensor<16x!tt.ptr<f32>>
  tt.return
}

// -----

tt.func @f(%p: !tt.ptr<tensor<16x16xf32>>) {
  // expected-error @+1 {{'tt.load' op boundaryCheck dimension 2 is outside [0, 2)}}
  %x = tt.load %p {boundaryCheck = array<i32: 0, 2>} : !tt.ptr<tensor<16x16xf32>>
  tt.return
}

// -----

tt.func @f(%p: !tt.ptr<tensor<16x16xf32>>, %x: tensor<16x16xf32>) {
  // expected-error @+1 {{'tt.store' op boundaryCheck dimension -1 is outside [0, 2)}}
  tt.store %p, %x {boundaryCheck = array<i32: -1>} : !tt.ptr<tensor<16x16xf32>>
  tt.return
}

// -----

tt.func @f(%p: tensor<16x!tt.ptr<f32>>, %x: tensor<16xf32>) {
  // expected-error @+1 {{'tt.store' op boundaryCheck applies only to block pointers}}
  tt.store %p, %x {boundaryCheck = array<i32: 0>} : tensor<16x!tt.ptr<f32>>
  tt.return
}

// -----

tt.func @f(%p: tensor<16x!tt.ptr<f32>>, %m: tensor<8xi1>) {
  // expected-error @+1 {{'tt.load' op failed to verify that mask type matches ptr type}}
  %x = "tt.load"(%p, %m) <{operandSegmentSizes = array<i32: 1, 1, 0>}> : (tensor<16x!tt.ptr<f32>>, tensor<8xi1>) -> tensor<16xf32>
  tt.return
}

// -----

tt.func @f(%p: !tt.ptr<i32>, %c: i32, %v: f32) {
  // expected-error @+1 {{'tt.atomic_cas' op cmp, val and result must all be 'i32'}}
  %x = tt.atomic_cas acq_rel, gpu, %p, %c, %v : (!tt.ptr<i32>, i32, f32) -> i32
  tt.return
}

// -----

tt.func @f(%p: !tt.ptr<i32>, %v: f32) {
  // expected-error @+1 {{'tt.atomic_rmw' op failed to verify that ptr type matches value type}}
  %x = tt.atomic_rmw add, acq_rel, gpu, %p, %v : (!tt.ptr<i32>, f32) -> f32
  tt.return
}

// -----

tt.func @f(%base: !tt.ptr<f16>, %m: i64, %i: i32) {
  // expected-error @+1 {{'tt.make_tensor_ptr' op shape, strides, offsets and order need 2 entries each (the block's rank)}}
  %p = tt.make_tensor_ptr %base, [%m], [%m], [%i] {order = array<i32: 1, 0>} : <tensor<64x32xf16>>
  tt.return
}

// -----

tt.func @f(%base: !tt.ptr<f32>, %m: i64, %i: i32) {
  // expected-error @+1 {{'tt.make_tensor_ptr' op failed to verify that base points at the block's elements}}
  %p = "tt.make_tensor_ptr"(%base, %m, %m, %i) <{order = array<i32: 0>}> : (!tt.ptr<f32>, i64, i64, i32) -> !tt.ptr<tensor<64xf16>>
  tt.return
}

// -----

tt.func @f(%base: !tt.ptr<f32>, %n: i32, %s: i64) {
  // expected-error @+1 {{'tt.make_tensor_descriptor' op shape and strides need 2 entries each}}
  %d = tt.make_tensor_descriptor %base, [%n], [%s] : <f32>, <8x8xf32>
  tt.return
}

// -----

tt.func @f(%base: !tt.ptr<f16>, %n: i32, %s: i64) {
  // expected-error @+1 {{'tt.make_tensor_descriptor' op base element type differs from the block's 'f32'}}
  %d = tt.make_tensor_descriptor %base, [%n, %n], [%s, %s] : <f16>, <8x8xf32>
  tt.return
}

// -----

tt.func @f(%d: !tt.tensordesc<8x8xf32>, %i: i32) {
  // expected-error @+1 {{'tt.descriptor_load' op needs 2 indices, got 1}}
  %x = tt.descriptor_load %d[%i] : !tt.tensordesc<8x8xf32> -> tensor<8x8xf32>
  tt.return
}

// -----

tt.func @f(%d: !tt.tensordesc<8x8xf32>, %i: i32) {
  // expected-error @+1 {{'tt.descriptor_load' op value 'tensor<8x8xf16>' does not match the descriptor's block 'tensor<8x8xf32>'}}
  %x = tt.descriptor_load %d[%i, %i] : !tt.tensordesc<8x8xf32> -> tensor<8x8xf16>
  tt.return
}

// -----

tt.func @f(%d: !tt.tensordesc<8x8xf32>, %i: i32, %x: tensor<4x8xf32>) {
  // expected-error @+1 {{'tt.descriptor_store' op value 'tensor<4x8xf32>' does not match the descriptor's block 'tensor<8x8xf32>'}}
  tt.descriptor_store %d[%i, %i], %x : !tt.tensordesc<8x8xf32>, tensor<4x8xf32>
  tt.return
}

// -----

// expected-error @+1 {{a tensor descriptor's block needs at least one dimension}}
tt.func @f(%d: !tt.tensordesc<f32>) {
  tt.return
}

// -----

tt.func @f(%x: tensor<16xf32>) {
  // expected-error @+1 {{'tt.reduce' op axis 1 is outside [0, 1)}}
  %r = "tt.reduce"(%x) <{axis = 1 : i32}> ({
  ^bb0(%a: f32, %b: f32):
    %s = arith.addf %a, %b : f32
    tt.reduce.return %s : f32
  }) : (tensor<16xf32>) -> f32
  tt.return
}

// -----

tt.func @f(%x: tensor<16x8xf32>) {
  // expected-error @+1 {{'tt.reduce' op result 0 has type 'tensor<16xf32>', expected 'tensor<8xf32>'}}
  %r = "tt.reduce"(%x) <{axis = 0 : i32}> ({
  ^bb0(%a: f32, %b: f32):
    %s = arith.addf %a, %b : f32
    tt.reduce.return %s : f32
  }) : (tensor<16x8xf32>) -> tensor<16xf32>
  tt.return
}

// -----

tt.func @f(%x: tensor<16xf32>) {
  // expected-error @+1 {{'tt.reduce' op has 1 operands but 2 results}}
  %r:2 = "tt.reduce"(%x) <{axis = 0 : i32}> ({
  ^bb0(%a: f32, %b: f32):
    %s = arith.addf %a, %b : f32
    tt.reduce.return %s : f32
  }) : (tensor<16xf32>) -> (f32, f32)
  tt.return
}

// -----

tt.func @f(%x: tensor<16xf32>) {
  // expected-error @+1 {{'tt.reduce' op combine region must take 2 arguments (two per operand), got 3}}
  %r = "tt.reduce"(%x) <{axis = 0 : i32}> ({
  ^bb0(%a: f32, %b: f32, %c: f32):
    %s = arith.addf %a, %b : f32
    tt.reduce.return %s : f32
  }) : (tensor<16xf32>) -> f32
  tt.return
}

// -----

tt.func @f(%x: tensor<16xf32>) {
  // expected-error @+1 {{'tt.reduce' op combine region argument 1 has type 'f16', expected 'f32'}}
  %r = "tt.reduce"(%x) <{axis = 0 : i32}> ({
  ^bb0(%a: f32, %b: f16):
    tt.reduce.return %a : f32
  }) : (tensor<16xf32>) -> f32
  tt.return
}

// -----

tt.func @f(%x: tensor<16xf32>) {
  // expected-error @+1 {{'tt.reduce' op combine region must return 1 values}}
  %r = "tt.reduce"(%x) <{axis = 0 : i32}> ({
  ^bb0(%a: f32, %b: f32):
    tt.reduce.return %a, %b : f32, f32
  }) : (tensor<16xf32>) -> f32
  tt.return
}

// -----

tt.func @f(%x: tensor<16xf32>) {
  // expected-error @+1 {{'tt.reduce' op combine region result 0 has type 'i32', expected 'f32'}}
  %r = "tt.reduce"(%x) <{axis = 0 : i32}> ({
  ^bb0(%a: f32, %b: f32):
    %i = arith.fptosi %a : f32 to i32
    tt.reduce.return %i : i32
  }) : (tensor<16xf32>) -> f32
  tt.return
}

// -----

tt.func @f(%x: tensor<16xf32>) {
  // expected-error @+1 {{'tt.scan' op axis -1 is outside [0, 1)}}
  %r = "tt.scan"(%x) <{axis = -1 : i32, reverse = false}> ({
  ^bb0(%a: f32, %b: f32):
    %s = arith.addf %a, %b : f32
    tt.scan.return %s : f32
  }) : (tensor<16xf32>) -> tensor<16xf32>
  tt.return
}

// -----

tt.func @f(%x: tensor<16xf32>) {
  // expected-error @+1 {{'tt.scan' op combine region must take 2 arguments (two per operand), got 1}}
  %r = "tt.scan"(%x) <{axis = 0 : i32, reverse = false}> ({
  ^bb0(%a: f32):
    tt.scan.return %a : f32
  }) : (tensor<16xf32>) -> tensor<16xf32>
  tt.return
}

// -----

tt.func @f(%a: tensor<16xf32>, %b: tensor<16xf32>, %c: tensor<16xf32>) {
  // expected-error @+1 {{'tt.dot' op a, b and c must all be 2-D (or batched 3-D) tensors}}
  %d = tt.dot %a, %b, %c : tensor<16xf32> * tensor<16xf32> -> tensor<16xf32>
  tt.return
}

// -----

tt.func @f(%a: tensor<16x32xf32>, %b: tensor<16x8xf32>, %c: tensor<16x8xf32>) {
  // expected-error @+1 {{'tt.dot' op a is [16, 32] and b is [16, 8]: their K dimensions differ}}
  %d = tt.dot %a, %b, %c : tensor<16x32xf32> * tensor<16x8xf32> -> tensor<16x8xf32>
  tt.return
}

// -----

tt.func @f(%a: tensor<16x32xf32>, %b: tensor<32x8xf32>, %c: tensor<8x16xf32>) {
  // expected-error @+1 {{'tt.dot' op c is [8, 16] but a x b is [16, 8]}}
  %d = tt.dot %a, %b, %c : tensor<16x32xf32> * tensor<32x8xf32> -> tensor<8x16xf32>
  tt.return
}

// -----

tt.func @f(%a: tensor<16x32xi8>, %b: tensor<32x8xi8>, %c: tensor<16x8xf32>) {
  // expected-error @+1 {{'tt.dot' op i8 x i8 accumulates into i32; got 'i8' x 'i8' -> 'f32'}}
  %d = tt.dot %a, %b, %c : tensor<16x32xi8> * tensor<32x8xi8> -> tensor<16x8xf32>
  tt.return
}

// -----

tt.func @f(%a: tensor<16x32xf16>, %b: tensor<32x8xf16>, %c: tensor<16x8xi32>) {
  // expected-error @+1 {{'tt.dot' op float inputs accumulate into a float type, got 'i32'}}
  %d = tt.dot %a, %b, %c : tensor<16x32xf16> * tensor<32x8xf16> -> tensor<16x8xi32>
  tt.return
}

// -----

// A negative axis is reported as written (not as its unsigned 32-bit value).
tt.func @f(%x: tensor<16xi32>) {
  // expected-error @+1 {{'tt.expand_dims' op axis -1 is outside [0, 1]}}
  %e = tt.expand_dims %x {axis = -1 : i32} : tensor<16xi32> -> tensor<16x1xi32>
  tt.return
}

// -----

tt.func @f(%x: tensor<16x8xf32>) {
  // expected-error @+1 {{'tt.reduce' op axis -2 is outside [0, 2)}}
  %r = "tt.reduce"(%x) <{axis = -2 : i32}> ({
  ^bb0(%a: f32, %b: f32):
    %s = arith.addf %a, %b : f32
    tt.reduce.return %s : f32
  }) : (tensor<16x8xf32>) -> tensor<8xf32>
  tt.return
}

// -----

tt.func @f() {
  // expected-error @+1 {{'tt.make_range' op result must be a 1-D tensor of i32, got 'tensor<4x4xi32>'}}
  %r = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<4x4xi32>
  tt.return
}

// -----

tt.func @f(%x: tensor<2xf32>) {
  // expected-error @+1 {{'tt.unsplat' op source must hold one element, 'tensor<2xf32>' holds 2}}
  %s = tt.unsplat %x : tensor<2xf32>
  tt.return
}

// -----

tt.func @f(%x: tensor<8x16xf32>, %i: tensor<8x4xi32>) {
  // expected-error @+1 {{'tt.gather' op axis 2 is outside [0, 2)}}
  %g = tt.gather %x[%i] {axis = 2 : i32} : (tensor<8x16xf32>, tensor<8x4xi32>) -> tensor<8x4xf32>
  tt.return
}

// -----

tt.func @f(%x: tensor<8x16xf32>, %i: tensor<16x4xi32>) {
  // expected-error @+1 {{'tt.gather' op indices dimension 0 (16) exceeds the source's (8)}}
  %g = tt.gather %x[%i] {axis = 1 : i32} : (tensor<8x16xf32>, tensor<16x4xi32>) -> tensor<16x4xf32>
  tt.return
}

// -----

tt.func @f(%x: tensor<8x16xf32>, %i: tensor<8x4xi32>) {
  // expected-error @+1 {{'tt.gather' op result must have the indices' shape [8, 4] and the source's element type}}
  %g = tt.gather %x[%i] {axis = 1 : i32} : (tensor<8x16xf32>, tensor<8x4xi32>) -> tensor<8x4xi32>
  tt.return
}
