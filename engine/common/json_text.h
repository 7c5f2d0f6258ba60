// JSON text to values and back, through nlohmann::json with its parser and serializer compiled
// once (json_text.cc). A translation unit that calls basic_json::parse instantiates the whole
// lexer and parser: 5.7 s of compile under ASan + UBSan and 2.2 s at -O2, and two dozen of the
// engine's files and tests did, in both configurations. Reading and building values
// (at, get, operator[]) stays with nlohmann::json in each file.
#ifndef TCPU_ENGINE_COMMON_JSON_TEXT_H_
#define TCPU_ENGINE_COMMON_JSON_TEXT_H_

#include <cstddef>
#include <string>
#include <string_view>

#include "nlohmann/json.hpp"

namespace tcpu::engine {

// Why a text is not JSON: nlohmann's message ("[json.exception.parse_error.101] parse error at
// line 1, column 5: syntax error while parsing value - invalid literal; last read: 'tru'") and
// the byte where parsing stopped (0 when the error is not a syntax error).
struct JsonError {
  std::string message;
  size_t byte = 0;
};

// Parses all of `text` (RFC 8259; nothing but white space may follow the value). On malformed
// text returns false, leaves *out null and fills *error when it is not null. Never throws.
bool ParseJson(std::string_view text, nlohmann::json* out, JsonError* error = nullptr);
// The same, keeping object members in the order of the text (chat templates iterate them).
bool ParseJson(std::string_view text, nlohmann::ordered_json* out, JsonError* error = nullptr);

// `value` as JSON text: compact, or with `indent` spaces per level (basic_json::dump(indent),
// which throws nlohmann::json::type_error on a string that is not UTF-8).
std::string DumpJson(const nlohmann::json& value, int indent = -1);
std::string DumpJson(const nlohmann::ordered_json& value, int indent = -1);

}  // namespace tcpu::engine

#endif  // TCPU_ENGINE_COMMON_JSON_TEXT_H_
