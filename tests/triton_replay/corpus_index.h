// The launches a replay runs: a corpus's manifest.json (tools/triton_capture/FORMAT.md), all of
// its launches or the slice a file lists.
#ifndef TCPU_TESTS_TRITON_REPLAY_CORPUS_INDEX_H_
#define TCPU_TESTS_TRITON_REPLAY_CORPUS_INDEX_H_

#include <string>
#include <vector>

namespace tcpu::replay {

struct LaunchEntry {
  std::string id;
  std::string kernel;  // as the manifest names it ("?" when it does not)
  std::string record;  // "launches/ID.json", relative to the corpus root
  std::string error;   // why this launch cannot be replayed, when the manifest or slice says so
};

// Reads CORPUS/manifest.json. With a non-empty `slice` (a file of launch ids, one per line,
// '#' comments), keeps the launches it lists, in its order; an id the manifest lacks is an
// entry with an error. Returns false with *error only when the manifest or the slice cannot be
// used at all (missing, not JSON, another format).
bool ReadCorpusIndex(const std::string& corpus, const std::string& slice,
                     std::vector<LaunchEntry>* launches, std::string* error);

}  // namespace tcpu::replay

#endif  // TCPU_TESTS_TRITON_REPLAY_CORPUS_INDEX_H_
