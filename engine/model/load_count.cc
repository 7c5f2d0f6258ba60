// load_count MODEL [int8|int4]: opens MODEL with tcpu_decoder_open_with_options inside the
// instruction-count region "load", then closes it. Under tools/perf's QEMU plugin the region's
// count divided by the model's linear weights is the load cost per weight: quantizing at load
// against mapping a pre-quantized checkpoint (tcpu/quantize_checkpoint.h).
//   bazel build --config=aarch64 -c opt //engine/model:load_count
//   bazel run //tools/perf:count -- --variant=vl128 bazel-bin/engine/model/load_count DIR int4
#include <cstdio>
#include <cstring>

#include "tcpu/decoder.h"
#include "tcpu/perf.h"
#include "tcpu/status.h"

int main(int argc, char** argv) {
  if (argc < 2 || argc > 3 ||
      (argc == 3 && std::strcmp(argv[2], "int8") != 0 && std::strcmp(argv[2], "int4") != 0)) {
    std::fprintf(stderr, "usage: load_count MODEL [int8|int4]\n");
    return 2;
  }
  tcpu_decoder_options options{};
  options.weights =
      argc == 3 && std::strcmp(argv[2], "int4") == 0 ? TCPU_WEIGHTS_INT4 : TCPU_WEIGHTS_INT8;
  tcpu_decoder* decoder = nullptr;
  tcpu_perf_region_begin("load");
  const int status = tcpu_decoder_open_with_options(argv[1], 1, &options, &decoder);
  tcpu_perf_region_end("load");
  if (status != TCPU_OK) {
    std::fprintf(stderr, "load_count: %s\n", tcpu_last_error_detail());
    return 1;
  }
  tcpu_decoder_info info;
  tcpu_decoder_get_info(decoder, &info);
  std::printf("loaded: %lld layers, hidden %lld, vocab %lld, %lld weight bytes per token\n",
              static_cast<long long>(info.num_layers), static_cast<long long>(info.hidden_size),
              static_cast<long long>(info.vocab_size),
              static_cast<long long>(info.weight_bytes_per_token));
  tcpu_decoder_close(decoder);
  return 0;
}
