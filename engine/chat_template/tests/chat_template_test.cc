// Unit tests of the chat-template engine: Jinja semantics one construct at a time (as
// Python's Jinja2 defines them), errors naming the construct and its line:column, the
// bounds that keep hostile templates finite, and the C ABI's checks.
#include "engine/chat_template/chat_template.h"

#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "tcpu/chat_template.h"
#include "tcpu/status.h"

namespace {

using tcpu::chat_template::ChatTemplate;
using tcpu::chat_template::EvaluationLimits;
using Json = nlohmann::ordered_json;
using ::testing::HasSubstr;

// Renders `source` with `context`; the output, or "ERROR: " and the error.
std::string Render(const std::string& source, const Json& context = Json::object(),
                   const EvaluationLimits& limits = {}) {
  ChatTemplate chat_template;
  std::string text, error;
  if (!chat_template.Parse(source, "<s>", "</s>", &error)) return "ERROR: " + error;
  if (!chat_template.Render(context, &text, &error, limits)) return "ERROR: " + error;
  return text;
}

TEST(ChatTemplateTest, TextAndOutput) {
  EXPECT_EQ(Render("plain text"), "plain text");
  EXPECT_EQ(Render("{{ 'a' + 'b' }}{{ 1 + 2 * 3 }}{{ 7 // 2 }}{{ -7 // 2 }}{{ 7 % -3 }}"),
            "ab73-4-2");
  EXPECT_EQ(Render("{{ 1 / 2 }} {{ 2 ** 10 }} {{ 1 ~ 'x' ~ none }}"), "0.5 1024 1xNone");
  EXPECT_EQ(Render("{{ bos_token }}|{{ eos_token }}|{{ undefined_name }}|"), "<s>|</s>||");
  EXPECT_EQ(Render("{{ [1, 'a', true, none] }} {{ {'k': 1.0} }}"),
            "[1, 'a', True, None] {'k': 1.0}");
  // One trailing newline is dropped, as Jinja's keep_trailing_newline=False.
  EXPECT_EQ(Render("x\n\n"), "x\n");
}

TEST(ChatTemplateTest, WhitespaceControlTrimAndLstripBlocks) {
  EXPECT_EQ(Render("a  {%- if true %} b {% endif -%}  \n c"), "a b c");
  EXPECT_EQ(Render("a  {{- 'x' -}}  b"), "axb");
  // trim_blocks drops the newline after a block; lstrip_blocks the indent before one.
  EXPECT_EQ(Render("{% if true %}\n    {% if true %}\nx\n    {% endif %}\n{% endif %}\ny"), "x\ny");
  // Not before an expression: lstrip_blocks applies to blocks and comments only.
  EXPECT_EQ(Render("  {{ 'e' }}\n  {# c #}\nz"), "  e\nz");
}

TEST(ChatTemplateTest, ConditionalsAndTests) {
  const Json context = {{"n", 3}, {"s", "abc"}, {"empty", Json::array()}, {"nothing", nullptr}};
  EXPECT_EQ(Render("{% if n > 5 %}big{% elif n > 2 %}mid{% else %}small{% endif %}", context),
            "mid");
  EXPECT_EQ(Render("{{ 'y' if s else 'n' }}{{ 'y' if empty else 'n' }}{{ 'z' if false }}", context),
            "yn");
  EXPECT_EQ(Render("{{ n is defined }}{{ m is defined }}{{ m is undefined }}{{ nothing is none }}"
                   "{{ s is string }}{{ n is not string }}{{ n is odd }}{{ n is divisibleby 3 }}",
                   context),
            "TrueFalseTrueTrueTrueTrueTrueTrue");
  EXPECT_EQ(
      Render("{{ 'b' in 'xyz' }}{{ 2 in [1, 2] }}{{ 'k' in {'k': 1} }}{{ 'q' not in 'xyz' }}"),
      "FalseTrueTrueTrue");
  EXPECT_EQ(Render("{{ not (n == 3 and s != 'abc') or false }}", context), "True");
  // Python's and/or return an operand, not a bool.
  EXPECT_EQ(Render("{{ '' or 'fallback' }}{{ 'x' and 'y' }}"), "fallbacky");
}

TEST(ChatTemplateTest, LoopsAndTheirVariables) {
  const Json context = {{"xs", {"a", "b", "c"}}};
  EXPECT_EQ(Render("{% for x in xs %}{{ loop.index }}{{ x }}{{ loop.revindex0 }}"
                   "{% if loop.first %}F{% endif %}{% if loop.last %}L{% endif %};{% endfor %}",
                   context),
            "1a2F;2b1;3c0L;");
  EXPECT_EQ(Render("{% for x in xs if x != 'b' %}{{ loop.index0 }}{{ x }}{% endfor %}", context),
            "0a1c");
  EXPECT_EQ(Render("{% for x in [] %}x{% else %}none{% endfor %}"), "none");
  EXPECT_EQ(Render("{% for k, v in {'a': 1, 'b': 2}.items() %}{{ k }}={{ v }},{% endfor %}"),
            "a=1,b=2,");
  EXPECT_EQ(Render("{% for x in xs %}{{ loop.previtem }}>{{ x }} {% endfor %}", context),
            ">a a>b b>c ");
}

TEST(ChatTemplateTest, SetScopesAndNamespace) {
  // `set` inside a loop does not leak out of it; a namespace carries state across.
  EXPECT_EQ(Render("{% set x = 1 %}{% for i in range(3) %}{% set x = i %}{% endfor %}{{ x }}"),
            "1");
  EXPECT_EQ(Render("{% set ns = namespace(total=0, seen=false) %}"
                   "{% for i in range(1, 5) %}{% set ns.total = ns.total + i %}{% endfor %}"
                   "{{ ns.total }} {{ ns.seen }}"),
            "10 False");
  EXPECT_EQ(Render("{% if true %}{% set y = 'in if' %}{% endif %}{{ y }}"), "in if");
  EXPECT_EQ(Render("{% set x = 1 %}{% set x.y = 2 %}"),
            "ERROR: 1:19: cannot set attribute 'y' of 'x', a int (only a namespace has them)");
}

TEST(ChatTemplateTest, SubscriptsAndSlices) {
  const Json context = {{"xs", {1, 2, 3, 4}}, {"s", "héllo"}, {"d", {{"k", "v"}}}};
  EXPECT_EQ(Render("{{ xs[::-1] }} {{ xs[1:] }} {{ xs[-1] }} {{ xs[:-2] }} {{ xs[::2] }}", context),
            "[4, 3, 2, 1] [2, 3, 4] 4 [1, 2] [1, 3]");
  EXPECT_EQ(Render("{{ s[1] }}{{ s[::-1] }} {{ s|length }} {{ xs[9] is defined }}", context),
            "éolléh 5 False");
  EXPECT_EQ(
      Render("{{ d['k'] }}{{ d.k }}{{ d.missing is defined }}{{ d.get('x', 'dflt') }}", context),
      "vvFalsedflt");
}

TEST(ChatTemplateTest, FiltersFollowJinja) {
  const Json context = {{"tool", {{"name", "f"}, {"args", {1, 2}}, {"ok", true}, {"x", nullptr}}}};
  EXPECT_EQ(Render("[{{ '  a b \n'|trim }}]{{ 'Ab'|upper }}{{ 'Ab'|lower }}{{ 'ab cd'|title }}"
                   "{{ 'aB'|capitalize }}{{ [1, 2]|length }}{{ ['a', 'b']|join('-') }}"),
            "[a b]ABabAb CdAb2a-b");
  EXPECT_EQ(Render("{{ tool|tojson }}", context),
            "{\"name\": \"f\", \"args\": [1, 2], \"ok\": true, \"x\": null}");
  EXPECT_EQ(Render("{{ tool.args|tojson(indent=2) }}", context), "[\n  1,\n  2\n]");
  EXPECT_EQ(Render("{{ 'é\"\\\\\\n'|tojson }}"), "\"é\\\"\\\\\\n\"");
  EXPECT_EQ(Render("{{ missing|default('d') }}{{ ''|default('e', true) }}{{ [3, 4]|first }}"
                   "{{ [3, 4]|last }}{{ '5'|int + 1 }}{{ [1, 2]|reverse|list }}"),
            "de346[2, 1]");
}

TEST(ChatTemplateTest, UndefinedBehavesAsJinjasUndefined) {
  EXPECT_EQ(Render("{% for x in missing %}x{% else %}empty{% endfor %}{{ missing|length }}"
                   "[{{ missing|trim }}]{{ 5|trim }}{{ missing|upper }}"),
            "empty0[]5");
  EXPECT_EQ(Render("{% for x in none %}{% endfor %}"),
            "ERROR: 1:13: cannot iterate over a value of type none");
}

TEST(ChatTemplateTest, StringMethodsFollowPython) {
  EXPECT_EQ(Render("{{ 'a</think>b'.split('</think>') }}{{ ' a  b '.split() }}"
                   "{{ 'a,b,c'.split(',', 1) }}"),
            "['a', 'b']['a', 'b']['a', 'b,c']");
  // strip(chars) removes only those characters (the oracle's JavaScript ignores `chars`,
  // which is why the oracle corpus has nothing else at those edges).
  EXPECT_EQ(Render("[{{ '\\n \\nx\\n '.lstrip('\\n') }}][{{ '\\n x \\n'.strip('\\n') }}]"
                   "[{{ 'xxaxx'.rstrip('x') }}][{{ '  y  '.strip() }}]"),
            "[ \nx\n ][ x ][xxa][y]");
  EXPECT_EQ(Render("{{ 'hello'.startswith('he') }}{{ 'hello'.endswith(('x', 'lo')) }}"
                   "{{ 'a-b'.replace('-', '+') }}{{ ', '.join(['a', 'b']) }}{{ 'ÉCOLE'.lower() }}"),
            "TrueTruea+ba, bécole");
}

TEST(ChatTemplateTest, RaiseExceptionNamesTheTemplatePosition) {
  const std::string source =
      "{% for m in messages %}\n"
      "{% if m.role not in ['user', 'assistant'] %}"
      "{{ raise_exception('Only user and assistant roles are supported!') }}{% endif %}"
      "{% endfor %}";
  EXPECT_EQ(Render(source, {{"messages", {{{"role", "user"}}}}}), "");
  EXPECT_EQ(Render(source, {{"messages", {{{"role", "system"}}}}}),
            "ERROR: 2:48: raise_exception: Only user and assistant roles are supported!");
}

TEST(ChatTemplateTest, UnsupportedConstructsNameThemselvesAndTheirPosition) {
  EXPECT_EQ(Render("ok\n  {% macro f() %}{% endmacro %}"),
            "ERROR: 2:6: unsupported statement 'macro'");
  EXPECT_EQ(Render("{{ x | wordwrap }}"), "ERROR: 1:6: unsupported filter 'wordwrap'");
  EXPECT_EQ(Render("{{ x is callable }}"), "ERROR: 1:6: unsupported test 'callable'");
  EXPECT_EQ(Render("{{ cycler(1) }}"), "ERROR: 1:4: unsupported function 'cycler'");
  EXPECT_EQ(Render("{% for x in xs recursive %}{% endfor %}"),
            "ERROR: 1:16: unsupported construct 'recursive' loop");
  EXPECT_EQ(Render("{% set x %}a{% endset %}"),
            "ERROR: 1:4: unsupported construct: block 'set' (with 'endset')");
  EXPECT_EQ(Render("{{ 'x'.zfill(3) }}"), "ERROR: 1:7: a string has no method 'zfill'");
}

TEST(ChatTemplateTest, MalformedTemplatesGiveErrorsWithPositions) {
  EXPECT_EQ(Render("{% if x %}never closed"),
            "ERROR: 1:23: the template ends inside a block: expected '{% elif %}'");
  EXPECT_EQ(Render("a\n{% endfor %}"), "ERROR: 2:4: 'endfor' without an open block");
  EXPECT_EQ(Render("{{ 'open string }}"), "ERROR: 1:4: string literal is never closed");
  EXPECT_EQ(Render("{# no end"), "ERROR: 1:1: comment '{#' is never closed with '#}'");
  EXPECT_EQ(Render("{{ a ; b }}"), "ERROR: 1:6: unexpected character ';' inside a tag");
  EXPECT_EQ(Render("{{ (1 }}"), "ERROR: 1:7: expected ')' or ',' in parentheses");
  EXPECT_EQ(Render("{{ 1 + }}"), "ERROR: 1:8: expected an expression, found '}}'");
  EXPECT_EQ(Render("{{ '\\q' }}"), "ERROR: 1:5: unknown escape '\\q' in a string literal");
}

TEST(ChatTemplateTest, TypeErrorsNameTheExpression) {
  EXPECT_EQ(Render("{{ 'a' + 1 }}"),
            "ERROR: 1:8: unsupported operand types for '+': string and int");
  EXPECT_EQ(Render("{{ 1 // 0 }}"), "ERROR: 1:6: division by zero");
  EXPECT_EQ(Render("{{ x.y.z }}"), "ERROR: 1:5: cannot read attribute 'y' of an undefined value");
  EXPECT_EQ(Render("{{ 9223372036854775807 + 1 }}"), "ERROR: 1:24: integer overflow in '+'");
}

TEST(ChatTemplateTest, BoundsKeepHostileTemplatesFinite) {
  EvaluationLimits limits;
  limits.max_steps = 1000;
  EXPECT_EQ(Render("{% for i in range(100000) %}{% endfor %}", Json::object(), limits),
            "ERROR: 1:13: the template runs longer than 1000 steps");
  limits.max_output_bytes = 10;
  EXPECT_EQ(Render("{{ 'abcdef' }}{{ 'ghijkl' }}", Json::object(), limits),
            "ERROR: 1:15: the output exceeds 10 bytes");
  EXPECT_EQ(Render("{{ 'x' * 9000000000000 }}"),
            "ERROR: 1:8: a repeated sequence over the size limit");
  const std::string deep = "{{ " + std::string(300, '(') + "1" + std::string(300, ')') + " }}";
  EXPECT_THAT(Render(deep), HasSubstr("nesting deeper than 200 levels"));
  std::string chain = "{{ x";
  for (int i = 0; i < 300; ++i) chain += ".a";
  EXPECT_THAT(Render(chain + " }}"), HasSubstr("an expression nested deeper than 200 levels"));
  EXPECT_EQ(Render("{% set ns = namespace(a=1) %}{% set ns.a = ns %}"),
            "ERROR: 1:33: a namespace cannot be stored in a list, dict or namespace");
  EXPECT_THAT(Render("{% set x = [] %}{% for i in range(300) %}{% set x = [x] %}{% endfor %}"),
              HasSubstr("lists and dicts nested deeper than 256 levels"));
}

TEST(ChatTemplateTest, LoadConfigReadsTheTemplateAndSpecialTokens) {
  ChatTemplate chat_template;
  std::string error, text;
  ASSERT_TRUE(chat_template.LoadConfig(
      R"({"bos_token": {"content": "<B>", "lstrip": false}, "eos_token": null,
          "chat_template": [{"name": "tool_use", "template": "T"},
                            {"name": "default", "template": "{{ bos_token }}{{ eos_token }}D"}]})",
      &error))
      << error;
  ASSERT_TRUE(chat_template.Render(Json::object(), &text, &error)) << error;
  EXPECT_EQ(text, "<B>D");
  EXPECT_FALSE(chat_template.LoadConfig(R"({"bos_token": "<s>"})", &error));
  EXPECT_EQ(error, "chat_template: the config has none");
  EXPECT_FALSE(chat_template.LoadConfig(R"({"chat_template": "{% break %}"})", &error));
  EXPECT_EQ(error, "chat_template 1:4: unsupported statement 'break'");
  EXPECT_FALSE(chat_template.LoadConfig("[1]", &error));
}

TEST(ChatTemplateCApiTest, RendersMessagesIntoTheCallersBuffer) {
  tcpu_chat_template* chat_template = nullptr;
  ASSERT_EQ(tcpu_chat_template_open_string(
                "{% for m in messages %}<{{ m.role }}>{{ m.content }}{% endfor %}"
                "{% if add_generation_prompt %}<assistant>{% endif %}",
                nullptr, nullptr, &chat_template),
            TCPU_OK);
  const tcpu_chat_message messages[] = {{"system", "Be brief."}, {"user", "Hi ✋"}};
  int64_t bytes = 0;
  ASSERT_EQ(tcpu_chat_template_render(chat_template, messages, 2, 1, nullptr, 0, &bytes),
            TCPU_ERR_BUFFER_TOO_SMALL);
  const std::string expected = "<system>Be brief.<user>Hi ✋<assistant>";
  EXPECT_EQ(bytes, static_cast<int64_t>(expected.size()));
  std::string text(expected.size(), '\0');
  // Room for the text but not its NUL is still too small.
  EXPECT_EQ(tcpu_chat_template_render(chat_template, messages, 2, 1, text.data(), bytes, &bytes),
            TCPU_ERR_BUFFER_TOO_SMALL);
  text.resize(expected.size() + 1);
  ASSERT_EQ(
      tcpu_chat_template_render(chat_template, messages, 2, 1, text.data(), bytes + 1, &bytes),
      TCPU_OK);
  EXPECT_EQ(text.substr(0, bytes), expected);
  EXPECT_STREQ(tcpu_last_error_detail(), "");

  char buffer[64];
  ASSERT_EQ(tcpu_chat_template_render_json(chat_template,
                                           R"({"messages": [{"role": "user", "content": "x"}]})",
                                           buffer, sizeof(buffer), &bytes),
            TCPU_OK);
  EXPECT_STREQ(buffer, "<user>x");
  tcpu_chat_template_close(chat_template);
}

TEST(ChatTemplateCApiTest, ErrorsNameTheArgument) {
  tcpu_chat_template* chat_template = nullptr;
  EXPECT_EQ(tcpu_chat_template_open_string(nullptr, nullptr, nullptr, &chat_template),
            TCPU_ERR_NULL_POINTER);
  EXPECT_EQ(tcpu_chat_template_open_string("{% if %}", nullptr, nullptr, &chat_template),
            TCPU_ERR_INVALID_MODEL);
  EXPECT_STREQ(tcpu_last_error_detail(),
               "tcpu_chat_template_open_string: chat template 1:7: expected an expression, "
               "found '%}'");
  EXPECT_EQ(chat_template, nullptr);
  EXPECT_EQ(tcpu_chat_template_open("/nonexistent/dir", &chat_template), TCPU_ERR_IO);

  ASSERT_EQ(
      tcpu_chat_template_open_string("{{ messages[0].content }}", nullptr, nullptr, &chat_template),
      TCPU_OK);
  char buffer[16];
  int64_t bytes = 0;
  const tcpu_chat_message bad_utf8[] = {{"user", "ok\xC3"}};
  EXPECT_EQ(tcpu_chat_template_render(chat_template, bad_utf8, 1, 0, buffer, 16, &bytes),
            TCPU_ERR_INVALID_ARGUMENT);
  EXPECT_STREQ(tcpu_last_error_detail(),
               "tcpu_chat_template_render: messages[0].content is not UTF-8 (byte 2)");
  const tcpu_chat_message no_role[] = {{nullptr, "x"}};
  EXPECT_EQ(tcpu_chat_template_render(chat_template, no_role, 1, 0, buffer, 16, &bytes),
            TCPU_ERR_NULL_POINTER);
  EXPECT_EQ(tcpu_chat_template_render(chat_template, nullptr, 1, 0, buffer, 16, &bytes),
            TCPU_ERR_NULL_POINTER);
  EXPECT_EQ(tcpu_chat_template_render(chat_template, nullptr, -1, 0, buffer, 16, &bytes),
            TCPU_ERR_INVALID_SIZE);
  EXPECT_EQ(tcpu_chat_template_render_json(chat_template, "{", buffer, 16, &bytes),
            TCPU_ERR_INVALID_ARGUMENT);
  EXPECT_EQ(tcpu_chat_template_render_json(chat_template, "{}", buffer, 16, &bytes),
            TCPU_ERR_INVALID_ARGUMENT);
  EXPECT_STREQ(tcpu_last_error_detail(),
               "tcpu_chat_template_render_json: chat template 1:12: cannot index a value of "
               "type undefined");
  tcpu_chat_template_close(chat_template);
  tcpu_chat_template_close(nullptr);
}

}  // namespace
