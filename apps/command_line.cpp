#include "command_line.hpp"

#include <cstdio>
#include <sstream>

namespace strata::cli {

std::string ParsedArgs::get(const std::string& name, const std::string& fallback) const {
  auto it = options.find(name);
  return it == options.end() ? fallback : it->second;
}

long long ParsedArgs::get_int(const std::string& name, long long fallback, long long min_value) const {
  auto it = options.find(name);
  if (it == options.end()) return fallback;
  std::size_t used = 0;
  long long v = 0;
  try {
    v = std::stoll(it->second, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used == 0 || used != it->second.size() || v < min_value) {
    throw UsageError(name + " expects an integer >= " + std::to_string(min_value) + ", got '" + it->second + "'");
  }
  return v;
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
