// An int8 tt.dot (i8 x i8 -> i32) on SMMLA (i8mm): the accumulator in 2x2 blocks
// (tcpu.to_mmla_blocks), a's operands row pairs, b's a byte transpose of its rows or, when b is
// the transpose of an [N, K] tile (tl.dot(x, tl.trans(w))), row pairs of that tile.
#ifndef TCPU_DIALECT_LIB_TTTOTCPU_SMMLATILES_H_
#define TCPU_DIALECT_LIB_TTTOTCPU_SMMLATILES_H_

#include "mlir/IR/Builders.h"
#include "mlir/IR/Value.h"
#include "mlir/Support/LLVM.h"

namespace mlir::tt {

// Accumulator blocks that fit in NEON's 32 registers beside a chunk's operands.
inline constexpr int64_t kRegisterBlocks = 16;

// Whether an [M, N] accumulator has more 2x2 blocks than that: SmmlaTiles keeps it in a stack
// buffer.
inline bool smmlaBlocksInMemory(int64_t m, int64_t n) {
  return (m / 2) * (n / 2) > kRegisterBlocks;
}

// One product of a dot: a[M, K] x b[K, N].
struct DotTerm {
  Value a, b;
};

// Whether `terms` can be summed by one SmmlaTiles: the same operand types, and b either the
// transpose of an [N, K] tile in all of them or in none.
bool smmlaTermsMatch(ArrayRef<DotTerm> terms);

// c[M, N] += the sum of `terms` (vectors; M and N even, K a multiple of 8; smmlaTermsMatch),
// the result in c's row-major form: one dot whose K is all the terms' Ks, exact since the sums
// are integer. Up to kRegisterBlocks blocks run in registers, one 8-k chunk of every block at
// a time. A larger accumulator lives in a stack buffer (tcpu-carry-in-buffers then keeps it
// there across a K loop): the operands are packed into buffers of their own and a loop over
// tiles of up to 4x4 blocks runs every chunk of a tile while its blocks are in registers, so
// the more terms, the fewer times per K step the buffer is read and written.
Value SmmlaTiles(OpBuilder& b, Location loc, ArrayRef<DotTerm> terms, Value c);

}  // namespace mlir::tt

#endif  // TCPU_DIALECT_LIB_TTTOTCPU_SMMLATILES_H_
