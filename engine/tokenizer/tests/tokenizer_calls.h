// The tokenizer tests' calls of the C ABI: encode and decode into sized vectors and strings
// (asking for the size first), with gtest expectations on every status.
#ifndef TCPU_ENGINE_TOKENIZER_TESTS_TOKENIZER_CALLS_H_
#define TCPU_ENGINE_TOKENIZER_TESTS_TOKENIZER_CALLS_H_

#include <cstdint>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "tcpu/status.h"
#include "tcpu/tokenizer.h"

namespace tcpu::testing {

inline std::vector<int32_t> Encode(const tcpu_tokenizer* tokenizer, const std::string& text,
                                   bool add_special) {
  int64_t n = 0;
  int status = tcpu_tokenizer_encode(tokenizer, text.data(), static_cast<int64_t>(text.size()),
                                     add_special, nullptr, 0, &n);
  std::vector<int32_t> ids(static_cast<size_t>(n));
  if (status == TCPU_ERR_BUFFER_TOO_SMALL) {
    status = tcpu_tokenizer_encode(tokenizer, text.data(), static_cast<int64_t>(text.size()),
                                   add_special, ids.data(), n, &n);
  }
  EXPECT_EQ(status, TCPU_OK) << tcpu_last_error_detail();
  return ids;
}

inline std::string Decode(const tcpu_tokenizer* tokenizer, const std::vector<int32_t>& ids) {
  int64_t bytes = 0;
  int status = tcpu_tokenizer_decode(tokenizer, ids.data(), static_cast<int64_t>(ids.size()), 0,
                                     nullptr, 0, &bytes);
  EXPECT_EQ(status, TCPU_ERR_BUFFER_TOO_SMALL) << tcpu_last_error_detail();
  std::string text(static_cast<size_t>(bytes) + 1, '\0');
  status = tcpu_tokenizer_decode(tokenizer, ids.data(), static_cast<int64_t>(ids.size()), 0,
                                 text.data(), bytes + 1, &bytes);
  EXPECT_EQ(status, TCPU_OK) << tcpu_last_error_detail();
  text.resize(static_cast<size_t>(bytes));
  return text;
}

}  // namespace tcpu::testing

#endif  // TCPU_ENGINE_TOKENIZER_TESTS_TOKENIZER_CALLS_H_
