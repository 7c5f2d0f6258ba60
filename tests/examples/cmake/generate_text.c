/* Text generation from an installed SDK bundle, in C: opens a checkpoint and its tokenizer,
 * generates greedily after a text prompt through tcpu/generate.h, streams the pieces through
 * the callback and prints the text and the stats. It checks that
 *   - the streamed text equals EXPECTED_FILE (the test writes it from the host reference
 *     decoder's ids for the same prompt, decoded by the tokenizer);
 *   - the pieces joined equal the tokenizer's decode of the generated ids (the session's
 *     history), and stats.text_bytes counts them;
 *   - a missing model is an error status whose detail names the path.
 * Exit status 0 means every check passed.
 *
 *   generate_text MODEL_DIR TOKENIZER PROMPT MAX_NEW_TOKENS EXPECTED_FILE */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tcpu/decoder.h"
#include "tcpu/generate.h"
#include "tcpu/status.h"
#include "tcpu/tokenizer.h"

enum { kMaxText = 1 << 16, kMaxIds = 4096 };

typedef struct streamed_text {
  char bytes[kMaxText];
  int64_t size;
  int64_t pieces;
  int bad_piece; /* an empty piece, or more text than bytes[] holds */
} streamed_text;

static int on_piece(const char* text, int64_t text_bytes, void* user_data) {
  streamed_text* streamed = (streamed_text*)user_data;
  if (text_bytes <= 0 || streamed->size + text_bytes > kMaxText) {
    streamed->bad_piece = 1;
    return 1; /* cancel: the check below reports it */
  }
  memcpy(streamed->bytes + streamed->size, text, (size_t)text_bytes);
  streamed->size += text_bytes;
  ++streamed->pieces;
  fwrite(text, 1, (size_t)text_bytes, stdout);
  fflush(stdout);
  return 0;
}

static int fail(const char* what, int status) {
  fprintf(stderr, "\nFAIL: %s: %s (%s)\n", what, tcpu_status_string(status),
          tcpu_last_error_detail());
  return 1;
}

/* Reads `path` whole into buffer[0 .. *size); 0 on success. */
static int read_file(const char* path, char* buffer, int64_t capacity, int64_t* size) {
  FILE* file = fopen(path, "rb");
  if (file == NULL) return -1;
  *size = (int64_t)fread(buffer, 1, (size_t)capacity, file);
  const int too_long = fgetc(file) != EOF;
  fclose(file);
  return too_long ? -1 : 0;
}

/* A model that does not exist: an error status, and a detail that names the path. */
static int check_bad_model_path(const char* model_dir) {
  char missing[4096];
  snprintf(missing, sizeof missing, "%s/no-such-checkpoint", model_dir);
  tcpu_decoder* decoder = NULL;
  const int status = tcpu_decoder_open(missing, 64, &decoder);
  if (status == TCPU_OK || decoder != NULL) {
    fprintf(stderr, "FAIL: tcpu_decoder_open(%s) succeeded\n", missing);
    tcpu_decoder_close(decoder);
    return 1;
  }
  if (strstr(tcpu_last_error_detail(), missing) == NULL) {
    fprintf(stderr, "FAIL: the error for a missing model does not name %s: %s\n", missing,
            tcpu_last_error_detail());
    return 1;
  }
  printf("missing model: %s (%s)\n", tcpu_status_string(status), tcpu_last_error_detail());
  return 0;
}

/* The generated ids (the session's history after the context) decoded, special tokens
 * skipped as the session's default options do; 0 when it equals the streamed text. */
static int check_against_history(const tcpu_generate_session* session,
                                 const tcpu_tokenizer* tokenizer, const tcpu_generate_stats* stats,
                                 const streamed_text* streamed) {
  static int32_t ids[kMaxIds];
  static char decoded[kMaxText + 1];
  int64_t n_ids = 0;
  int status = tcpu_generate_session_history(session, ids, kMaxIds, &n_ids);
  if (status != TCPU_OK) return fail("tcpu_generate_session_history", status);
  if (n_ids != stats->context_tokens + stats->generated_tokens) {
    fprintf(stderr, "FAIL: history holds %lld ids, expected %lld context + %lld generated\n",
            (long long)n_ids, (long long)stats->context_tokens, (long long)stats->generated_tokens);
    return 1;
  }
  int64_t decoded_bytes = 0;
  status = tcpu_tokenizer_decode(tokenizer, ids + stats->context_tokens, stats->generated_tokens,
                                 /*skip_special_tokens=*/1, decoded, kMaxText + 1, &decoded_bytes);
  if (status != TCPU_OK) return fail("tcpu_tokenizer_decode", status);
  if (decoded_bytes != streamed->size || memcmp(decoded, streamed->bytes, (size_t)decoded_bytes)) {
    fprintf(stderr, "FAIL: the streamed pieces (%lld bytes) differ from the decoded ids: %s\n",
            (long long)streamed->size, decoded);
    return 1;
  }
  if (stats->text_bytes != streamed->size) {
    fprintf(stderr, "FAIL: stats.text_bytes %lld, streamed %lld\n", (long long)stats->text_bytes,
            (long long)streamed->size);
    return 1;
  }
  return 0;
}

static int generate(const char* model_dir, tcpu_decoder* decoder, const tcpu_tokenizer* tokenizer,
                    const char* prompt, int64_t max_new_tokens, const char* expected_path) {
  static streamed_text streamed;
  static char expected[kMaxText];
  int64_t expected_size = 0;
  if (read_file(expected_path, expected, kMaxText, &expected_size) != 0) {
    fprintf(stderr, "FAIL: cannot read %s (or it is over %d bytes)\n", expected_path, kMaxText);
    return 1;
  }

  tcpu_generate_session* session = NULL;
  /* NULL sampler: greedy. The model directory: its generation_config.json, if any. */
  int status = tcpu_generate_session_create(decoder, tokenizer, NULL, NULL, model_dir, &session);
  if (status != TCPU_OK) return fail("tcpu_generate_session_create", status);

  tcpu_generate_options options;
  tcpu_generate_default_options(&options);
  options.max_new_tokens = max_new_tokens;
  options.callback = on_piece;
  options.user_data = &streamed;
  tcpu_generate_stats stats;
  printf("prompt: %s\ngenerated: ", prompt);
  status = tcpu_generate_text(session, prompt, (int64_t)strlen(prompt), &options, &stats);
  printf("\n");
  int failed = status != TCPU_OK ? fail("tcpu_generate_text", status) : 0;
  if (!failed) {
    printf(
        "stats: %lld context tokens, %lld generated in %lld pieces, %lld bytes, stop %d, "
        "prefill %.3f s, decode %.3f s\n",
        (long long)stats.context_tokens, (long long)stats.generated_tokens,
        (long long)streamed.pieces, (long long)stats.text_bytes, (int)stats.stop_reason,
        stats.prefill_seconds, stats.decode_seconds);
    if (streamed.bad_piece) {
      fprintf(stderr, "FAIL: an empty piece, or more than %d bytes of text\n", kMaxText);
      failed = 1;
    } else if (stats.stop_reason != TCPU_STOP_MAX_TOKENS ||
               stats.generated_tokens != max_new_tokens) {
      fprintf(stderr, "FAIL: stopped (reason %d) after %lld tokens, expected %lld tokens\n",
              (int)stats.stop_reason, (long long)stats.generated_tokens, (long long)max_new_tokens);
      failed = 1;
    } else if (streamed.size != expected_size ||
               memcmp(streamed.bytes, expected, (size_t)expected_size) != 0) {
      fprintf(stderr, "FAIL: streamed text differs from %s: %.*s\n", expected_path,
              (int)expected_size, expected);
      failed = 1;
    } else {
      failed = check_against_history(session, tokenizer, &stats, &streamed);
    }
  }
  tcpu_generate_session_destroy(session);
  return failed;
}

int main(int argc, char** argv) {
  if (argc != 6) {
    fprintf(stderr, "usage: %s MODEL_DIR TOKENIZER PROMPT MAX_NEW_TOKENS EXPECTED_FILE\n", argv[0]);
    return 2;
  }
  const char* model_dir = argv[1];
  const int64_t max_new_tokens = strtoll(argv[4], NULL, 10);
  if (max_new_tokens <= 0 || max_new_tokens > 256) {
    fprintf(stderr, "MAX_NEW_TOKENS must be in 1..256, got %s\n", argv[4]);
    return 2;
  }
  if (check_bad_model_path(model_dir) != 0) return 1;

  tcpu_tokenizer* tokenizer = NULL;
  int status = tcpu_tokenizer_open(argv[2], &tokenizer);
  if (status != TCPU_OK) return fail("tcpu_tokenizer_open", status);
  tcpu_decoder* decoder = NULL;
  status = tcpu_decoder_open(model_dir, 128, &decoder);
  if (status != TCPU_OK) {
    tcpu_tokenizer_close(tokenizer);
    return fail("tcpu_decoder_open", status);
  }
  const int failed = generate(model_dir, decoder, tokenizer, argv[3], max_new_tokens, argv[5]);
  tcpu_decoder_close(decoder);
  tcpu_tokenizer_close(tokenizer);
  if (!failed) printf("PASS: the streamed text equals the reference's and the decoded ids\n");
  return failed;
}
