// The architectures tcpu_decoder_open accepts, one file each beside this one.
#include "engine/model/architecture.h"

namespace tcpu::model {

extern const Architecture kLlama;
extern const Architecture kMiniCpm;
extern const Architecture kQwen2;
extern const Architecture kQwen3;

namespace {

const Architecture* const kArchitectures[] = {&kLlama, &kMiniCpm, &kQwen2, &kQwen3};

constexpr const char* kMupFields[] = {"scale_emb", "scale_depth", "dim_model_base"};

}  // namespace

const Architecture* FindArchitecture(const std::string& name) {
  for (const Architecture* arch : kArchitectures) {
    if (name == arch->name) return arch;
  }
  return nullptr;
}

std::string SupportedArchitectures() {
  std::string names;
  for (const Architecture* arch : kArchitectures) {
    names += (names.empty() ? "" : ", ") + std::string(arch->name);
  }
  return names;
}

bool RefuseMupFields(ConfigReader& config, const std::string& architecture) {
  for (const char* field : kMupFields) {
    if (const auto it = config.json().find(field); it != config.json().end() && !it->is_null()) {
      if (!it->is_number() || it->get<double>() != 1.0) {
        return config.Fail(std::string("field '") + field + "' (MiniCPM muP scaling) is set but " +
                           "architectures names " + architecture + ", which does not apply it");
      }
    }
  }
  return true;
}

}  // namespace tcpu::model
