#include "engine/generate/stop_strings.h"

#include <algorithm>

namespace tcpu::generate {

bool StopStrings::Feed(std::string_view piece, std::string* out) {
  held_.append(piece);
  size_t first_stop = std::string::npos;
  for (const std::string& stop : stops_) first_stop = std::min(first_stop, held_.find(stop));
  if (first_stop != std::string::npos) {
    out->append(held_, 0, first_stop);
    held_.clear();
    return true;
  }
  // The longest suffix of held_ that is a proper prefix of some stop string stays held.
  size_t keep = 0;
  for (const std::string& stop : stops_) {
    for (size_t length = std::min(stop.size() - 1, held_.size()); length > keep; --length) {
      if (held_.compare(held_.size() - length, length, stop, 0, length) == 0) {
        keep = length;
        break;
      }
    }
  }
  out->append(held_, 0, held_.size() - keep);
  held_.erase(0, held_.size() - keep);
  return false;
}

void StopStrings::Finish(std::string* out) {
  out->append(held_);
  held_.clear();
}

}  // namespace tcpu::generate
