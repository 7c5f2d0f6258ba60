// refusalReason: see RefusedOps.h. One entry per construct Triton 3.0-3.7 prints that the
// backend does not lower; dialect/README.md lists the same constructs.
#include "RefusedOps.h"

#include "tt/TTOps.h"

namespace mlir::tt {

llvm::StringRef refusalReason(Operation* op) {
  if (isa<ElementwiseInlineAsmOp>(op)) {
    return "its body is GPU assembly (PTX or AMDGCN), which an Arm CPU cannot run";
  }
  if (isa<ExperimentalTensormapCreateOp, ExperimentalTensormapFenceproxyAcquireOp>(op)) {
    return "it writes or fences an NVIDIA TMA descriptor (tensormap), which has no meaning "
           "on a CPU";
  }
  if (isa<ReinterpretTensorDescOp, ExperimentalDescriptorLoadOp,
          ExperimentalDescriptorStoreOp>(op)) {
    return "it reads an opaque NVIDIA TMA descriptor the CUDA driver built on the host; pass "
           "the tensor as a !tt.tensordesc argument or build it with tt.make_tensor_descriptor";
  }
  if (isa<DotScaledOp>(op)) {
    return "microscaling (mx) formats are not lowered yet; tt.dot on f16/bf16/f32 or i8 is";
  }
  if (isa<MapElementwiseOp, MapElementwiseReturnOp>(op)) {
    return "scalar regions mapped over tensors are not lowered yet";
  }
  if (isa<UnsplatOp>(op)) return "unsplat of a tensor of pointers is not lowered yet";
  if (isa<DescriptorGatherOp, DescriptorScatterOp, DescriptorReduceOp>(op)) {
    return "row gathers, scatters and reductions through tensor descriptors are not lowered "
           "yet";
  }
  if (isa<MakeTensorPtrOp, AdvanceOp, MakeTensorDescOp, DescriptorLoadOp, DescriptorStoreOp>(
          op)) {
    return "this use of a block pointer or tensor descriptor is not lowered (loads, stores, "
           "tt.advance and scf.for iteration arguments are)";
  }
  return "no TTIR lowering stage handles it";
}

}  // namespace mlir::tt
