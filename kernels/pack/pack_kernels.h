// The packing kernels behind tcpu_pack_weights_i8 and tcpu_pack_weights_i8_kn
// (pack_weights.cc). Each packs blocks [begin, end) of `layout` (4 output rows each, every
// chunk of k, zero padding included) into `data`, the first byte after the header; blocks are
// independent, so the entry points split them over the thread pool.
#ifndef TCPU_KERNELS_PACK_PACK_KERNELS_H_
#define TCPU_KERNELS_PACK_PACK_KERNELS_H_

#include <cstdint>

#include "kernels/pack/packed_weights.h"

namespace tcpu::pack {

using PackFn = void (*)(const int8_t* w, const PackedWeightsLayout& layout, int8_t* data,
                        int64_t begin, int64_t end);

// w row-major [n][k] (a row per output): 8-byte moves from four sequential row streams.
void PackRowsRef(const int8_t* w, const PackedWeightsLayout& layout, int8_t* data, int64_t begin,
                 int64_t end);

// w k-major, row-major [k][n] (the transpose: a row per input element): byte gathers.
void PackKnRef(const int8_t* w, const PackedWeightsLayout& layout, int8_t* data, int64_t begin,
               int64_t end);

// One tile of PackKnRef: block `block`, chunk `chunk` (4 rows of 8 bytes) into `tile`, zero
// where a column is past n or a k past k.
void PackKnTile(const int8_t* w, const PackedWeightsLayout& layout, int64_t block, int64_t chunk,
                int8_t* tile);

#if defined(__aarch64__)
// As PackKnRef: 16 columns x 8 k at a time transposed in registers (three ZIP stages), the
// edges (fewer than 16 columns left in the range or before n, a k tail) by the reference.
void PackKnNeon(const int8_t* w, const PackedWeightsLayout& layout, int8_t* data, int64_t begin,
                int64_t end);
#endif

}  // namespace tcpu::pack

#endif  // TCPU_KERNELS_PACK_PACK_KERNELS_H_
