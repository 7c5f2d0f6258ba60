#include "tools/cli/flags.h"

#include <algorithm>

#include "absl/flags/commandlineflag.h"
#include "absl/flags/reflection.h"

namespace tcpu::cli {
namespace {

std::string Underscored(std::string name) {
  std::replace(name.begin(), name.end(), '-', '_');
  return name;
}

}  // namespace

ParseResult ParseFlags(int argc, char** argv, std::vector<std::string>* positional,
                       std::string* error) {
  positional->clear();
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--") {
      for (++i; i < argc; ++i) positional->push_back(argv[i]);
      break;
    }
    if (arg == "--help" || arg == "-h") return ParseResult::kHelp;
    if (arg.size() < 3 || arg.compare(0, 2, "--") != 0) {
      positional->push_back(arg);
      continue;
    }
    const size_t equals = arg.find('=');
    const std::string written = arg.substr(0, equals);  // "--max-new-tokens"
    std::string name = Underscored(written.substr(2));
    absl::CommandLineFlag* flag = absl::FindCommandLineFlag(name);
    std::string value;
    if (flag == nullptr && equals == std::string::npos && name.compare(0, 2, "no") == 0) {
      flag = absl::FindCommandLineFlag(name.substr(2));  // --noflag for a boolean
      if (flag != nullptr && !flag->IsOfType<bool>()) flag = nullptr;
      value = "false";
    } else if (flag != nullptr && flag->IsOfType<bool>() && equals == std::string::npos) {
      value = "true";
    } else if (flag != nullptr && equals != std::string::npos) {
      value = arg.substr(equals + 1);
    } else if (flag != nullptr) {
      if (i + 1 >= argc) {
        *error = written + ": missing value";
        return ParseResult::kError;
      }
      value = argv[++i];
    }
    if (flag == nullptr) {
      *error = "unknown flag '" + written + "'";
      return ParseResult::kError;
    }
    std::string parse_error;
    if (!flag->ParseFrom(value, &parse_error)) {
      *error = written + ": " + parse_error;
      return ParseResult::kError;
    }
  }
  return ParseResult::kOk;
}

std::string FlagsHelp(const std::vector<std::string>& names) {
  std::string help;
  for (const std::string& name : names) {
    const absl::CommandLineFlag* flag = absl::FindCommandLineFlag(Underscored(name));
    if (flag == nullptr) continue;
    help += "  --" + name;
    const std::string fallback = flag->DefaultValue();
    if (!fallback.empty()) help += " (default: " + fallback + ")";
    help += "\n      " + flag->Help() + "\n";
  }
  return help;
}

}  // namespace tcpu::cli
