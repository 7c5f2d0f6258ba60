// Guest instructions per generated token at 1, 4 and 8 concurrent greedy streams, at the shapes
// of //tools/perf:decode_per_token (a Llama with hidden 1024, 16 layers, 16 heads / 4 kv heads,
// head_dim 64, intermediate 2816, vocab 32000, untied lm_head: 213 M linear weights; the layers
// share one layer's weights, which no count depends on), one thread. Each region produces 8
// tokens, so the regions compare directly:
//   "streams=1"  8 tcpu_decode_step calls (the path of a lone stream);
//   "streams=4"  2 steps of 4 streams, "streams=8" 1 step of 8: RunRows over independent rows
//                and RowLogits, what tcpu_decoder_step_batch runs (rows.h).
// Stream s sits at position 8 + s of its own cache. Prints the weight bytes read per token
// (a step reads the matrices once for all its streams; each stream reads its embedding row).
// Held by //engine/model:decode_streams_perf_gate (its counts, and int8 at 8 streams at most
// 0.5x one stream). `decode_streams_count int8 8` runs one configuration alone, for a profile
// of its symbols (tools/perf:count).
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "engine/model/rows.h"
#include "kernels/decode_step/synthetic_model.h"
#include "runtime/greedy.h"
#include "tcpu/perf.h"
#include "tcpu/scratch.h"
#include "tcpu/status.h"
#include "tcpu/transformer.h"

namespace {

constexpr tcpu_layer_shape kShape = {1024, 2816, 16, 4, 64, 1e-5f, 10000.0f, 0.0f, nullptr, 0.0};
constexpr int64_t kLayers = 16, kVocab = 32000, kCapacity = 32, kTokens = 8, kMaxStreams = 8;

using AlignedBytes = std::unique_ptr<uint8_t, decltype(&std::free)>;
AlignedBytes Aligned(int64_t bytes) {
  return AlignedBytes(static_cast<uint8_t*>(std::aligned_alloc(64, (bytes + 63) / 64 * 64)),
                      &std::free);
}

int Fail(const char* what) {
  std::fprintf(stderr, "decode_streams_count: %s: %s\n", what, tcpu_last_error_detail());
  return 1;
}

struct Stream {
  std::vector<uint16_t> k_cache, v_cache;
  int64_t position = 0;
  int32_t token = 1;
};

int Measure(bool int4, int64_t only) {
  namespace tm = tcpu::model;
  const std::unique_ptr<tcpu::testing::SyntheticModel> model = tcpu::testing::MakeSyntheticModel(
      kShape, kLayers, kVocab, int4, tcpu::testing::LayerWeights::kShared);
  if (model == nullptr) {
    std::fprintf(stderr, "decode_streams_count: cannot build the model (out of memory?)\n");
    return 1;
  }
  const tcpu_model_weights& w = model->weights;
  const int64_t cache = kLayers * kShape.num_kv_heads * kCapacity * kShape.head_dim;
  std::vector<Stream> streams(kMaxStreams);
  for (int64_t s = 0; s < kMaxStreams; ++s) {
    streams[s].k_cache.assign(cache, 0);
    streams[s].v_cache.assign(cache, 0);
    streams[s].position = 8 + s;
  }
  const int64_t step_bytes = tcpu_decode_step_workspace_size(&w);
  const int64_t rows_bytes = tm::RowsWorkspaceSize(w);
  if (step_bytes < 0 || rows_bytes < 0) return Fail("workspace size");
  AlignedBytes step_ws = Aligned(step_bytes), rows_ws = Aligned(rows_bytes);
  if (step_ws == nullptr || rows_ws == nullptr ||
      tcpu_scratch_reserve(tm::RowsGemmScratchSize(w)) != TCPU_OK) {
    std::fprintf(stderr, "decode_streams_count: out of memory\n");
    return 1;
  }
  std::vector<float> logits(kVocab);
  const std::string format = int4 ? "int4" : "int8";
  const int64_t embed_row = 2 * kShape.hidden;  // bf16, read by each stream
  for (const int64_t n : {int64_t{1}, int64_t{4}, int64_t{8}}) {
    if (only != 0 && n != only) continue;
    const std::string region = "streams=" + std::to_string(n) + " " + format;
    for (int64_t done = 0; done < kTokens; done += n) {
      tcpu_perf_region_begin(region.c_str());
      int status = TCPU_OK;
      if (n == 1) {
        Stream& s = streams[0];
        status = tcpu_decode_step(&w, s.k_cache.data(), s.v_cache.data(), kCapacity, s.position,
                                  s.token, logits.data(), &s.token, step_ws.get(), step_bytes);
        ++s.position;
      } else {
        tm::RowCache caches[kMaxStreams];
        int32_t tokens[kMaxStreams];
        for (int64_t r = 0; r < n; ++r) {
          caches[r] = {streams[r].k_cache.data(), streams[r].v_cache.data(), kCapacity,
                       streams[r].position++};
          tokens[r] = streams[r].token;
        }
        status = tm::RunRows(w, tokens, caches, n, tm::RowAttention::kIndependent, rows_ws.get());
        float* buffer = tm::RowLogitsBuffer(w, rows_ws.get());
        if (status == TCPU_OK) status = tm::RowLogits(w, 0, n, rows_ws.get(), buffer);
        for (int64_t r = 0; r < n && status == TCPU_OK; ++r) {
          streams[r].token = tcpu::GreedyToken(buffer + r * kVocab, kVocab);
        }
      }
      tcpu_perf_region_end(region.c_str());
      if (status != TCPU_OK) return Fail(region.c_str());
    }
    // Streams restart at their positions for the next configuration.
    for (int64_t s = 0; s < kMaxStreams; ++s) streams[s].position = 8 + s;
    std::printf("%s: %lld weight bytes per token\n", region.c_str(),
                static_cast<long long>((model->bytes_per_token - embed_row) / n + embed_row));
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string which = argc > 1 ? argv[1] : "int8";
  const std::string only = argc > 2 ? argv[2] : "0";
  if (argc > 3 || (which != "int8" && which != "int4" && which != "both") ||
      (only != "0" && only != "1" && only != "4" && only != "8")) {
    std::fprintf(stderr,
                 "usage: decode_streams_count [int8|int4|both] [1|4|8]  (int8 by default; a "
                 "stream count runs only that configuration, for a profile of its symbols)\n");
    return 2;
  }
  const int64_t streams = std::atoll(only.c_str());
  if (which != "int4") {
    if (int s = Measure(false, streams); s != 0) return s;
  }
  if (which != "int8") return Measure(true, streams);
  return 0;
}
