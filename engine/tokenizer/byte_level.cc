#include "engine/tokenizer/byte_level.h"

#include <array>

#include "engine/common/utf8.h"

namespace tcpu::tokenizer {
namespace {

bool ShownAsItself(int byte) {
  return (byte >= '!' && byte <= '~') || (byte >= 0xA1 && byte <= 0xAC) ||
         (byte >= 0xAE && byte <= 0xFF);
}

struct Tables {
  std::array<uint32_t, 256> code_point_of_byte;
  std::array<std::string, 256> utf8_of_byte;
  Tables() {
    uint32_t next = 0;
    for (int byte = 0; byte < 256; ++byte) {
      code_point_of_byte[byte] = ShownAsItself(byte) ? byte : 256 + next++;
      engine::AppendUtf8(code_point_of_byte[byte], &utf8_of_byte[byte]);
    }
  }
};

const Tables& GetTables() {
  static const Tables tables;
  return tables;
}

}  // namespace

void AppendByteLevel(std::string_view bytes, std::string* out) {
  const Tables& tables = GetTables();
  for (const char c : bytes) out->append(tables.utf8_of_byte[static_cast<unsigned char>(c)]);
}

int ByteLevelByte(uint32_t code_point) {
  if (code_point < 256) return ShownAsItself(static_cast<int>(code_point)) ? code_point : -1;
  if (code_point < 256 + 68) {  // 68 bytes are not shown as themselves
    const Tables& tables = GetTables();
    for (int byte = 0; byte < 256; ++byte) {
      if (tables.code_point_of_byte[byte] == code_point) return byte;
    }
  }
  return -1;
}

}  // namespace tcpu::tokenizer
