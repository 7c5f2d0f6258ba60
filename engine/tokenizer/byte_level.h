// GPT-2's byte-level alphabet: each of the 256 bytes is shown as one printable code point
// (printable Latin-1 bytes as themselves, the others as U+0100 + n), so any byte string is
// a string of vocabulary characters.
#ifndef TCPU_ENGINE_TOKENIZER_BYTE_LEVEL_H_
#define TCPU_ENGINE_TOKENIZER_BYTE_LEVEL_H_

#include <cstdint>
#include <string>
#include <string_view>

namespace tcpu::tokenizer {

// Appends the byte-level characters (UTF-8) of every byte of `bytes`.
void AppendByteLevel(std::string_view bytes, std::string* out);

// The byte shown by `code_point`, or -1 if it is not in the byte-level alphabet.
int ByteLevelByte(uint32_t code_point);

}  // namespace tcpu::tokenizer

#endif  // TCPU_ENGINE_TOKENIZER_BYTE_LEVEL_H_
