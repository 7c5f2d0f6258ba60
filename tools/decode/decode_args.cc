#include "tools/decode/decode_args.h"

#include <cerrno>
#include <cstdlib>

#include "tcpu/decoder.h"
#include "tools/cli/weights.h"

namespace tcpu::decode {
namespace {

bool ParseInt(const std::string& text, int64_t lo, int64_t hi, int64_t* value) {
  if (text.empty() || text.size() > 19) return false;
  for (char c : text) {
    if (c < '0' || c > '9') return false;
  }
  errno = 0;
  const long long v = std::strtoll(text.c_str(), nullptr, 10);
  if (errno != 0 || v < lo || v > hi) return false;
  *value = v;
  return true;
}

}  // namespace

const char kDecodeUsage[] =
    "usage: --model DIR --prompt-ids 1,2,3 --max-new-tokens N [--threads T] "
    "[--dump-logits FILE] [--weights int8|int4]";

bool ParseIdList(const std::string& text, std::vector<int32_t>* ids) {
  ids->clear();
  size_t start = 0;
  while (start <= text.size()) {
    const size_t comma = text.find(',', start);
    const std::string item = text.substr(start, comma == std::string::npos ? std::string::npos
                                                                            : comma - start);
    int64_t id = 0;
    if (!ParseInt(item, 0, INT32_MAX, &id)) return false;
    ids->push_back(static_cast<int32_t>(id));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return !ids->empty();
}

std::string JoinIds(const std::vector<int32_t>& ids) {
  std::string out;
  for (size_t i = 0; i < ids.size(); ++i) out += (i ? "," : "") + std::to_string(ids[i]);
  return out;
}

bool ParseDecodeArgs(int argc, char** argv, DecodeArgs* args, std::string* error) {
  bool have_prompt = false, have_tokens = false;
  for (int i = 1; i < argc; ++i) {
    const std::string flag = argv[i];
    if (flag == "--help" || flag == "-h") {
      *error = kDecodeUsage;
      return false;
    }
    if (i + 1 >= argc) {
      *error = flag + ": missing value (" + kDecodeUsage + ")";
      return false;
    }
    const std::string value = argv[++i];
    int64_t number = 0;
    if (flag == "--model") {
      args->model = value;
    } else if (flag == "--prompt-ids") {
      if (!ParseIdList(value, &args->prompt_ids)) {
        *error = "--prompt-ids: '" + value.substr(0, 64) +
                 "' is not a comma-separated list of token ids";
        return false;
      }
      have_prompt = true;
    } else if (flag == "--max-new-tokens") {
      if (!ParseInt(value, 1, int64_t{1} << 30, &number)) {
        *error = "--max-new-tokens: '" + value.substr(0, 32) + "' is not a positive integer";
        return false;
      }
      args->max_new_tokens = number;
      have_tokens = true;
    } else if (flag == "--threads") {
      if (!ParseInt(value, 1, 1024, &number)) {
        *error = "--threads: '" + value.substr(0, 32) + "' is not an integer in [1, 1024]";
        return false;
      }
      args->threads = static_cast<int>(number);
    } else if (flag == "--dump-logits") {
      args->dump_logits = value;
    } else if (flag == "--weights") {
      int32_t weights;
      if (!tcpu::cli::ParseWeights(value, &weights, error)) return false;
      args->int4 = weights == TCPU_WEIGHTS_INT4;
    } else {
      *error = "unknown flag '" + flag.substr(0, 64) + "' (" + kDecodeUsage + ")";
      return false;
    }
  }
  if (args->model.empty() || !have_prompt || !have_tokens) {
    *error = std::string("--model, --prompt-ids and --max-new-tokens are required (") +
             kDecodeUsage + ")";
    return false;
  }
  return true;
}

}  // namespace tcpu::decode
