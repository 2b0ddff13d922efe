// Array creation, dtype conversion and moves between devices. Host only.
#include <cmath>
#include <cstring>
#include <vector>

#include "../backend/backend.h"
#include "../backend/cpu/strided.h"
#include "elementwise_rules.h"
#include "gpupy/alignment.h"
#include "gpupy/error.h"
#include "gpupy/ops.h"

namespace gpupy {
namespace {

bool host_memory(Device d) { return d.type != DeviceType::cuda; }

// Copies a strided host view to `dst` in C order with memcpy: unaligned items must not reach the
// typed copy loops, which load them as aligned words.
void gather_items(const Array& src, char* dst) {
  const int64_t item = static_cast<int64_t>(src.itemsize());
  cpu::Layout<1> layout(src.shape(), {src.strides().data()});
  const int64_t stride = layout.inner_stride(0);
  layout.for_each_run({const_cast<char*>(src.data())}, 0, layout.size, [&](auto p, int64_t n) {
    for (int64_t i = 0; i < n; ++i, dst += item) std::memcpy(dst, p[0] + i * stride, item);
  });
}

// The dtype NumPy gives a Python scalar on its own (bool, int64, float64, complex128).
DType own_dtype(const Scalar& s) {
  if (!s.weak()) return s.dtype();
  return s.dtype() == DType::uint64 ? DType::int64 : s.dtype();
}

}  // namespace

Array empty(const Shape& shape, DType dtype, Device device) {
  return Array::empty(shape, dtype, device);
}

Array full(const Shape& shape, const Scalar& value, std::optional<DType> dtype, Device device) {
  DType dt = dtype.value_or(own_dtype(value));
  if (value.weak() && is_integer(dt) && is_integer(value.dtype()) && !value.fits_integer(dt))
    result_type({Operand(Array::empty({}, dt, device)), Operand(value)}, "full");
  Array a = Array::empty(shape, dt, device);
  if (a.size() > 0) backend_for(device).fill(a, value.cast(dt));
  return a;
}

Array zeros(const Shape& shape, DType dtype, Device device) {
  return full(shape, Scalar(int64_t(0)), dtype, device);
}

Array ones(const Shape& shape, DType dtype, Device device) {
  return full(shape, Scalar(int64_t(1)), dtype, device);
}

Array arange(const Scalar& start, const Scalar& stop, const Scalar& step,
             std::optional<DType> dtype, Device device) {
  DType natural = result_type({Operand(start), Operand(stop), Operand(step)}, "arange");
  // NumPy promotes typed arguments (NumPy scalars, 0-d arrays) with int64: an int8 or uint8 bound
  // gives an int64 range, float32 a float64 one, uint64 float64.
  if (!start.weak() || !stop.weak() || !step.weak()) natural = promote_types(natural, DType::int64);
  if (is_bool(natural)) natural = DType::int64;
  if (is_complex(natural)) throw TypeError("[arange] complex ranges are not supported");
  // A real range of a complex dtype: NumPy fills it from the real parts
  if (dtype && is_complex(*dtype))
    return astype(arange(start, stop, step, real_dtype(*dtype), device), *dtype);
  int64_t length;
  if (is_integer(natural)) {
    int64_t a = start.to_int64(), b = stop.to_int64(), s = step.to_int64();
    if (s == 0) throw ValueError("[arange] Maximum allowed size exceeded (step is zero)");
    length = s > 0 ? (b > a ? (b - a + s - 1) / s : 0) : (a > b ? (a - b - s - 1) / (-s) : 0);
  } else {
    double a = start.to_double(), b = stop.to_double(), s = step.to_double();
    if (s == 0 || !std::isfinite(a) || !std::isfinite(b))
      throw ValueError("[arange] Maximum allowed size exceeded");
    length = std::max<int64_t>(0, static_cast<int64_t>(std::ceil((b - a) / s)));
  }
  DType dt = dtype.value_or(natural);
  // NumPy's float16 fill computes start + i * delta in float32 and rounds each element once
  const DType fill = dt == DType::float16 ? DType::float32 : dt;
  Array out = Array::empty({length}, fill, device);
  if (length == 0) return dt == fill ? out : astype(out, dt);
  const bool floating = is_floating(dt);
  const double first = start.to_double(), second = first + step.to_double();
  Scalar delta = step.cast(dt);
  if (floating)  // As NumPy's fill: the step is the difference of the first two elements in dt
    delta = dt == DType::float64
                ? Scalar(second - first)
                : Scalar(Scalar(second).cast(dt).to_double() - Scalar(first).cast(dt).to_double());
  backend_for(device).iota(out, start.cast(dt).cast(fill), delta.cast(fill));
  if (floating && length > 1)  // the second element is start + step, rounded once
    backend_for(device).fill(out.view({1}, {out.strides()[0]}, out.offset() + out.strides()[0]),
                             Scalar(second).cast(dt).cast(fill));
  return dt == fill ? out : astype(out, dt);
}

Array linspace(const Scalar& start, const Scalar& stop, int64_t num, bool endpoint,
               std::optional<DType> dtype, Device device) {
  if (num < 0)
    throw ValueError("[linspace] Number of samples, " + std::to_string(num) +
                     ", must be non-negative.");
  bool complex_range = is_complex(start.dtype()) || is_complex(stop.dtype());
  DType work = complex_range ? DType::complex128 : DType::float64;
  DType dt = dtype.value_or(work);
  int64_t div = endpoint ? num - 1 : num;
  Array y = Array::empty({num}, work, device);
  if (num == 0) return astype(y, dt);
  Backend& backend = backend_for(device);
  backend.iota(y, Scalar(int64_t(0)).cast(work), Scalar(int64_t(1)).cast(work));
  // As NumPy: y = arange(num) * step + start, then the end point set exactly.
  complex128 a = start.to_complex(), b = stop.to_complex();
  Scalar first = complex_range ? Scalar(a) : Scalar(a.re);
  if (div > 0) {
    complex128 delta((b.re - a.re) / double(div), (b.im - a.im) / double(div));
    Scalar step = complex_range ? Scalar(delta) : Scalar(delta.re);
    multiply(y, step, &y);
  } else {
    multiply(y, complex_range ? Scalar(complex128(0, 0)) : Scalar(0.0), &y);
  }
  add(y, first, &y);
  if (endpoint && num > 1)
    backend.fill(y.view({1}, {0}, y.offset() + (num - 1) * int64_t(itemsize(work))),
                 (complex_range ? Scalar(b) : Scalar(b.re)));
  if (is_integer(dt)) y = floor(y);
  return dt == work ? y : astype(y, dt);
}

Array eye(int64_t n, int64_t m, int64_t k, DType dtype, Device device) {
  if (n < 0 || m < 0) throw ValueError("[eye] negative dimensions are not allowed");
  Array a = zeros({n, m}, dtype, device);
  int64_t rows = k >= 0 ? std::min(n, m - k) : std::min(n + k, m);
  if (rows <= 0) return a;
  int64_t item = static_cast<int64_t>(itemsize(dtype));
  int64_t offset = k >= 0 ? k * item : -k * m * item;
  backend_for(device).fill(a.view({rows}, {(m + 1) * item}, offset),
                           Scalar(int64_t(1)).cast(dtype));
  return a;
}

Array from_host(const void* data, const Shape& shape, const Strides& strides, DType dtype,
                Device device) {
  Array out = Array::empty(shape, dtype, device);
  if (out.size() == 0) return out;
  Array host = Array::wrap(const_cast<void*>(data), shape, strides, dtype, Device{}, nullptr, true);
  if (host.is_c_contiguous()) {
    backend_for(device).copy_from_host(out.data(), host.data(), out.nbytes());
  } else if (!alignment_error(data, shape, strides, dtype).empty()) {
    Array staged = Array::empty(shape, dtype, Device{});
    gather_items(host, staged.data());
    backend_for(device).copy_from_host(out.data(), staged.data(), out.nbytes());
  } else if (host_memory(device)) {
    backend_for(Device{}).copy(host, out);
  } else {
    Array staged = Array::empty(shape, dtype, Device{});
    backend_for(Device{}).copy(host, staged);
    backend_for(device).copy_from_host(out.data(), staged.data(), out.nbytes());
  }
  return out;
}

void to_host(const Array& a, void* dst) {
  if (a.size() == 0) return;
  Array src = a.is_c_contiguous() ? a : copy(a);
  backend_for(a.device()).copy_to_host(dst, src.data(), src.nbytes());
}

Scalar item(const Array& a) {
  if (a.size() != 1)
    throw ValueError("[item] can only convert an array of size 1 to a Python scalar");
  alignas(16) unsigned char bytes[16];
  backend_for(a.device()).copy_to_host(bytes, a.data(), a.itemsize());
  return Scalar::from_memory(a.dtype(), bytes);
}

Array astype(const Array& a, DType dtype, bool copy_always) {
  if (!copy_always && a.dtype() == dtype) return a;
  Array out = Array::empty(a.shape(), dtype, a.device());
  if (a.size() > 0) backend_for(a.device()).copy(a, out);
  return out;
}

Array copy(const Array& a) { return astype(a, a.dtype(), true); }

Array to_device(const Array& a, Device device) {
  if (a.device() == device) return a;
  Array src = a.is_c_contiguous() ? a : copy(a);
  Array out = Array::empty(a.shape(), a.dtype(), device);
  size_t n = static_cast<size_t>(a.nbytes());
  if (n == 0) return out;
  if (host_memory(device)) {
    backend_for(a.device()).copy_to_host(out.data(), src.data(), n);
  } else if (host_memory(a.device())) {
    backend_for(device).copy_from_host(out.data(), src.data(), n);
  } else {
    std::vector<unsigned char> staging(n);
    backend_for(a.device()).copy_to_host(staging.data(), src.data(), n);
    backend_for(device).copy_from_host(out.data(), staging.data(), n);
  }
  return out;
}

}  // namespace gpupy
