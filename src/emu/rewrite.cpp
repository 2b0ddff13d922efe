// Source rewrite that lets CUDA's `extern __shared__ T name[];` compile with the host compiler.
// Host only.
#include <regex>
#include <string>
#include <vector>

#include "gpupy/emu/runtime.h"

namespace gpupy::emu {

namespace {

// Whether offset lies at namespace scope: every enclosing brace opens a namespace or extern "C"
// block. Comments and string literals are skipped so their braces do not count.
bool at_namespace_scope(const std::string& s, std::size_t offset) {
  static const std::regex ns_open(R"((namespace(\s+[\w:]+)?|extern\s*"C(\+\+)?")\s*$)");
  std::vector<bool> scopes;  // true: namespace-like
  for (std::size_t i = 0; i < offset; ++i) {
    if (s.compare(i, 2, "//") == 0) {
      i = s.find('\n', i);
      if (i == std::string::npos || i >= offset) break;
    } else if (s.compare(i, 2, "/*") == 0) {
      i = s.find("*/", i + 2);
      if (i == std::string::npos || i >= offset) break;
      ++i;
    } else if (s[i] == '"' || s[i] == '\'') {
      const char q = s[i];
      for (++i; i < offset && s[i] != q; ++i) {
        if (s[i] == '\\') ++i;
      }
    } else if (s[i] == '{') {
      const std::size_t from = i > 200 ? i - 200 : 0;
      scopes.push_back(std::regex_search(s.substr(from, i - from), ns_open));
    } else if (s[i] == '}' && !scopes.empty()) {
      scopes.pop_back();
    }
  }
  for (bool ns : scopes) {
    if (!ns) return false;
  }
  return true;
}

std::string clean_type(std::string type) {
  static const std::regex qualifiers(
      R"(\b__shared__\b|\b__align__\s*\([^)]*\)|\balignas\s*\([^)]*\))");
  type = std::regex_replace(type, qualifiers, " ");
  type = std::regex_replace(type, std::regex(R"(\s+)"), " ");
  const auto b = type.find_first_not_of(' '), e = type.find_last_not_of(' ');
  return b == std::string::npos ? type : type.substr(b, e - b + 1);
}

}  // namespace

std::string rewrite_dynamic_shared(std::string source) {
  static const std::regex decl(
      R"(\bextern\b([^;{}\[\]]*\b__shared__\b[^;{}\[\]]*?)\b([A-Za-z_]\w*)\s*\[\s*\]\s*;)");
  std::string out;
  std::size_t last = 0;
  for (auto it = std::sregex_iterator(source.begin(), source.end(), decl);
       it != std::sregex_iterator(); ++it) {
    const std::smatch& m = *it;
    const auto pos = static_cast<std::size_t>(m.position(0));
    const std::string type = clean_type(m[1].str()), name = m[2].str();
    out.append(source, last, pos - last);
    std::string macro_type = type;
    if (type.find(',') != std::string::npos) {
      // A macro argument cannot hold a comma: name the type first.
      macro_type = "gpupy_emu_shared_t_" + name;
      out += "using " + macro_type + " = " + type + "; ";
    }
    const bool global = at_namespace_scope(source, pos);
    out += std::string(global ? "GPUPY_DYNAMIC_SHARED_GLOBAL(" : "GPUPY_DYNAMIC_SHARED(") +
           macro_type + ", " + name + ");";
    last = pos + static_cast<std::size_t>(m.length(0));
  }
  out.append(source, last, std::string::npos);
  return out;
}

}  // namespace gpupy::emu
