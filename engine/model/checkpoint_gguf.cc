// Checkpoint::OpenGguf: a GGUF file as the loader's checkpoint (checkpoint.h).
#include <utility>

#include "engine/gguf/gguf_reader.h"
#include "engine/model/checkpoint.h"
#include "engine/model/gguf_model_config.h"
#include "engine/model/gguf_tensor.h"
#include "engine/model/gguf_tensor_names.h"

namespace tcpu::model {
namespace {

bool EndsWith(const std::string& s, const char* suffix) {
  const std::string_view tail(suffix);
  return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

}  // namespace

bool Checkpoint::OpenGguf(const std::string& path, std::string* error, bool* io_error) {
  engine::MappedFile file;
  if (!file.Open(path, error)) {
    *io_error = true;
    return false;
  }
  gguf::GgufFile parsed;
  if (!gguf::ParseGguf(file.data(), static_cast<size_t>(file.size()), path, &parsed, error) ||
      !ModelConfigFromGguf(parsed, path, &config_, error)) {
    return false;
  }
  const bool permuted = GgufPermutesQkRows(config_.architecture);
  for (const gguf::TensorInfo& info : parsed.tensors()) {
    const std::string name = HfNameOfGgufTensor(info.name);
    if (name.empty()) continue;  // not a tensor the engine reads (rope_freqs: the config's)
    TensorView view;
    const size_t copies_before = converted_.size();
    if (!GgufTensorView(info, path, &converted_, &view, error)) return false;
    const bool q = EndsWith(name, "q_proj.weight") || EndsWith(name, "q_proj.bias");
    const bool k = EndsWith(name, "k_proj.weight") || EndsWith(name, "k_proj.bias");
    const int64_t heads = q ? config_.num_attention_heads : config_.num_key_value_heads;
    // A tensor of another shape is left as it is, for Find to refuse naming both shapes.
    if (permuted && (q || k) && !view.shape.empty() && view.shape[0] == heads * config_.head_dim) {
      UndoRopePermutation(heads, config_.head_dim, &view, &converted_);
    }
    // Only the last copy is the tensor's (a dequantized one that was then reordered is not).
    int64_t converted = -1;
    if (converted_.size() > copies_before) {
      for (size_t i = copies_before; i + 1 < converted_.size(); ++i) converted_[i].reset();
      converted = static_cast<int64_t>(converted_.size()) - 1;
    }
    tensors_.emplace(name, Entry{std::move(view), path, std::string(info.name), converted, false});
  }
  files_.push_back(std::move(file));
  gguf_path_ = path;
  return true;
}

}  // namespace tcpu::model
