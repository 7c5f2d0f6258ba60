// tcpu-decode: greedy decoding of a Hugging Face checkpoint on the tcpu runtime.
//   tcpu-decode --model DIR --prompt-ids 1,2,3 --max-new-tokens N [--threads T]
//               [--dump-logits FILE]
// Prints the generated ids (one comma-separated line), then load time, prefill and decode
// speed, the bytes of weights each token reads and the kernel variants that ran.
// --dump-logits writes every step's fp32 logits (prompt steps included; raw little-endian,
// steps x vocab).
#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

#include "tcpu/cpu.h"
#include "tcpu/decoder.h"
#include "tcpu/status.h"
#include "tcpu/threads.h"
#include "tools/decode/decode_args.h"

namespace {

double Seconds(std::chrono::steady_clock::time_point since) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - since).count();
}

int Fail(const char* what, int status) {
  std::fprintf(stderr, "tcpu-decode: %s: %s\n  %s\n", what, tcpu_status_string(status),
               tcpu_last_error_detail());
  return 1;
}

}  // namespace

int main(int argc, char** argv) {
  tcpu::decode::DecodeArgs args;
  std::string error;
  if (!tcpu::decode::ParseDecodeArgs(argc, argv, &args, &error)) {
    std::fprintf(stderr, "tcpu-decode: %s\n", error.c_str());
    return 2;
  }
  if (args.threads > 0) {
    if (int s = tcpu_set_num_threads(args.threads); s != TCPU_OK) return Fail("--threads", s);
  }
  const int64_t max_tokens = static_cast<int64_t>(args.prompt_ids.size()) + args.max_new_tokens;
  const auto load_start = std::chrono::steady_clock::now();
  tcpu_decoder* decoder = nullptr;
  if (int s = tcpu_decoder_open(args.model.c_str(), max_tokens, &decoder); s != TCPU_OK) {
    return Fail(("loading " + args.model).c_str(), s);
  }
  const double load_seconds = Seconds(load_start);
  tcpu_decoder_info info;
  tcpu_decoder_get_info(decoder, &info);
  for (int32_t id : args.prompt_ids) {
    if (id >= info.vocab_size) {
      std::fprintf(stderr, "tcpu-decode: --prompt-ids: id %d is outside the vocabulary [0, %lld)\n",
                   id, static_cast<long long>(info.vocab_size));
      tcpu_decoder_close(decoder);
      return 2;
    }
  }
  FILE* dump = nullptr;
  if (!args.dump_logits.empty() && (dump = std::fopen(args.dump_logits.c_str(), "wb")) == nullptr) {
    std::fprintf(stderr, "tcpu-decode: --dump-logits: cannot write %s\n", args.dump_logits.c_str());
    tcpu_decoder_close(decoder);
    return 1;
  }
  std::vector<float> logits(info.vocab_size);
  std::vector<int32_t> generated;
  int32_t next = 0;
  int exit_code = 0;
  auto step = [&](int32_t token) {
    if (int s = tcpu_decoder_step(decoder, token, logits.data(), &next); s != TCPU_OK) {
      exit_code = Fail("decode step", s);
      return false;
    }
    if (dump != nullptr &&
        std::fwrite(logits.data(), sizeof(float), logits.size(), dump) != logits.size()) {
      std::fprintf(stderr, "tcpu-decode: --dump-logits: write to %s failed\n",
                   args.dump_logits.c_str());
      exit_code = 1;
      return false;
    }
    return true;
  };
  const auto prefill_start = std::chrono::steady_clock::now();
  bool ok = true;
  if (dump == nullptr && !args.prompt_ids.empty()) {
    // The whole prompt in one batched call (the GEMM path); --dump-logits wants every prompt
    // step's logits, so it steps instead (the logits are bit-identical either way).
    if (int s = tcpu_decoder_prefill(decoder, args.prompt_ids.data(),
                                     static_cast<int64_t>(args.prompt_ids.size()),
                                     logits.data(), &next);
        s != TCPU_OK) {
      exit_code = Fail("prefill", s);
      ok = false;
    }
  } else {
    for (size_t i = 0; ok && i < args.prompt_ids.size(); ++i) ok = step(args.prompt_ids[i]);
  }
  const double prefill_seconds = Seconds(prefill_start);
  const auto decode_start = std::chrono::steady_clock::now();
  if (ok) generated.push_back(next);
  while (ok && static_cast<int64_t>(generated.size()) < args.max_new_tokens) {
    ok = step(generated.back());
    if (ok) generated.push_back(next);
  }
  const double decode_seconds = Seconds(decode_start);
  if (dump != nullptr && std::fclose(dump) != 0 && exit_code == 0) {
    std::fprintf(stderr, "tcpu-decode: --dump-logits: cannot finish %s\n",
                 args.dump_logits.c_str());
    exit_code = 1;
  }
  tcpu_decoder_close(decoder);
  if (!ok) return exit_code;
  // The first generated token comes from the last prompt step; the others from decode steps.
  const double decode_steps = static_cast<double>(generated.size() - 1);
  std::printf("%s\n", tcpu::decode::JoinIds(generated).c_str());
  std::printf("load: %.3f s\n", load_seconds);
  std::printf("prefill: %zu tokens, %.2f tokens/s\n", args.prompt_ids.size(),
              static_cast<double>(args.prompt_ids.size()) / prefill_seconds);
  std::printf("decode: %.0f tokens, %.2f tokens/s\n", decode_steps,
              decode_steps > 0 ? decode_steps / decode_seconds : 0.0);
  std::printf("weights read per token: %lld bytes (%.1f MB)\n",
              static_cast<long long>(info.weight_bytes_per_token),
              static_cast<double>(info.weight_bytes_per_token) / 1e6);
  std::printf("kernels:");
  for (const char* op :
       {"gemv_bf16_w8", "flash_attn_decode_bf16", "rms_norm_bf16", "swiglu_bf16"}) {
    const char* variant = tcpu_kernel_variant(op);
    std::printf(" %s", variant != nullptr ? variant : op);
  }
  std::printf(" (threads: %d)\n", tcpu_get_num_threads());
  return exit_code;
}
