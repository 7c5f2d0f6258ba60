// tcpu_replay_check_args: the argument check of every generated tcpu_replay_NAME
// (tcpu/triton_replay.h), so that a list of values that does not fit the kernel is an error
// naming the argument, not a kernel reading a scalar as a pointer.
#include <cstdint>

#include "runtime/check.h"
#include "tcpu/status.h"
#include "tcpu/triton_replay.h"

namespace {

const char* KindName(int32_t kind) {
  switch (kind) {
    case TCPU_REPLAY_PTR:
      return "a pointer";
    case TCPU_REPLAY_INT:
      return "an integer";
    case TCPU_REPLAY_FLOAT:
      return "a float";
    case TCPU_REPLAY_DESC:
      return "a tensor descriptor";
    default:
      return "of no known kind";
  }
}

}  // namespace

extern "C" int tcpu_replay_check_args(const tcpu_replay_kernel* kernel, const tcpu_replay_arg* args,
                                      int32_t count) {
  TCPU_CHECK_NOT_NULL("tcpu_replay_check_args", kernel);
  const char* name = kernel->name != nullptr ? kernel->name : "(unnamed kernel)";
  if (count != kernel->param_count) {
    return tcpu::Fail(TCPU_ERR_INVALID_ARGUMENT,
                      "tcpu_replay_%s: %d arguments, expected %d (the TTIR kernel's)", name, count,
                      kernel->param_count);
  }
  if (count > 0 && args == nullptr) {
    return tcpu::Fail(TCPU_ERR_NULL_POINTER, "tcpu_replay_%s: args is NULL (%d arguments)", name,
                      count);
  }
  for (int32_t i = 0; i < count; ++i) {
    const tcpu_replay_param& param = kernel->params[i];
    if (args[i].kind != param.kind) {
      return tcpu::Fail(TCPU_ERR_INVALID_ARGUMENT,
                        "tcpu_replay_%s: argument %d is %s (kind %d), expected %s for %s", name, i,
                        KindName(args[i].kind), args[i].kind, KindName(param.kind), param.type);
    }
    if (param.kind == TCPU_REPLAY_DESC && args[i].rank != param.rank) {
      return tcpu::Fail(TCPU_ERR_INVALID_ARGUMENT,
                        "tcpu_replay_%s: argument %d has rank %d, expected %d for %s", name, i,
                        args[i].rank, param.rank, param.type);
    }
    if (param.kind == TCPU_REPLAY_DESC && args[i].rank >= 1 &&
        args[i].rank <= TCPU_REPLAY_MAX_RANK && args[i].strides[args[i].rank - 1] != 1) {
      return tcpu::Fail(TCPU_ERR_INVALID_ARGUMENT,
                        "tcpu_replay_%s: argument %d (%s) has innermost stride %lld, expected 1 "
                        "(Triton's TensorDescriptor: a contiguous last dimension)",
                        name, i, param.type,
                        static_cast<long long>(args[i].strides[args[i].rank - 1]));
    }
  }
  return tcpu::Succeed();
}
