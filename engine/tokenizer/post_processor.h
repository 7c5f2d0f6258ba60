// tokenizer.json's "post_processor": the special tokens add_special_tokens puts around the
// ids of one sequence. TemplateProcessing (its "single" template), ByteLevel (offsets only:
// ids unchanged) and Sequence; without a template, tokenizer_config.json's add_bos_token /
// add_eos_token decide, as transformers does.
#ifndef TCPU_ENGINE_TOKENIZER_POST_PROCESSOR_H_
#define TCPU_ENGINE_TOKENIZER_POST_PROCESSOR_H_

#include <cstdint>
#include <string>
#include <vector>

#include "engine/tokenizer/json_fields.h"

namespace tcpu::tokenizer {

class PostProcessor {
 public:
  // `config` is the "post_processor" value (null: nothing added); template ids must be below
  // `vocab_size`. False with *error naming the field.
  bool Load(const Json& config, const std::string& path, int64_t vocab_size,
            std::string* error);

  // tokenizer_config.json's choice, used only when tokenizer.json has no template.
  void AddConfigTokens(bool add_bos, int32_t bos_id, bool add_eos, int32_t eos_id);

  // ids = prefix + ids + suffix.
  void Apply(std::vector<int32_t>* ids) const;

 private:
  // One component (not a Sequence) of type `type`.
  bool LoadStep(const Json& config, const std::string& path, const std::string& type,
                int64_t vocab_size, std::string* error);

  std::vector<int32_t> prefix_, suffix_;
  bool has_template_ = false;
};

}  // namespace tcpu::tokenizer

#endif  // TCPU_ENGINE_TOKENIZER_POST_PROCESSOR_H_
