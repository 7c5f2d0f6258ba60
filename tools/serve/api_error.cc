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

}  // namespace tcpu::serve
