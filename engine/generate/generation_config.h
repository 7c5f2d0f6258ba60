// The stop ids of a model's generation_config.json: `eos_token_id`, an int or a list of ints
// (Llama 3.1 lists <|end_of_text|>, <|eom_id|> and <|eot_id|>).
#ifndef TCPU_ENGINE_GENERATE_GENERATION_CONFIG_H_
#define TCPU_ENGINE_GENERATE_GENERATION_CONFIG_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace tcpu::generate {

// Appends the eos_token_id entries of `config_json` (none when the field is absent or null)
// to *ids. False with *error naming the field when it is neither an int nor a list of ints
// in int32 range, or the text is not a JSON object.
bool ReadEosTokenIds(std::string_view config_json, std::vector<int32_t>* ids, std::string* error);

}  // namespace tcpu::generate

#endif  // TCPU_ENGINE_GENERATE_GENERATION_CONFIG_H_
