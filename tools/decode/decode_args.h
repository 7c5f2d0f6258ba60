// Command line of tcpu-decode and reference-decoder (the same flags, so the demo and the
// tests run both the same way):
//   --model DIR --prompt-ids 1,2,3 --max-new-tokens N [--threads T] [--dump-logits FILE]
//   [--weights int8|int4]
#ifndef TCPU_TOOLS_DECODE_DECODE_ARGS_H_
#define TCPU_TOOLS_DECODE_DECODE_ARGS_H_

#include <cstdint>
#include <string>
#include <vector>

namespace tcpu::decode {

struct DecodeArgs {
  std::string model;
  std::vector<int32_t> prompt_ids;
  int64_t max_new_tokens = 0;
  int threads = 0;  // 0: the runtime's default
  std::string dump_logits;
  bool int4 = false;  // --weights int4 (default int8)
};

// Parses argv; false with *error naming the flag and what is wrong.
bool ParseDecodeArgs(int argc, char** argv, DecodeArgs* args, std::string* error);

// "1,2,3" -> {1, 2, 3}; false on anything but non-negative int32 ids separated by commas.
bool ParseIdList(const std::string& text, std::vector<int32_t>* ids);

std::string JoinIds(const std::vector<int32_t>& ids);

extern const char kDecodeUsage[];

}  // namespace tcpu::decode

#endif  // TCPU_TOOLS_DECODE_DECODE_ARGS_H_
