// The value type the chat-template evaluator computes with: Jinja's (that is, Python's)
// undefined, none, bool, int, float, str, list and dict. Lists and dicts are shared by
// reference as in Python, which `namespace` objects rely on (`set ns.x = ...` must be seen by
// every holder of `ns`). Dicts keep insertion order, so `tojson` prints keys as given.
#ifndef TCPU_ENGINE_CHAT_TEMPLATE_VALUE_H_
#define TCPU_ENGINE_CHAT_TEMPLATE_VALUE_H_

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "nlohmann/json_fwd.hpp"  // the full header only where JSON is parsed or built

namespace tcpu::chat_template {

class Value;
using Array = std::vector<Value>;
using Object = std::vector<std::pair<std::string, Value>>;

class Value {
 public:
  enum class Kind { kUndefined, kNone, kBool, kInt, kFloat, kString, kArray, kObject };

  Value() = default;  // undefined
  static Value None();
  static Value Bool(bool value);
  static Value Int(int64_t value);
  static Value Float(double value);
  static Value String(std::string value);
  // Lists and dicts refuse (TemplateError at kUnknownOffset) to hold a namespace or to nest
  // deeper than kMaxValueDepth: with no namespace inside a container no value can contain
  // itself, and every walk over a value (printing, comparing, freeing) stays shallow.
  static Value NewArray(Array items = {});
  static Value NewObject(Object entries = {});
  // A Jinja `namespace(...)`: a dict whose attributes `set ns.name = ...` may assign.
  static Value NewNamespace(Object entries = {});
  // Converts parsed JSON (the messages, tools and extra variables a caller passes).
  static Value FromJson(const nlohmann::ordered_json& json);

  Kind kind() const { return kind_; }
  bool is_undefined() const { return kind_ == Kind::kUndefined; }
  bool is_none() const { return kind_ == Kind::kNone; }
  bool is_string() const { return kind_ == Kind::kString; }
  bool is_number() const { return kind_ == Kind::kInt || kind_ == Kind::kFloat; }
  bool is_array() const { return kind_ == Kind::kArray; }
  bool is_object() const { return kind_ == Kind::kObject; }
  bool is_namespace() const { return kind_ == Kind::kObject && namespace_; }

  bool bool_value() const { return bool_; }
  int64_t int_value() const { return int_; }
  double number_value() const { return kind_ == Kind::kInt ? static_cast<double>(int_) : float_; }
  const std::string& string_value() const { return string_; }
  Array& array() const { return *array_; }
  Object& object() const { return *object_; }

  // The dict entry `key`, or nullptr.
  Value* Find(const std::string& key) const;
  // Sets (or adds) the dict entry `key` (the same checks as NewObject).
  void Set(const std::string& key, Value value) const;

  // Python truthiness: empty strings, lists and dicts, 0, none and undefined are false.
  bool Truthy() const;
  // Python equality (1 == 1.0; lists and dicts element-wise; undefined equals undefined).
  bool Equals(const Value& other) const;
  // What `{{ value }}` prints: Python's str() (True, None, 1.5, ['a', 1]); undefined is "".
  std::string ToString() const;
  // Python's repr(), used inside printed lists and dicts ('text' quoted).
  std::string ToRepr() const;
  // json.dumps(value, ensure_ascii=False, indent=indent) as Hugging Face's `tojson` does;
  // indent < 0 means none. Undefined prints as null.
  std::string ToJson(int indent) const;
  // A short name of the kind for error messages ("string", "list", ...).
  const char* KindName() const;

 private:
  void AppendJson(int indent, int depth, std::string* out) const;

  static Value FromJson(const nlohmann::ordered_json& json, int depth);
  // Throws unless `child` may be stored in a list or dict; returns its nesting depth.
  static int CheckChild(const Value& child);

  Kind kind_ = Kind::kUndefined;
  int depth_ = 0;  // 0 for scalars, 1 + the deepest item for lists and dicts
  bool bool_ = false;
  bool namespace_ = false;
  int64_t int_ = 0;
  double float_ = 0;
  std::string string_;
  std::shared_ptr<Array> array_;
  std::shared_ptr<Object> object_;
};

// Python's repr() of a float: the shortest digits that read back the same, with ".0" on
// integral values ("1.0", "0.1", "1e+20", "inf", "nan").
std::string FormatFloat(double value);

}  // namespace tcpu::chat_template

#endif  // TCPU_ENGINE_CHAT_TEMPLATE_VALUE_H_
