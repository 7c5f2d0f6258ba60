// UTF-8 checks and conversions the engine needs at its edges: refuse invalid input (tokenizer
// text, GGUF names and strings), and turn decoded bytes back into text with U+FFFD where they
// are not UTF-8.
#ifndef TCPU_ENGINE_COMMON_UTF8_H_
#define TCPU_ENGINE_COMMON_UTF8_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace tcpu::engine {

// Length of the well-formed UTF-8 sequence at text[pos] (1..4), or 0 if the bytes there
// are not one (truncated, overlong, surrogate, above U+10FFFF, stray continuation byte).
size_t Utf8SequenceLength(std::string_view text, size_t pos);

// True if `text` is entirely well-formed UTF-8; otherwise *bad_offset is the first bad byte.
bool IsValidUtf8(std::string_view text, size_t* bad_offset);

// `bytes` as text, each maximal ill-formed subpart replaced by one U+FFFD (the Unicode
// "substitution of maximal subparts" practice, which Rust's from_utf8_lossy and the
// WHATWG TextDecoder follow).
std::string Utf8Lossy(std::string_view bytes);

// Appends the UTF-8 encoding of `code_point` (<= U+10FFFF, not a surrogate).
void AppendUtf8(uint32_t code_point, std::string* out);

// The code point of the well-formed sequence of `length` bytes at text[pos].
uint32_t DecodeUtf8At(std::string_view text, size_t pos, size_t length);

}  // namespace tcpu::engine

#endif  // TCPU_ENGINE_COMMON_UTF8_H_
