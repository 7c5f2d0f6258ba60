// Which slot a request goes to: the free one whose KV cache already holds the longest prefix of the
// request's context, so a conversation's next turn (whose context begins with the last turn's
// context and answer) prefills only its new tokens.
#ifndef TCPU_TOOLS_SERVE_SLOT_CHOICE_H_
#define TCPU_TOOLS_SERVE_SLOT_CHOICE_H_

#include <cstddef>
#include <cstdint>
#include <vector>

namespace tcpu::serve {

// The length of the common prefix of a and b.
size_t CommonPrefix(const std::vector<int32_t>& a, const std::vector<int32_t>& b);

// The free slot (free[i]) whose cached tokens (histories[i]) share the longest prefix with
// `prompt`, ties to the least recently used (smallest last_used[i]); -1 when none is free.
int ChooseSlot(const std::vector<const std::vector<int32_t>*>& histories,
               const std::vector<uint64_t>& last_used, const std::vector<bool>& free,
               const std::vector<int32_t>& prompt);

}  // namespace tcpu::serve

#endif  // TCPU_TOOLS_SERVE_SLOT_CHOICE_H_
