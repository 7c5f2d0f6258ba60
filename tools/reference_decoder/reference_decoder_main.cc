// reference-decoder: the scalar float64 reference of tcpu-decode (reference_decoder.h), with
// the same flags. Prints the generated ids; --dump-logits writes float64 logits (raw
// little-endian, steps x vocab).
#include <cstdio>
#include <string>
#include <vector>

#include "tools/decode/decode_args.h"
#include "tools/reference_decoder/reference_decoder.h"

int main(int argc, char** argv) {
  tcpu::decode::DecodeArgs args;
  std::string error;
  if (!tcpu::decode::ParseDecodeArgs(argc, argv, &args, &error)) {
    std::fprintf(stderr, "reference-decoder: %s\n", error.c_str());
    return 2;
  }
  tcpu::reference::ReferenceDecoder decoder;
  const int64_t max_tokens = static_cast<int64_t>(args.prompt_ids.size()) + args.max_new_tokens;
  if (!decoder.Load(args.model, max_tokens, args.int4, &error)) {
    std::fprintf(stderr, "reference-decoder: %s\n", error.c_str());
    return 1;
  }
  for (int32_t id : args.prompt_ids) {
    if (id >= decoder.vocab_size()) {
      std::fprintf(stderr, "reference-decoder: --prompt-ids: id %d is outside the vocabulary\n",
                   id);
      return 2;
    }
  }
  FILE* dump = args.dump_logits.empty() ? nullptr : std::fopen(args.dump_logits.c_str(), "wb");
  if (!args.dump_logits.empty() && dump == nullptr) {
    std::fprintf(stderr, "reference-decoder: cannot write %s\n", args.dump_logits.c_str());
    return 1;
  }
  std::vector<double> logits;
  std::vector<int32_t> generated;
  int32_t next = 0;
  bool ok = true;
  auto step = [&](int32_t token) {
    next = decoder.Step(token, &logits);
    if (dump != nullptr && std::fwrite(logits.data(), 8, logits.size(), dump) != logits.size()) {
      ok = false;
    }
  };
  for (int32_t id : args.prompt_ids) step(id);
  generated.push_back(next);
  while (static_cast<int64_t>(generated.size()) < args.max_new_tokens) {
    step(generated.back());
    generated.push_back(next);
  }
  if (dump != nullptr && std::fclose(dump) != 0) ok = false;
  if (!ok) {
    std::fprintf(stderr, "reference-decoder: writing %s failed\n", args.dump_logits.c_str());
    return 1;
  }
  std::printf("%s\n", tcpu::decode::JoinIds(generated).c_str());
  return 0;
}
