// --help lists the tool's own options; the hundreds LLVM registers stay accepted and are
// listed by --help-hidden only.
// RUN: tcpu-compile --help | FileCheck %s --check-prefix=COMPILE
// RUN: tcpu-compile --help-hidden | FileCheck %s --check-prefix=HIDDEN
// RUN: tcpu-opt --help | FileCheck %s --check-prefix=OPT
// RUN: tcpu-compile %s -o - --emit=llvm --aarch64-neon-syntax=generic | FileCheck %s --check-prefix=ACCEPTED

// COMPILE: USAGE: tcpu-compile [options] <input .mlir or .ttir>
// COMPILE-NOT: aarch64-neon-syntax
// COMPILE: tcpu-compile options:
// COMPILE-NOT: aarch64-neon-syntax
// COMPILE: --emit=<value>
// COMPILE: --target=<string>
// COMPILE-NOT: enable-misched
// HIDDEN: --aarch64-neon-syntax
// OPT: USAGE: tcpu-opt [options] <input file>
// OPT-NOT: --aarch64-neon-syntax
// OPT-NOT: --disable-i2p-p2i-opt
// OPT: --split-input-file
// OPT: --triton-to-llvm
// ACCEPTED: define void @f()

func.func @f() {
  return
}
