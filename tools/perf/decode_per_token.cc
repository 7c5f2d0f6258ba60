// Instructions per weight per generated token at the shapes of the measurement against
// llama.cpp (a Llama with hidden 1024, 16 layers, 16 heads / 4 kv heads, head_dim 64,
// intermediate 2816, vocab 32000, untied lm_head: 213 M linear weights), one thread: 24 greedy
// decode steps from token 1, the last 16 inside perf regions "decode_token int8|int4" (the
// first 8 warm the caches and fill some context, as the measurement did). The layers share one
// layer's weights: the count does not depend on them, and generating 213 M weights under QEMU
// would cost more than the decode.
//   decode_per_token [int8|int4]   (both without an argument)
// Held by //tools/perf:decode_per_token_perf_gate; per weight = region / 16 / 213,123,072.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <vector>

#include "kernels/decode_step/synthetic_model.h"
#include "tcpu/perf.h"
#include "tcpu/status.h"
#include "tcpu/transformer.h"

namespace {

constexpr tcpu_layer_shape kShape = {1024, 2816, 16, 4, 64, 1e-5f, 10000.0f, 0.0f, nullptr, 0.0};
constexpr int64_t kLayers = 16, kVocab = 32000, kWarm = 8, kCounted = 16;

int Measure(bool int4) {
  const std::unique_ptr<tcpu::testing::SyntheticModel> model =
      tcpu::testing::MakeSyntheticModel(kShape, kLayers, kVocab, int4,
                                         tcpu::testing::LayerWeights::kShared);
  if (model == nullptr) {
    std::fprintf(stderr, "decode_per_token: cannot build the model (out of memory?)\n");
    return 1;
  }
  const int64_t capacity = kWarm + kCounted;
  const int64_t cache = kLayers * kShape.num_kv_heads * capacity * kShape.head_dim;
  std::vector<uint16_t> k_cache(cache), v_cache(cache);
  std::vector<float> logits(kVocab);
  const int64_t ws_bytes = tcpu_decode_step_workspace_size(&model->weights);
  if (ws_bytes < 0) {
    std::fprintf(stderr, "decode_per_token: %s\n", tcpu_last_error_detail());
    return 1;
  }
  std::unique_ptr<uint8_t, decltype(&std::free)> ws(
      static_cast<uint8_t*>(std::aligned_alloc(64, (ws_bytes + 63) / 64 * 64)), &std::free);
  const char* region = int4 ? "decode_token int4" : "decode_token int8";
  int32_t token = 1;
  for (int64_t position = 0; position < capacity; ++position) {
    if (position >= kWarm) tcpu_perf_region_begin(region);
    const int status = tcpu_decode_step(&model->weights, k_cache.data(), v_cache.data(), capacity,
                                        position, token, logits.data(), &token, ws.get(), ws_bytes);
    if (position >= kWarm) tcpu_perf_region_end(region);
    if (status != TCPU_OK) {
      std::fprintf(stderr, "decode_per_token: step %lld: %s\n", static_cast<long long>(position),
                   tcpu_last_error_detail());
      return 1;
    }
  }
  std::printf("%s: %lld weight bytes per token\n", region,
              static_cast<long long>(model->bytes_per_token));
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  const bool both = argc == 1;
  if (argc > 2 || (!both && std::strcmp(argv[1], "int8") != 0 &&
                   std::strcmp(argv[1], "int4") != 0)) {
    std::fprintf(stderr, "usage: decode_per_token [int8|int4]  (both without an argument)\n");
    return 2;
  }
  if (both || std::strcmp(argv[1], "int8") == 0) {
    if (int s = Measure(false); s != 0) return s;
  }
  if (both || std::strcmp(argv[1], "int4") == 0) return Measure(true);
  return 0;
}
