#pragma once
// Minimal option parsing for the strata command: every argument must be known,
// every error is one line naming the argument, and the exit code is 2.
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

namespace strata::cli {

class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct OptionSpec {
  std::string name;  // "--reps"
  bool takes_value;
  std::string help;
};

struct ParsedArgs {
  std::vector<std::string> positional;
  std::map<std::string, std::string> options;  // flags map to ""

  bool has(const std::string& name) const { return options.count(name) != 0; }
  std::string get(const std::string& name, const std::string& fallback) const;
  long long get_int(const std::string& name, long long fallback, long long min_value) const;
};

// Accepts "--name value" and "--name=value"; throws UsageError naming the command.
ParsedArgs parse(const std::string& command, const std::vector<std::string>& args,
                 const std::vector<OptionSpec>& specs, std::size_t max_positional);

std::string format_options(const std::vector<OptionSpec>& specs);

// JSON string literal with escapes.
std::string json_string(const std::string& s);

}  // namespace strata::cli
