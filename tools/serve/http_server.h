// The HTTP side of tcpu-serve (cpp-httplib): the routes, reading and checking each request, turning
// it into a Job for the scheduler, and writing the answer (whole, or as server-sent events while
// the text arrives). Every failure becomes an OpenAI-style error object with its HTTP status
// (README.md lists them).
#ifndef TCPU_TOOLS_SERVE_HTTP_SERVER_H_
#define TCPU_TOOLS_SERVE_HTTP_SERVER_H_

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>

#include "tcpu/chat_template.h"
#include "tcpu/tokenizer.h"
#include "tools/serve/request.h"
#include "tools/serve/scheduler.h"

namespace httplib {
class Server;
}

namespace tcpu::serve {

struct HttpConfig {
  size_t max_body_bytes = 1 << 20;
  int read_timeout_seconds = 30;   // a request (headers and body) must arrive within this
  int write_timeout_seconds = 30;  // a client must take each part of the answer within this
  int keep_alive_seconds = 5;      // an idle connection is closed after this
  int threads = 16;                // connections served at once (others wait)
};

// What the handlers read of the model (all thread-safe: tokenizer and template are immutable).
struct ServedModel {
  const tcpu_tokenizer* tokenizer = nullptr;
  const tcpu_chat_template* chat_template = nullptr;  // null: /v1/chat/completions refuses
  RequestLimits limits;
  int64_t created = 0;  // Unix seconds when the server started (the model's "created")
};

class HttpServer {
 public:
  HttpServer(const HttpConfig& config, const ServedModel& model, Scheduler* scheduler);
  ~HttpServer();

  // Binds host:port (port 0: any free port); the port bound, or -1.
  int Bind(const std::string& host, int port);
  // Serves until Stop(); returns once the connections being served are answered.
  bool Listen();
  // Stops accepting connections (callable from any thread, after Listen has started).
  void Stop();

 private:
  struct Handlers;
  std::unique_ptr<httplib::Server> server_;
  std::unique_ptr<Handlers> handlers_;
};

}  // namespace tcpu::serve

#endif  // TCPU_TOOLS_SERVE_HTTP_SERVER_H_
