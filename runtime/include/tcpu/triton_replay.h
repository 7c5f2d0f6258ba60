/* Launching a Triton kernel from a list of argument values: the entries that
 * `tcpu-compile --emit=replay` writes for each kernel of a TTIR module, for programs that learn
 * a kernel's arguments at run time (tests/triton_replay replays launches captured on a GPU).
 *
 * For a kernel `tt.func public @NAME(a0 ... an-1)` the generated C source defines
 *
 *   int tcpu_replay_NAME(const tcpu_replay_arg* args, int32_t count,
 *                        int32_t grid_x, int32_t grid_y, int32_t grid_z);
 *       One tcpu_replay_arg per TTIR argument, in order (count must be n). Checks every
 *       argument against the kernel's (tcpu_replay_check_args), unpacks them as tcpu/triton.h
 *       passes them and returns tcpu_launch_NAME(...): 0, or a negative tcpu_status with
 *       tcpu_last_error_detail() naming the kernel, the argument and what was expected.
 *
 *   const tcpu_replay_kernel tcpu_replay_kernel_NAME;
 *       The kernel's name, its TTIR arguments (tcpu_replay_param) and the two functions.
 *
 * Values are exact: an integer argument of up to 32 bits is passed as int32_t (its low 32 bits;
 * the kernel narrows it to its width), i64 as int64_t; f16, bf16 and f32 values are passed as
 * float (every value of those types is a float), f64 as double.
 */
#ifndef TCPU_TRITON_REPLAY_H_
#define TCPU_TRITON_REPLAY_H_

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The largest tensor descriptor rank (Triton's host TensorDescriptor allows 1 to 5). */
#define TCPU_REPLAY_MAX_RANK 5

/* How a TTIR argument is passed, and which field of tcpu_replay_arg holds it. */
typedef enum tcpu_replay_kind {
  TCPU_REPLAY_PTR = 1,   /* !tt.ptr<T>: `ptr` */
  TCPU_REPLAY_INT = 2,   /* i1, i8, i16, i32, i64: `i` */
  TCPU_REPLAY_FLOAT = 3, /* f16, bf16, f32, f64: `f` */
  TCPU_REPLAY_DESC = 4   /* !tt.tensordesc of rank r: `ptr` (its base), `rank`, `sizes` and
                            `strides` (elements, outermost dimension first) */
} tcpu_replay_kind;

/* One argument value. Only the fields of its kind are read. */
typedef struct tcpu_replay_arg {
  int32_t kind; /* tcpu_replay_kind */
  int32_t rank; /* DESC: its rank, 1 to TCPU_REPLAY_MAX_RANK */
  void* ptr;
  int64_t i;
  double f;
  int64_t sizes[TCPU_REPLAY_MAX_RANK];
  int64_t strides[TCPU_REPLAY_MAX_RANK];
} tcpu_replay_arg;

/* One TTIR argument of a kernel, as the generator read it from the TTIR signature. */
typedef struct tcpu_replay_param {
  const char* type;    /* the TTIR type as MLIR prints it: "!tt.ptr<f32>", "i32", ... */
  int32_t kind;        /* tcpu_replay_kind */
  const char* element; /* INT/FLOAT: the type ("i1" ... "i64", "f16", "bf16", "f32", "f64");
                          PTR/DESC: the element type addressed ("f32", "bf16", "f8E4M3FN",
                          "i1", "!tt.ptr<f32>" for a pointer to pointers, ...) */
  int32_t rank;        /* DESC: its rank; 0 otherwise */
} tcpu_replay_param;

typedef int (*tcpu_replay_entry)(const tcpu_replay_arg* args, int32_t count, int32_t grid_x,
                                 int32_t grid_y, int32_t grid_z);

/* A kernel as a replay sees it. */
typedef struct tcpu_replay_kernel {
  const char* name;                /* the kernel's symbol (NAME, its --kernel-suffix included) */
  const tcpu_replay_param* params; /* its TTIR arguments, in order */
  int32_t param_count;             /* their number */
  tcpu_replay_entry entry;         /* tcpu_replay_NAME */
  const char* (*variant)(void);    /* tcpu_variant_NAME: the compiled form this CPU runs */
} tcpu_replay_kernel;

/* 0 when `args` fit `kernel`: count equals param_count, each argument's kind (and a
 * descriptor's rank) is its parameter's, and each descriptor's innermost stride is 1. Otherwise TCPU_ERR_INVALID_ARGUMENT
 * (TCPU_ERR_NULL_POINTER for a NULL kernel, or NULL args with count > 0), and
 * tcpu_last_error_detail() names the kernel, the argument and what was expected. Called by
 * every generated tcpu_replay_NAME. */
int tcpu_replay_check_args(const tcpu_replay_kernel* kernel, const tcpu_replay_arg* args,
                           int32_t count);

#ifdef __cplusplus
}
#endif

#endif /* TCPU_TRITON_REPLAY_H_ */
