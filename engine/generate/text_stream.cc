#include "engine/generate/text_stream.h"

#include <string_view>

#include "tcpu/status.h"

namespace tcpu::generate {
namespace {

constexpr std::string_view kReplacementCharacter = "\xEF\xBF\xBD";

bool EndsWith(std::string_view text, std::string_view suffix) {
  return text.size() >= suffix.size() && text.substr(text.size() - suffix.size()) == suffix;
}

}  // namespace

int TextStream::Decode(size_t begin, size_t end, std::string* text) const {
  text->clear();
  if (begin == end) return TCPU_OK;
  const int32_t* ids = ids_.data() + begin;
  const int64_t n = static_cast<int64_t>(end - begin);
  int64_t bytes = 0;
  int status = tcpu_tokenizer_decode(tokenizer_, ids, n, skip_special_tokens_, nullptr, 0, &bytes);
  if (status != TCPU_ERR_BUFFER_TOO_SMALL) return status;
  text->resize(static_cast<size_t>(bytes) + 1);
  status = tcpu_tokenizer_decode(tokenizer_, ids, n, skip_special_tokens_, text->data(), bytes + 1,
                                 &bytes);
  text->resize(static_cast<size_t>(bytes));
  return status;
}

int TextStream::Release(bool final, std::string* piece) {
  std::string before, after;
  if (int status = Decode(prefix_, read_, &before); status != TCPU_OK) return status;
  if (int status = Decode(prefix_, ids_.size(), &after); status != TCPU_OK) return status;
  // Hold while the newest character is incomplete, or (rarely) while the window's text does
  // not extend what was released, so that no piece can split a character.
  const bool extends = after.size() > before.size() && after.compare(0, before.size(), before) == 0;
  if (!final && (!extends || EndsWith(after, kReplacementCharacter))) return TCPU_OK;
  if (extends) piece->append(after, before.size(), std::string::npos);
  prefix_ = read_;
  read_ = ids_.size();
  return TCPU_OK;
}

int TextStream::Push(int32_t id, std::string* piece) {
  if (tokenizer_ == nullptr) return TCPU_OK;  // a session of ids only has no text
  ids_.push_back(id);
  return Release(false, piece);
}

int TextStream::Finish(std::string* piece) {
  if (read_ == ids_.size()) return TCPU_OK;
  return Release(true, piece);
}

}  // namespace tcpu::generate
