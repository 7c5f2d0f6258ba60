// The edge of the engine's C ABI: an entry point runs its body through Guarded, so that no
// C++ exception (std::bad_alloc above all) crosses into C; each becomes a status with a
// detail naming the function.
//   extern "C" int tcpu_x(...) { return Guarded("tcpu_x", [&] { return X(...); }); }
#ifndef TCPU_ENGINE_COMMON_C_BOUNDARY_H_
#define TCPU_ENGINE_COMMON_C_BOUNDARY_H_

#include <exception>
#include <new>

#include "runtime/check.h"
#include "tcpu/status.h"

namespace tcpu::engine {

// Runs `body` (returning a tcpu_status); an exception becomes TCPU_ERR_OUT_OF_MEMORY or
// `other_status` (what the entry point's callers should read a failure as).
template <typename Body>
int Guarded(const char* fn, Body body, int other_status = TCPU_ERR_INVALID_ARGUMENT) {
  try {
    return body();
  } catch (const std::bad_alloc&) {
    return Fail(TCPU_ERR_OUT_OF_MEMORY, "%s: out of memory", fn);
  } catch (const std::exception& e) {
    return Fail(other_status, "%s: %s", fn, e.what());
  } catch (...) {
    return Fail(other_status, "%s: unexpected error", fn);
  }
}

}  // namespace tcpu::engine

#endif  // TCPU_ENGINE_COMMON_C_BOUNDARY_H_
