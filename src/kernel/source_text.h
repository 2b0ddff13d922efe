// Lexical helpers shared by the CUDA signature readers (tokens, comments). Host only.
#pragma once

#include <cctype>
#include <string>
#include <vector>

namespace gpupy::kernel::text {

inline bool ident_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

/// Comments and string/char literals become spaces (newlines kept), so that neither a
/// commented-out kernel nor a string can fake a declaration; offsets stay those of the source.
inline std::string blank_comments(std::string s) {
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s.compare(i, 2, "//") == 0) {
      while (i < s.size() && s[i] != '\n') s[i++] = ' ';
    } else if (s.compare(i, 2, "/*") == 0) {
      std::size_t end = s.find("*/", i + 2);
      end = end == std::string::npos ? s.size() : end + 2;
      for (; i < end; ++i) s[i] = s[i] == '\n' ? '\n' : ' ';
      --i;
    } else if (s[i] == '"' || s[i] == '\'') {
      char q = s[i];
      for (++i; i < s.size() && s[i] != q; ++i) {
        if (s[i] == '\\') s[i++] = ' ';
        if (i < s.size()) s[i] = ' ';
      }
    }
  }
  return s;
}

/// Identifiers, "::" and single punctuation characters; white space dropped.
inline std::vector<std::string> tokenize(const std::string& s) {
  std::vector<std::string> out;
  for (std::size_t i = 0; i < s.size();) {
    if (std::isspace(static_cast<unsigned char>(s[i]))) {
      ++i;
    } else if (ident_char(s[i])) {
      std::size_t j = i;
      while (j < s.size() && ident_char(s[j])) ++j;
      out.push_back(s.substr(i, j - i));
      i = j;
    } else if (s.compare(i, 2, "::") == 0) {
      out.push_back("::");
      i += 2;
    } else {
      out.push_back(std::string(1, s[i++]));
    }
  }
  return out;
}

}  // namespace gpupy::kernel::text
