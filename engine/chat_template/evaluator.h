// Runs a parsed chat template: executes statements over a scope chain (the caller's
// variables, then one scope per `for` loop, as Jinja: `set` inside a loop stays inside it,
// hence `namespace`), evaluates expressions with Python's semantics, and appends output.
// Globals: raise_exception(message), namespace(name=value, ...), range(...).
#ifndef TCPU_ENGINE_CHAT_TEMPLATE_EVALUATOR_H_
#define TCPU_ENGINE_CHAT_TEMPLATE_EVALUATOR_H_

#include <cstddef>
#include <cstdint>
#include <string>

#include "engine/chat_template/ast.h"
#include "engine/chat_template/value.h"

namespace tcpu::chat_template {

// Bounds on the work of one rendering, so that no template can loop or grow without end.
struct EvaluationLimits {
  int64_t max_steps = 10'000'000;  // statements, loop iterations and range() items
  size_t max_output_bytes = size_t{64} << 20;
};

// Renders `program` with the top-level `variables` (messages, add_generation_prompt, ...).
// Throws TemplateError naming the offset of the expression or statement at fault;
// `raise_exception("...")` becomes a TemplateError whose message starts "raise_exception: ".
std::string Evaluate(const Body& program, const Object& variables,
                     const EvaluationLimits& limits = {});

}  // namespace tcpu::chat_template

#endif  // TCPU_ENGINE_CHAT_TEMPLATE_EVALUATOR_H_
