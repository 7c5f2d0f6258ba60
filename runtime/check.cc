#include "runtime/check.h"

#include <cstdarg>
#include <cstdio>

namespace tcpu {
namespace {

// Room for a checkpoint file path (often 200+ characters) and the message about it.
thread_local char last_error_detail[1024] = "";

}  // namespace

int Fail(int status, const char* format, ...) {
  va_list args;
  va_start(args, format);
  std::vsnprintf(last_error_detail, sizeof(last_error_detail), format, args);
  va_end(args);
  return status;
}

int Succeed() {
  last_error_detail[0] = '\0';
  return TCPU_OK;
}

}  // namespace tcpu

extern "C" const char* tcpu_last_error_detail(void) { return tcpu::last_error_detail; }
