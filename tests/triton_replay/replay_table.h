/* The table the replay's compile step generates (compile_corpus.py): every kernel of the
 * corpus TTIRs a replay links, keyed as launch records name them, and the TTIRs that did not
 * compile with tcpu-compile's message. C, included by the generated source and the runner. */
#ifndef TCPU_TESTS_TRITON_REPLAY_REPLAY_TABLE_H_
#define TCPU_TESTS_TRITON_REPLAY_REPLAY_TABLE_H_

#include <stdint.h>

#include "tcpu/triton_replay.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct tcpu_replay_table_entry {
  const char* ttir;                 /* the records' "ttir": "ttir/H.ttir" */
  const char* kernel;               /* a kernel of it as Triton named it (the records' "kernel");
                                       NULL when the file did not compile */
  const tcpu_replay_kernel* replay; /* its entry (tcpu_replay_kernel_NAME_H); NULL likewise */
  const char* compile_error;        /* tcpu-compile's message when it did not compile */
} tcpu_replay_table_entry;

extern const tcpu_replay_table_entry tcpu_replay_table[];
extern const int32_t tcpu_replay_table_size;

#ifdef __cplusplus
}
#endif

#endif /* TCPU_TESTS_TRITON_REPLAY_REPLAY_TABLE_H_ */
