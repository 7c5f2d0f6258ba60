/* Status codes of the tcpu runtime C ABI. Every entry point returns int: TCPU_OK (0) on
 * success, a negative tcpu_status on failure; nothing aborts. After a failure,
 * tcpu_last_error_detail() says which argument was wrong and what was expected. */
#ifndef TCPU_STATUS_H_
#define TCPU_STATUS_H_

#ifdef __cplusplus
extern "C" {
#endif

typedef enum tcpu_status {
  TCPU_OK = 0,
  TCPU_ERR_NULL_POINTER = -1,     /* a required pointer is NULL */
  TCPU_ERR_INVALID_SIZE = -2,     /* a dimension is zero or negative */
  TCPU_ERR_SIZE_OVERFLOW = -3,    /* a product of dimensions overflows int64 */
  TCPU_ERR_BUFFER_TOO_SMALL = -4, /* a caller's buffer is smaller than required */
  TCPU_ERR_INVALID_ARGUMENT = -5, /* a value is out of its domain (e.g. eps <= 0) */
  TCPU_ERR_UNKNOWN_OP = -6,       /* an op name the runtime does not know */
  TCPU_ERR_INVALID_ENV = -7,      /* a TCPU_* environment variable is malformed */
  TCPU_ERR_OUT_OF_MEMORY = -8,    /* scratch memory could not be reserved */
  TCPU_ERR_THREADS = -9,          /* worker threads could not be started */
  TCPU_ERR_IO = -10,              /* a file could not be opened, read or mapped */
  TCPU_ERR_INVALID_MODEL = -11,   /* a checkpoint is malformed or unsupported */
} tcpu_status;

/* A static, human-readable name for a status code ("TCPU_ERR_NULL_POINTER: ..."). */
const char* tcpu_status_string(int status);

/* Details of the last error on this thread (e.g. "tcpu_gemv_i8: k = 0, expected > 0"),
 * or "" if the last call on this thread succeeded. Valid until the next call. */
const char* tcpu_last_error_detail(void);

#ifdef __cplusplus
}
#endif

#endif /* TCPU_STATUS_H_ */
