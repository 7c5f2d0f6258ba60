// Writes the fuzzer's seed files into the directory given as the only argument.
#include <cstdio>
#include <string>

#include "engine/gguf/tests/sample_files.h"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s OUT_DIR\n", argv[0]);
    return 2;
  }
  namespace t = tcpu::gguf::testing;
  const std::string dir = argv[1];
  const std::pair<const char*, tcpu::gguf::GgufWriter> seeds[] = {
      {"small.gguf", t::SmallModelWriter()},
      {"small_align1.gguf", t::SmallModelWriter(1)},
      {"every_type.gguf", t::EveryTypeWriter()},
      {"every_type_align64.gguf", t::EveryTypeWriter(64)},
      {"minicpm_k_quants.gguf", t::KQuantModelWriter()},
  };
  for (const auto& [name, writer] : seeds) {
    std::string error;
    if (!writer.WriteFile(dir + "/" + name, &error)) {
      std::fprintf(stderr, "%s\n", error.c_str());
      return 1;
    }
  }
  return 0;
}
