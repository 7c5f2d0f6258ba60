// tcpu-compile --mattr=-neon (how the scalar baseline objects are built) with a target whose
// features are instructions on vector registers is refused by name, before any code is made:
// the pipeline would emit them (here SMMLA) and LLVM's backend cannot select them without NEON
// (it aborted). The same module compiles with NEON, and without NEON once the target has no
// such features.
// RUN: not tcpu-compile %s --mattr=-neon -o %t.o 2>&1 | FileCheck %s
// RUN: not tcpu-compile %s --mattr=+neon,-neon -o %t.o 2>&1 | FileCheck %s
// RUN: tcpu-compile %s --mattr=-neon,+neon,+i8mm --emit=asm -o - | FileCheck %s --check-prefix=ASM
// RUN: tcpu-compile %s --emit=asm -o - | FileCheck %s --check-prefix=ASM

// CHECK: tcpu-compile: --mattr={{.*}} turns NEON off, but the target's features (dotprod, i8mm) are instructions on vector registers
// ASM: smmla

module attributes {tcpu.target = #tcpu.target<arch = "armv8.6-a", features = ["dotprod", "i8mm"], vector_bits = 0>} {
  func.func @mmla(%acc: vector<4xi32>, %a: vector<16xi8>, %b: vector<16xi8>) -> vector<4xi32> {
    %r = tcpu.smmla %acc, %a, %b : vector<16xi8> into vector<4xi32>
    return %r : vector<4xi32>
  }
}
