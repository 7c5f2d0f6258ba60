// write-gguf-checkpoint CHECKPOINT_DIR OUT.gguf [TOKENIZER_JSON [TYPE]]: a generated
// checkpoint as a GGUF file (gguf_from_checkpoint.h), with the tokenizer when given; TYPE
// (f32, q8_0, q4_0, q4_k, q5_k, q6_k) sets the matrices' type, and q4_k_m or q5_k_m writes
// llama.cpp's mix of k-quants. For tests of the tools that take GGUF files.
#include <cstdio>
#include <map>
#include <string>

#include "engine/model/tests/gguf_from_checkpoint.h"

int main(int argc, char** argv) {
  if (argc < 3 || argc > 5) {
    std::fprintf(stderr, "usage: %s CHECKPOINT_DIR OUT.gguf [TOKENIZER_JSON [TYPE]]\n", argv[0]);
    return 2;
  }
  tcpu::testing::GgufExport options;
  if (argc > 3) options.tokenizer_json = argv[3];
  if (argc > 4) {
    const std::map<std::string, tcpu::gguf::TensorType> types = {
        {"f32", tcpu::gguf::TensorType::kF32},     {"q8_0", tcpu::gguf::TensorType::kQ8_0},
        {"q4_0", tcpu::gguf::TensorType::kQ4_0},   {"q4_k", tcpu::gguf::TensorType::kQ4_K},
        {"q5_k", tcpu::gguf::TensorType::kQ5_K},   {"q6_k", tcpu::gguf::TensorType::kQ6_K},
        {"q4_k_m", tcpu::gguf::TensorType::kQ4_K}, {"q5_k_m", tcpu::gguf::TensorType::kQ5_K}};
    const auto it = types.find(argv[4]);
    if (it == types.end()) {
      std::fprintf(stderr, "%s: unknown type '%s'\n", argv[0], argv[4]);
      return 2;
    }
    options.matrix_type = it->second;
    const std::string type = argv[4];
    options.k_quant_mix = type.compare(type.size() - 2, 2, "_m") == 0;  // q4_k_m, q5_k_m
  }
  std::string error;
  if (!tcpu::testing::WriteGgufFromCheckpoint(argv[1], argv[2], options, &error)) {
    std::fprintf(stderr, "%s: %s\n", argv[0], error.c_str());
    return 1;
  }
  return 0;
}
