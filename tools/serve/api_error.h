// The error answer of tcpu-serve (its body: ErrorJson in openai_json.h), in the
// shape of the OpenAI API's:
//   {"error": {"message": "...", "type": "invalid_request_error", "param":
//   "max_tokens",
//              "code": null}}
// with the HTTP status that goes with it. `param` names the request field that
// was wrong
// ("messages[1].content"), empty when no field is to blame (JSON null).
#ifndef TCPU_TOOLS_SERVE_API_ERROR_H_
#define TCPU_TOOLS_SERVE_API_ERROR_H_

#include <string>

namespace tcpu::serve {

struct ApiError {
  int http_status = 400;
  std::string message;
  std::string type = "invalid_request_error";
  std::string param;  // "" -> null
  std::string code;   // "" -> null
};

// 400 invalid_request_error naming `param`.
ApiError InvalidRequest(const std::string& param, const std::string& message,
                        const std::string& code = "");

}  // namespace tcpu::serve

#endif  // TCPU_TOOLS_SERVE_API_ERROR_H_
