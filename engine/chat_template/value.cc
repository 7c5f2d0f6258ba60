#include "engine/chat_template/value.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "nlohmann/json.hpp"

#include "engine/chat_template/template_error.h"

namespace tcpu::chat_template {

Value Value::None() {
  Value value;
  value.kind_ = Kind::kNone;
  return value;
}

Value Value::Bool(bool b) {
  Value value;
  value.kind_ = Kind::kBool;
  value.bool_ = b;
  return value;
}

Value Value::Int(int64_t i) {
  Value value;
  value.kind_ = Kind::kInt;
  value.int_ = i;
  return value;
}

Value Value::Float(double f) {
  Value value;
  value.kind_ = Kind::kFloat;
  value.float_ = f;
  return value;
}

Value Value::String(std::string s) {
  Value value;
  value.kind_ = Kind::kString;
  value.string_ = std::move(s);
  return value;
}

int Value::CheckChild(const Value& child) {
  if (child.is_namespace()) {
    throw TemplateError{kUnknownOffset,
                        "a namespace cannot be stored in a list, dict or namespace"};
  }
  if (child.depth_ >= kMaxValueDepth) {
    throw TemplateError{kUnknownOffset, "lists and dicts nested deeper than " +
                                            std::to_string(kMaxValueDepth) + " levels"};
  }
  return child.depth_;
}

Value Value::NewArray(Array items) {
  Value value;
  value.kind_ = Kind::kArray;
  for (const Value& item : items) value.depth_ = std::max(value.depth_, CheckChild(item) + 1);
  value.depth_ = std::max(value.depth_, 1);
  value.array_ = std::make_shared<Array>(std::move(items));
  return value;
}

Value Value::NewObject(Object entries) {
  Value value;
  value.kind_ = Kind::kObject;
  for (const auto& entry : entries) {
    value.depth_ = std::max(value.depth_, CheckChild(entry.second) + 1);
  }
  value.depth_ = std::max(value.depth_, 1);
  value.object_ = std::make_shared<Object>(std::move(entries));
  return value;
}

Value Value::NewNamespace(Object entries) {
  Value value = NewObject(std::move(entries));
  value.namespace_ = true;
  return value;
}

Value Value::FromJson(const nlohmann::ordered_json& json) { return FromJson(json, 0); }

Value Value::FromJson(const nlohmann::ordered_json& json, int depth) {
  if (depth > kMaxValueDepth) {
    throw TemplateError{kUnknownOffset,
                        "JSON nested deeper than " + std::to_string(kMaxValueDepth) + " levels"};
  }
  switch (json.type()) {
    case nlohmann::ordered_json::value_t::null:
      return None();
    case nlohmann::ordered_json::value_t::boolean:
      return Bool(json.get<bool>());
    case nlohmann::ordered_json::value_t::number_integer:
      return Int(json.get<int64_t>());
    case nlohmann::ordered_json::value_t::number_unsigned: {
      const uint64_t u = json.get<uint64_t>();
      if (u > static_cast<uint64_t>(INT64_MAX)) return Float(static_cast<double>(u));
      return Int(static_cast<int64_t>(u));
    }
    case nlohmann::ordered_json::value_t::number_float:
      return Float(json.get<double>());
    case nlohmann::ordered_json::value_t::string:
      return String(json.get<std::string>());
    case nlohmann::ordered_json::value_t::array: {
      Array items;
      items.reserve(json.size());
      for (const auto& item : json) items.push_back(FromJson(item, depth + 1));
      return NewArray(std::move(items));
    }
    case nlohmann::ordered_json::value_t::object: {
      Object entries;
      entries.reserve(json.size());
      for (const auto& [key, item] : json.items())
        entries.emplace_back(key, FromJson(item, depth + 1));
      return NewObject(std::move(entries));
    }
    default:  // binary and discarded values do not come out of the JSON parser
      return Value();
  }
}

Value* Value::Find(const std::string& key) const {
  if (kind_ != Kind::kObject) return nullptr;
  for (auto& [name, value] : *object_) {
    if (name == key) return &value;
  }
  return nullptr;
}

void Value::Set(const std::string& key, Value value) const {
  CheckChild(value);
  if (Value* existing = Find(key)) {
    *existing = std::move(value);
  } else {
    object_->emplace_back(key, std::move(value));
  }
}

bool Value::Truthy() const {
  switch (kind_) {
    case Kind::kUndefined:
    case Kind::kNone:
      return false;
    case Kind::kBool:
      return bool_;
    case Kind::kInt:
      return int_ != 0;
    case Kind::kFloat:
      return float_ != 0;
    case Kind::kString:
      return !string_.empty();
    case Kind::kArray:
      return !array_->empty();
    case Kind::kObject:
      return !object_->empty();
  }
  return false;
}

bool Value::Equals(const Value& other) const {
  if (is_number() && other.is_number()) {
    if (kind_ == Kind::kInt && other.kind_ == Kind::kInt) return int_ == other.int_;
    return number_value() == other.number_value();
  }
  // Python's True == 1, but chat templates compare booleans only with booleans.
  if (kind_ != other.kind_) return false;
  switch (kind_) {
    case Kind::kUndefined:
    case Kind::kNone:
      return true;
    case Kind::kBool:
      return bool_ == other.bool_;
    case Kind::kString:
      return string_ == other.string_;
    case Kind::kArray: {
      if (array_->size() != other.array_->size()) return false;
      for (size_t i = 0; i < array_->size(); ++i) {
        if (!(*array_)[i].Equals((*other.array_)[i])) return false;
      }
      return true;
    }
    case Kind::kObject: {
      if (object_->size() != other.object_->size()) return false;
      for (const auto& [key, value] : *object_) {
        const Value* match = other.Find(key);
        if (match == nullptr || !value.Equals(*match)) return false;
      }
      return true;
    }
    default:
      return false;
  }
}

std::string FormatFloat(double value) {
  if (std::isnan(value)) return "nan";
  if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
  char buffer[40];
  // The shortest %.*g that reads back as the same double, as Python's repr.
  for (int precision = 1; precision <= 17; ++precision) {
    std::snprintf(buffer, sizeof(buffer), "%.*g", precision, value);
    if (std::strtod(buffer, nullptr) == value) break;
  }
  std::string text = buffer;
  if (text.find_first_of(".en") == std::string::npos) text += ".0";
  return text;
}

std::string Value::ToString() const {
  switch (kind_) {
    case Kind::kUndefined:
      return "";
    case Kind::kString:
      return string_;
    default:
      return ToRepr();
  }
}

namespace {

void AppendRepr(const std::string& text, std::string* out) {
  const bool double_quotes =
      text.find('\'') != std::string::npos && text.find('"') == std::string::npos;
  const char quote = double_quotes ? '"' : '\'';
  out->push_back(quote);
  for (unsigned char c : text) {
    if (c == '\\' || c == quote) {
      out->push_back('\\');
      out->push_back(static_cast<char>(c));
    } else if (c == '\n') {
      out->append("\\n");
    } else if (c == '\r') {
      out->append("\\r");
    } else if (c == '\t') {
      out->append("\\t");
    } else if (c < 0x20 || c == 0x7f) {
      char escape[8];
      std::snprintf(escape, sizeof(escape), "\\x%02x", c);
      out->append(escape);
    } else {
      out->push_back(static_cast<char>(c));
    }
  }
  out->push_back(quote);
}

void AppendJsonString(const std::string& text, std::string* out) {
  out->push_back('"');
  for (unsigned char c : text) {
    switch (c) {
      case '"':
        out->append("\\\"");
        break;
      case '\\':
        out->append("\\\\");
        break;
      case '\b':
        out->append("\\b");
        break;
      case '\f':
        out->append("\\f");
        break;
      case '\n':
        out->append("\\n");
        break;
      case '\r':
        out->append("\\r");
        break;
      case '\t':
        out->append("\\t");
        break;
      default:
        if (c < 0x20) {
          char escape[8];
          std::snprintf(escape, sizeof(escape), "\\u%04x", c);
          out->append(escape);
        } else {
          out->push_back(static_cast<char>(c));
        }
    }
  }
  out->push_back('"');
}

}  // namespace

std::string Value::ToRepr() const {
  switch (kind_) {
    case Kind::kUndefined:
      return "";
    case Kind::kNone:
      return "None";
    case Kind::kBool:
      return bool_ ? "True" : "False";
    case Kind::kInt:
      return std::to_string(int_);
    case Kind::kFloat:
      return FormatFloat(float_);
    case Kind::kString: {
      std::string out;
      AppendRepr(string_, &out);
      return out;
    }
    case Kind::kArray: {
      std::string out = "[";
      for (size_t i = 0; i < array_->size(); ++i) {
        if (i > 0) out += ", ";
        out += (*array_)[i].ToRepr();
      }
      return out + "]";
    }
    case Kind::kObject: {
      std::string out = "{";
      bool first = true;
      for (const auto& [key, value] : *object_) {
        if (!first) out += ", ";
        first = false;
        AppendRepr(key, &out);
        out += ": " + value.ToRepr();
      }
      return out + "}";
    }
  }
  return "";
}

std::string Value::ToJson(int indent) const {
  std::string out;
  AppendJson(indent, 0, &out);
  return out;
}

void Value::AppendJson(int indent, int depth, std::string* out) const {
  // json.dumps: ", " between items without indent, "," plus a newline with it.
  const bool pretty = indent >= 0;
  auto newline = [&](int level) {
    if (!pretty) return;
    out->push_back('\n');
    out->append(static_cast<size_t>(indent) * level, ' ');
  };
  switch (kind_) {
    case Kind::kUndefined:
    case Kind::kNone:
      out->append("null");
      return;
    case Kind::kBool:
      out->append(bool_ ? "true" : "false");
      return;
    case Kind::kInt:
      out->append(std::to_string(int_));
      return;
    case Kind::kFloat:
      // JSON has no nan/inf: json.dumps writes NaN/Infinity, which we follow.
      if (std::isnan(float_)) {
        out->append("NaN");
      } else if (std::isinf(float_)) {
        out->append(float_ > 0 ? "Infinity" : "-Infinity");
      } else {
        out->append(FormatFloat(float_));
      }
      return;
    case Kind::kString:
      AppendJsonString(string_, out);
      return;
    case Kind::kArray: {
      out->push_back('[');
      for (size_t i = 0; i < array_->size(); ++i) {
        if (i > 0) out->append(pretty ? "," : ", ");
        newline(depth + 1);
        (*array_)[i].AppendJson(indent, depth + 1, out);
      }
      if (!array_->empty()) newline(depth);
      out->push_back(']');
      return;
    }
    case Kind::kObject: {
      out->push_back('{');
      bool first = true;
      for (const auto& [key, value] : *object_) {
        if (!first) out->append(pretty ? "," : ", ");
        first = false;
        newline(depth + 1);
        AppendJsonString(key, out);
        out->append(": ");
        value.AppendJson(indent, depth + 1, out);
      }
      if (!object_->empty()) newline(depth);
      out->push_back('}');
      return;
    }
  }
}

const char* Value::KindName() const {
  switch (kind_) {
    case Kind::kUndefined:
      return "undefined";
    case Kind::kNone:
      return "none";
    case Kind::kBool:
      return "bool";
    case Kind::kInt:
      return "int";
    case Kind::kFloat:
      return "float";
    case Kind::kString:
      return "string";
    case Kind::kArray:
      return "list";
    case Kind::kObject:
      return is_namespace() ? "namespace" : "dict";
  }
  return "?";
}

}  // namespace tcpu::chat_template
