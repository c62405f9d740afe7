#include "command_line.hpp"

#include <charconv>
#include <cstdio>
#include <sstream>
#include <system_error>

namespace strata::cli {

std::string ParsedArgs::get(const std::string& name, const std::string& fallback) const {
  auto it = options.find(name);
  return it == options.end() ? fallback : it->second;
}

long long ParsedArgs::get_int(const std::string& name, long long fallback, long long min_value,
                             long long max_value) const {
  auto it = options.find(name);
  if (it == options.end()) return fallback;
  const std::string& text = it->second;
  long long value = 0;
  // from_chars takes an optional '-' and digits only: no blanks, '+', hex or
  // trailing characters, and it reports values beyond long long instead of wrapping.
  const std::from_chars_result result = std::from_chars(text.data(), text.data() + text.size(), value);
  const bool parsed = !text.empty() && result.ec == std::errc() && result.ptr == text.data() + text.size();
  const bool too_large = result.ec == std::errc::result_out_of_range;
  if (!parsed || value < min_value || value > max_value) {
    throw UsageError(name + " expects an integer in [" + std::to_string(min_value) + ", " + std::to_string(max_value) +
                     "], got '" + text + "'" + (too_large ? " (out of range)" : ""));
  }
  return value;
}

std::string ParsedArgs::get_choice(const std::string& name, const std::string& fallback,
                                   std::initializer_list<const char*> choices) const {
  const std::string value = get(name, fallback);
  std::string listed;
  for (const char* choice : choices) {
    if (value == choice) return value;
    listed += std::string(listed.empty() ? "" : ", ") + choice;
  }
  throw UsageError(name + " expects one of " + listed + ", got '" + value + "'");
}

ParsedArgs parse(const std::string& command, const std::vector<std::string>& args,
                 const std::vector<OptionSpec>& specs, std::size_t max_positional) {
  ParsedArgs parsed;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    if (arg.size() > 1 && arg[0] == '-' && arg.rfind("--kokkos", 0) != 0) {
      std::string name = arg;
      std::string value;
      bool has_inline_value = false;
      const auto eq = arg.find('=');
      if (eq != std::string::npos) {
        name = arg.substr(0, eq);
        value = arg.substr(eq + 1);
        has_inline_value = true;
      }
      const OptionSpec* spec = nullptr;
      for (const auto& s : specs) {
        if (s.name == name) spec = &s;
      }
      if (!spec) throw UsageError(command + ": unknown option '" + name + "'");
      if (spec->takes_value && !has_inline_value) {
        if (i + 1 >= args.size()) throw UsageError(command + ": option '" + name + "' needs a value");
        value = args[++i];
      } else if (!spec->takes_value && has_inline_value) {
        throw UsageError(command + ": option '" + name + "' takes no value");
      }
      parsed.options[name] = value;
    } else if (arg.rfind("--kokkos", 0) == 0) {
      // Kokkos consumes its own options during initialisation.
    } else {
      parsed.positional.push_back(arg);
    }
  }
  if (parsed.positional.size() > max_positional) {
    throw UsageError(command + ": unexpected argument '" + parsed.positional[max_positional] + "'");
  }
  return parsed;
}

std::string format_options(const std::vector<OptionSpec>& specs) {
  std::ostringstream out;
  for (const auto& s : specs) {
    std::string left = "  " + s.name + (s.takes_value ? " VALUE" : "");
    if (left.size() < 26) left.resize(26, ' ');
    out << left << s.help << "\n";
  }
  return out.str();
}

const std::vector<OptionSpec>& matrix_input_options() {
  static const std::vector<OptionSpec> options = {
      {"--allow-underflow", false, "store nonzero file values that round to zero (1e-400) as zero instead of failing"},
      {"--allow-non-finite", false, "accept inf and nan values in the file instead of failing"},
  };
  return options;
}

MatrixLoadOptions matrix_load_options(const ParsedArgs& parsed) {
  MatrixLoadOptions options;
  options.values.allow_underflow = parsed.has("--allow-underflow");
  options.values.allow_non_finite = parsed.has("--allow-non-finite");
  return options;
}

std::vector<OptionSpec> with_options(std::vector<OptionSpec> base, const std::vector<OptionSpec>& more) {
  base.insert(base.end(), more.begin(), more.end());
  return base;
}

std::string json_string(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\t': out += "\\t"; break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04x", c);
          out += buf;
        } else {
          out += c;
        }
    }
  }
  return out + "\"";
}

}  // namespace strata::cli
