/* Triton kernels compiled ahead of time (tcpu-compile K.ttir, triton_kernel_library): the
 * kernel ABI and the grid launcher.
 *
 * For a kernel `tt.func public @NAME(a0 ... an)` the object defines two symbols.
 *
 *   void NAME(a0 ... an, int32_t pid_x, int32_t pid_y, int32_t pid_z,
 *             int32_t grid_x, int32_t grid_y, int32_t grid_z);
 *       One program, with triton-cpu's calling convention (its driver can call it too).
 *       Arguments in order: !tt.ptr<T> as `void*`; i1, i8, i16, i32 as `int32_t` (narrowed
 *       to their width inside); i64 as `int64_t`; f16, bf16, f32 as `float` (rounded to their
 *       type inside, to nearest even); f64 as `double`. A tensor descriptor
 *       `!tt.tensordesc<tensor<B0x...xBr-1xT>>` of rank r takes 1 + 2r arguments in its place:
 *       `void* base, int64_t size_0 ... size_r-1, int64_t stride_0 ... stride_r-1`, outermost
 *       dimension first, sizes and strides in elements of T (a row-major M x N matrix with
 *       rows ld apart: base, M, N, ld, 1). Elements outside [0, size_d) read as zero and are
 *       not written. This entry takes any innermost stride; the launcher below takes 1 only.
 *
 *   int tcpu_launch_NAME(a0 ... an, int32_t grid_x, int32_t grid_y, int32_t grid_z);
 *       Runs every program id of the grid on the runtime's thread pool (TCPU_NUM_THREADS,
 *       TCPU_CPUS; big cores first) and returns 0, or a negative tcpu_status without running
 *       any program: TCPU_ERR_INVALID_SIZE for a grid dimension below 1,
 *       TCPU_ERR_INVALID_ARGUMENT for a tensor descriptor whose innermost stride is not 1
 *       (Triton's TensorDescriptor requires a contiguous last dimension; the programs then
 *       address its rows as vectors with no test of the stride),
 *       TCPU_ERR_THREADS / TCPU_ERR_INVALID_ENV if the pool cannot start.
 *       tcpu_last_error_detail() names the kernel and the value.
 *
 *   const char* tcpu_variant_NAME(void);
 *       The variant tcpu_launch_NAME runs on this CPU: "NAME:baseline", or "NAME:<variant>"
 *       when the kernel was also compiled for other targets (triton_kernel_library's
 *       `variants`, tcpu-compile --dispatch): the first variant whose features the CPU has,
 *       after TCPU_DISABLE, in the order given; the baseline otherwise.
 *
 * Programs of one launch may run in any order and concurrently; like Triton on a GPU, a
 * kernel must not depend on their order. Pointers are not checked (their extents are not
 * part of the ABI): masks in the kernel keep its accesses in bounds (for descriptors, their
 * sizes do).
 */
#ifndef TCPU_TRITON_H_
#define TCPU_TRITON_H_

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The entry a launcher passes to tcpu_triton_launch (NAME__programs): unpacks `args` (the
 * launcher's argument struct) once and runs `count` programs of the grid in one call, from
 * (pid_x, pid_y, pid_z) on in the order x fastest, then y, then z, calling the kernel (NAME,
 * triton-cpu's one-program signature) for each. */
typedef void (*tcpu_triton_programs)(const void* args, int32_t pid_x, int32_t pid_y,
                                     int32_t pid_z, int64_t count, int32_t grid_x,
                                     int32_t grid_y, int32_t grid_z);

/* One compiled form of a kernel: a name ("NAME:dotprod"), the TCPU_FEATURE_* bits it needs
 * and its range entry. */
typedef struct tcpu_triton_variant {
  const char* name;
  uint32_t required_features;
  tcpu_triton_programs programs;
} tcpu_triton_variant;

/* The index of the first of `count` variants whose required features are active (after
 * TCPU_DISABLE); the last variant must require nothing. -1 for a NULL table or count < 1. */
int32_t tcpu_triton_select(const tcpu_triton_variant* variants, int32_t count);

/* Checks the grid, selects a variant (tcpu_triton_select) and runs every program x < grid_x,
 * y < grid_y, z < grid_z through its range entry, one contiguous range of program ids per
 * thread of the pool. `kernel` names the kernel in error details. Called by the generated
 * tcpu_launch_NAME functions. */
int tcpu_triton_launch(const char* kernel, const tcpu_triton_variant* variants, int32_t count,
                       const void* args, int32_t grid_x, int32_t grid_y, int32_t grid_z);

/* TCPU_ERR_INVALID_ARGUMENT, with a detail naming the kernel, the launcher's argument and
 * its value: a tensor descriptor's innermost stride that is not 1. Called by the generated
 * tcpu_launch_NAME functions before anything runs. */
int tcpu_triton_refuse_stride(const char* kernel, int32_t argument, int64_t stride);

#ifdef __cplusplus
}
#endif

#endif /* TCPU_TRITON_H_ */
