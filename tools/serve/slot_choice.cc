#include "tools/serve/slot_choice.h"

namespace tcpu::serve {

size_t CommonPrefix(const std::vector<int32_t>& a, const std::vector<int32_t>& b) {
  size_t n = 0;
  while (n < a.size() && n < b.size() && a[n] == b[n]) ++n;
  return n;
}

int ChooseSlot(const std::vector<const std::vector<int32_t>*>& histories,
               const std::vector<uint64_t>& last_used, const std::vector<bool>& free,
               const std::vector<int32_t>& prompt) {
  int best = -1;
  size_t best_prefix = 0;
  for (size_t i = 0; i < histories.size(); ++i) {
    if (!free[i]) continue;
    const size_t prefix = CommonPrefix(*histories[i], prompt);
    if (best < 0 || prefix > best_prefix ||
        (prefix == best_prefix && last_used[i] < last_used[static_cast<size_t>(best)])) {
      best = static_cast<int>(i);
      best_prefix = prefix;
    }
  }
  return best;
}

}  // namespace tcpu::serve
