/* Picks the next token from a step's logits: greedy (the default), or sampling with
 * temperature, top-k, top-p (nucleus) and min-p, after a repetition penalty, in the order
 * and with the meaning Hugging Face transformers gives them (repetition penalty, then
 * temperature, top-k, top-p, min-p). The same seed gives the same tokens on every machine:
 * the random numbers come from a fixed 64-bit Mersenne Twister, not the C library.
 * A sampler holds its random state and a workspace sized at create: sampling allocates
 * nothing. One sampler per thread. */
#ifndef TCPU_SAMPLER_H_
#define TCPU_SAMPLER_H_

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct tcpu_sampler tcpu_sampler;

typedef struct tcpu_sampler_params {
  float temperature;        /* 0: greedy (argmax; the lowest id on ties); else > 0 */
  int32_t top_k;            /* keep the k most likely tokens; 0: all */
  float top_p;              /* keep the fewest most likely tokens whose mass reaches p; 1: all */
  float min_p;              /* drop tokens less likely than min_p x the most likely; 0: none */
  float repetition_penalty; /* > 0; logits of tokens in the history: x it if < 0, / it if
                               >= 0 (1: off) */
  uint64_t seed;
} tcpu_sampler_params;

/* Greedy, no penalty: temperature 0, top_k 0, top_p 1, min_p 0, repetition_penalty 1,
 * seed 0. */
void tcpu_sampler_default_params(tcpu_sampler_params* params);

/* Errors: TCPU_ERR_NULL_POINTER, TCPU_ERR_INVALID_SIZE (vocab_size), TCPU_ERR_INVALID_ARGUMENT
 * (a parameter out of its range: the detail names it), TCPU_ERR_OUT_OF_MEMORY. */
int tcpu_sampler_create(const tcpu_sampler_params* params, int64_t vocab_size,
                        tcpu_sampler** sampler);

void tcpu_sampler_destroy(tcpu_sampler* sampler);

/* Chooses *token from logits[0 .. vocab_size). history[0 .. n_history): the tokens so far
 * (prompt and generated), for the repetition penalty; may be NULL when n_history is 0.
 * logits are not changed. A NaN logit is never chosen (it counts as -infinity, the rule of
 * tcpu_decoder_step's greedy token too); when every logit is NaN or -infinity the token is 0.
 * A history id outside the vocabulary gives TCPU_ERR_INVALID_ARGUMENT naming its index. */
int tcpu_sampler_sample(tcpu_sampler* sampler, const float* logits, const int32_t* history,
                        int64_t n_history, int32_t* token);

#ifdef __cplusplus
}
#endif

#endif /* TCPU_SAMPLER_H_ */
