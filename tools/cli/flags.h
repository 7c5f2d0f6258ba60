// The command line of the SDK's tools: flags are declared with ABSL_FLAG in the tool and
// parsed here with abseil's reflection, so names may be written with hyphens, as the tools
// document them (--max-new-tokens), or with underscores (--max_new_tokens), and every
// mistake becomes one message naming the flag instead of abseil's exit(1).
#ifndef TCPU_TOOLS_CLI_FLAGS_H_
#define TCPU_TOOLS_CLI_FLAGS_H_

#include <string>
#include <vector>

namespace tcpu::cli {

enum class ParseResult { kOk, kHelp, kError };

// Sets the flags named in argv[1..]: --name=value, --name value, --flag / --noflag for
// booleans. Arguments that are not flags go to *positional; "--" ends the flags.
// kError with *error ("unknown flag '--x'", "--threads: Illegal value 'x' specified for
// flag 'threads'"); kHelp for --help or -h.
ParseResult ParseFlags(int argc, char** argv, std::vector<std::string>* positional,
                       std::string* error);

// "  --name (default: value)  help" lines for `names` (written with hyphens), for --help.
std::string FlagsHelp(const std::vector<std::string>& names);

}  // namespace tcpu::cli

#endif  // TCPU_TOOLS_CLI_FLAGS_H_
