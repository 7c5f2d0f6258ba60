#include "tcpu/status.h"

extern "C" const char* tcpu_status_string(int status) {
  switch (status) {
    case TCPU_OK:
      return "TCPU_OK: success";
    case TCPU_ERR_NULL_POINTER:
      return "TCPU_ERR_NULL_POINTER: a required pointer is NULL";
    case TCPU_ERR_INVALID_SIZE:
      return "TCPU_ERR_INVALID_SIZE: a dimension is zero or negative";
    case TCPU_ERR_SIZE_OVERFLOW:
      return "TCPU_ERR_SIZE_OVERFLOW: a product of dimensions overflows int64";
    case TCPU_ERR_BUFFER_TOO_SMALL:
      return "TCPU_ERR_BUFFER_TOO_SMALL: a buffer is smaller than required";
    case TCPU_ERR_INVALID_ARGUMENT:
      return "TCPU_ERR_INVALID_ARGUMENT: a value is outside its domain";
    case TCPU_ERR_UNKNOWN_OP:
      return "TCPU_ERR_UNKNOWN_OP: unknown op name";
    case TCPU_ERR_INVALID_ENV:
      return "TCPU_ERR_INVALID_ENV: a TCPU_* environment variable is malformed";
    case TCPU_ERR_OUT_OF_MEMORY:
      return "TCPU_ERR_OUT_OF_MEMORY: scratch memory could not be reserved";
    case TCPU_ERR_THREADS:
      return "TCPU_ERR_THREADS: worker threads could not be started";
    case TCPU_ERR_IO:
      return "TCPU_ERR_IO: a file could not be opened, read or mapped";
    case TCPU_ERR_INVALID_MODEL:
      return "TCPU_ERR_INVALID_MODEL: the checkpoint is malformed or unsupported";
    default:
      return "unknown tcpu status code";
  }
}
