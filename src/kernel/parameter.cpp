// Classifies one kernel parameter (scalar, pointer, void*, ArrayND/CArrayND view) and rejects the
// types a launch could not check (kernel layer spec 2.2 step 7). Host only.
#include <cctype>
#include <string>
#include <vector>

#include "gpupy/error.h"
#include "gpupy/kernel/signature.h"
#include "source_text.h"

namespace gpupy::kernel {
namespace {

using text::ident_char;
using text::tokenize;

bool restrict_word(const std::string& w) {
  return w == "__restrict__" || w == "__restrict" || w == "restrict";
}

/// Tokens joined with a space only between two words: "unsigned int", "Array2D<const double>".
std::string join(const std::vector<std::string>& toks) {
  std::string out;
  for (const auto& t : toks) {
    if (!out.empty() && ident_char(t[0]) && ident_char(out.back())) out += ' ';
    out += t;
  }
  return out;
}

/// N of "ArrayND<...>" / "CArrayND<...>" (0 if the type is no view); sets contiguous and inner.
int view_rank(const std::string& type, bool& contiguous, std::string& inner) {
  std::size_t i = 0;
  contiguous = type.rfind("CArray", 0) == 0;
  if (contiguous) {
    i = 6;
  } else if (type.rfind("Array", 0) == 0) {
    i = 5;
  } else {
    return 0;
  }
  std::size_t d = i;
  while (d < type.size() && std::isdigit(static_cast<unsigned char>(type[d]))) ++d;
  if (d == i || d + 2 > type.size() || type[d] != 'D' || type[d + 1] != '<' || type.back() != '>')
    return 0;
  inner = type.substr(d + 2, type.size() - d - 3);
  return d - i > 3 ? 999 : std::stoi(type.substr(i, d - i));
}

}  // namespace

namespace detail {

CudaParameter parse_parameter(const std::string& text, const std::string& kernel,
                              const std::vector<StructType>& structs) {
  std::vector<std::string> toks = tokenize(text.substr(0, text.find('=')));
  CudaParameter p;
  int pointers = 0;
  std::vector<std::string> type;
  for (std::size_t i = 0; i < toks.size(); ++i) {
    const std::string& t = toks[i];
    if (t == "*") {
      ++pointers;
    } else if (t == "[") {
      ++pointers;
      while (i < toks.size() && toks[i] != "]") ++i;
    } else if (!restrict_word(t) && t != "&") {
      type.push_back(t);
    }
  }
  if (!type.empty() && type[0] == "struct") type.erase(type.begin());
  bool named = type.size() > 1 && ident_char(type.back()[0]) && type[type.size() - 2] != "::";
  if (named) {
    p.name = type.back();
    type.pop_back();
  }
  std::string declared = join(type);
  std::vector<std::string> bare;
  for (const auto& t : type) {
    if (t != "const" && t != "volatile") bare.push_back(t);
  }
  p.ctype = join(bare);
  p.pointer = pointers > 0;
  p.decl_type = declared + std::string(pointers, '*');
  auto unsupported = [&](const std::string& why) {
    return ValueError("cannot check the kernel parameter '" + p.name + "' of '" + kernel +
                      "': " + why);
  };
  for (const auto& st : structs) {
    if (st.name != p.ctype) continue;
    if (pointers) throw unsupported("structs can only be passed by value");
    p.struct_size = st.size;
    return p;
  }
  std::string inner;
  if (int n = view_rank(p.ctype, p.contiguous, inner)) {
    if (n > 16) throw unsupported("unsupported type '" + p.ctype + "'");
    p.dtype = dtype_of_ctype(inner);
    if (!p.dtype || pointers) {
      throw unsupported("array views take a scalar element type and are passed by value");
    }
    p.view_ndim = n;
    p.pointer = false;
    p.ctype =
        (p.contiguous ? "CArray" : "Array") + std::to_string(n) + "D<" + ctype_of(*p.dtype) + ">";
    return p;
  }
  if (p.ctype == "void" && pointers == 1) return p;
  p.dtype = dtype_of_ctype(p.ctype);
  if (!p.dtype || pointers > 1) {
    throw unsupported("unsupported type '" + p.ctype + std::string(pointers, '*') + "'");
  }
  return p;
}

}  // namespace detail

std::string CudaParameter::describe() const { return ctype + (pointer ? "* " : " ") + name; }

std::size_t CudaParameter::packed_size() const {
  if (pointer) return sizeof(void*);
  if (struct_size) return struct_size;
  if (view_ndim) return 8 + 8 * static_cast<std::size_t>(view_ndim) * (contiguous ? 1 : 2);
  return itemsize(*dtype);
}

}  // namespace gpupy::kernel
