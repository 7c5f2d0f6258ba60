#include "engine/tokenizer/json_fields.h"

namespace tcpu::tokenizer {

const char* JsonTypeName(const Json& value) { return value.type_name(); }

bool WrongType(const std::string& path, const char* expected, const Json& value,
               std::string* error) {
  *error = path + ": expected " + expected + ", got " + JsonTypeName(value);
  return false;
}

namespace {

// Calls load(element, "path.key[i]") for each element of the array member `key`; false at the
// first failure, or with *error when the member is missing or not an array.
bool ForEachInArray(const Json& object, const char* key, const std::string& path,
                    const std::function<bool(const Json&, const std::string&)>& load,
                    std::string* error) {
  const Json* list = nullptr;
  if (!GetMember(object, key, path, &list, error)) return false;
  const std::string list_path = path + "." + key;
  if (!list->is_array()) return WrongType(list_path, "an array", *list, error);
  for (size_t i = 0; i < list->size(); ++i) {
    if (!load((*list)[i], list_path + "[" + std::to_string(i) + "]")) return false;
  }
  return true;
}

}  // namespace

bool ForEachComponent(const Json& config, const std::string& path, const char* sequence_key,
                      const ComponentLoader& load_component, std::string* error) {
  std::string type;
  if (!GetString(config, "type", path, /*required=*/true, &type, error)) return false;
  if (type != "Sequence") return load_component(config, path, type);
  return ForEachInArray(
      config, sequence_key, path,
      [&](const Json& element, const std::string& element_path) {
        return ForEachComponent(element, element_path, sequence_key, load_component, error);
      },
      error);
}

bool GetMember(const Json& object, const char* key, const std::string& path, const Json** member,
               std::string* error) {
  if (!object.is_object()) return WrongType(path, "an object", object, error);
  const auto it = object.find(key);
  if (it == object.end()) {
    *error = path + ": missing \"" + key + "\"";
    return false;
  }
  *member = &*it;
  return true;
}

bool GetString(const Json& object, const char* key, const std::string& path, bool required,
               std::string* out, std::string* error) {
  if (!object.is_object()) return WrongType(path, "an object", object, error);
  const auto it = object.find(key);
  if (it == object.end() || it->is_null()) {
    if (!required) return true;
    *error = path + ": missing \"" + key + "\"";
    return false;
  }
  if (!it->is_string()) return WrongType(path + "." + key, "a string", *it, error);
  *out = it->get<std::string>();
  return true;
}

bool GetBool(const Json& object, const char* key, const std::string& path, bool* out,
             std::string* error) {
  if (!object.is_object()) return WrongType(path, "an object", object, error);
  const auto it = object.find(key);
  if (it == object.end() || it->is_null()) return true;
  if (!it->is_boolean()) return WrongType(path + "." + key, "true or false", *it, error);
  *out = it->get<bool>();
  return true;
}

bool GetInt(const Json& object, const char* key, const std::string& path, int64_t* out,
            std::string* error) {
  if (!object.is_object()) return WrongType(path, "an object", object, error);
  const auto it = object.find(key);
  if (it == object.end() || it->is_null()) return true;
  if (!it->is_number_integer()) return WrongType(path + "." + key, "an integer", *it, error);
  *out = it->get<int64_t>();
  return true;
}

}  // namespace tcpu::tokenizer
