// One file per model architecture (architectures/*.cc, as llama.cpp's src/models/): what a
// Hugging Face architecture computes beyond the shared Llama decoder (q/k norms, biases, muP
// scales), resolved from config.json into ModelConfig's plain fields. Adding an architecture is
// adding its file and its line in architectures/registry.cc.
#ifndef TCPU_ENGINE_MODEL_ARCHITECTURE_H_
#define TCPU_ENGINE_MODEL_ARCHITECTURE_H_

#include <string>

#include "engine/model/config_reader.h"
#include "engine/model/model_config.h"

namespace tcpu::model {

struct Architecture {
  const char* name;  // config.json's architectures[0], e.g. "Qwen3ForCausalLM"
  // Sets the architecture's fields of *c (sizes are already read); `attention_bias` is the
  // config's field. False with the reader's error naming the field.
  bool (*configure)(ConfigReader& config, bool attention_bias, ModelConfig* c);
};

// The architecture named `name`, or nullptr.
const Architecture* FindArchitecture(const std::string& name);

// "LlamaForCausalLM, MiniCPMForCausalLM, ..." for errors.
std::string SupportedArchitectures();

// MiniCPM's muP fields (scale_emb, scale_depth, dim_model_base) must be absent or 1 in every
// other architecture: transformers ignores them there, so a checkpoint that sets them is most
// likely a MiniCPM model under the wrong name, refused rather than run unscaled.
bool RefuseMupFields(ConfigReader& config, const std::string& architecture);

}  // namespace tcpu::model

#endif  // TCPU_ENGINE_MODEL_ARCHITECTURE_H_
