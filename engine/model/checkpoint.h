// A Hugging Face checkpoint directory: config.json plus model.safetensors, or shards listed
// by model.safetensors.index.json. Files are memory-mapped and parsed strictly
// (safetensors.h); tensors are looked up by name with the shape the config implies.
#ifndef TCPU_ENGINE_MODEL_CHECKPOINT_H_
#define TCPU_ENGINE_MODEL_CHECKPOINT_H_

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "engine/model/mapped_file.h"
#include "engine/model/model_config.h"
#include "engine/model/safetensors.h"

namespace tcpu::model {

class Checkpoint {
 public:
  // Opens and validates `dir`. On failure *error names the file and the problem; *io_error
  // says whether it was a file-system failure rather than bad content.
  bool Open(const std::string& dir, std::string* error, bool* io_error);

  const ModelConfig& config() const { return config_; }

  bool Has(const std::string& name) const { return tensors_.count(name) != 0; }

  // The tensor `name`, which must have exactly `shape`; false with *error naming the tensor,
  // its file and both shapes.
  bool Find(const std::string& name, const std::vector<int64_t>& shape, const TensorView** tensor,
            std::string* error) const;

 private:
  struct Entry {
    TensorView view;
    std::string file;
  };
  ModelConfig config_;
  std::vector<MappedFile> files_;
  std::map<std::string, Entry> tensors_;
};

}  // namespace tcpu::model

#endif  // TCPU_ENGINE_MODEL_CHECKPOINT_H_
