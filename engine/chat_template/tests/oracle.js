// Test oracle: renders every conversation of a corpus with the chat templates of real
// tokenizer_config.json files through @huggingface/jinja (Hugging Face's own JavaScript
// implementation of Jinja for chat templates), with add_generation_prompt off and on, and
// writes the texts as JSON for chat_template_oracle_test to compare with ours byte for byte.
//   node oracle.js JINJA_INDEX_CJS CONVERSATIONS_JSON OUT_JSON NAME=CONFIG_JSON...
"use strict";
const fs = require("fs");

const [jinjaJs, conversationsPath, outPath, ...templates] = process.argv.slice(2);
if (!outPath || templates.length === 0) {
  console.error("usage: node oracle.js JINJA_INDEX_CJS CONVERSATIONS OUT NAME=CONFIG...");
  process.exit(2);
}
const { Template } = require(fs.realpathSync(jinjaJs));
const conversations = JSON.parse(fs.readFileSync(conversationsPath, "utf8"));

// A special token of tokenizer_config.json: a string, {"content": ...} or null.
function specialToken(value) {
  if (typeof value === "string") return value;
  if (value && typeof value.content === "string") return value.content;
  return undefined;
}

const cases = [];
for (const spec of templates) {
  const [name, configPath] = spec.split("=");
  const config = JSON.parse(fs.readFileSync(configPath, "utf8"));
  const template = new Template(config.chat_template);
  const tokens = {};
  for (const field of ["bos_token", "eos_token"]) {
    const token = specialToken(config[field]);
    if (token !== undefined) tokens[field] = token;
  }
  conversations.forEach((conversation, index) => {
    for (const addGenerationPrompt of [false, true]) {
      const context = {
        ...tokens,
        ...(conversation.variables || {}),
        messages: conversation.messages,
        add_generation_prompt: addGenerationPrompt,
      };
      const text = template.render(context);
      cases.push({ template: name, conversation: index, add_generation_prompt: addGenerationPrompt, text });
    }
  });
}
fs.writeFileSync(outPath, JSON.stringify({ cases }, null, 1));
