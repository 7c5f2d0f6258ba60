// Test oracle: encodes and decodes every text of a corpus with @lenml/tokenizers (an
// independent JavaScript implementation of Hugging Face tokenizers) and writes the results
// as JSON for tokenizer_oracle_test to compare with ours.
//   node oracle.js LENML_MAIN_JS TOKENIZER_JSON TOKENIZER_CONFIG_JSON CORPUS_JSON OUT_JSON
"use strict";
const fs = require("fs");

const [mainJs, tokenizerPath, configPath, corpusPath, outPath] = process.argv.slice(2);
if (!outPath) {
  console.error("usage: node oracle.js LENML_MAIN_JS TOKENIZER_JSON CONFIG_JSON CORPUS OUT");
  process.exit(2);
}
const { TokenizerLoader } = require(fs.realpathSync(mainJs));
const tokenizer = TokenizerLoader.fromPreTrained({
  tokenizerJSON: JSON.parse(fs.readFileSync(tokenizerPath, "utf8")),
  tokenizerConfig: JSON.parse(fs.readFileSync(configPath, "utf8")),
});
const corpus = JSON.parse(fs.readFileSync(corpusPath, "utf8"));
const cases = corpus.map((text) => {
  const ids = tokenizer.encode(text, { add_special_tokens: false });
  const idsWithSpecial = tokenizer.encode(text, { add_special_tokens: true });
  // The oracle refuses to decode an empty list; its text is "".
  const decoded = ids.length ? tokenizer.decode(ids, { skip_special_tokens: false }) : "";
  return { text, ids, ids_with_special: idsWithSpecial, decoded };
});
fs.writeFileSync(outPath, JSON.stringify({ cases }, null, 1));
