// tcpu_triton_launch: the grid loop behind every generated tcpu_launch_NAME, and the
// refusals those launchers report through the runtime.
#include <cstdint>

#include "runtime/check.h"
#include "runtime/dispatch.h"
#include "runtime/thread_pool.h"
#include "tcpu/status.h"
#include "tcpu/triton.h"

namespace {

struct Grid {
  tcpu_triton_programs programs;
  const void* args;
  int32_t x, y, z;
};

}  // namespace

extern "C" int32_t tcpu_triton_select(const tcpu_triton_variant* variants, int32_t count) {
  if (variants == nullptr || count < 1) return -1;
  const uint32_t active = tcpu::ActiveFeatures();
  for (int32_t i = 0; i + 1 < count; ++i) {
    if ((variants[i].required_features & active) == variants[i].required_features) return i;
  }
  return count - 1;
}

extern "C" int tcpu_triton_launch(const char* kernel, const tcpu_triton_variant* variants,
                                  int32_t count, const void* args, int32_t grid_x,
                                  int32_t grid_y, int32_t grid_z) {
  if (kernel == nullptr) kernel = "(unnamed kernel)";
  const int32_t chosen = tcpu_triton_select(variants, count);
  if (chosen < 0 || variants[chosen].programs == nullptr) {
    return tcpu::Fail(TCPU_ERR_NULL_POINTER, "tcpu_launch_%s: no program entry (%d variants)",
                      kernel, count);
  }
  const tcpu_triton_programs programs = variants[chosen].programs;
  const int32_t dims[3] = {grid_x, grid_y, grid_z};
  const char* names[3] = {"grid_x", "grid_y", "grid_z"};
  for (int i = 0; i < 3; ++i) {
    if (dims[i] < 1) {
      return tcpu::Fail(TCPU_ERR_INVALID_SIZE, "tcpu_launch_%s: %s = %d, expected >= 1", kernel,
                        names[i], dims[i]);
    }
  }
  // At most 2^31 - 1 cubed programs: int64 holds the count.
  const int64_t total = int64_t{grid_x} * grid_y * grid_z;
  Grid grid{programs, args, grid_x, grid_y, grid_z};
  // Program id = x + grid_x * (y + grid_y * z); each range runs in one call from its first id.
  int status = tcpu::ParallelFor(total, 1, [&grid](int64_t begin, int64_t end) {
    const auto x = static_cast<int32_t>(begin % grid.x);
    const auto y = static_cast<int32_t>((begin / grid.x) % grid.y);
    const auto z = static_cast<int32_t>(begin / (int64_t{grid.x} * grid.y));
    grid.programs(grid.args, x, y, z, end - begin, grid.x, grid.y, grid.z);
  });
  if (status != TCPU_OK) return status;
  return tcpu::Succeed();
}

extern "C" int tcpu_triton_refuse_stride(const char* kernel, int32_t argument, int64_t stride) {
  if (kernel == nullptr) kernel = "(unnamed kernel)";
  return tcpu::Fail(TCPU_ERR_INVALID_ARGUMENT,
                    "tcpu_launch_%s: argument %d, the innermost stride of a tensor descriptor, "
                    "is %lld; it must be 1 (Triton's TensorDescriptor: a contiguous last "
                    "dimension)",
                    kernel, argument, static_cast<long long>(stride));
}
