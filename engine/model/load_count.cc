// load_count MODEL int8|int4 [MODEL int8|int4 ...]: opens each MODEL with
// tcpu_decoder_open_with_options inside the instruction-count region "load MODEL WEIGHTS"
// (for one model given without WEIGHTS: int8, region "load"), then closes it. Under tools/perf's
// QEMU plugin a region's count divided by the model's linear weights is the load cost per
// weight: quantizing at load, repacking GGUF blocks, or mapping a pre-quantized checkpoint
// (tcpu/quantize_checkpoint.h). tools/perf:load_perf_gate holds these counts.
//   bazel build --config=aarch64 -c opt //engine/model:load_count
//   bazel run -c opt //tools/perf:count -- --variant=vl128 bazel-bin/engine/model/load_count DIR int4
#include <cstdio>
#include <cstring>
#include <string>

#include "tcpu/decoder.h"
#include "tcpu/perf.h"
#include "tcpu/status.h"

namespace {

bool ParseWeights(const char* arg, int32_t* weights) {
  if (std::strcmp(arg, "int8") == 0) {
    *weights = TCPU_WEIGHTS_INT8;
  } else if (std::strcmp(arg, "int4") == 0) {
    *weights = TCPU_WEIGHTS_INT4;
  } else {
    return false;
  }
  return true;
}

// Opens and closes `model` inside region `region`; false (after printing why) if it fails.
bool CountLoad(const char* model, int32_t weights, const std::string& region) {
  tcpu_decoder_options options{};
  options.weights = weights;
  tcpu_decoder* decoder = nullptr;
  tcpu_perf_region_begin(region.c_str());
  const int status = tcpu_decoder_open_with_options(model, 1, &options, &decoder);
  tcpu_perf_region_end(region.c_str());
  if (status != TCPU_OK) {
    std::fprintf(stderr, "load_count: %s\n", tcpu_last_error_detail());
    return false;
  }
  tcpu_decoder_info info;
  tcpu_decoder_get_info(decoder, &info);
  std::printf("%s: %lld layers, hidden %lld, vocab %lld, %lld weight bytes per token\n",
              region.c_str(), static_cast<long long>(info.num_layers),
              static_cast<long long>(info.hidden_size), static_cast<long long>(info.vocab_size),
              static_cast<long long>(info.weight_bytes_per_token));
  tcpu_decoder_close(decoder);
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  int32_t weights = TCPU_WEIGHTS_INT8;
  if (argc == 2 || (argc == 3 && ParseWeights(argv[2], &weights))) {
    return CountLoad(argv[1], weights, "load") ? 0 : 1;
  }
  if (argc < 3 || argc % 2 != 1) {
    std::fprintf(stderr, "usage: load_count MODEL [int8|int4] | MODEL int8|int4 MODEL ...\n");
    return 2;
  }
  for (int i = 1; i < argc; i += 2) {
    if (!ParseWeights(argv[i + 1], &weights)) {
      std::fprintf(stderr, "load_count: '%s' is neither int8 nor int4\n", argv[i + 1]);
      return 2;
    }
    if (!CountLoad(argv[i], weights, std::string("load ") + argv[i] + " " + argv[i + 1])) return 1;
  }
  return 0;
}
