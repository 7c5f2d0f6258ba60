// corpus_peers: the clang -O3 peer of each Inductor launch of triton_corpus_perf.txt, run on the
// launch's own bytes and counted beside it (//tools/perf:triton_corpus_table):
//
//   corpus_peers [--corpus=DIR] [--launch=ID ...]
//
// DIR is a corpus folder (default tools/perf/triton_corpus_launches, the table's slice, relative
// to the runfiles root: what the test reads). For each launch with a peer (kPeers; --launch picks
// some): its record's scalars are checked against the shapes the peer assumes, its buffers filled
// with the GPU's `before` bytes and its outputs with NaN, the loop run once uncounted and once in
// the region "clang -O3 launch ID" (as the runner runs the kernel), and every output compared
// with the GPU's `after` bytes within corpus_peer_check.h's f32 tolerance. Then, as
// kernels/triton/peer_regions.h's peers do:
//   work "clang -O3 launch ID" N elements
//   peer "triton launch ID" clang "clang -O3 launch ID"
// A mismatch names the launch, the buffer and the element on stderr, and the program exits 1
// (after the other launches); 2 when the corpus cannot be read.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "kernels/triton/peer_regions.h"
#include "kernels/triton/plain_loops.h"
#include "tcpu/perf.h"
#include "tests/triton_replay/corpus_index.h"
#include "tests/triton_replay/json_file.h"
#include "tests/triton_replay/launch_record.h"
#include "tools/perf/corpus_peer_check.h"
#include "tools/perf/corpus_peers.h"

namespace {

using tcpu::replay::ArgRecord;
using tcpu::replay::LaunchRecord;

// The launch's pointer arguments, in the TTIR's order, each its buffer's base plus its offset.
using Args = std::vector<void*>;

float* F32(const Args& args, size_t i) { return static_cast<float*>(args[i]); }
int64_t* I64(const Args& args, size_t i) { return static_cast<int64_t*>(args[i]); }

struct Peer {
  const char* launch;
  const char* what;
  std::vector<int64_t> scalars;  // the record's integer scalars (xnumel, r0_numel...), in order
  std::vector<size_t> outputs;   // the pointer arguments written: f32, the whole buffer
  std::function<std::string(const Args&)> run;  // "" or why it could not run
};

std::string Done() { return ""; }

// The shapes are the launches' (their TTIR's constants); the record's scalars are checked first.
const std::vector<Peer>& Peers() {
  static const std::vector<Peer> peers = {
      {"0031", "RMSNorm 96 x 512", {96, 512}, {2},
       [](const Args& a) {
         corpus_rms_norm_f32(F32(a, 0), F32(a, 1), F32(a, 2), 96, 512, 1e-6f);
         return Done();
       }},
      {"0030", "LayerNorm 96 x 512", {96, 512}, {3},
       [](const Args& a) {
         // The tutorial's layer norm loop; its mean and rstd outputs, which the launch does not
         // have, go to scratch rows.
         static float mean[96], rstd[96];
         plain_layer_norm_fwd_f32(F32(a, 0), F32(a, 3), F32(a, 1), F32(a, 2), mean, rstd, 96, 512,
                                  512, 1e-5f);
         return Done();
       }},
      {"0080", "RMSNorm + rotary, 32 tokens x 2 heads x 16", {64, 16}, {3},
       [](const Args& a) {
         corpus_rms_norm_rope_f32(F32(a, 0), F32(a, 1), F32(a, 2), F32(a, 3), 32, 2, 16, 16,
                                  1e-6f);
         return Done();
       }},
      {"0066", "rotary, 32 tokens x 2 heads x 16", {32, 32}, {2},
       [](const Args& a) {
         corpus_rope_f32(F32(a, 0), F32(a, 1), F32(a, 2), 32, 2, 16, 16);
         return Done();
       }},
      // q's gradient from buffers 0-3, k's from 4-6 (k shares q's angles, buffer 1).
      {"0241", "rotary backward into the norm weight's gradient, 2 x 4 heads x 16 x 16",
       {16, 128}, {7, 8},
       [](const Args& a) {
         corpus_rope_backward_norm_weight_grad_f32(F32(a, 0), F32(a, 1), F32(a, 2), F32(a, 3),
                                                   F32(a, 7), 2, 4, 16, 16);
         corpus_rope_backward_norm_weight_grad_f32(F32(a, 4), F32(a, 1), F32(a, 5), F32(a, 6),
                                                   F32(a, 8), 2, 4, 16, 16);
         return Done();
       }},
      {"0370", "SiLU-mul 64 x 128", {8192}, {1},
       [](const Args& a) {
         corpus_silu_mul_f32(F32(a, 0), F32(a, 1), 64, 128);
         return Done();
       }},
      {"0377", "SiLU-mul backward 64 x 128", {16384}, {2},
       [](const Args& a) {
         corpus_silu_mul_backward_f32(F32(a, 0), F32(a, 1), F32(a, 2), 64, 128);
         return Done();
       }},
      {"0188", "log-softmax statistics 32 x 256", {32, 256}, {0, 2},
       [](const Args& a) {
         corpus_log_sum_exp_rows_f32(F32(a, 1), F32(a, 2), F32(a, 0), 32, 256);
         return Done();
       }},
      // Targets: labels[2][17] shifted by one (labels[:, 1:]), ignore_index -100.
      {"0190", "cross-entropy backward 32 x 256", {32, 256}, {7},
       [](const Args& a) {
         corpus_cross_entropy_backward_f32(I64(a, 0) + 1, 16, 17, -100, F32(a, 1), F32(a, 2),
                                           F32(a, 3), F32(a, 4), F32(a, 5), F32(a, 6), F32(a, 7),
                                           32, 256);
         return Done();
       }},
      {"0130", "softmax over rows of 4, 32 rows", {128}, {1},
       [](const Args& a) {
         plain_softmax_rows_f32(F32(a, 0), F32(a, 1), 32, 4, 4, 4);
         return Done();
       }},
      {"0165", "embedding 32 ids, 256 x 64 table", {32, 64}, {2},
       [](const Args& a) {
         const int64_t bad = corpus_embedding_f32(I64(a, 0), F32(a, 1), F32(a, 2), 32, 256, 64);
         return bad < 0 ? Done()
                        : "id " + std::to_string(I64(a, 0)[bad]) + " of row " +
                              std::to_string(bad) + " is out of [0, 256)";
       }},
      {"0022", "GELU (tanh) x sigmoid, 16448", {16448}, {1},
       [](const Args& a) {
         corpus_gelu_tanh_mul_sigmoid_f32(F32(a, 0), F32(a, 1), 16448);
         return Done();
       }},
  };
  return peers;
}

struct FreeDeleter {
  void operator()(void* p) const { std::free(p); }
};
using Storage = std::unique_ptr<unsigned char, FreeDeleter>;

// One launch: record -> buffers -> two runs -> comparison. "" when its peer agreed.
std::string RunPeer(const std::string& corpus, const std::string& record_path, const Peer& peer) {
  const std::string where = "launch " + std::string(peer.launch) + " (" + peer.what + "): ";
  nlohmann::json json;
  LaunchRecord record;
  std::string error;
  if (!tcpu::replay::ReadJsonFile(corpus + "/" + record_path, &json, &error) ||
      !tcpu::replay::ParseLaunchRecord(json, &record, &error)) {
    return where + record_path + ": " + error;
  }
  std::vector<int64_t> scalars;
  std::vector<const ArgRecord*> pointers;
  for (const ArgRecord& arg : record.args) {
    if (arg.kind == ArgRecord::Kind::kScalar) scalars.push_back(static_cast<int64_t>(arg.value_bits));
    if (arg.kind == ArgRecord::Kind::kPtr) pointers.push_back(&arg);
  }
  if (scalars != peer.scalars) return where + "the record's scalars are not the shapes of the peer";

  std::vector<Storage> storage;
  std::vector<const tcpu::replay::BufferRecord*> buffer_of_id;
  std::vector<std::string> after;
  Args args;
  for (const ArgRecord* arg : pointers) {
    const tcpu::replay::BufferRecord* buffer = nullptr;
    for (const auto& b : record.buffers) {
      if (b.id == arg->buffer) buffer = &b;
    }
    if (buffer == nullptr) return where + "no buffer " + std::to_string(arg->buffer);
    std::string before;
    if (!tcpu::replay::ReadBinaryFile(corpus + "/" + buffer->before, &before, &error) ||
        static_cast<int64_t>(before.size()) != buffer->nbytes) {
      return where + "buffer " + std::to_string(buffer->id) + ": " + buffer->before + ": " +
             (error.empty() ? "not nbytes long" : error);
    }
    // 64-byte aligned like the runner's buffers, so neither side gets an alignment the other lacks.
    storage.emplace_back(static_cast<unsigned char*>(
        std::aligned_alloc(64, (static_cast<size_t>(buffer->nbytes) + 63) / 64 * 64)));
    std::memcpy(storage.back().get(), before.data(), before.size());
    args.push_back(storage.back().get() + arg->offset);
    buffer_of_id.push_back(buffer);
  }
  for (size_t out : peer.outputs) {
    const auto* buffer = buffer_of_id[out];
    if (pointers[out]->offset != 0 || buffer->nbytes % 4 != 0) {
      return where + "output " + std::to_string(out) + " is not a whole f32 buffer";
    }
    std::string bytes;
    if (!tcpu::replay::ReadBinaryFile(corpus + "/" + buffer->after, &bytes, &error)) {
      return where + buffer->after + ": " + error;
    }
    after.push_back(bytes);
  }
  auto poison = [&] {
    for (size_t out : peer.outputs) std::memset(args[out], 0xff, buffer_of_id[out]->nbytes);
  };

  poison();
  if (std::string why = peer.run(args); !why.empty()) return where + why;
  poison();
  const std::string region = "clang -O3 launch " + std::string(peer.launch);
  tcpu_perf_region_begin(region.c_str());
  const std::string why = peer.run(args);
  tcpu_perf_region_end(region.c_str());
  if (!why.empty()) return where + why;

  int64_t written = 0;
  for (size_t k = 0; k < peer.outputs.size(); ++k) {
    const size_t out = peer.outputs[k];
    const size_t n = static_cast<size_t>(buffer_of_id[out]->nbytes) / 4;
    const std::string mismatch = tcpu::corpus_peers::CompareF32(
        reinterpret_cast<const float*>(after[k].data()), F32(args, out), n);
    if (!mismatch.empty()) {
      return where + "buffer " + std::to_string(buffer_of_id[out]->id) + " " + mismatch;
    }
    written += static_cast<int64_t>(n);
  }
  std::printf("work \"%s\" %lld elements\n", region.c_str(), static_cast<long long>(written));
  tcpu::triton_peers::PrintPeer("triton launch " + std::string(peer.launch), "clang", region);
  return "";
}

}  // namespace

int main(int argc, char** argv) {
  std::string corpus = "tools/perf/triton_corpus_launches";
  std::vector<std::string> chosen;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg.rfind("--corpus=", 0) == 0) {
      corpus = arg.substr(9);
    } else if (arg.rfind("--launch=", 0) == 0) {
      chosen.push_back(arg.substr(9));
    } else {
      std::fprintf(stderr, "corpus_peers: unknown argument '%s' (expected --corpus=DIR, "
                           "--launch=ID)\n", argv[i]);
      return 2;
    }
  }
  std::vector<tcpu::replay::LaunchEntry> launches;
  std::string error;
  if (!tcpu::replay::ReadCorpusIndex(corpus, "", &launches, &error)) {
    std::fprintf(stderr, "corpus_peers: %s\n", error.c_str());
    return 2;
  }
  int failed = 0, ran = 0;
  for (const Peer& peer : Peers()) {
    if (!chosen.empty() && std::find(chosen.begin(), chosen.end(), peer.launch) == chosen.end()) {
      continue;
    }
    const tcpu::replay::LaunchEntry* entry = nullptr;
    for (const auto& launch : launches) {
      if (launch.id == peer.launch) entry = &launch;
    }
    const std::string failure = entry == nullptr
                                    ? "launch " + std::string(peer.launch) + ": not in " + corpus
                                    : RunPeer(corpus, entry->record, peer);
    ++ran;
    if (!failure.empty()) {
      std::fprintf(stderr, "corpus_peers: %s\n", failure.c_str());
      ++failed;
    }
  }
  std::printf("corpus_peers: %d of %d peers agree with the GPU\n", ran - failed, ran);
  return failed == 0 ? 0 : 1;
}
