// tcpu-compile with the fp16 target features: "fp16" (FEAT_FP16) is LLVM's +fullfp16 and
// "fp16fml" (FEAT_FHM, which implies fp16) +fp16fml. f16 vector arithmetic is then f16
// instructions on 8 lanes, and tcpu.fmlal with a splat operand the by-element FMLAL / FMLAL2.
// RUN: tcpu-compile %s -o - --emit=asm | FileCheck %s --check-prefix=ASM
// RUN: tcpu-compile %s -o - --emit=llvm | FileCheck %s --check-prefix=LLVM

module attributes {tcpu.target = #tcpu.target<arch = "armv8.2-a", features = ["fp16fml"], vector_bits = 0>} {
  // ASM-LABEL: fmlal:
  // ASM: fmlal v{{[0-9]+}}.4s, v{{[0-9]+}}.4h, v{{[0-9]+}}.h[3]
  // ASM: fmlal2 v{{[0-9]+}}.4s, v{{[0-9]+}}.4h, v{{[0-9]+}}.h[3]
  func.func @fmlal(%acc: vector<4xf32>, %a: vector<8xf16>, %b: vector<8xf16>) -> vector<4xf32> {
    %h = vector.extract %b[3] : f16 from vector<8xf16>
    %s = vector.broadcast %h : f16 to vector<8xf16>
    %0 = tcpu.fmlal %acc, %a, %s : vector<8xf16> into vector<4xf32>
    %1 = tcpu.fmlal high %0, %a, %s : vector<8xf16> into vector<4xf32>
    return %1 : vector<4xf32>
  }

  // ASM-LABEL: f16_arith:
  // ASM: fmla v{{[0-9]+}}.8h, v{{[0-9]+}}.8h, v{{[0-9]+}}.8h
  // ASM: fadd v{{[0-9]+}}.8h, v{{[0-9]+}}.8h, v{{[0-9]+}}.8h
  // ASM-NOT: fcvt
  // ASM: ret
  func.func @f16_arith(%x: vector<8xf16>, %y: vector<8xf16>, %z: vector<8xf16>) -> vector<8xf16> {
    %0 = math.fma %x, %y, %z : vector<8xf16>
    %1 = arith.addf %0, %x : vector<8xf16>
    return %1 : vector<8xf16>
  }
}

// LLVM: "target-features"="+neon,+fullfp16,+fp16fml,+lse"
