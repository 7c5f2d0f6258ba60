/* How C calls a func.func compiled by tcpu-compile: each memref<?xT> argument is passed
 * expanded, as MLIR's LLVM lowering lays it out (allocated and aligned pointers, offset in
 * elements, size, stride). TCPU_MEMREF_1D(T) spells those five parameters. */
#ifndef TCPU_KERNELS_MLIR_MEMREF_ABI_H_
#define TCPU_KERNELS_MLIR_MEMREF_ABI_H_

#include <stdint.h>

#define TCPU_MEMREF_1D(T) T*, T*, int64_t, int64_t, int64_t

/* The arguments of a contiguous 1-D memref over data[0..size). */
#define TCPU_MEMREF_1D_ARGS(data, size) (data), (data), (int64_t)0, (int64_t)(size), (int64_t)1

#endif /* TCPU_KERNELS_MLIR_MEMREF_ABI_H_ */
