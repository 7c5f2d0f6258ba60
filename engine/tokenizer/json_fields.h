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

// A "Sequence" step: calls load(element, element_path) for each element of the array member
// `key` ("decoders", "normalizers", ...), element paths "path.key[i]"; false at the first
// failure, or with *error when the member is missing or not an array.
bool ForEachInArray(const Json& object, const char* key, const std::string& path,
                    const std::function<bool(const Json&, const std::string&)>& load,
                    std::string* error);

// "path: expected EXPECTED, got TYPE" into *error; returns false.
bool WrongType(const std::string& path, const char* expected, const Json& value,
               std::string* error);

}  // namespace tcpu::tokenizer

#endif  // TCPU_ENGINE_TOKENIZER_JSON_FIELDS_H_
