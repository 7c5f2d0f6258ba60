#include "engine/model/safetensors_writer.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>

#include <nlohmann/json.hpp>

#include "engine/common/json_text.h"

namespace tcpu::model {
namespace {

int64_t AlignUp(int64_t offset) {
  return (offset + kSafetensorsAlignment - 1) / kSafetensorsAlignment * kSafetensorsAlignment;
}

struct FileCloser {
  void operator()(std::FILE* f) const { std::fclose(f); }
};

}  // namespace

bool WriteSafetensors(const std::string& path, const std::vector<TensorToWrite>& tensors,
                      const std::map<std::string, std::string>& metadata, std::string* error) {
  nlohmann::ordered_json header;
  header["__metadata__"] = metadata;
  std::vector<int64_t> offsets;
  int64_t end = 0;
  for (const TensorToWrite& t : tensors) {
    int64_t elements = 1;
    for (int64_t d : t.shape) elements *= d;
    if (t.bytes != elements * DTypeBytes(t.dtype)) {
      *error = path + ": tensor '" + t.name + "' has " + std::to_string(t.bytes) +
               " bytes, its shape and dtype need " + std::to_string(elements * DTypeBytes(t.dtype));
      return false;
    }
    const int64_t begin = AlignUp(end);
    end = begin + t.bytes;
    offsets.push_back(begin);
    header[t.name] = {
        {"dtype", DTypeName(t.dtype)}, {"shape", t.shape}, {"data_offsets", {begin, end}}};
  }
  std::string json = engine::DumpJson(header);
  json.append(static_cast<size_t>(AlignUp(8 + static_cast<int64_t>(json.size())) - 8) - json.size(),
              ' ');
  std::unique_ptr<std::FILE, FileCloser> file(std::fopen(path.c_str(), "wb"));
  if (file == nullptr) {
    *error = path + ": cannot create: " + std::strerror(errno);
    return false;
  }
  uint8_t length[8];
  for (int i = 0; i < 8; ++i) length[i] = static_cast<uint8_t>(json.size() >> (8 * i));
  bool ok = std::fwrite(length, 1, 8, file.get()) == 8 &&
            std::fwrite(json.data(), 1, json.size(), file.get()) == json.size();
  static const uint8_t kZeros[kSafetensorsAlignment] = {};
  int64_t written = 0;
  for (size_t i = 0; ok && i < tensors.size(); ++i) {
    const size_t gap = static_cast<size_t>(offsets[i] - written);
    ok = std::fwrite(kZeros, 1, gap, file.get()) == gap &&
         std::fwrite(tensors[i].data, 1, static_cast<size_t>(tensors[i].bytes), file.get()) ==
             static_cast<size_t>(tensors[i].bytes);
    written = offsets[i] + tensors[i].bytes;
  }
  if (!ok || std::fflush(file.get()) != 0) {
    *error = path + ": cannot write: " + std::strerror(errno);
    return false;
  }
  return true;
}

}  // namespace tcpu::model
