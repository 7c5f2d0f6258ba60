// tcpu-compile: .mlir -> AArch64 code in process; features from #tcpu.target, --target or
// --mattr; vscale_range only when the target fixes the SVE vector length; clear errors.
// RUN: tcpu-compile %s -o - --emit=asm | FileCheck %s --check-prefix=ASM
// RUN: tcpu-compile %s -o - --emit=llvm | FileCheck %s --check-prefix=VLA
// RUN: tcpu-compile %s -o - --emit=llvm --target='#tcpu.target<arch = "armv9-a", features = ["sve2", "i8mm"], vector_bits = 256>' | FileCheck %s --check-prefix=VL256
// RUN: tcpu-compile %s -o %t.o && od -An -c -N 4 %t.o | FileCheck %s --check-prefix=ELF
// RUN: not tcpu-compile %s -o %t.o --target='#tcpu.target<arch = "armv8-a", features = [], vector_bits = 0>' 2>&1 | FileCheck %s --check-prefix=NOSVE
// RUN: not tcpu-compile %s -o %t.o --target='"armv9-a"' 2>&1 | FileCheck %s --check-prefix=NOTARGET
// RUN: not tcpu-compile %t.missing.mlir -o %t.o 2>&1 | FileCheck %s --check-prefix=MISSING

module attributes {tcpu.target = #tcpu.target<arch = "armv9-a", features = ["sve2", "i8mm", "bf16", "dotprod"], vector_bits = 0>} {
  // ASM-LABEL: dot:
  // ASM-DAG: sdot z{{[0-9]+}}.s, z{{[0-9]+}}.b, z{{[0-9]+}}.b
  // ASM-DAG: smmla v{{[0-9]+}}.4s, v{{[0-9]+}}.16b, v{{[0-9]+}}.16b
  func.func @dot(%acc: vector<[4]xi32>, %a: vector<[16]xi8>, %nacc: vector<4xi32>,
                 %na: vector<16xi8>) -> (vector<[4]xi32>, vector<4xi32>) {
    %0 = tcpu.sdot %acc, %a, %a : vector<[16]xi8> into vector<[4]xi32>
    %1 = tcpu.smmla %nacc, %na, %na : vector<16xi8> into vector<4xi32>
    return %0, %1 : vector<[4]xi32>, vector<4xi32>
  }

  // ASM-LABEL: norm:
  // ASM: {{bl?}} tcpu_rms_norm_bf16
  func.func @norm(%x: memref<?xbf16>) -> i32 {
    %s = tcpu.rms_norm %x, %x, %x eps = 1.0e-6 : memref<?xbf16>, memref<?xbf16>, memref<?xbf16>
    return %s : i32
  }
}

// VLA: target triple = "aarch64-unknown-linux-gnu"
// VLA-NOT: vscale_range
// VLA: "target-features"="+neon,+dotprod,+i8mm,+bf16,+sve,+sve2,+lse"
// VL256: vscale_range(2,2)
// VL256: "target-features"="+neon,+i8mm,+sve,+sve2,+lse"
// ELF: 177 E L F
// NOSVE: 'tcpu.sdot' on 'vector<[16]xi8>' needs target feature "sve", which the module's #tcpu.target<arch = "armv8-a", features = [], vector_bits = 0> lacks
// NOSVE: tcpu-compile: lowering to the LLVM dialect failed (see above)
// NOTARGET: tcpu-compile: --target='"armv9-a"': expected a #tcpu.target<...>
// MISSING: tcpu-compile: cannot read '{{.*}}.missing.mlir': No such file or directory
