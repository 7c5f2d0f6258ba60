#include "engine/model/gguf_tensor_names.h"

#include <cstdint>
#include <cstdlib>

namespace tcpu::model {
namespace {

struct NamePair {
  const char* gguf;
  const char* hf;
};

// Whole-model tensors.
constexpr NamePair kGlobal[] = {
    {"token_embd.weight", "model.embed_tokens.weight"},
    {"output_norm.weight", "model.norm.weight"},
    {"output.weight", "lm_head.weight"},
};

// Per-layer tensors: "blk.N." + gguf against "model.layers.N." + hf.
constexpr NamePair kLayer[] = {
    {"attn_norm.weight", "input_layernorm.weight"},
    {"attn_q.weight", "self_attn.q_proj.weight"},
    {"attn_k.weight", "self_attn.k_proj.weight"},
    {"attn_v.weight", "self_attn.v_proj.weight"},
    {"attn_output.weight", "self_attn.o_proj.weight"},
    {"attn_q.bias", "self_attn.q_proj.bias"},
    {"attn_k.bias", "self_attn.k_proj.bias"},
    {"attn_v.bias", "self_attn.v_proj.bias"},
    {"attn_output.bias", "self_attn.o_proj.bias"},
    {"attn_q_norm.weight", "self_attn.q_norm.weight"},
    {"attn_k_norm.weight", "self_attn.k_norm.weight"},
    {"ffn_norm.weight", "post_attention_layernorm.weight"},
    {"ffn_gate.weight", "mlp.gate_proj.weight"},
    {"ffn_up.weight", "mlp.up_proj.weight"},
    {"ffn_down.weight", "mlp.down_proj.weight"},
};

// Splits "<prefix><decimal layer>.<rest>" into layer and rest; false if `name` is not so.
bool SplitLayer(std::string_view name, std::string_view prefix, std::string* layer,
                std::string_view* rest) {
  if (name.substr(0, prefix.size()) != prefix) return false;
  name.remove_prefix(prefix.size());
  size_t digits = 0;
  while (digits < name.size() && digits < 6 && name[digits] >= '0' && name[digits] <= '9') {
    ++digits;
  }
  // A canonical decimal: no leading zero, so one tensor has one name.
  if (digits == 0 || digits >= name.size() || name[digits] != '.' ||
      (digits > 1 && name[0] == '0')) {
    return false;
  }
  *layer = std::string(name.substr(0, digits));
  *rest = name.substr(digits + 1);
  return true;
}

}  // namespace

std::string HfNameOfGgufTensor(std::string_view gguf_name) {
  for (const NamePair& pair : kGlobal) {
    if (gguf_name == pair.gguf) return pair.hf;
  }
  std::string layer;
  std::string_view rest;
  if (!SplitLayer(gguf_name, "blk.", &layer, &rest)) return "";
  for (const NamePair& pair : kLayer) {
    if (rest == pair.gguf) return "model.layers." + layer + "." + pair.hf;
  }
  return "";
}

std::string GgufNameOfHfTensor(std::string_view hf_name) {
  for (const NamePair& pair : kGlobal) {
    if (hf_name == pair.hf) return pair.gguf;
  }
  std::string layer;
  std::string_view rest;
  if (SplitLayer(hf_name, "model.layers.", &layer, &rest)) {
    for (const NamePair& pair : kLayer) {
      if (rest == pair.hf) return "blk." + layer + "." + pair.gguf;
    }
  }
  return std::string(hf_name);
}

bool GgufPermutesQkRows(std::string_view architecture) {
  return architecture == "LlamaForCausalLM" || architecture == "MiniCPMForCausalLM";
}

}  // namespace tcpu::model
