#pragma once
// Minimal option parsing for the strata command: every argument must be known,
// every error is one line naming the argument, and the exit code is 2.
#include <strata/core/matrix_source.hpp>

#include <climits>
#include <initializer_list>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

namespace strata::cli {

// Exit codes of the strata command (documented in `strata --help`).
constexpr int exit_success = 0;
constexpr int exit_runtime_error = 1;  // bad or unreadable input, failed verification, out of memory
constexpr int exit_usage_error = 2;    // unknown command or option, bad option value, bad generator spec

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
  // A decimal integer in [min_value, max_value], else UsageError naming the
  // option and the range. The default maximum is INT_MAX because callers store
  // most counts in int; pass a larger one explicitly where a wider type holds it.
  long long get_int(const std::string& name, long long fallback, long long min_value,
                    long long max_value = INT_MAX) const;
  // One of `choices`, else UsageError listing them.
  std::string get_choice(const std::string& name, const std::string& fallback,
                         std::initializer_list<const char*> choices) const;
};

// Accepts "--name value" and "--name=value"; throws UsageError naming the command.
ParsedArgs parse(const std::string& command, const std::vector<std::string>& args,
                 const std::vector<OptionSpec>& specs, std::size_t max_positional);

std::string format_options(const std::vector<OptionSpec>& specs);

// The options every command that loads a MATRIX accepts (--allow-underflow,
// --allow-non-finite), and the load options they select.
const std::vector<OptionSpec>& matrix_input_options();
MatrixLoadOptions matrix_load_options(const ParsedArgs& parsed);

// `base` followed by `more`, for commands that add shared options to their own.
std::vector<OptionSpec> with_options(std::vector<OptionSpec> base, const std::vector<OptionSpec>& more);

// JSON string literal with escapes.
std::string json_string(const std::string& s);

}  // namespace strata::cli
