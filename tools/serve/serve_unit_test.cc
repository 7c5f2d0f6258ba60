// The parts of tcpu-serve that need no model: every refusal of a request body names its field with
// the right status; the answers have the OpenAI shapes; the slot with the longest cached prefix is
// chosen. (The server itself is tested end to end by tcpu_serve_test.sh.)
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "tcpu/generate.h"
#include "tools/serve/openai_json.h"
#include "tools/serve/request.h"
#include "tools/serve/slot_choice.h"

namespace tcpu::serve {
namespace {

const RequestLimits kLimits{"tiny", 64};

ApiError RefusalOf(Endpoint endpoint, const std::string& body) {
  GenerationRequest request;
  ApiError error;
  EXPECT_FALSE(ParseGenerationRequest(endpoint, body, kLimits, &request, &error)) << body;
  return error;
}

ApiError ChatRefusal(const std::string& body) {
  return RefusalOf(Endpoint::kChatCompletions, body);
}

TEST(ParseGenerationRequest, ReadsEveryFieldOfAChatRequest) {
  GenerationRequest r;
  ApiError error;
  ASSERT_TRUE(ParseGenerationRequest(
      Endpoint::kChatCompletions,
      R"({"model": "tiny", "messages": [{"role": "system", "content": "Be brief."},
          {"role": "user", "content": [{"type": "text", "text": "Hi "}, {"type": "text",
          "text": "there"}]}], "max_tokens": 12, "temperature": 0, "top_p": 0.5, "seed": 7,
          "stop": ["a", "bc"], "stream": true, "stream_options": {"include_usage": true},
          "n": 1, "logprobs": false, "user": "ignored"})",
      kLimits, &r, &error))
      << error.message;
  ASSERT_EQ(r.messages.size(), 2u);
  EXPECT_EQ(r.messages[0].role, "system");
  EXPECT_EQ(r.messages[1].content, "Hi there");
  EXPECT_EQ(r.max_tokens, 12);
  EXPECT_EQ(r.temperature, 0.0f);
  EXPECT_EQ(r.top_p, 0.5f);
  EXPECT_TRUE(r.has_seed);
  EXPECT_EQ(r.seed, 7u);
  EXPECT_EQ(r.stop, (std::vector<std::string>{"a", "bc"}));
  EXPECT_TRUE(r.stream);
  EXPECT_TRUE(r.include_usage);
}

TEST(ParseGenerationRequest, DefaultsAreTheApisAndModelIsOptional) {
  GenerationRequest r;
  ApiError error;
  ASSERT_TRUE(ParseGenerationRequest(Endpoint::kCompletions, R"({"prompt": "Once", "stop": "x"})",
                                     kLimits, &r, &error));
  EXPECT_EQ(r.prompt, "Once");
  EXPECT_EQ(r.max_tokens, 0);  // until the context is full
  EXPECT_EQ(r.temperature, 1.0f);
  EXPECT_EQ(r.top_p, 1.0f);
  EXPECT_FALSE(r.has_seed);
  EXPECT_FALSE(r.stream);
  EXPECT_EQ(r.stop, std::vector<std::string>{"x"});
  ASSERT_TRUE(ParseGenerationRequest(Endpoint::kCompletions, R"({"prompt": ["Once"]})", kLimits, &r,
                                     &error));
  EXPECT_EQ(r.prompt, "Once");
}

TEST(ParseGenerationRequest, MalformedJsonAndInvalidUtf8) {
  ApiError e = ChatRefusal(R"({"messages": [)");
  EXPECT_EQ(e.http_status, 400);
  EXPECT_EQ(e.code, "invalid_json");
  EXPECT_EQ(e.param, "");
  EXPECT_NE(e.message.find("not valid JSON"), std::string::npos) << e.message;
  e = ChatRefusal("{\"messages\": [{\"role\": \"user\", \"content\": \"\xff\xfe\"}]}");
  EXPECT_EQ(e.http_status, 400);
  EXPECT_EQ(e.code, "invalid_utf8");
  EXPECT_NE(e.message.find("not valid UTF-8"), std::string::npos) << e.message;
  e = ChatRefusal("[1, 2]");
  EXPECT_EQ(e.message, "the request body is a JSON array, expected an object");
}

TEST(ParseGenerationRequest, WrongTypesNameTheField) {
  struct Case {
    const char* body;
    const char* param;
    const char* message;
  };
  const Case cases[] = {
      {R"({"messages": "hi"})", "messages",
       "'messages' is a string, expected a list of {\"role\", \"content\"} objects"},
      {R"({"messages": []})", "messages", "'messages' is empty"},
      {R"({})", "messages", "'messages' is required"},
      {R"({"messages": [7]})", "messages[0]",
       "'messages[0]' is a number, expected an object with \"role\" and \"content\""},
      {R"({"messages": [{"content": "a"}]})", "messages[0].role", "'messages[0].role' is required"},
      {R"({"messages": [{"role": 1, "content": "a"}]})", "messages[0].role",
       "'messages[0].role' is a number, expected a string"},
      {R"({"messages": [{"role": "user"}]})", "messages[0].content",
       "'messages[0].content' is required"},
      {R"({"messages": [{"role": "user", "content": null}]})", "messages[0].content",
       "'messages[0].content' is null, expected a string or a list of text parts"},
      {R"({"messages": [{"role": "user", "content": [{"type": "image_url"}]}]})",
       "messages[0].content[0].type",
       "'messages[0].content[0].type' must be \"text\" (this server reads text only)"},
      {R"({"messages": [{"role": "user", "content": "a"}], "max_tokens": "5"})", "max_tokens",
       "'max_tokens' is a string, expected an integer"},
      {R"({"messages": [{"role": "user", "content": "a"}], "max_tokens": 2.5})", "max_tokens",
       "'max_tokens' is a number, expected an integer"},
      {R"({"messages": [{"role": "user", "content": "a"}], "temperature": "hot"})", "temperature",
       "'temperature' is a string, expected a number"},
      {R"({"messages": [{"role": "user", "content": "a"}], "seed": 1.5})", "seed",
       "'seed' is a number, expected an integer"},
      {R"({"messages": [{"role": "user", "content": "a"}], "stop": 3})", "stop",
       "'stop' is a number, expected a string or a list of strings"},
      {R"({"messages": [{"role": "user", "content": "a"}], "stop": ["a", 3]})", "stop[1]",
       "'stop[1]' is a number, expected a string"},
      {R"({"messages": [{"role": "user", "content": "a"}], "stream": "yes"})", "stream",
       "'stream' is a string, expected a boolean"},
      {R"({"messages": [{"role": "user", "content": "a"}], "model": 3})", "model",
       "'model' is a number, expected a string"},
  };
  for (const Case& c : cases) {
    const ApiError e = ChatRefusal(c.body);
    EXPECT_EQ(e.http_status, 400) << c.body;
    EXPECT_EQ(e.type, "invalid_request_error") << c.body;
    EXPECT_EQ(e.param, c.param) << c.body;
    EXPECT_EQ(e.message, c.message) << c.body;
  }
  const ApiError e = RefusalOf(Endpoint::kCompletions, R"({"prompt": [1, 2]})");
  EXPECT_EQ(e.param, "prompt");
  EXPECT_EQ(e.message, "'prompt' is an array, expected a string (one prompt per request)");
}

TEST(ParseGenerationRequest, RangesNameTheFieldAndTheLimit) {
  const std::string chat = R"({"messages": [{"role": "user", "content": "a"}], )";
  ApiError e = ChatRefusal(chat + R"("max_tokens": 0})");
  EXPECT_EQ(e.param, "max_tokens");
  EXPECT_EQ(e.message,
            "'max_tokens' is 0, expected an integer in [1, 64] (the context of each slot)");
  e = ChatRefusal(chat + R"("max_tokens": -3})");
  EXPECT_EQ(e.param, "max_tokens");
  e = ChatRefusal(chat + R"("max_tokens": 65})");
  EXPECT_EQ(e.message,
            "'max_tokens' is 65, expected an integer in [1, 64] (the context of each slot)");
  e = ChatRefusal(chat + R"("max_completion_tokens": 100000000000000000000})");
  EXPECT_EQ(e.param, "max_completion_tokens");
  e = ChatRefusal(chat + R"("temperature": 2.5})");
  EXPECT_EQ(e.message, "'temperature' is 2.5, expected a number in [0.0, 2.0]");
  e = ChatRefusal(chat + R"("top_p": 0})");
  EXPECT_EQ(e.param, "top_p");
  e = ChatRefusal(chat + R"("stop": ["a", "b", "c", "d", "e"]})");
  EXPECT_EQ(e.message, "'stop' has 5 strings, at most 4");
  e = ChatRefusal(chat + R"("stop": [""]})");
  EXPECT_EQ(e.message, "'stop[0]' is empty");
  e = ChatRefusal(chat + R"("n": 2})");
  EXPECT_EQ(e.param, "n");
  e = RefusalOf(Endpoint::kCompletions, R"({"prompt": ""})");
  EXPECT_EQ(e.message, "'prompt' is empty");
}

TEST(ParseGenerationRequest, AnotherModelIs404) {
  const ApiError e = ChatRefusal(R"({"model": "gpt-4o", "messages": []})");
  EXPECT_EQ(e.http_status, 404);
  EXPECT_EQ(e.param, "model");
  EXPECT_EQ(e.code, "model_not_found");
  EXPECT_EQ(e.message, "the model 'gpt-4o' does not exist; this server serves 'tiny'");
}

TEST(OpenAiJson, ErrorObject) {
  ApiError e = InvalidRequest("max_tokens", "bad");
  EXPECT_EQ(JsonText(ErrorJson(e)), R"({"error":{"code":null,"message":"bad","param":"max_tokens",)"
                                    R"("type":"invalid_request_error"}})");
  e.param = "";
  e.code = "x";
  e.message = "\xff";  // not UTF-8: replaced, not thrown
  EXPECT_EQ(JsonText(ErrorJson(e)),
            "{\"error\":{\"code\":\"x\",\"message\":\"\xef\xbf\xbd\",\"param\":null,"
            "\"type\":\"invalid_request_error\"}}");
}

TEST(OpenAiJson, ChatShapes) {
  const AnswerHeader header{"chatcmpl-1", 1700000000, "tiny", true};
  const nlohmann::json answer = Completion(header, "Hello", "stop", {5, 2});
  EXPECT_EQ(answer["object"], "chat.completion");
  EXPECT_EQ(answer["choices"][0]["message"]["role"], "assistant");
  EXPECT_EQ(answer["choices"][0]["message"]["content"], "Hello");
  EXPECT_EQ(answer["choices"][0]["finish_reason"], "stop");
  EXPECT_EQ(answer["usage"]["total_tokens"], 7);
  const nlohmann::json opening = Chunk(header, "", true, nullptr);
  EXPECT_EQ(opening["object"], "chat.completion.chunk");
  EXPECT_EQ(opening["choices"][0]["delta"],
            (nlohmann::json{{"role", "assistant"}, {"content", ""}}));
  EXPECT_TRUE(opening["choices"][0]["finish_reason"].is_null());
  EXPECT_EQ(Chunk(header, "lo", false, nullptr)["choices"][0]["delta"],
            (nlohmann::json{{"content", "lo"}}));
  const nlohmann::json last = Chunk(header, "", false, "length");
  EXPECT_EQ(last["choices"][0]["delta"], nlohmann::json::object());
  EXPECT_EQ(last["choices"][0]["finish_reason"], "length");
  const nlohmann::json usage = UsageChunk(header, {5, 2});
  EXPECT_EQ(usage["choices"], nlohmann::json::array());
  EXPECT_EQ(usage["usage"]["completion_tokens"], 2);
  EXPECT_EQ(SseEvent(nlohmann::json{{"a", 1}}), "data: {\"a\":1}\n\n");
  EXPECT_STREQ(kSseDone, "data: [DONE]\n\n");
}

TEST(OpenAiJson, CompletionShapesAndFinishReasons) {
  const AnswerHeader header{"cmpl-2", 1, "tiny", false};
  const nlohmann::json answer = Completion(header, "text", "length", {1, 1});
  EXPECT_EQ(answer["object"], "text_completion");
  EXPECT_EQ(answer["choices"][0]["text"], "text");
  EXPECT_EQ(Chunk(header, "t", false, nullptr)["choices"][0]["text"], "t");
  EXPECT_STREQ(FinishReason(TCPU_STOP_EOS), "stop");
  EXPECT_STREQ(FinishReason(TCPU_STOP_STRING), "stop");
  EXPECT_STREQ(FinishReason(TCPU_STOP_MAX_TOKENS), "length");
  EXPECT_STREQ(FinishReason(TCPU_STOP_CACHE_FULL), "length");
  EXPECT_EQ(ModelList("tiny", 3)["data"][0]["id"], "tiny");
}

TEST(ChooseSlot, LongestCachedPrefixThenLeastRecentlyUsed) {
  const std::vector<int32_t> a = {1, 2, 3, 4}, b = {1, 2, 9}, empty;
  const std::vector<const std::vector<int32_t>*> histories = {&empty, &a, &b};
  const std::vector<uint64_t> last_used = {1, 2, 3};
  EXPECT_EQ(CommonPrefix(a, b), 2u);
  EXPECT_EQ(ChooseSlot(histories, last_used, {true, true, true}, {1, 2, 3, 4, 5}), 1);
  EXPECT_EQ(ChooseSlot(histories, last_used, {true, true, true}, {1, 2, 9, 9}), 2);
  EXPECT_EQ(ChooseSlot(histories, last_used, {true, false, true}, {1, 2, 3, 4, 5}), 2);
  // No prefix anywhere: the least recently used slot.
  EXPECT_EQ(ChooseSlot(histories, last_used, {true, true, true}, {7}), 0);
  EXPECT_EQ(ChooseSlot(histories, {5, 2, 3}, {true, true, true}, {7}), 1);
  EXPECT_EQ(ChooseSlot(histories, last_used, {false, false, false}, {1}), -1);
}

}  // namespace
}  // namespace tcpu::serve
