// The error answer of tcpu-serve (its body: ErrorJson in openai_json.h), in the OpenAI API's shape:
//   {"error": {"message": "...", "type": "invalid_request_error", "param": "max_tokens",
//              "code": null}}
// with the HTTP status that goes with it. `param` names the request field that was wrong
// ("messages[1].content"), empty when no field is to blame (JSON null).
#ifndef TCPU_TOOLS_SERVE_API_ERROR_H_
#define TCPU_TOOLS_SERVE_API_ERROR_H_

#include <string>

namespace tcpu::serve {

struct ApiError {
  int http_status = 400;
  std::string message;
  std::string type = "invalid_request_error";
  std::string param;            // "" -> null
  std::string code;             // "" -> null
  int retry_after_seconds = 0;  // > 0: answered with a Retry-After header
};

// 400 invalid_request_error naming `param`.
ApiError InvalidRequest(const std::string& param, const std::string& message,
                        const std::string& code = "");

// An error no request field is to blame for (param null).
ApiError ServerError(int http_status, const std::string& type, const std::string& code,
                     const std::string& message);

}  // namespace tcpu::serve

#endif  // TCPU_TOOLS_SERVE_API_ERROR_H_
