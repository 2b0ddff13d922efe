// Parses `__global__` signatures of user CUDA kernels into typed parameters (kernel layer spec
// 2.2), so that every launch can be checked against the C declaration. Host only.
#include <cctype>
#include <string>
#include <vector>

#include "gpupy/error.h"
#include "gpupy/kernel/signature.h"
#include "source_text.h"

namespace gpupy::kernel {
namespace {

using text::ident_char;

bool space(char c) { return std::isspace(static_cast<unsigned char>(c)); }

std::size_t skip_space(const std::string& s, std::size_t i) {
  while (i < s.size() && space(s[i])) ++i;
  return i;
}

/// Index one past the bracket matching s[open] ('(' or '<'), or npos.
std::size_t match(const std::string& s, std::size_t open) {
  char o = s[open], c = o == '(' ? ')' : '>';
  int depth = 0;
  for (std::size_t i = open; i < s.size(); ++i) {
    if (s[i] == o) ++depth;
    if (s[i] == c && --depth == 0) return i + 1;
  }
  return std::string::npos;
}

/// A `__global__ void name(` found in the source.
struct Decl {
  std::string name;
  std::size_t open = 0;  // index of '('
  std::string templ;     // text inside template <...>; empty for plain kernels
  bool is_template = false;
};

/// The template parameter list just before `__global__` at `at`, if any.
bool template_before(const std::string& s, std::size_t at, std::string& inner) {
  std::size_t i = at;
  while (i > 0 && space(s[i - 1])) --i;
  if (i == 0 || s[i - 1] != '>') return false;
  int depth = 0;
  std::size_t j = i;
  while (j > 0) {
    --j;
    if (s[j] == '>') ++depth;
    if (s[j] == '<' && --depth == 0) break;
  }
  std::size_t k = j;
  while (k > 0 && space(s[k - 1])) --k;
  if (k < 8 || s.compare(k - 8, 8, "template") != 0) return false;
  inner = s.substr(j + 1, i - 1 - (j + 1));
  return true;
}

std::vector<Decl> find_kernels(const std::string& s) {
  std::vector<Decl> out;
  const std::string g = "__global__";
  for (std::size_t at = s.find(g); at != std::string::npos; at = s.find(g, at + 1)) {
    if ((at > 0 && ident_char(s[at - 1])) ||
        (at + g.size() < s.size() && ident_char(s[at + g.size()])))
      continue;
    std::size_t i = skip_space(s, at + g.size());
    if (s.compare(i, 17, "__launch_bounds__") == 0) {
      std::size_t p = skip_space(s, i + 17);
      if (p >= s.size() || s[p] != '(' || (i = match(s, p)) == std::string::npos) continue;
      i = skip_space(s, i);
    }
    if (s.compare(i, 4, "void") != 0 || i + 4 >= s.size() || ident_char(s[i + 4])) continue;
    i = skip_space(s, i + 4);
    std::size_t start = i;
    while (i < s.size() && ident_char(s[i])) ++i;
    if (i == start) continue;
    Decl d;
    d.name = s.substr(start, i - start);
    d.open = skip_space(s, i);
    if (d.open >= s.size() || s[d.open] != '(') continue;
    d.is_template = template_before(s, at, d.templ);
    out.push_back(std::move(d));
  }
  return out;
}

/// Splits at top-level commas; commas inside (), <> and [] do not split.
std::vector<std::string> split_top(const std::string& s) {
  std::vector<std::string> parts(1);
  int depth = 0;
  for (char c : s) {
    if (c == '(' || c == '<' || c == '[') ++depth;
    if (c == ')' || c == '>' || c == ']') --depth;
    if (c == ',' && depth == 0) {
      parts.emplace_back();
    } else {
      parts.back() += c;
    }
  }
  return parts;
}

std::string trim(const std::string& s) {
  std::size_t b = 0, e = s.size();
  while (b < e && space(s[b])) ++b;
  while (e > b && space(s[e - 1])) --e;
  return s.substr(b, e - b);
}

/// Replaces whole-word occurrences of `word` in s.
std::string replace_word(const std::string& s, const std::string& word, const std::string& by) {
  std::string out;
  for (std::size_t i = 0; i < s.size();) {
    if (s.compare(i, word.size(), word) == 0 && (i == 0 || !ident_char(s[i - 1])) &&
        (i + word.size() >= s.size() || !ident_char(s[i + word.size()]))) {
      out += by;
      i += word.size();
    } else {
      out += s[i++];
    }
  }
  return out;
}

/// Substitutes template arguments in the parameter list; returns the call expression.
std::string substitute(const Decl& d, std::string& params,
                       const std::optional<std::vector<std::string>>& args) {
  if (!d.is_template) {
    if (args) throw ValueError("'" + d.name + "' is not a template; do not pass template_args");
    return d.name;
  }
  std::vector<std::string> tparams = split_top(d.templ);
  if (trim(d.templ).empty()) tparams.clear();
  if (!args || args->size() != tparams.size()) {
    throw ValueError("'" + d.name + "' is a template with " + std::to_string(tparams.size()) +
                     " parameters; pass them as template_args");
  }
  std::string expr = d.name + "<";
  for (std::size_t k = 0; k < tparams.size(); ++k) {
    std::string p = trim(tparams[k].substr(0, tparams[k].find('=')));
    std::size_t e = p.size();
    while (e > 0 && !ident_char(p[e - 1])) --e;
    std::size_t b = e;
    while (b > 0 && ident_char(p[b - 1])) --b;
    params = replace_word(params, p.substr(b, e - b), (*args)[k]);
    expr += (k ? ", " : "") + (*args)[k];
  }
  return expr + ">";
}

}  // namespace

namespace detail {
CudaParameter parse_parameter(const std::string& text, const std::string& kernel,
                              const std::vector<StructType>& structs);
}

CudaSignature parse_cuda_signature(const std::string& source, const std::string& name,
                                   const std::optional<std::vector<std::string>>& template_args,
                                   const std::vector<StructType>& structs) {
  std::string s = text::blank_comments(source);
  for (const Decl& d : find_kernels(s)) {
    if (d.name != name) continue;
    std::size_t close = match(s, d.open);
    if (close == std::string::npos) {
      throw ValueError("the parameter list of __global__ function '" + name + "' is not closed");
    }
    std::string params = s.substr(d.open + 1, close - d.open - 2);
    CudaSignature sig{name, substitute(d, params, template_args), {}};
    std::string t = trim(params);
    if (t.empty() || t == "void") return sig;
    for (const auto& p : split_top(params))
      sig.params.push_back(detail::parse_parameter(p, name, structs));
    return sig;
  }
  throw ValueError("no __global__ function '" + name + "' found in the CUDA source");
}

std::vector<std::string> cuda_kernel_names(const std::string& source) {
  std::vector<std::string> names;
  for (const Decl& d : find_kernels(text::blank_comments(source))) {
    bool seen = false;
    for (const auto& n : names) seen = seen || n == d.name;
    if (!seen) names.push_back(d.name);
  }
  return names;
}

}  // namespace gpupy::kernel
