/* Pre-quantized checkpoints: quantize and pack a checkpoint's linear weights once, into files
 * tcpu_decoder_open maps without quantizing (engine/model/README.md describes the format). */
#ifndef TCPU_QUANTIZE_CHECKPOINT_H_
#define TCPU_QUANTIZE_CHECKPOINT_H_

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Loads the checkpoint directory `model` as tcpu_decoder_open does with `weights` (a
 * tcpu_weight_format of tcpu/decoder.h) and writes into the directory `out` (created if
 * missing; its parent must exist; it must not be `model`) model.safetensors holding every
 * tensor as the decoder holds it — packed matrices, int8 scales, bf16 norms and embeddings,
 * fp32 biases — with the format recorded in its __metadata__, plus copies of config.json and,
 * when `model` has them, generation_config.json, tokenizer.json, tokenizer_config.json and
 * special_tokens_map.json. Opening `out` with the same `weights` decodes bit-identically to
 * opening `model`; with the other one it is TCPU_ERR_INVALID_ARGUMENT.
 * Errors: TCPU_ERR_INVALID_ARGUMENT (a NULL path, an unknown `weights`, `model` not a directory
 * or `out` the same directory), and tcpu_decoder_open's for the source (TCPU_ERR_IO,
 * TCPU_ERR_INVALID_MODEL, TCPU_ERR_OUT_OF_MEMORY); TCPU_ERR_IO when `out` cannot be written. */
int tcpu_quantize_checkpoint(const char* model, int32_t weights, const char* out);

#ifdef __cplusplus
}
#endif

#endif /* TCPU_QUANTIZE_CHECKPOINT_H_ */
