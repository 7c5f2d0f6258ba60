// --tcpu-lower-vector-ops: tcpu.sdot / tcpu.smmla become arm_neon / arm_sve intrinsic ops,
// tcpu.bfmmla the BFMMLA intrinsic (MLIR 19's arm_neon has none), tcpu.lookup_bytes the TBL
// intrinsic of its table count, and a target without the instruction is a diagnostic.
// RUN: tcpu-opt %s --split-input-file --tcpu-lower-vector-ops --verify-diagnostics | FileCheck %s

module attributes {tcpu.target = #tcpu.target<arch = "armv9-a", features = ["sve2", "i8mm", "dotprod"], vector_bits = 0>} {
  // CHECK-LABEL: func @lowered
  func.func @lowered(%acc: vector<4xi32>, %a: vector<16xi8>, %b: vector<16xi8>,
                     %sacc: vector<[4]xi32>, %sa: vector<[16]xi8>, %sb: vector<[16]xi8>)
      -> (vector<4xi32>, vector<[4]xi32>) {
    // CHECK: %[[D:.*]] = arm_neon.intr.sdot %arg0, %arg1, %arg2 : vector<16xi8>, vector<16xi8> to vector<4xi32>
    %0 = tcpu.sdot %acc, %a, %b : vector<16xi8> into vector<4xi32>
    // CHECK: %[[M:.*]] = arm_neon.intr.smmla %[[D]], %arg1, %arg2 : vector<16xi8> to vector<4xi32>
    %1 = tcpu.smmla %0, %a, %b : vector<16xi8> into vector<4xi32>
    // CHECK: %[[SD:.*]] = arm_sve.sdot %arg3, %arg4, %arg5 : vector<[16]xi8> to vector<[4]xi32>
    %2 = tcpu.sdot %sacc, %sa, %sb : vector<[16]xi8> into vector<[4]xi32>
    // CHECK: %[[SM:.*]] = arm_sve.smmla %[[SD]], %arg4, %arg5 : vector<[16]xi8> to vector<[4]xi32>
    %3 = tcpu.smmla %2, %sa, %sb : vector<[16]xi8> into vector<[4]xi32>
    // CHECK: return %[[M]], %[[SM]]
    // CHECK-NOT: tcpu.s
    return %1, %3 : vector<4xi32>, vector<[4]xi32>
  }

  // TBL needs no feature beyond NEON.
  // CHECK-LABEL: func @lookup
  // CHECK: %[[T4:.*]] = llvm.call_intrinsic "llvm.aarch64.neon.tbl4.v16i8"(%arg0, %arg1, %arg2, %arg3, %arg4) : (vector<16xi8>, vector<16xi8>, vector<16xi8>, vector<16xi8>, vector<16xi8>) -> vector<16xi8>
  // CHECK: llvm.call_intrinsic "llvm.aarch64.neon.tbl1.v16i8"(%[[T4]], %arg4) : (vector<16xi8>, vector<16xi8>) -> vector<16xi8>
  // CHECK-NOT: tcpu.lookup_bytes
  func.func @lookup(%t0: vector<16xi8>, %t1: vector<16xi8>, %t2: vector<16xi8>, %t3: vector<16xi8>,
                    %i: vector<16xi8>) -> vector<16xi8> {
    %0 = tcpu.lookup_bytes %t0, %t1, %t2, %t3[%i]
    %1 = tcpu.lookup_bytes %0[%i]
    return %1 : vector<16xi8>
  }
}

// -----

// SVE SDOT needs only base SVE (a64fx-class targets).
module attributes {tcpu.target = #tcpu.target<arch = "armv8.2-a", features = ["sve"], vector_bits = 512>} {
  // CHECK-LABEL: func @sve_only
  func.func @sve_only(%acc: vector<[4]xi32>, %a: vector<[16]xi8>) -> vector<[4]xi32> {
    // CHECK: arm_sve.sdot
    %0 = tcpu.sdot %acc, %a, %a : vector<[16]xi8> into vector<[4]xi32>
    return %0 : vector<[4]xi32>
  }
}

// -----

module attributes {tcpu.target = #tcpu.target<arch = "armv8-a", features = [], vector_bits = 0>} {
  func.func @no_dotprod(%acc: vector<4xi32>, %a: vector<16xi8>) -> vector<4xi32> {
    // expected-error @+1 {{'tcpu.sdot' on 'vector<16xi8>' needs target feature "dotprod", which the module's #tcpu.target<arch = "armv8-a", features = [], vector_bits = 0> lacks}}
    %0 = tcpu.sdot %acc, %a, %a : vector<16xi8> into vector<4xi32>
    return %0 : vector<4xi32>
  }
}

// -----

module attributes {tcpu.target = #tcpu.target<arch = "armv8.2-a", features = ["sve", "dotprod"], vector_bits = 0>} {
  func.func @no_i8mm(%acc: vector<[4]xi32>, %a: vector<[16]xi8>) -> vector<[4]xi32> {
    // expected-error @+1 {{'tcpu.smmla' on 'vector<[16]xi8>' needs target feature "i8mm"}}
    %0 = tcpu.smmla %acc, %a, %a : vector<[16]xi8> into vector<[4]xi32>
    return %0 : vector<[4]xi32>
  }
}

// -----

module attributes {tcpu.target = #tcpu.target<arch = "armv8.6-a", features = ["i8mm", "dotprod"], vector_bits = 0>} {
  func.func @no_sve(%acc: vector<[4]xi32>, %a: vector<[16]xi8>) -> vector<[4]xi32> {
    // expected-error @+1 {{'tcpu.smmla' on 'vector<[16]xi8>' needs target feature "sve"}}
    %0 = tcpu.smmla %acc, %a, %a : vector<[16]xi8> into vector<[4]xi32>
    return %0 : vector<[4]xi32>
  }
}

// -----

func.func @no_target(%acc: vector<4xi32>, %a: vector<16xi8>) -> vector<4xi32> {
  // expected-error @+1 {{'tcpu.smmla' on 'vector<16xi8>' needs target feature "i8mm", which the Armv8-A baseline lacks (the module has no 'tcpu.target')}}
  %0 = tcpu.smmla %acc, %a, %a : vector<16xi8> into vector<4xi32>
  return %0 : vector<4xi32>
}

// -----

module attributes {tcpu.target = #tcpu.target<arch = "armv8.6-a", features = ["bf16"], vector_bits = 0>} {
  // CHECK-LABEL: func @bfmmla
  // CHECK: %[[M:.*]] = llvm.call_intrinsic "llvm.aarch64.neon.bfmmla"(%arg0, %arg1, %arg2) : (vector<4xf32>, vector<8xbf16>, vector<8xbf16>) -> vector<4xf32>
  // CHECK: return %[[M]]
  // CHECK-NOT: tcpu.bfmmla
  func.func @bfmmla(%acc: vector<4xf32>, %a: vector<8xbf16>, %b: vector<8xbf16>) -> vector<4xf32> {
    %0 = tcpu.bfmmla %acc, %a, %b : vector<8xbf16> into vector<4xf32>
    return %0 : vector<4xf32>
  }
}

// -----

module attributes {tcpu.target = #tcpu.target<arch = "armv8.6-a", features = ["i8mm"], vector_bits = 0>} {
  func.func @no_bf16(%acc: vector<4xf32>, %a: vector<8xbf16>) -> vector<4xf32> {
    // expected-error @+1 {{'tcpu.bfmmla' on 'vector<8xbf16>' needs target feature "bf16"}}
    %0 = tcpu.bfmmla %acc, %a, %a : vector<8xbf16> into vector<4xf32>
    return %0 : vector<4xf32>
  }
}
