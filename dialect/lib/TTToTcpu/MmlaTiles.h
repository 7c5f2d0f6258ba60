// A tt.dot on 2x2 matrix-multiply blocks: i8 x i8 -> i32 on SMMLA (i8mm, 8 k per instruction)
// or bf16 x bf16 -> f32 on BFMMLA (bf16, 4 k per instruction), one mechanism parameterised by
// the operands' element type. The accumulator is in 2x2 blocks (tcpu.to_mmla_blocks); a's
// operands are row pairs, b's a transpose of its rows or, when b is the transpose of an [N, K]
// tile (tl.dot(x, tl.trans(w))), row pairs of that tile. Every operand is one 128-bit register:
// two rows of one instruction's k.
#ifndef TCPU_DIALECT_LIB_TTTOTCPU_MMLATILES_H_
#define TCPU_DIALECT_LIB_TTTOTCPU_MMLATILES_H_

#include "mlir/IR/Builders.h"
#include "mlir/IR/Value.h"
#include "mlir/Support/LLVM.h"

namespace mlir::tt {

// Accumulator blocks that fit in NEON's 32 registers beside a chunk's operands.
inline constexpr int64_t kRegisterBlocks = 16;

// Whether an [M, N] accumulator has more 2x2 blocks than that: MmlaTiles keeps it in a stack
// buffer.
inline bool mmlaBlocksInMemory(int64_t m, int64_t n) { return (m / 2) * (n / 2) > kRegisterBlocks; }

// One product of a dot: a[M, K] x b[K, N].
struct DotTerm {
  Value a, b;
};

// Whether `terms` can be summed by one MmlaTiles: the same operand types, and b either the
// transpose of an [N, K] tile in all of them or in none.
bool mmlaTermsMatch(ArrayRef<DotTerm> terms);

// c[M, N] += the sum of `terms` (vectors of i8 or bf16; M and N even, K a multiple of the
// instruction's k, 8 or 4; mmlaTermsMatch), the result in c's row-major form: one dot whose K
// is all the terms' Ks. Each k chunk is added to the blocks in the terms' order, so every
// element sees its additions in the order the terms' own dots would make them (floats round
// the same; how BFMMLA rounds: tcpu.bfmmla). Up to kRegisterBlocks blocks run in registers,
// one chunk of every block at a time. A larger accumulator lives in a stack buffer
// (tcpu-carry-in-buffers then keeps it there across a K loop): the operands are packed into
// buffers of their own and a loop over tiles of up to 4x4 blocks runs every chunk of a tile
// while its blocks are in registers, so the more terms, the fewer times per K step the buffer
// is read and written.
Value MmlaTiles(OpBuilder& b, Location loc, ArrayRef<DotTerm> terms, Value c);

}  // namespace mlir::tt

#endif  // TCPU_DIALECT_LIB_TTTOTCPU_MMLATILES_H_
