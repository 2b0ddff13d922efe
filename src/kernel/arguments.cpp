// Packs checked kernel arguments: layout, scalar conversions with range checks, and array-view
// records (kernel layer spec 2.3). Host only.
#include "gpupy/kernel/arguments.h"

#include <cstring>

#include "gpupy/error.h"
#include "gpupy/float16.h"

namespace gpupy::kernel {
namespace {

std::string to_string(__int128 v) {
  if (v == 0) return "0";
  bool neg = v < 0;
  unsigned __int128 u = neg ? -static_cast<unsigned __int128>(v) : v;
  std::string s;
  for (; u; u /= 10) s.insert(s.begin(), char('0' + int(u % 10)));
  return neg ? "-" + s : s;
}

template <class T>
void put(void* dst, T v) {
  std::memcpy(dst, &v, sizeof v);
}

}  // namespace

ArgumentLayout::ArgumentLayout(const CudaSignature& sig) {
  for (const auto& p : sig.params) {
    offsets.push_back(size);
    size += (p.packed_size() + 7) / 8 * 8;
  }
}

void store_integer(DType dt, __int128 v, const std::string& what, void* dst) {
  if (is_integer(dt)) {
    IntInfo info = iinfo(dt);
    if (v < info.min || v > static_cast<__int128>(info.max)) {
      throw OverflowError(what + ": " + to_string(v) + " is out of range [" +
                          std::to_string(info.min) + ", " + std::to_string(info.max) + "]");
    }
  }
  switch (dt) {
    case DType::bool_:
      return put(dst, v != 0);
    case DType::int8:
      return put(dst, static_cast<int8_t>(v));
    case DType::int16:
      return put(dst, static_cast<int16_t>(v));
    case DType::int32:
      return put(dst, static_cast<int32_t>(v));
    case DType::int64:
      return put(dst, static_cast<int64_t>(v));
    case DType::uint8:
      return put(dst, static_cast<uint8_t>(v));
    case DType::uint16:
      return put(dst, static_cast<uint16_t>(v));
    case DType::uint32:
      return put(dst, static_cast<uint32_t>(v));
    case DType::uint64:
      return put(dst, static_cast<uint64_t>(v));
    default:
      return store_real(dt, static_cast<double>(v), dst);
  }
}

void store_real(DType dt, double v, void* dst) {
  switch (dt) {
    case DType::float32:
      return put(dst, static_cast<float>(v));
    case DType::float64:
      return put(dst, v);
    case DType::complex64:
      return put(dst, complex64(static_cast<float>(v), 0.0f));
    case DType::complex128:
      return put(dst, complex128(v, 0.0));
    case DType::float16:
      return put(dst, float16(v));
    default:
      throw TypeError("[CudaKernel] a real number cannot be stored as an integer");
  }
}

void store_complex(DType dt, complex128 v, void* dst) {
  if (dt == DType::complex64) {
    return put(dst, complex64(static_cast<float>(v.real()), static_cast<float>(v.imag())));
  }
  put(dst, v);
}

bool c_contiguous(const ArrayArg& a) {
  if (!a.strides) return true;
  int64_t expect = static_cast<int64_t>(itemsize(a.dtype));
  for (int k = a.ndim - 1; k >= 0; --k) {
    if (a.shape[k] == 0) return true;
    if (a.shape[k] != 1 && a.strides[k] != expect) return false;
    expect *= a.shape[k];
  }
  return true;
}

void pack_view(const CudaParameter& p, const ArrayArg& a, const std::string& what, void* dst) {
  int n = p.view_ndim;
  if (a.ndim != n) {
    throw TypeError(what + " must be a " + std::to_string(n) + "D array, got " +
                    std::to_string(a.ndim) + "D");
  }
  if (p.contiguous && !c_contiguous(a)) {
    throw TypeError(what + " must be C-contiguous: a non-contiguous view would be read with " +
                    "wrong strides; use gpupy.ascontiguousarray or cunumpy.as_device_array");
  }
  auto* out = static_cast<int64_t*>(dst);
  put(out, reinterpret_cast<uint64_t>(a.data));
  int64_t item = static_cast<int64_t>(itemsize(a.dtype));
  int64_t stride = item;
  for (int k = n - 1; k >= 0; --k) {
    out[1 + k] = a.shape[k];
    if (p.contiguous) continue;
    int64_t s = a.strides ? a.strides[k] : stride;
    if (s % item != 0) {
      throw TypeError(what + " strides are not multiples of the element size " +
                      std::to_string(item));
    }
    out[1 + n + k] = s / item;
    stride *= a.shape[k];
  }
}

}  // namespace gpupy::kernel
