#include "engine/model/checkpoint.h"

#include <sys/stat.h>

#include <algorithm>

#include <nlohmann/json.hpp>

#include "engine/common/json_text.h"
#include "engine/model/gguf_tensor_names.h"

namespace tcpu::model {
namespace {

bool Exists(const std::string& path) {
  struct stat st;
  return stat(path.c_str(), &st) == 0;
}

std::string ShapeString(const std::vector<int64_t>& shape) {
  std::string s = "[";
  for (size_t i = 0; i < shape.size(); ++i) s += (i ? ", " : "") + std::to_string(shape[i]);
  return s + "]";
}

// A shard file name from the index: a plain name in the checkpoint directory.
bool PlainFileName(const std::string& name) {
  return !name.empty() && name.size() < 256 && name.find('/') == std::string::npos &&
         name != "." && name != "..";
}

}  // namespace

bool Checkpoint::Open(const std::string& path, std::string* error, bool* io_error) {
  *io_error = false;
  struct stat st;
  const bool directory = stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
  const bool gguf_name = path.size() >= 5 && path.compare(path.size() - 5, 5, ".gguf") == 0;
  if (!directory && (gguf_name || stat(path.c_str(), &st) == 0)) {
    return OpenGguf(path, error, io_error);
  }
  return OpenDirectory(path, error, io_error);
}

bool Checkpoint::OpenDirectory(const std::string& dir, std::string* error, bool* io_error) {
  std::string config_text;
  if (!engine::ReadTextFile(dir + "/config.json", &config_text, error)) {
    *io_error = true;
    return false;
  }
  if (!ParseModelConfig(config_text, dir + "/config.json", &config_, error)) return false;
  std::string text;

  std::vector<std::string> shards;
  const std::string single = dir + "/model.safetensors";
  const std::string index = dir + "/model.safetensors.index.json";
  std::map<std::string, std::string> weight_map;
  if (Exists(single)) {
    shards.push_back("model.safetensors");
  } else if (Exists(index)) {
    if (!engine::ReadTextFile(index, &text, error)) {
      *io_error = true;
      return false;
    }
    nlohmann::json json;
    if (!engine::ParseJson(text, &json) || !json.is_object()) {
      *error = index + ": not a well-formed JSON object";
      return false;
    }
    const auto map = json.find("weight_map");
    if (map == json.end() || !map->is_object() || map->empty()) {
      *error = index + ": field 'weight_map' must be a non-empty object";
      return false;
    }
    for (auto it = map->begin(); it != map->end(); ++it) {
      if (!it->is_string() || !PlainFileName(it->get<std::string>())) {
        *error = index + ": weight_map entry '" + it.key().substr(0, 200) +
                 "' must name a file in the checkpoint directory";
        return false;
      }
      const std::string file = it->get<std::string>();
      weight_map[it.key()] = file;
      if (std::find(shards.begin(), shards.end(), file) == shards.end()) shards.push_back(file);
    }
  } else {
    *error = dir + ": neither model.safetensors nor model.safetensors.index.json exists";
    *io_error = true;
    return false;
  }

  for (const std::string& shard : shards) {
    engine::MappedFile file;
    if (!file.Open(dir + "/" + shard, error)) {
      *io_error = true;
      return false;
    }
    SafetensorsFile parsed;
    if (!ParseSafetensors(file.data(), file.size(), dir + "/" + shard, &parsed, error)) {
      return false;
    }
    bool prequantized = false;
    if (!ReadPrequantizedMetadata(parsed.metadata, dir + "/" + shard, config_text, &prequantized,
                                  &prequantized_info_, error)) {
      return false;
    }
    if (prequantized && !weight_map.empty()) {
      *error = dir + "/" + shard +
               ": a pre-quantized checkpoint is one model.safetensors, not shards of "
               "model.safetensors.index.json";
      return false;
    }
    prequantized_ = prequantized_ || prequantized;
    for (auto& [name, view] : parsed.tensors) {
      if (!weight_map.empty()) {
        const auto listed = weight_map.find(name);
        if (listed == weight_map.end() || listed->second != shard) continue;  // not its home
      }
      if (!tensors_.emplace(name, Entry{view, shard, "", -1, false}).second) {
        *error = dir + ": tensor '" + name.substr(0, 200) + "' is stored in two files";
        return false;
      }
    }
    files_.push_back(std::move(file));
  }
  for (const auto& [name, shard] : weight_map) {
    if (tensors_.count(name) == 0) {
      *error = dir + "/" + shard + ": tensor '" + name.substr(0, 200) +
               "' listed by model.safetensors.index.json is not in the file";
      return false;
    }
  }
  return true;
}

bool Checkpoint::Find(const std::string& name, const std::vector<int64_t>& shape,
                      const TensorView** tensor, std::string* error) const {
  const auto it = tensors_.find(name);
  if (it == tensors_.end()) {
    *error = gguf_path_.empty() ? "tensor '" + name + "' is missing from the checkpoint"
                                : gguf_path_ + ": tensor '" + GgufNameOfHfTensor(name) +
                                      "' is missing";
    return false;
  }
  if (it->second.released) {
    *error = it->second.file + ": tensor '" + it->second.stored_name +
             "' was already converted and released";
    return false;
  }
  if (it->second.view.shape != shape) {
    if (gguf_path_.empty()) {
      *error = it->second.file + ": tensor '" + name + "' has shape " +
               ShapeString(it->second.view.shape) + ", config.json implies " + ShapeString(shape);
    } else {  // GGUF lists dimensions fastest first
      const std::vector<int64_t> dims(it->second.view.shape.rbegin(),
                                      it->second.view.shape.rend());
      const std::vector<int64_t> expected(shape.rbegin(), shape.rend());
      *error = it->second.file + ": tensor '" + it->second.stored_name + "' has dimensions " +
               ShapeString(dims) + ", the metadata implies " + ShapeString(expected);
    }
    return false;
  }
  *tensor = &it->second.view;
  return true;
}

void Checkpoint::Release(const std::string& name) {
  const auto it = tensors_.find(name);
  if (it == tensors_.end() || it->second.converted < 0) return;
  converted_[static_cast<size_t>(it->second.converted)].reset();
  it->second.view.data = nullptr;
  it->second.released = true;
}

}  // namespace tcpu::model
