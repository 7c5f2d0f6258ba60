/* The whole tcpu runtime C ABI. */
#ifndef TCPU_TCPU_H_
#define TCPU_TCPU_H_

#include "tcpu/attention.h"
#include "tcpu/bf16.h"
#include "tcpu/cpu.h"
#include "tcpu/fp16.h"
#include "tcpu/fused_mlp.h"
#include "tcpu/gemm.h"
#include "tcpu/gemv.h"
#include "tcpu/gemv_q4.h"
#include "tcpu/gemv_q8.h"
#include "tcpu/perf.h"
#include "tcpu/rms_norm.h"
#include "tcpu/rope.h"
#include "tcpu/scratch.h"
#include "tcpu/sdot.h"
#include "tcpu/status.h"
#include "tcpu/swiglu.h"
#include "tcpu/threads.h"

#endif /* TCPU_TCPU_H_ */
