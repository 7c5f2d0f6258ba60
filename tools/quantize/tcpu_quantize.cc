// tcpu-quantize: quantizes and packs a checkpoint's linear weights once, into a pre-quantized
// checkpoint that tcpu-decode (tcpu_decoder_open) maps at load instead of quantizing:
//   tcpu-quantize --model DIR --weights int8|int4 -o OUT
// OUT then decodes exactly as DIR with the same --weights. A thin command line over
// tcpu_quantize_checkpoint (tcpu/quantize_checkpoint.h); README.md has the contract.
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "absl/flags/flag.h"
#include "tcpu/decoder.h"
#include "tcpu/quantize_checkpoint.h"
#include "tcpu/status.h"
#include "tools/cli/flags.h"
#include "tools/cli/weights.h"

ABSL_FLAG(std::string, model, "", "checkpoint directory (config.json, *.safetensors)");
ABSL_FLAG(std::string, weights, "int8",
          "int8 (W8A8, per-channel scales) or int4 (W4A8, a scale per 32 weights)");
ABSL_FLAG(std::string, out, "", "output directory (created if missing); -o OUT is the same");

namespace {

constexpr char kUsage[] = "usage: tcpu-quantize --model DIR --weights int8|int4 -o OUT\n";

int UsageError(const std::string& message) {
  std::fprintf(stderr, "tcpu-quantize: %s\n%s", message.c_str(), kUsage);
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  static char kOutFlag[] = "--out";
  for (int i = 1; i < argc; ++i) {
    if (std::string(argv[i]) == "-o") argv[i] = kOutFlag;  // the conventional short form
  }
  std::vector<std::string> positional;
  std::string error;
  switch (tcpu::cli::ParseFlags(argc, argv, &positional, &error)) {
    case tcpu::cli::ParseResult::kHelp:
      std::printf("%s%s", kUsage, tcpu::cli::FlagsHelp({"model", "weights", "out"}).c_str());
      return 0;
    case tcpu::cli::ParseResult::kError:
      return UsageError(error);
    case tcpu::cli::ParseResult::kOk:
      break;
  }
  if (!positional.empty()) return UsageError("unexpected argument '" + positional[0] + "'");
  const std::string model = absl::GetFlag(FLAGS_model), out = absl::GetFlag(FLAGS_out);
  const std::string weights = absl::GetFlag(FLAGS_weights);
  if (model.empty()) return UsageError("--model is required");
  if (out.empty()) return UsageError("-o (--out) is required");
  int32_t format;
  if (!tcpu::cli::ParseWeights(weights, &format, &error)) return UsageError(error);
  if (tcpu_quantize_checkpoint(model.c_str(), format, out.c_str()) != TCPU_OK) {
    std::fprintf(stderr, "tcpu-quantize: %s\n", tcpu_last_error_detail());
    return 1;
  }
  std::fprintf(stderr, "tcpu-quantize: wrote %s/model.safetensors (%s)\n", out.c_str(),
               weights.c_str());
  return 0;
}
