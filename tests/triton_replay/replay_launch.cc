#include "tests/triton_replay/replay_launch.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <map>
#include <optional>
#include <utility>
#include <vector>

#include "tcpu/perf.h"
#include "tcpu/status.h"
#include "tcpu/triton_replay.h"
#include "tests/triton_replay/compare_buffer.h"
#include "tests/triton_replay/element_type.h"
#include "tests/triton_replay/guarded_buffer.h"
#include "tests/triton_replay/json_file.h"
#include "tests/triton_replay/launch_record.h"
#include "tests/triton_replay/replay_table.h"

namespace tcpu::replay {
namespace {

// A failure at `stage`, as the result of a step.
struct Failure {
  std::string stage;
  std::string detail;
};

// The bytes a buffer starts with and must end with (and, poisoned, after its second launch).
struct BufferBlobs {
  std::string before;
  std::string after;
  std::string poisoned_after;
};

// The first line of tcpu-compile's message that says what went wrong.
std::string FirstErrorLine(const std::string& message) {
  size_t at = message.find("error:");
  size_t begin = at == std::string::npos ? 0 : message.rfind('\n', at);
  begin = begin == std::string::npos || at == std::string::npos ? 0 : begin + 1;
  const size_t end = message.find('\n', begin);
  return message.substr(begin, end == std::string::npos ? std::string::npos : end - begin);
}

// The table entry of `record`'s kernel, or the failure that says why there is none.
std::optional<Failure> FindKernel(const LaunchRecord& record, const tcpu_replay_kernel** kernel) {
  std::string kernels;
  bool compiled_file = false;
  for (int32_t i = 0; i < tcpu_replay_table_size; ++i) {
    const tcpu_replay_table_entry& entry = tcpu_replay_table[i];
    if (record.ttir != entry.ttir) continue;
    if (entry.compile_error != nullptr) {
      return Failure{"compile", record.ttir + ": " + FirstErrorLine(entry.compile_error) +
                                    " (whole message: the compile report)"};
    }
    compiled_file = true;
    if (record.kernel == entry.kernel) {
      *kernel = entry.replay;
      return std::nullopt;
    }
    kernels += (kernels.empty() ? "" : ", ") + std::string(entry.kernel);
  }
  if (!compiled_file) {
    return Failure{"compile", record.ttir +
                                  ": not compiled into this runner (is the launch in "
                                  "the slice the build compiled?)"};
  }
  return Failure{"record", "kernel: \"" + record.kernel + "\" is not a kernel of " + record.ttir +
                               " (it defines " + kernels + ")"};
}

std::string ArgPath(size_t index, const char* field) {
  return "args[" + std::to_string(index) + "]." + field;
}

// Checks the record's arguments against the kernel's TTIR parameters and the buffers.
std::optional<Failure> CheckArgs(const LaunchRecord& record, const tcpu_replay_kernel& kernel,
                                 const std::map<int64_t, size_t>& buffer_index) {
  if (static_cast<int64_t>(record.args.size()) != kernel.param_count) {
    return Failure{"record", "args: " + std::to_string(record.args.size()) +
                                 " entries, the TTIR kernel has " +
                                 std::to_string(kernel.param_count) + " arguments"};
  }
  for (size_t i = 0; i < record.args.size(); ++i) {
    const ArgRecord& arg = record.args[i];
    const tcpu_replay_param& param = kernel.params[i];
    const bool fits = arg.kind == ArgRecord::Kind::kPtr ? param.kind == TCPU_REPLAY_PTR
                      : arg.kind == ArgRecord::Kind::kDesc
                          ? param.kind == TCPU_REPLAY_DESC
                          : param.kind == TCPU_REPLAY_INT || param.kind == TCPU_REPLAY_FLOAT;
    static const char* kKinds[] = {"ptr", "desc", "scalar"};
    const char* kind = kKinds[arg.kind == ArgRecord::Kind::kPtr    ? 0
                              : arg.kind == ArgRecord::Kind::kDesc ? 1
                                                                   : 2];
    if (!fits) {
      return Failure{"record",
                     ArgPath(i, "kind") + ": \"" + kind + "\", the TTIR argument is " + param.type};
    }
    if (arg.kind == ArgRecord::Kind::kScalar) {
      if (arg.type != param.element) {
        return Failure{"record", ArgPath(i, "type") + ": \"" + arg.type +
                                     "\", the TTIR argument is " + param.type};
      }
      continue;
    }
    if (arg.kind == ArgRecord::Kind::kDesc &&
        static_cast<int64_t>(arg.shape.size()) != param.rank) {
      return Failure{"record", ArgPath(i, "shape") + ": " + std::to_string(arg.shape.size()) +
                                   " dimensions, the TTIR argument is " + param.type};
    }
    auto buffer = buffer_index.find(arg.buffer);
    if (buffer == buffer_index.end()) {
      return Failure{"record", ArgPath(i, "buffer") + ": " + std::to_string(arg.buffer) +
                                   " is not the id of any buffer"};
    }
    const int64_t nbytes = record.buffers[buffer->second].nbytes;
    if (arg.offset > nbytes) {
      return Failure{"record", ArgPath(i, "offset") + ": " + std::to_string(arg.offset) +
                                   " is past the end of buffer " + std::to_string(arg.buffer) +
                                   " (" + std::to_string(nbytes) + " bytes)"};
    }
  }
  return std::nullopt;
}

// Reads one blob of `size` bytes; `field` names it in errors ("buffers[1].after").
std::optional<Failure> ReadBlob(const std::string& corpus, const std::string& path,
                                const std::string& field, int64_t size, std::string* bytes) {
  std::string reason;
  if (!ReadBinaryFile(corpus + "/" + path, bytes, &reason)) {
    return Failure{"record", field + ": " + path + ": " + reason};
  }
  if (static_cast<int64_t>(bytes->size()) != size) {
    return Failure{"record", field + ": " + path + ": " + std::to_string(bytes->size()) +
                                 " bytes, expected nbytes = " + std::to_string(size)};
  }
  return std::nullopt;
}

class Launch {
 public:
  Launch(const LaunchRecord& record, const tcpu_replay_kernel& kernel)
      : record_(record), kernel_(kernel) {}

  std::optional<Failure> Prepare(const std::string& corpus) {
    for (size_t i = 0; i < record_.buffers.size(); ++i) buffer_index_[record_.buffers[i].id] = i;
    if (auto failure = CheckArgs(record_, kernel_, buffer_index_)) return failure;
    blobs_.resize(record_.buffers.size());
    buffers_.resize(record_.buffers.size());
    for (size_t i = 0; i < record_.buffers.size(); ++i) {
      const BufferRecord& buffer = record_.buffers[i];
      const std::string field = "buffers[" + std::to_string(i) + "]";
      if (auto failure = ReadBlob(corpus, buffer.before, field + ".before", buffer.nbytes,
                                  &blobs_[i].before)) {
        return failure;
      }
      if (auto failure =
              ReadBlob(corpus, buffer.after, field + ".after", buffer.nbytes, &blobs_[i].after)) {
        return failure;
      }
      if (buffer.poisoned) {
        if (auto failure = ReadBlob(corpus, buffer.poisoned->after, field + ".poisoned.after",
                                    buffer.nbytes, &blobs_[i].poisoned_after)) {
          return failure;
        }
      }
      if (!buffers_[i].Allocate(static_cast<size_t>(buffer.nbytes))) {
        return Failure{"record", field + ".nbytes: cannot allocate " +
                                     std::to_string(buffer.nbytes) + " bytes"};
      }
    }
    BuildArgs();
    return std::nullopt;
  }

  // The launch from every buffer's `before` (one buffer filled with `poison_fill` instead),
  // inside perf region `region` if one is named.
  std::optional<Failure> Run(std::optional<std::pair<size_t, uint8_t>> poison = std::nullopt,
                             const std::string& region = "") {
    for (size_t i = 0; i < buffers_.size(); ++i) buffers_[i].Fill(blobs_[i].before);
    if (poison) buffers_[poison->first].Fill(poison->second);
    if (!region.empty()) tcpu_perf_region_begin(region.c_str());
    const int status = kernel_.entry(args_.data(), static_cast<int32_t>(args_.size()),
                                     record_.grid[0], record_.grid[1], record_.grid[2]);
    if (!region.empty()) tcpu_perf_region_end(region.c_str());
    if (status != 0) {
      return Failure{"run", "tcpu_replay_" + std::string(kernel_.name) + " returned " +
                                std::to_string(status) + " (" + tcpu_status_string(status) +
                                "): " + tcpu_last_error_detail()};
    }
    for (size_t i = 0; i < buffers_.size(); ++i) {
      std::string guard = buffers_[i].CheckGuards();
      if (!guard.empty()) {
        return Failure{"run", "the kernel wrote outside buffer " +
                                  std::to_string(record_.buffers[i].id) + ": " + guard};
      }
    }
    return std::nullopt;
  }

  std::optional<Failure> Compare(size_t i, const std::string& expected, const std::string& what) {
    std::vector<std::pair<size_t, std::string>> typed;
    for (size_t a = 0; a < record_.args.size(); ++a) {
      const ArgRecord& arg = record_.args[a];
      if (arg.kind == ArgRecord::Kind::kScalar || arg.buffer != record_.buffers[i].id) continue;
      typed.push_back({static_cast<size_t>(arg.offset), kernel_.params[a].element});
    }
    const size_t size = buffers_[i].size();
    auto mismatch = CompareBuffer(TypeRegions(size, typed), buffers_[i].data(),
                                  reinterpret_cast<const uint8_t*>(expected.data()), size);
    if (!mismatch) return std::nullopt;
    return Failure{"compare", "buffer " + std::to_string(record_.buffers[i].id) + what + " " +
                                  DescribeMismatch(*mismatch)};
  }

  std::optional<Failure> CompareAll() {
    std::optional<Failure> first;
    std::string others;
    for (size_t i = 0; i < buffers_.size(); ++i) {
      if (auto failure = Compare(i, blobs_[i].after, "")) {
        if (!first) {
          first = failure;
        } else {
          others += (others.empty() ? "" : ", ") + std::to_string(record_.buffers[i].id);
        }
      }
    }
    if (first && !others.empty()) first->detail += "; buffers " + others + " differ too";
    return first;
  }

  std::optional<Failure> ReplayPoisoned() {
    for (size_t i = 0; i < buffers_.size(); ++i) {
      const auto& poisoned = record_.buffers[i].poisoned;
      if (!poisoned) continue;
      const uint8_t fill = static_cast<uint8_t>(poisoned->fill);
      char what[48];
      std::snprintf(what, sizeof(what), " (the launch with it filled with 0x%02x)", fill);
      if (auto failure = Run(std::make_pair(i, fill))) {
        failure->detail += what;
        return failure;
      }
      if (auto failure = Compare(i, blobs_[i].poisoned_after, what)) return failure;
    }
    return std::nullopt;
  }

  // LaunchResult's elements_written and elements_largest; a buffer no argument types counts its
  // bytes.
  std::pair<int64_t, int64_t> Elements() const {
    int64_t written = 0, largest = 0;
    for (size_t i = 0; i < buffers_.size(); ++i) {
      int size = 1;
      for (size_t a = 0; a < record_.args.size(); ++a) {
        const ArgRecord& arg = record_.args[a];
        if (arg.kind != ArgRecord::Kind::kScalar && arg.buffer == record_.buffers[i].id) {
          size = std::max(1, ElementTypeOf(kernel_.params[a].element).size);
          break;
        }
      }
      const int64_t elements = static_cast<int64_t>(blobs_[i].after.size()) / size;
      largest = std::max(largest, elements);
      // A buffer the launch rewrote with the bytes it held shows as written by its poisoned
      // launch.
      if (blobs_[i].before != blobs_[i].after || record_.buffers[i].poisoned) written += elements;
    }
    return {written, largest};
  }

  std::string Variant() const {
    const char* name = kernel_.variant != nullptr ? kernel_.variant() : nullptr;
    if (name == nullptr) return "?";
    const char* colon = std::strrchr(name, ':');
    return colon != nullptr ? colon + 1 : name;
  }

 private:
  void BuildArgs() {
    args_.assign(record_.args.size(), tcpu_replay_arg{});
    for (size_t a = 0; a < record_.args.size(); ++a) {
      const ArgRecord& arg = record_.args[a];
      tcpu_replay_arg& out = args_[a];
      out.kind = kernel_.params[a].kind;
      if (arg.kind == ArgRecord::Kind::kScalar) {
        const ScalarType* type = FindScalarType(arg.type);
        if (type->is_float) {
          out.f = FloatFromBits(*type, arg.value_bits);
        } else {
          out.i = static_cast<int64_t>(arg.value_bits);
        }
        continue;
      }
      out.ptr = buffers_[buffer_index_[arg.buffer]].data() + arg.offset;
      if (arg.kind == ArgRecord::Kind::kDesc) {
        out.rank = static_cast<int32_t>(arg.shape.size());
        for (size_t d = 0; d < arg.shape.size(); ++d) {
          out.sizes[d] = arg.shape[d];
          out.strides[d] = arg.strides[d];
        }
      }
    }
  }

  const LaunchRecord& record_;
  const tcpu_replay_kernel& kernel_;
  std::map<int64_t, size_t> buffer_index_;
  std::vector<BufferBlobs> blobs_;
  std::vector<GuardedBuffer> buffers_;
  std::vector<tcpu_replay_arg> args_;
};

}  // namespace

LaunchResult ReplayLaunch(const std::string& corpus, const LaunchEntry& launch,
                          const std::string& region) {
  if (!launch.error.empty()) return {"record", launch.error};
  nlohmann::json json;
  std::string reason;
  if (!ReadJsonFile(corpus + "/" + launch.record, &json, &reason)) {
    return {"record", launch.record + ": " + reason};
  }
  LaunchRecord record;
  if (!ParseLaunchRecord(json, &record, &reason)) return {"record", launch.record + ": " + reason};
  if (record.id != launch.id) {
    return {"record", launch.record + ": id: \"" + record.id + "\", the manifest lists it as \"" +
                          launch.id + "\""};
  }
  const tcpu_replay_kernel* kernel = nullptr;
  if (auto failure = FindKernel(record, &kernel)) return {failure->stage, failure->detail};
  Launch replay(record, *kernel);
  if (auto failure = replay.Prepare(corpus)) {
    return {failure->stage, launch.record + ": " + failure->detail};
  }
  // Counted, the launch runs once first: what a process does once (the runtime's CPU probe and
  // thread pool, the first touch of each buffer) is not the kernel's.
  if (!region.empty()) {
    if (auto failure = replay.Run()) return {failure->stage, failure->detail};
  }
  if (auto failure = replay.Run(std::nullopt, region)) return {failure->stage, failure->detail};
  if (auto failure = replay.CompareAll()) return {failure->stage, failure->detail};
  if (auto failure = replay.ReplayPoisoned()) return {failure->stage, failure->detail};
  if (region.empty()) return {"ok", "variant=" + replay.Variant()};
  const auto [written, largest] = replay.Elements();  // only counted launches need the work
  return {"ok", "variant=" + replay.Variant(), written, largest};
}

std::string ReportLine(const LaunchEntry& launch, const LaunchResult& result) {
  std::string line = launch.id + " " + launch.kernel + " " + result.stage;
  if (!result.detail.empty()) line += " " + result.detail;
  // One line per launch whatever a message holds.
  for (char& c : line) {
    if (c == '\n' || c == '\r') c = ' ';
  }
  return line;
}

}  // namespace tcpu::replay
