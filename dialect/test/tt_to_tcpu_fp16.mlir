// f16 arithmetic and f16 dots by the target's fp16 features. Triton rounds every f16 op to
// f16. With "fp16" (FEAT_FP16) f16 ops stay f16 vector ops (FADD/FMUL/FMLA .8h in the
// backend) and an f16 x f16 -> f16 dot accumulates in f16 (one broadcast FMA per k on f16
// rows); without it the backend computes +, -, * in f32 and rounds back after each op (the same
// numbers), but an f16 math.fma is expanded first: the f32 sum rounded to odd (TwoSum's error
// decides), then truncf, so it rounds once. With "fp16fml" (FEAT_FHM) an f16 x f16 -> f32 dot
// runs on tcpu.fmlal by element: FMLAL and FMLAL2 per 8 columns of a row per k.
// RUN: tcpu-opt %s -split-input-file --tt-to-tcpu-elementwise --tt-to-tcpu-dot | FileCheck %s

// CHECK-LABEL: tt.func @fma_without_fp16(
// CHECK: %[[X:.*]] = arith.extf %{{.*}} : vector<8xf16> to vector<8xf32>
// CHECK: %[[Y:.*]] = arith.extf %{{.*}} : vector<8xf16> to vector<8xf32>
// CHECK: %[[Z:.*]] = arith.extf %{{.*}} : vector<8xf16> to vector<8xf32>
// CHECK: %[[P:.*]] = arith.mulf %[[X]], %[[Y]] : vector<8xf32>
// CHECK: %[[S:.*]] = arith.addf %[[P]], %[[Z]] : vector<8xf32>
// CHECK: arith.cmpf one
// CHECK: %[[BITS:.*]] = arith.bitcast %[[S]] : vector<8xf32> to vector<8xi32>
// CHECK: %[[ODD:.*]] = arith.select %{{.*}}, %{{.*}}, %[[BITS]] : vector<8xi1>, vector<8xi32>
// CHECK: %[[F:.*]] = arith.bitcast %[[ODD]] : vector<8xi32> to vector<8xf32>
// CHECK: arith.truncf %[[F]] : vector<8xf32> to vector<8xf16>
// CHECK-NOT: math.fma
// CHECK: arith.addf %{{.*}}, %{{.*}} : vector<8xf16>
// CHECK: tt.return
tt.func @fma_without_fp16(%x: tensor<8xf16>, %y: tensor<8xf16>, %z: tensor<8xf16>) -> tensor<8xf16> {
  %0 = math.fma %x, %y, %z : tensor<8xf16>
  %1 = arith.addf %0, %x : tensor<8xf16>
  tt.return %1 : tensor<8xf16>
}

// f32 FMAs are not touched.
// CHECK-LABEL: tt.func @fma_f32(
// CHECK: math.fma %{{.*}}, %{{.*}}, %{{.*}} : vector<4xf32>
tt.func @fma_f32(%x: tensor<4xf32>, %y: tensor<4xf32>, %z: tensor<4xf32>) -> tensor<4xf32> {
  %0 = math.fma %x, %y, %z : tensor<4xf32>
  tt.return %0 : tensor<4xf32>
}

// Without fp16 an f16 accumulator is widened: f32 outer products, one truncf at the end.
// CHECK-LABEL: tt.func @dot_f16_acc_without_fp16(
// CHECK: vector.outerproduct %{{.*}}, %{{.*}}, %{{.*}} {kind = #vector.kind<add>} : vector<2xf32>, vector<8xf32>
// CHECK: arith.truncf %{{.*}} : vector<2x8xf32> to vector<2x8xf16>
tt.func @dot_f16_acc_without_fp16(%a: tensor<2x2xf16>, %b: tensor<2x8xf16>, %c: tensor<2x8xf16>) -> tensor<2x8xf16> {
  %d = tt.dot %a, %b, %c : tensor<2x2xf16> * tensor<2x8xf16> -> tensor<2x8xf16>
  tt.return %d : tensor<2x8xf16>
}

// -----

module attributes {tcpu.target = #tcpu.target<arch = "armv8.2-a", features = ["fp16"], vector_bits = 0>} {
  // CHECK-LABEL: tt.func @f16_ops(
  // CHECK: %[[F:.*]] = math.fma %{{.*}}, %{{.*}}, %{{.*}} : vector<8xf16>
  // CHECK: %[[M:.*]] = arith.maxnumf %[[F]], %{{.*}} : vector<8xf16>
  // CHECK: %[[C:.*]] = arith.cmpf olt, %[[M]], %{{.*}} : vector<8xf16>
  // CHECK: arith.select %[[C]], %{{.*}}, %{{.*}} : vector<8xi1>, vector<8xf16>
  // CHECK-NOT: arith.extf
  tt.func @f16_ops(%x: tensor<8xf16>, %y: tensor<8xf16>, %z: tensor<8xf16>) -> tensor<8xf16> {
    %0 = math.fma %x, %y, %z : tensor<8xf16>
    %1 = arith.maxnumf %0, %y : tensor<8xf16>
    %2 = arith.cmpf olt, %1, %z : tensor<8xf16>
    %3 = arith.select %2, %1, %x : tensor<8xi1>, tensor<8xf16>
    tt.return %3 : tensor<8xf16>
  }

  // An f16 accumulator stays f16: f16 outer products, no widening, no truncf.
  // CHECK-LABEL: tt.func @dot_f16_acc(
  // CHECK-COUNT-2: vector.outerproduct %{{.*}}, %{{.*}}, %{{.*}} {kind = #vector.kind<add>} : vector<2xf16>, vector<8xf16>
  // CHECK-NOT: arith.truncf
  // CHECK-NOT: arith.extf
  // CHECK: tt.return
  tt.func @dot_f16_acc(%a: tensor<2x2xf16>, %b: tensor<2x8xf16>, %c: tensor<2x8xf16>) -> tensor<2x8xf16> {
    %d = tt.dot %a, %b, %c : tensor<2x2xf16> * tensor<2x8xf16> -> tensor<2x8xf16>
    tt.return %d : tensor<2x8xf16>
  }

  // f16 into f32 without fp16fml: f32 outer products of widened operands.
  // CHECK-LABEL: tt.func @dot_f32_acc_without_fhm(
  // CHECK: arith.extf %{{.*}} : vector<2x2xf16> to vector<2x2xf32>
  // CHECK: vector.outerproduct
  // CHECK-NOT: tcpu.fmlal
  tt.func @dot_f32_acc_without_fhm(%a: tensor<2x2xf16>, %b: tensor<2x8xf16>, %c: tensor<2x8xf32>) -> tensor<2x8xf32> {
    %d = tt.dot %a, %b, %c : tensor<2x2xf16> * tensor<2x8xf16> -> tensor<2x8xf32>
    tt.return %d : tensor<2x8xf32>
  }

}

// -----

module attributes {tcpu.target = #tcpu.target<arch = "armv8.2-a", features = ["fp16", "fp16fml"], vector_bits = 0>} {
  // 2 rows x 16 columns x 2 k: per k and row, a broadcast of a[i, k] and FMLAL + FMLAL2 for
  // each 8 columns (2 x 2 x 2 x 2 = 16 instructions), on the f32 accumulator's 4-lane slices.
  // CHECK-LABEL: tt.func @dot_fmlal(
  // CHECK: %[[S:.*]] = vector.broadcast %{{.*}} : f16 to vector<8xf16>
  // CHECK: tcpu.fmlal %{{.*}}, %{{.*}}, %[[S]] : vector<8xf16> into vector<4xf32>
  // CHECK: tcpu.fmlal high %{{.*}}, %{{.*}}, %[[S]] : vector<8xf16> into vector<4xf32>
  // CHECK-COUNT-7: tcpu.fmlal high
  // CHECK-NOT: tcpu.fmlal
  // CHECK-NOT: vector.outerproduct
  // CHECK-NOT: arith.extf
  // CHECK: tt.return
  tt.func @dot_fmlal(%a: tensor<2x2xf16>, %b: tensor<2x16xf16>, %c: tensor<2x16xf32>) -> tensor<2x16xf32> {
    %d = tt.dot %a, %b, %c : tensor<2x2xf16> * tensor<2x16xf16> -> tensor<2x16xf32>
    tt.return %d : tensor<2x16xf32>
  }

  // By blocks of the accumulator: every k of columns 0..7 (b's rows sliced at 0) before
  // columns 8..15, so a block is read and written once (an accumulator in memory).
  // CHECK-LABEL: tt.func @dot_fmlal_blocks(
  // CHECK: %[[B0:.*]] = vector.extract %{{.*}}[0] : vector<16xf16> from vector<2x16xf16>
  // CHECK: %[[B1:.*]] = vector.extract %{{.*}}[1] : vector<16xf16> from vector<2x16xf16>
  // CHECK: vector.extract_strided_slice %[[B0]] {offsets = [0], sizes = [8]
  // CHECK-COUNT-4: tcpu.fmlal
  // CHECK: vector.extract_strided_slice %[[B1]] {offsets = [0], sizes = [8]
  // CHECK-COUNT-4: tcpu.fmlal
  // CHECK: vector.extract_strided_slice %[[B0]] {offsets = [8], sizes = [8]
  // CHECK-COUNT-4: tcpu.fmlal
  // CHECK: vector.extract_strided_slice %[[B1]] {offsets = [8], sizes = [8]
  // CHECK-COUNT-4: tcpu.fmlal
  // CHECK-NOT: tcpu.fmlal
  // CHECK: tt.return
  tt.func @dot_fmlal_blocks(%a: tensor<2x2xf16>, %b: tensor<2x16xf16>, %c: tensor<2x16xf32>) -> tensor<2x16xf32> {
    %d = tt.dot %a, %b, %c : tensor<2x2xf16> * tensor<2x16xf16> -> tensor<2x16xf32>
    tt.return %d : tensor<2x16xf32>
  }

  // N not a multiple of 8: the f32 outer products.
  // CHECK-LABEL: tt.func @dot_fmlal_narrow(
  // CHECK-NOT: tcpu.fmlal
  // CHECK: vector.outerproduct
  tt.func @dot_fmlal_narrow(%a: tensor<2x2xf16>, %b: tensor<2x4xf16>, %c: tensor<2x4xf32>) -> tensor<2x4xf32> {
    %d = tt.dot %a, %b, %c : tensor<2x2xf16> * tensor<2x4xf16> -> tensor<2x4xf32>
    tt.return %d : tensor<2x4xf32>
  }

}
