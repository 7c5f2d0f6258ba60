// tcpu.fmlal: acc (4 x f32) += f16 lanes 0-3 of a times those of b, or lanes 4-7 with `high`
// (FMLAL / FMLAL2, FEAT_FHM). The verifier checks the operand types; tcpu-lower-vector-ops
// makes it llvm.aarch64.neon.fmlal / fmlal2 and refuses it on a target without fp16fml.
// RUN: tcpu-opt %s -split-input-file -verify-diagnostics --tcpu-lower-vector-ops | FileCheck %s

module attributes {tcpu.target = #tcpu.target<arch = "armv8.2-a", features = ["fp16fml"], vector_bits = 0>} {
  // CHECK-LABEL: func @fmlal
  // CHECK: %[[LO:.*]] = llvm.call_intrinsic "llvm.aarch64.neon.fmlal"(%arg0, %arg1, %arg2) : (vector<4xf32>, vector<8xf16>, vector<8xf16>) -> vector<4xf32>
  // CHECK: llvm.call_intrinsic "llvm.aarch64.neon.fmlal2"(%[[LO]], %arg1, %arg2) : (vector<4xf32>, vector<8xf16>, vector<8xf16>) -> vector<4xf32>
  // CHECK-NOT: tcpu.fmlal
  func.func @fmlal(%acc: vector<4xf32>, %a: vector<8xf16>, %b: vector<8xf16>) -> vector<4xf32> {
    %0 = tcpu.fmlal %acc, %a, %b : vector<8xf16> into vector<4xf32>
    %1 = tcpu.fmlal high %0, %a, %b : vector<8xf16> into vector<4xf32>
    return %1 : vector<4xf32>
  }
}

// -----

module attributes {tcpu.target = #tcpu.target<arch = "armv8.2-a", features = ["fp16"], vector_bits = 0>} {
  func.func @no_fhm(%acc: vector<4xf32>, %a: vector<8xf16>) -> vector<4xf32> {
    // expected-error @+1 {{'tcpu.fmlal' on 'vector<8xf16>' needs target feature "fp16fml"}}
    %0 = tcpu.fmlal %acc, %a, %a : vector<8xf16> into vector<4xf32>
    return %0 : vector<4xf32>
  }
}

// -----

func.func @bad_acc(%acc: vector<4xf16>, %a: vector<8xf16>) {
  // expected-error @+1 {{operand 'acc' must be 'vector<4xf32>', got 'vector<4xf16>'}}
  %0 = tcpu.fmlal %acc, %a, %a : vector<8xf16> into vector<4xf16>
  return
}

// -----

func.func @bad_operands(%acc: vector<4xf32>, %a: vector<8xbf16>) {
  // expected-error @+1 {{operand 'a' must be 'vector<8xf16>' (lanes 0-3 or 4-7 used), got 'vector<8xbf16>'}}
  %0 = tcpu.fmlal %acc, %a, %a : vector<8xbf16> into vector<4xf32>
  return
}
