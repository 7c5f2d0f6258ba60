// The one TritonGPU (`ttg`) operation that TTIR dumps can carry: `ttg.barrier local`, a barrier
// across the threads of a GPU program. On the CPU a program runs on one thread, so the
// lowering drops it (tt-to-tcpu-debug).

#ifndef TTG_OPS_TD
#define TTG_OPS_TD

include "mlir/IR/OpBase.td"

def TTG_Dialect : Dialect {
  let name = "ttg";
  let cppNamespace = "::mlir::ttg";
  let summary = "The TritonGPU operations a TTIR dump may contain (barriers)";
}

def TTG_BarrierOp : Op<TTG_Dialect, "barrier"> {
  let summary = "Synchronizes the threads of one program over the given memories";
  let description = [{
    `ttg.barrier local`, `ttg.barrier local|global_read|global_write`: the memories whose
    accesses the barrier orders (local, global_read, global_write, tensor_read,
    tensor_write). A no-op for a program that runs on one CPU thread.
  }];
  let arguments = (ins StrArrayAttr:$spaces);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
}

#endif  // TTG_OPS_TD
