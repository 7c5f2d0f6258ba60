#include "tools/serve/http_server.h"

#include <sys/socket.h>

#include <ctime>
#include <random>
#include <utility>
#include <vector>

#include "httplib.h"
#include "tcpu/status.h"
#include "tools/decode/context_ids.h"
#include "tools/serve/job_errors.h"
#include "tools/serve/openai_json.h"

namespace tcpu::serve {
namespace {

void Reply(const ApiError& error, httplib::Response* res) {
  res->status = error.http_status;
  if (error.retry_after_seconds > 0) {
    res->set_header("Retry-After", std::to_string(error.retry_after_seconds));
  }
  res->set_content(JsonText(ErrorJson(error)), "application/json");
}

Usage UsageOf(const Job::Outcome& outcome) {
  return {outcome.stats.context_tokens, outcome.stats.generated_tokens};
}

}  // namespace

struct HttpServer::Handlers {
  HttpConfig config;
  ServedModel model;
  Scheduler* scheduler = nullptr;
  std::atomic<uint64_t> answers{0};    // numbers the answers' ids
  std::atomic<int> listen_socket{-1};  // to stop accepting while streams go on

  // The body, at most config.max_body_bytes. false with the answer written (413, or 408 for a body
  // that did not arrive within the read timeout).
  bool ReadBody(httplib::Response* res, const httplib::ContentReader& reader, std::string* body) {
    bool too_large = false;
    const bool complete = reader([&](const char* data, size_t n) {
      // Over the limit: the rest is read and dropped, so the connection stays usable.
      if (too_large || body->size() + n > config.max_body_bytes) {
        too_large = true;
        body->clear();
        return true;
      }
      body->append(data, n);
      return true;
    });
    // A Content-Length over the limit is refused by httplib (payload_max_length: 413).
    if (too_large || res->status == 413) {
      Reply(ServerError(413, "invalid_request_error", "request_too_large",
                        "the request body is larger than --max-body-bytes (" +
                            std::to_string(config.max_body_bytes) + " bytes)"),
            res);
      return false;
    }
    if (!complete) {
      Reply(ServerError(408, "invalid_request_error", "request_timeout",
                        "the request body did not arrive in full within --read-timeout (" +
                            std::to_string(config.read_timeout_seconds) + " s)"),
            res);
      return false;
    }
    return true;
  }

  // The context the request asks to continue, as ids, checked against the context size.
  bool PromptIds(const GenerationRequest& request, std::vector<int32_t>* ids, ApiError* error) {
    const bool chat = request.endpoint == Endpoint::kChatCompletions;
    const char* param = chat ? "messages" : "prompt";
    int status = TCPU_OK;
    if (chat) {
      if (model.chat_template == nullptr) {
        *error = InvalidRequest(
            "messages",
            "the model has no chat template (tokenizer_config.json with a chat_template; "
            "tcpu-serve --chat-template names one); use /v1/completions",
            "no_chat_template");
        return false;
      }
      std::string text;
      status = tcpu::decode::RenderChat(model.chat_template,
                                        tcpu::decode::ChatMessageViews(request.messages),
                                        /*add_generation_prompt=*/true, &text);
      if (status != TCPU_OK) {
        *error = InvalidRequest(param, std::string("the chat template refused the messages: ") +
                                           tcpu_last_error_detail());
        return false;
      }
      // The template writes the special tokens: the tokenizer adds none.
      status = tcpu::decode::EncodeText(model.tokenizer, text, false, ids);
    } else {
      status = tcpu::decode::EncodeText(model.tokenizer, request.prompt, true, ids);
    }
    if (status != TCPU_OK) {
      *error = InvalidRequest(
          param, std::string("the text cannot be tokenized: ") + tcpu_last_error_detail());
      return false;
    }
    const int64_t context = model.limits.context_size;
    if (ids->empty()) {
      *error = InvalidRequest(param, std::string("'") + param + "' is empty after tokenization");
      return false;
    }
    if (static_cast<int64_t>(ids->size()) >= context) {
      *error = InvalidRequest(param,
                              "the prompt is " + std::to_string(ids->size()) +
                                  " tokens; the context of a slot holds " +
                                  std::to_string(context) + " (prompt and answer)",
                              "context_length_exceeded");
      return false;
    }
    return true;
  }

  void Generate(Endpoint endpoint, httplib::Response* res, const httplib::ContentReader& reader) {
    std::string body;
    if (!ReadBody(res, reader, &body)) return;
    GenerationRequest request;
    ApiError error;
    std::vector<int32_t> ids;
    if (!ParseGenerationRequest(endpoint, body, model.limits, &request, &error) ||
        !PromptIds(request, &ids, &error)) {
      return Reply(error, res);
    }
    Job::Input input;
    input.max_new_tokens = request.max_tokens > 0
                               ? request.max_tokens
                               : model.limits.context_size - static_cast<int64_t>(ids.size());
    input.prompt_ids = std::move(ids);
    input.stop = request.stop;
    tcpu_sampler_default_params(&input.sampling);
    input.sampling.temperature = request.temperature;
    input.sampling.top_p = request.top_p;
    input.sampling.seed = request.has_seed ? request.seed : std::random_device()();
    auto job = std::make_shared<Job>(std::move(input));
    const Scheduler::Admission admission = scheduler->Submit(job);
    if (admission != Scheduler::Admission::kAccepted) return Reply(AdmissionError(admission), res);
    const bool chat = endpoint == Endpoint::kChatCompletions;
    AnswerHeader header{(chat ? "chatcmpl-" : "cmpl-") + std::to_string(++answers),
                        static_cast<int64_t>(std::time(nullptr)), model.limits.model_id, chat};
    if (!request.stream) {
      std::string text;
      Job::Outcome outcome;
      while (!job->Wait(&text, &outcome)) {
      }
      if (outcome.end != Job::End::kFinished) return Reply(OutcomeError(outcome), res);
      res->set_content(JsonText(Completion(header, text, FinishReason(outcome.stats.stop_reason),
                                           UsageOf(outcome))),
                       "application/json");
      return;
    }
    Stream(std::move(job), std::move(header), request.include_usage, res);
  }

  // Server-sent events: the text as it arrives, then the finish reason (and the usage), then
  // [DONE]. A client that stops taking them cancels the job.
  static void Stream(std::shared_ptr<Job> job, AnswerHeader header, bool include_usage,
                     httplib::Response* res) {
    res->set_header("Cache-Control", "no-cache");
    auto first = std::make_shared<bool>(true);
    res->set_chunked_content_provider(
        "text/event-stream",
        [job, header, include_usage, first](size_t, httplib::DataSink& sink) {
          std::string events;
          bool ended = false;
          if (*first) {
            // The headers and the chat's opening chunk go out before the first token.
            *first = false;
            if (header.chat) events = SseEvent(Chunk(header, "", true, nullptr));
          } else {
            std::string text;
            Job::Outcome outcome;
            ended = job->Wait(&text, &outcome);
            if (!text.empty()) events += SseEvent(Chunk(header, text, false, nullptr));
            if (ended && outcome.end == Job::End::kFinished) {
              events += SseEvent(Chunk(header, "", false, FinishReason(outcome.stats.stop_reason)));
              if (include_usage) events += SseEvent(UsageChunk(header, UsageOf(outcome)));
            } else if (ended) {
              events += SseEvent(ErrorJson(OutcomeError(outcome)));
            }
            if (ended) events += kSseDone;
          }
          if (!events.empty() && !sink.write(events.data(), events.size())) {
            job->Cancel();
            return false;
          }
          if (ended) sink.done();
          return true;
        },
        [job](bool success) {
          if (!success) job->Cancel();
        });
  }
};

HttpServer::HttpServer(const HttpConfig& config, const ServedModel& model, Scheduler* scheduler)
    : server_(std::make_unique<httplib::Server>()), handlers_(std::make_unique<Handlers>()) {
  handlers_->config = config;
  handlers_->model = model;
  handlers_->scheduler = scheduler;
  Handlers* h = handlers_.get();
  httplib::Server& s = *server_;
  const int threads = config.threads;
  s.new_task_queue = [threads] { return new httplib::ThreadPool(static_cast<size_t>(threads)); };
  s.set_read_timeout(config.read_timeout_seconds, 0);
  s.set_write_timeout(config.write_timeout_seconds, 0);
  s.set_keep_alive_timeout(config.keep_alive_seconds);
  s.set_payload_max_length(config.max_body_bytes);
  // SO_REUSEADDR (not httplib's default SO_REUSEPORT, which lets a second server bind the same
  // port); and the listening socket is kept so that Stop() can end accept() alone.
  s.set_socket_options([h](socket_t sock) {
    int yes = 1;
    setsockopt(sock, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof(yes));
    h->listen_socket.store(sock);
  });

  s.Get("/health", [h](const httplib::Request&, httplib::Response& res) {
    const Scheduler::Load load = h->scheduler->load();
    res.set_content(JsonText({{"status", "ok"},
                              {"slots", load.slots},
                              {"slots_busy", load.busy},
                              {"queued", load.queued},
                              {"cancelled", load.cancelled}}),
                    "application/json");
  });
  s.Get("/v1/models", [h](const httplib::Request&, httplib::Response& res) {
    res.set_content(JsonText(ModelList(h->model.limits.model_id, h->model.created)),
                    "application/json");
  });
  for (const auto& [path, endpoint] :
       {std::pair<const char*, Endpoint>{"/v1/chat/completions", Endpoint::kChatCompletions},
        {"/v1/completions", Endpoint::kCompletions}}) {
    const Endpoint e = endpoint;
    s.Post(path, [h, e](const httplib::Request&, httplib::Response& res,
                        const httplib::ContentReader& reader) { h->Generate(e, &res, reader); });
  }
  // Errors httplib answers itself (no route, a malformed request line or header), and any error
  // status left without a body, get the same error object.
  s.set_error_handler(httplib::Server::HandlerWithResponse(
      [h](const httplib::Request& req, httplib::Response& res) {
        if (!res.body.empty()) return httplib::Server::HandlerResponse::Unhandled;
        ApiError error;
        error.http_status = res.status;
        if (res.status == 404) {
          error.message =
              "no route " + req.method + " " + req.path +
              " (POST /v1/chat/completions, POST /v1/completions, GET /v1/models, GET /health)";
          error.code = "not_found";
        } else if (res.status == 413) {
          error.message = "the request body is larger than --max-body-bytes (" +
                          std::to_string(h->config.max_body_bytes) + " bytes)";
          error.code = "request_too_large";
        } else if (res.status == 414) {
          error.message = "the request line is too long";
        } else if (res.status < 500) {
          error.message =
              "malformed HTTP request, or its headers did not arrive within --read-timeout (" +
              std::to_string(h->config.read_timeout_seconds) + " s)";
        } else {
          error.type = "server_error";
          error.message = "internal error";
        }
        Reply(error, &res);
        return httplib::Server::HandlerResponse::Handled;
      }));
  s.set_exception_handler(
      [](const httplib::Request&, httplib::Response& res, std::exception_ptr exception) {
        std::string what = "unknown exception";
        try {
          std::rethrow_exception(exception);
        } catch (const std::exception& e) {
          what = e.what();
        } catch (...) {
        }
        Reply(ServerError(500, "server_error", "internal_error", "internal error: " + what), &res);
      });
}

HttpServer::~HttpServer() = default;

int HttpServer::Bind(const std::string& host, int port) {
  if (port == 0) return server_->bind_to_any_port(host);
  return server_->bind_to_port(host, port) ? port : -1;
}

bool HttpServer::Listen() { return server_->listen_after_bind(); }

void HttpServer::Stop() {
  // shutdown() makes accept() fail, so httplib closes the listening socket and waits for the
  // connections it serves; httplib's own stop() would also cut the streams short.
  const int sock = handlers_->listen_socket.load();
  if (sock >= 0) shutdown(sock, SHUT_RDWR);
}

}  // namespace tcpu::serve
