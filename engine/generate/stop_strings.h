// Stop strings over streamed text: holds back the end of the text while it could still grow
// into a stop string, and cuts the text where the first stop string begins. Pieces given in
// are valid UTF-8, and so are the pieces that come out: a held-back suffix starts where a
// stop string's first character would, a character boundary.
#ifndef TCPU_ENGINE_GENERATE_STOP_STRINGS_H_
#define TCPU_ENGINE_GENERATE_STOP_STRINGS_H_

#include <string>
#include <string_view>
#include <vector>

namespace tcpu::generate {

class StopStrings {
 public:
  explicit StopStrings(std::vector<std::string> stops) : stops_(std::move(stops)) {}

  // Adds `piece`; appends to *out the text that no stop string can claim any more. Returns
  // true when a stop string appeared: *out then ends just before it, and the rest is dropped.
  bool Feed(std::string_view piece, std::string* out);

  // Appends the held-back text (the generation ended without a stop string).
  void Finish(std::string* out);

 private:
  std::vector<std::string> stops_;
  std::string held_;
};

}  // namespace tcpu::generate

#endif  // TCPU_ENGINE_GENERATE_STOP_STRINGS_H_
