// The rotation of one position: cos and sin for every frequency pair, computed once and applied
// to any number of heads. tcpu_rope_bf16 / tcpu_rope_freqs_bf16 build one per call; the decode
// step builds one per token for the queries and keys of every layer (the table is the same for
// all of them), where recomputing it per layer cost more than the rotations.
#ifndef TCPU_KERNELS_ROPE_ROPE_TABLE_H_
#define TCPU_KERNELS_ROPE_ROPE_TABLE_H_

#include <cstdint>

namespace tcpu::rope {

// Half a head of 2048 dims: the largest head_dim a table covers.
constexpr int64_t kMaxHalf = 1024;

struct Table {
  int64_t head_dim = 0;
  float cos[kMaxHalf];
  float sin[kMaxHalf];
};

// TCPU_OK, or the error naming `fn` for a head_dim that is odd or above 2 * kMaxHalf.
int CheckHeadDim(const char* fn, int64_t head_dim);

// TCPU_OK, or the error naming `fn` and the index of an entry that is negative or not finite.
int CheckFrequencies(const char* fn, const double* inv_freq, int64_t head_dim);

// The table at `position` (>= 0) for the frequencies theta^(-2i/head_dim) (tcpu_rope_bf16),
// or for `inv_freq` scaled by `attention_scale` (tcpu_rope_freqs_bf16). Arguments checked.
void BuildFromTheta(int64_t head_dim, int64_t position, float theta, Table* table);
void BuildFromFrequencies(int64_t head_dim, int64_t position, const double* inv_freq,
                          double attention_scale, Table* table);

// Rotates each of the num_heads heads of x (head_dim each, rotate-half) by the table.
void Apply(const Table& table, uint16_t* x, int64_t num_heads);

}  // namespace tcpu::rope

#endif  // TCPU_KERNELS_ROPE_ROPE_TABLE_H_
