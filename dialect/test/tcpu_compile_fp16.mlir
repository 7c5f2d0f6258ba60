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

  // A splat made before a loop and used in it (LICM keeps it there): tcpu-compile gives each
  // use in the loop its own broadcast of the element, which the by-element forms still fold,
  // FMLAL's as FMLA's (broadcast_folded_splats.h).
  // ASM-LABEL: splats_into_loop:
  // ASM-NOT: dup
  // ASM: fmlal v{{[0-9]+}}.4s, v{{[0-9]+}}.4h, v{{[0-9]+}}.h[5]
  // ASM-NOT: dup
  // ASM: fmlal2 v{{[0-9]+}}.4s, v{{[0-9]+}}.4h, v{{[0-9]+}}.h[5]
  // ASM-NOT: dup
  // ASM: fmla v{{[0-9]+}}.4s, v{{[0-9]+}}.4s, v{{[0-9]+}}.s[2]
  // ASM-NOT: dup
  // ASM: ret
  func.func @splats_into_loop(%acc: vector<4xf32>, %a: vector<8xf16>, %b: vector<8xf16>,
                              %x: vector<4xf32>, %y: vector<4xf32>, %n: index) -> vector<4xf32> {
    %h = vector.extract %b[5] : f16 from vector<8xf16>
    %s = vector.broadcast %h : f16 to vector<8xf16>
    %f = vector.extract %y[2] : f32 from vector<4xf32>
    %t = vector.broadcast %f : f32 to vector<4xf32>
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%v = %acc) -> vector<4xf32> {
      %0 = tcpu.fmlal %v, %a, %s : vector<8xf16> into vector<4xf32>
      %1 = tcpu.fmlal high %0, %a, %s : vector<8xf16> into vector<4xf32>
      %2 = math.fma %x, %t, %1 : vector<4xf32>
      scf.yield %2 : vector<4xf32>
    }
    return %r : vector<4xf32>
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
