#include "tools/serve/api_error.h"

namespace tcpu::serve {

ApiError InvalidRequest(const std::string& param, const std::string& message,
                        const std::string& code) {
  ApiError error;
  error.param = param;
  error.message = message;
  error.code = code;
  return error;
}

ApiError ServerError(int http_status, const std::string& type, const std::string& code,
                     const std::string& message) {
  ApiError error;
  error.http_status = http_status;
  error.type = type;
  error.code = code;
  error.message = message;
  return error;
}

}  // namespace tcpu::serve
