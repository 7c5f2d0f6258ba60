// tcpu_quantize_checkpoint: a model loaded as the decoder loads it, its held tensors written as a
// pre-quantized checkpoint (prequantized_format.h) beside copies of the small JSON files.
#include "tcpu/quantize_checkpoint.h"

#include <sys/stat.h>

#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "engine/common/c_boundary.h"
#include "engine/common/json_text.h"
#include "engine/common/read_file.h"
#include "engine/model/model.h"
#include "engine/model/prequantized_format.h"
#include "engine/model/safetensors_writer.h"
#include "runtime/check.h"
#include "tcpu/decoder.h"

namespace tcpu::model {
namespace {

// The files tcpu-decode reads beside the weights: copied as they are.
constexpr const char* kCopiedFiles[] = {"generation_config.json", "tokenizer.json",
                                        "tokenizer_config.json", "special_tokens_map.json"};

std::string RealPath(const std::string& path) {
  char resolved[PATH_MAX];
  return realpath(path.c_str(), resolved) != nullptr ? std::string(resolved) : path;
}

bool WriteFile(const std::string& path, const std::string& contents) {
  std::FILE* f = std::fopen(path.c_str(), "wb");
  if (f == nullptr) return false;
  const bool ok = std::fwrite(contents.data(), 1, contents.size(), f) == contents.size();
  return std::fclose(f) == 0 && ok;
}

// Packed matrices first, then fp32, then bf16 tensors: every size but an int8 matrix's is a
// multiple of the alignment of what follows it, so the data section has (almost) no gaps.
int DTypeOrder(DType dtype) { return dtype == DType::kU8 ? 0 : dtype == DType::kF32 ? 1 : 2; }

int QuantizeCheckpoint(const char* fn, const char* model_dir, int32_t weights,
                       const char* out_dir) {
  TCPU_CHECK_NOT_NULL(fn, model_dir);
  TCPU_CHECK_NOT_NULL(fn, out_dir);
  WeightFormat format;
  if (int s = WeightFormatFromC(fn, "weights", weights, &format); s != TCPU_OK) return s;
  const std::string source = model_dir, out = out_dir;
  if (!engine::IsDirectory(source)) {
    return Fail(TCPU_ERR_INVALID_ARGUMENT,
                "%s: model '%s' is not a checkpoint directory (config.json and "
                "safetensors)",
                fn, model_dir);
  }
  if (mkdir(out.c_str(), 0755) != 0 && errno != EEXIST) {
    return Fail(TCPU_ERR_IO, "%s: cannot create '%s': %s", fn, out_dir, std::strerror(errno));
  }
  if (!engine::IsDirectory(out)) {
    return Fail(TCPU_ERR_IO, "%s: out '%s' is not a directory", fn, out_dir);
  }
  if (RealPath(out) == RealPath(source)) {
    return Fail(TCPU_ERR_INVALID_ARGUMENT, "%s: out '%s' is the model directory itself", fn,
                out_dir);
  }
  std::unique_ptr<Model> model;
  if (int s = Model::Load(source, format, &model); s != TCPU_OK) return s;

  std::string config;
  if (!engine::ReadFile(source + "/config.json", &config)) {
    return Fail(TCPU_ERR_IO, "%s: cannot read '%s/config.json'", fn, model_dir);
  }
  std::vector<TensorToWrite> tensors;
  for (int order = 0; order < 3; ++order) {
    for (const Model::HeldTensor& t : model->held_tensors()) {
      if (DTypeOrder(t.dtype) == order)
        tensors.push_back({t.name, t.dtype, t.shape, t.data, t.bytes});
    }
  }
  // Well-formed when the model loaded, unless the file changed since.
  nlohmann::json parsed_config;
  if (!engine::ParseJson(config, &parsed_config)) {
    return Fail(TCPU_ERR_INVALID_ARGUMENT, "%s: '%s/config.json' is not well-formed JSON", fn,
                model_dir);
  }
  const std::string source_config = engine::DumpJson(parsed_config);
  std::string error;
  if (!WriteSafetensors(out + "/model.safetensors", tensors,
                        PrequantizedMetadata(format, source_config), &error)) {
    return Fail(TCPU_ERR_IO, "%s: %s", fn, error.c_str());
  }
  if (!WriteFile(out + "/config.json", config)) {
    return Fail(TCPU_ERR_IO, "%s: cannot write '%s/config.json'", fn, out_dir);
  }
  for (const char* name : kCopiedFiles) {
    std::string contents;
    if (!engine::ReadFile(source + "/" + name, &contents)) continue;  // optional
    if (!WriteFile(out + "/" + name, contents)) {
      return Fail(TCPU_ERR_IO, "%s: cannot write '%s/%s'", fn, out_dir, name);
    }
  }
  return Succeed();
}

}  // namespace
}  // namespace tcpu::model

extern "C" int tcpu_quantize_checkpoint(const char* model, int32_t weights, const char* out) {
  constexpr const char* kFn = "tcpu_quantize_checkpoint";
  return tcpu::engine::Guarded(
      kFn, [&] { return tcpu::model::QuantizeCheckpoint(kFn, model, weights, out); },
      TCPU_ERR_INVALID_MODEL);
}
