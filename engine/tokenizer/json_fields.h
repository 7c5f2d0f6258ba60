// Typed reads of tokenizer.json fields that name the field on failure ("decoder.decoders[2]
// .start: expected an integer, got string"), so a malformed file is refused with a reason.
#ifndef TCPU_ENGINE_TOKENIZER_JSON_FIELDS_H_
#define TCPU_ENGINE_TOKENIZER_JSON_FIELDS_H_

#include <cstdint>
#include <functional>
#include <string>

#include "nlohmann/json.hpp"

namespace tcpu::tokenizer {

using Json = nlohmann::json;

// "object", "string", ... for messages.
const char* JsonTypeName(const Json& value);

// The member `key` of `object` (at `path`); false with *error if missing or not an object.
bool GetMember(const Json& object, const char* key, const std::string& path, const Json** member,
               std::string* error);

// Members that may be absent or null keep *out unchanged.
bool GetString(const Json& object, const char* key, const std::string& path, bool required,
               std::string* out, std::string* error);
bool GetBool(const Json& object, const char* key, const std::string& path, bool* out,
             std::string* error);
bool GetInt(const Json& object, const char* key, const std::string& path, int64_t* out,
            std::string* error);

// A component that the format lets be a "Sequence" of components (normalizer, pre-tokenizer,
// decoder, post-processor): reads its "type"; a Sequence's elements (the array member
// `sequence_key`, "normalizers", ..., nested Sequences flattened) are visited in order, and
// every other component goes to load_component(component, its path, its type). False at the
// first failure, with *error.
using ComponentLoader =
    std::function<bool(const Json& component, const std::string& path, const std::string& type)>;
bool ForEachComponent(const Json& config, const std::string& path, const char* sequence_key,
                      const ComponentLoader& load_component, std::string* error);

// "path: expected EXPECTED, got TYPE" into *error; returns false.
bool WrongType(const std::string& path, const char* expected, const Json& value,
               std::string* error);

}  // namespace tcpu::tokenizer

#endif  // TCPU_ENGINE_TOKENIZER_JSON_FIELDS_H_
