// --tcpu-to-llvm: tcpu, memref, vector, scf, arith and func all the way to the LLVM dialect.
// RUN: tcpu-opt %s --tcpu-to-llvm | FileCheck %s

module attributes {tcpu.target = #tcpu.target<arch = "armv9-a", features = ["sve2", "i8mm", "bf16", "dotprod"], vector_bits = 0>} {
  // CHECK-LABEL: llvm.func @decode_block
  // CHECK-SAME: (%{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %{{.*}}: i64, %{{.*}}: i64, %{{.*}}: i64,
  func.func @decode_block(%x: memref<?xbf16>, %norm_w: memref<?xbf16>, %tmp: memref<?xbf16>,
                          %packed: memref<?xi8>, %scales: memref<?xf32>, %y: memref<?xbf16>) -> i32 {
    // CHECK: %[[S:.*]] = llvm.call @tcpu_rms_norm_bf16(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) : (!llvm.ptr, !llvm.ptr, !llvm.ptr, i64, f32) -> i32
    %s = tcpu.rms_norm %x, %norm_w, %tmp eps = 1.0e-6 : memref<?xbf16>, memref<?xbf16>, memref<?xbf16>
    %c0 = arith.constant 0 : i32
    %ok = arith.cmpi eq, %s, %c0 : i32
    // CHECK: llvm.cond_br
    %r = scf.if %ok -> i32 {
      // CHECK: llvm.call @tcpu_gemv_bf16_w8({{.*}}) : (!llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr, i64, i64) -> i32
      %g = tcpu.gemv_bf16_w8 %packed, %scales, %tmp, %y : memref<?xi8>, memref<?xf32>, memref<?xbf16>, memref<?xbf16>
      scf.yield %g : i32
    } else {
      scf.yield %s : i32
    }
    return %r : i32
  }

  // CHECK-LABEL: llvm.func @dot
  func.func @dot(%acc: vector<[4]xi32>, %a: vector<[16]xi8>, %b: vector<[16]xi8>,
                 %nacc: vector<4xi32>, %na: vector<16xi8>) -> (vector<[4]xi32>, vector<4xi32>) {
    // CHECK: "arm_sve.intr.sdot"(%{{.*}}, %{{.*}}, %{{.*}}) : (vector<[4]xi32>, vector<[16]xi8>, vector<[16]xi8>) -> vector<[4]xi32>
    %0 = tcpu.sdot %acc, %a, %b : vector<[16]xi8> into vector<[4]xi32>
    // CHECK: arm_neon.intr.smmla %{{.*}}, %{{.*}}, %{{.*}} : vector<16xi8> to vector<4xi32>
    %1 = tcpu.smmla %nacc, %na, %na : vector<16xi8> into vector<4xi32>
    return %0, %1 : vector<[4]xi32>, vector<4xi32>
  }

  // CHECK-LABEL: llvm.func @checks
  func.func @checks(%v: i32) {
    %c0 = arith.constant 0 : i32
    %pos = arith.cmpi sge, %v, %c0 : i32
    // CHECK: llvm.call @printf
    tcpu.print "v =" %v : i32
    // CHECK: llvm.cond_br
    // CHECK: llvm.call @abort
    tcpu.assert %pos, "v must be >= 0"
    return
  }
  // CHECK-DAG: llvm.func @tcpu_rms_norm_bf16(!llvm.ptr, !llvm.ptr, !llvm.ptr, i64, f32) -> i32
  // CHECK-DAG: llvm.func @tcpu_gemv_bf16_w8(!llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr, i64, i64) -> i32
  // CHECK-NOT: tcpu.
  // CHECK-NOT: func.func
}
