// A model's weights and configuration, from either source (memory-mapped, parsed strictly):
// - a Hugging Face checkpoint directory: config.json plus model.safetensors, or shards listed
//   by model.safetensors.index.json (safetensors.h, model_config.h); or pre-quantized, its
//   model.safetensors holding packed matrices (prequantized_format.h);
// - a GGUF file (`*.gguf`, or any path that is not a directory): the configuration from its
//   metadata (gguf_model_config.h), its tensors under their Hugging Face names
//   (gguf_tensor_names.h, gguf_tensor.h), errors naming the GGUF key or tensor.
// Tensors are looked up by Hugging Face name with the shape the config implies.
#ifndef TCPU_ENGINE_MODEL_CHECKPOINT_H_
#define TCPU_ENGINE_MODEL_CHECKPOINT_H_

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "engine/common/mapped_file.h"
#include "engine/model/model_config.h"
#include "engine/model/prequantized_format.h"
#include "engine/model/safetensors.h"

namespace tcpu::model {

class Checkpoint {
 public:
  // Opens and validates `path`: a checkpoint directory or a GGUF file. On failure *error
  // names the file and the problem; *io_error says whether it was a file-system failure
  // rather than bad content.
  bool Open(const std::string& path, std::string* error, bool* io_error);

  const ModelConfig& config() const { return config_; }

  // Whether model.safetensors is pre-quantized (its __metadata__ validated), and how.
  bool prequantized() const { return prequantized_; }
  const PrequantizedInfo& prequantized_info() const { return prequantized_info_; }

  bool Has(const std::string& name) const { return tensors_.count(name) != 0; }

  // The tensor `name`, which must have exactly `shape`; false with *error naming the tensor,
  // its file and both shapes.
  bool Find(const std::string& name, const std::vector<int64_t>& shape, const TensorView** tensor,
            std::string* error) const;

  // Frees the copy the loader made of `name` at open (a GGUF tensor dequantized or reordered)
  // once the caller has taken what it needs from it; nothing for tensors read in place. A
  // later Find of a released copy fails naming it.
  void Release(const std::string& name);

 private:
  struct Entry {
    TensorView view;
    std::string file;
    std::string stored_name;  // the GGUF name; empty for safetensors (the name itself)
    int64_t converted = -1;   // its copy in converted_, if it has one
    bool released = false;
  };
  bool OpenDirectory(const std::string& dir, std::string* error, bool* io_error);
  bool OpenGguf(const std::string& path, std::string* error, bool* io_error);

  ModelConfig config_;
  bool prequantized_ = false;
  PrequantizedInfo prequantized_info_;
  std::string gguf_path_;  // empty for a checkpoint directory
  std::vector<engine::MappedFile> files_;
  std::map<std::string, Entry> tensors_;
  // GGUF tensors dequantized (Q8_0, Q4_0) or reordered (Llama's q/k) at load.
  std::vector<std::unique_ptr<uint8_t[]>> converted_;
};

}  // namespace tcpu::model

#endif  // TCPU_ENGINE_MODEL_CHECKPOINT_H_
