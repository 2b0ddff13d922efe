// Finds a `__global__` kernel's parameter list in CUDA source and reduces each parameter to its C
// type, the stand-in until the kernel layer's full signature parser exists. Host only.
#include <cctype>
#include <string>
#include <vector>

#include "gpupy/error.h"
#include "gpupy/kernel/emu_compiler.h"
#include "source_text.h"

namespace gpupy::kernel {
namespace {

using text::blank_comments;
using text::ident_char;
using text::tokenize;

bool is_builtin_type_word(const std::string& t) {
  static const char* words[] = {"int",   "long",   "short", "char", "unsigned", "signed",
                                "float", "double", "bool",  "void", "const",    "volatile"};
  for (const char* w : words) {
    if (t == w) return true;
  }
  return false;
}

/// "const double* __restrict__ x" -> "const double*".
std::string parameter_type(const std::string& param) {
  std::string p = param.substr(0, param.find('='));
  std::vector<std::string> toks;
  for (auto& t : tokenize(p)) {
    if (t != "__restrict__" && t != "__restrict") toks.push_back(t);
  }
  if (toks.size() > 1 && ident_char(toks.back()[0]) && !is_builtin_type_word(toks.back()) &&
      toks[toks.size() - 2] != "::") {
    toks.pop_back();
  }
  std::string out;
  for (const auto& t : toks) {
    if (!out.empty() && ident_char(t[0]) && ident_char(out.back())) out += ' ';
    out += t;
  }
  return out;
}

/// Position just after the '(' of `__global__ ... name(`, or npos.
std::size_t find_kernel(const std::string& s, const std::string& name) {
  for (std::size_t at = s.find(name); at != std::string::npos; at = s.find(name, at + 1)) {
    bool starts = at == 0 || !ident_char(s[at - 1]);
    std::size_t after = at + name.size();
    if (!starts || (after < s.size() && ident_char(s[after]))) continue;
    while (after < s.size() && std::isspace(static_cast<unsigned char>(s[after]))) ++after;
    if (after >= s.size() || s[after] != '(') continue;
    std::size_t decl = s.find_last_of(";}", at);
    std::string head = s.substr(decl == std::string::npos ? 0 : decl + 1, at - decl - 1);
    if (head.find("__global__") == std::string::npos) continue;
    if (head.find("template") != std::string::npos) {
      throw NotImplementedError("[emu] kernel '" + name + "' is a template; not supported yet");
    }
    return after + 1;
  }
  return std::string::npos;
}

}  // namespace

std::vector<std::string> parameter_types(const std::string& source, const std::string& name) {
  std::string s = blank_comments(source);
  std::size_t open = find_kernel(s, name);
  if (open == std::string::npos) {
    throw ValueError("[emu] no `__global__ void " + name + "(` in the kernel source");
  }
  std::vector<std::string> params;
  std::string cur;
  int depth = 0;
  for (std::size_t i = open; i < s.size(); ++i) {
    char c = s[i];
    if (depth == 0 && (c == ',' || c == ')')) {
      params.push_back(cur);
      cur.clear();
      if (c == ')') break;
      continue;
    }
    if (c == '(' || c == '<' || c == '[') ++depth;
    if (c == ')' || c == '>' || c == ']') --depth;
    cur += c;
  }
  std::vector<std::string> types;
  for (const auto& p : params) {
    std::string t = parameter_type(p);
    if (!t.empty() && !(t == "void" && params.size() == 1)) types.push_back(t);
  }
  return types;
}

}  // namespace gpupy::kernel
