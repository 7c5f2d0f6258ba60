#include "kernels/decode_step/synthetic_model.h"

#include "runtime/testing/benchmark_util.h"
#include "tcpu/gemv.h"
#include "tcpu/gemv_q4.h"
#include "tcpu/status.h"

namespace tcpu::testing {
namespace {

// Cheap deterministic weights (random generators are far too slow under emulation at
// hundreds of MB), packed into 64-byte aligned memory.
bool MakeLinear(int64_t n, int64_t k, uint32_t seed, bool int4, SyntheticLinear* l) {
  std::vector<int8_t> w = CheapInt8(n * k, seed);
  const int64_t packed = int4 ? tcpu_q4_packed_size(n, k) : tcpu_packed_weights_size(n, k);
  l->packed.reset(static_cast<uint8_t*>(std::aligned_alloc(64, (packed + 63) / 64 * 64)));
  if (l->packed == nullptr) return false;
  if (int4) {
    for (int8_t& v : w) v = static_cast<int8_t>(v >> 4);  // [-8, 7]
    const std::vector<uint16_t> scales(n * tcpu_q4_groups(k), 0x2000);  // fp16 1 / 128
    l->bytes = packed;  // the scales are inside
    return tcpu_pack_q4(w.data(), scales.data(), n, k, l->packed.get(), packed) == TCPU_OK;
  }
  l->scales.assign(n, 1.0f / 2048);
  l->bytes = packed + 4 * n;
  return tcpu_pack_weights_i8(w.data(), n, k, l->packed.get(), packed) == TCPU_OK;
}

tcpu_linear View(const SyntheticLinear& l) {
  return {l.packed.get(), l.scales.empty() ? nullptr : l.scales.data()};
}

}  // namespace

std::unique_ptr<SyntheticModel> MakeSyntheticModel(const tcpu_layer_shape& shape, int64_t layers,
                                                   int64_t vocab, bool int4,
                                                   LayerWeights layer_weights) {
  auto m = std::make_unique<SyntheticModel>();
  const int64_t h = shape.hidden, qd = shape.num_heads * shape.head_dim;
  const int64_t kvd = shape.num_kv_heads * shape.head_dim, i = shape.intermediate;
  m->embed.assign(vocab * h, 0x3c00);  // 2^-7
  m->norm.assign(h, 0x3f80);           // 1.0
  const int64_t generated = layer_weights == LayerWeights::kShared ? 1 : layers;
  m->linears.resize(7 * generated + 1);
  const int64_t shapes[7][2] = {{qd, h}, {kvd, h}, {kvd, h}, {h, qd}, {i, h}, {i, h}, {h, i}};
  uint32_t seed = 1;
  for (int64_t layer = 0; layer < layers; ++layer) {
    SyntheticLinear* l = &m->linears[7 * (layer % generated)];
    for (int j = 0; j < 7; ++j) {
      if (layer < generated && !MakeLinear(shapes[j][0], shapes[j][1], seed++, int4, &l[j])) {
        return nullptr;
      }
      m->bytes_per_token += l[j].bytes;
    }
    m->layers.push_back({m->norm.data(), View(l[0]), View(l[1]), View(l[2]), nullptr, nullptr,
                         View(l[3]), m->norm.data(), View(l[4]), View(l[5]), View(l[6]), nullptr,
                         nullptr, nullptr, nullptr});
    m->bytes_per_token += 2 * 2 * h;  // the two norms
  }
  SyntheticLinear& head = m->linears.back();
  if (!MakeLinear(vocab, h, seed, int4, &head)) return nullptr;
  m->bytes_per_token += head.bytes + 2 * h /* final norm */ + 2 * h /* embedding */;
  m->weights = {shape,          layers,     vocab, m->embed.data(), m->layers.data(),
                m->norm.data(), View(head), 0.0f,  0.0f, TCPU_EMBED_BF16, nullptr};
  return m;
}

}  // namespace tcpu::testing
