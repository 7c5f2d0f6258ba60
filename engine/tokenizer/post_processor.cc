#include "engine/tokenizer/post_processor.h"

#include "engine/common/json_text.h"

namespace tcpu::tokenizer {

bool PostProcessor::Load(const Json& config, const std::string& path, int64_t vocab_size,
                         std::string* error) {
  prefix_.clear();
  suffix_.clear();
  has_template_ = false;
  if (config.is_null()) return true;
  const auto load = [&](const Json& processor, const std::string& processor_path,
                        const std::string& type) {
    return LoadStep(processor, processor_path, type, vocab_size, error);
  };
  return ForEachComponent(config, path, "processors", load, error);
}

bool PostProcessor::LoadStep(const Json& config, const std::string& path, const std::string& type,
                             int64_t vocab_size, std::string* error) {
  if (type == "ByteLevel") return true;  // only offsets change; ids stay
  if (type != "TemplateProcessing") {
    *error = path + ".type: post-processor \"" + type +
             "\" is not supported (TemplateProcessing, ByteLevel, Sequence)";
    return false;
  }
  has_template_ = true;
  const Json *single = nullptr, *specials = nullptr;
  if (!GetMember(config, "single", path, &single, error) ||
      !GetMember(config, "special_tokens", path, &specials, error)) {
    return false;
  }
  if (!single->is_array()) return WrongType(path + ".single", "an array", *single, error);
  bool after_sequence = false;
  for (size_t i = 0; i < single->size(); ++i) {
    const Json& piece = (*single)[i];
    const std::string where = path + ".single[" + std::to_string(i) + "]";
    if (piece.is_object() && piece.contains("Sequence")) {
      after_sequence = true;
      continue;
    }
    const Json* special = nullptr;
    std::string name;
    if (!GetMember(piece, "SpecialToken", where, &special, error) ||
        !GetString(*special, "id", where + ".SpecialToken", true, &name, error)) {
      return false;
    }
    const Json* entry = nullptr;
    const Json* ids = nullptr;
    if (!GetMember(*specials, name.c_str(), path + ".special_tokens", &entry, error) ||
        !GetMember(*entry, "ids", path + ".special_tokens." + name, &ids, error)) {
      return false;
    }
    if (!ids->is_array())
      return WrongType(path + ".special_tokens." + name + ".ids", "an array", *ids, error);
    for (const Json& id : *ids) {
      if (!id.is_number_integer() || id.get<int64_t>() < 0 || id.get<int64_t>() >= vocab_size) {
        *error = path + ".special_tokens." + name + ".ids: " + engine::DumpJson(id) +
                 " is not an id of the vocabulary";
        return false;
      }
      (after_sequence ? suffix_ : prefix_).push_back(id.get<int32_t>());
    }
  }
  return true;
}

void PostProcessor::AddConfigTokens(bool add_bos, int32_t bos_id, bool add_eos,
                                    int32_t eos_id) {
  if (has_template_) return;
  if (add_bos && bos_id >= 0) prefix_.push_back(bos_id);
  if (add_eos && eos_id >= 0) suffix_.push_back(eos_id);
}

void PostProcessor::Apply(std::vector<int32_t>* ids) const {
  ids->insert(ids->begin(), prefix_.begin(), prefix_.end());
  ids->insert(ids->end(), suffix_.begin(), suffix_.end());
}

}  // namespace tcpu::tokenizer
