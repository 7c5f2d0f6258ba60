// The tensor names of GGUF files (llama.cpp's gguf-py tensor map) against the Hugging Face
// names the loader asks for: `blk.3.attn_q.weight` is `model.layers.3.self_attn.q_proj.weight`.
// Only the tensors of the architectures the engine runs are named; others have no mapping.
#ifndef TCPU_ENGINE_MODEL_GGUF_TENSOR_NAMES_H_
#define TCPU_ENGINE_MODEL_GGUF_TENSOR_NAMES_H_

#include <string>
#include <string_view>

namespace tcpu::model {

// The Hugging Face name of GGUF tensor `gguf_name`, or "" if it is not one the engine uses.
std::string HfNameOfGgufTensor(std::string_view gguf_name);

// The GGUF name of Hugging Face tensor `hf_name` (for errors), or `hf_name` itself if it has
// none.
std::string GgufNameOfHfTensor(std::string_view hf_name);

// True for the architectures (Hugging Face names) whose q/k rows llama.cpp's converter permutes
// for its interleaved RoPE: Llama and MiniCPM. Qwen2 and Qwen3 keep rotate-half order, which
// llama.cpp runs as NEOX RoPE.
bool GgufPermutesQkRows(std::string_view architecture);

}  // namespace tcpu::model

#endif  // TCPU_ENGINE_MODEL_GGUF_TENSOR_NAMES_H_
