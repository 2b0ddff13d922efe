// The C type <-> dtype table of the kernel layer (LP64, spec 2.1). Host only.
#include <array>
#include <cctype>
#include <utility>

#include "gpupy/error.h"
#include "gpupy/kernel/signature.h"

namespace gpupy::kernel {
namespace {

bool ident(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

bool qualifier(std::string_view w) {
  return w == "const" || w == "volatile" || w == "__restrict__" || w == "__restrict" ||
         w == "restrict";
}

/// Words of a C type without qualifiers, joined by one space; "complex<...>" kept whole.
std::string normalise(std::string_view t) {
  std::string out, word;
  auto flush = [&] {
    if (!word.empty() && !qualifier(word)) out += (out.empty() ? "" : " ") + word;
    word.clear();
  };
  for (char c : t) {
    if (ident(c) || c == ':' || c == '<' || c == '>') {
      word += c;
    } else {
      flush();
    }
  }
  flush();
  for (std::string_view prefix : {"thrust::", "cuda::std::", "std::"}) {
    if (out.rfind(std::string(prefix) + "complex<", 0) == 0) out.erase(0, prefix.size());
  }
  return out;
}

}  // namespace

std::optional<DType> dtype_of_ctype(std::string_view ctype) {
  static const std::pair<const char*, DType> table[] = {
      {"bool", DType::bool_},
      {"char", DType::int8},
      {"signed char", DType::int8},
      {"unsigned char", DType::uint8},
      {"short", DType::int16},
      {"short int", DType::int16},
      {"signed short", DType::int16},
      {"unsigned short", DType::uint16},
      {"unsigned short int", DType::uint16},
      {"int", DType::int32},
      {"signed", DType::int32},
      {"signed int", DType::int32},
      {"unsigned", DType::uint32},
      {"unsigned int", DType::uint32},
      {"long", DType::int64},
      {"long int", DType::int64},
      {"long long", DType::int64},
      {"long long int", DType::int64},
      {"unsigned long", DType::uint64},
      {"unsigned long int", DType::uint64},
      {"unsigned long long", DType::uint64},
      {"unsigned long long int", DType::uint64},
      {"int8_t", DType::int8},
      {"int16_t", DType::int16},
      {"int32_t", DType::int32},
      {"int64_t", DType::int64},
      {"uint8_t", DType::uint8},
      {"uint16_t", DType::uint16},
      {"uint32_t", DType::uint32},
      {"uint64_t", DType::uint64},
      {"size_t", DType::uint64},
      {"ptrdiff_t", DType::int64},
      {"ssize_t", DType::int64},
      {"float", DType::float32},
      {"double", DType::float64},
      {"complex<float>", DType::complex64},
      {"complex<double>", DType::complex128},
      {"__half", DType::float16},
      {"half", DType::float16},
  };
  std::string n = normalise(ctype);
  for (const auto& [name, dt] : table) {
    if (n == name) return dt;
  }
  return std::nullopt;
}

std::string ctype_of(DType dt) {
  switch (dt) {
    case DType::bool_:
      return "bool";
    case DType::int8:
      return "signed char";
    case DType::uint8:
      return "unsigned char";
    case DType::int16:
      return "short";
    case DType::uint16:
      return "unsigned short";
    case DType::int32:
      return "int";
    case DType::uint32:
      return "unsigned int";
    case DType::int64:
      return "long long";
    case DType::uint64:
      return "unsigned long long";
    case DType::float32:
      return "float";
    case DType::float64:
      return "double";
    case DType::complex64:
      return "complex<float>";
    case DType::complex128:
      return "complex<double>";
    case DType::float16:
      return "__half";
  }
  throw ValueError("no C type for dtype " + std::string(dtype_name(dt)));
}

}  // namespace gpupy::kernel
