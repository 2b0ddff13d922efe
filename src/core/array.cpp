// Array handles, buffers and layout queries. Host only.
#include "gpupy/array.h"

#include <algorithm>
#include <numeric>
#include <sstream>

#include "../backend/backend.h"
#include "gpupy/alignment.h"
#include "gpupy/error.h"

namespace gpupy {

Buffer::~Buffer() {
  if (!owner && data) backend_for(device).deallocate(data, nbytes);
}

Strides c_strides(const Shape& shape, size_t itemsize) {
  Strides s(shape.size());
  int64_t step = static_cast<int64_t>(itemsize);
  for (int i = static_cast<int>(shape.size()) - 1; i >= 0; --i) {
    s[i] = step;
    step *= std::max<int64_t>(shape[i], 1);
  }
  return s;
}

int64_t shape_size(const Shape& shape) {
  int64_t n = 1;
  for (int64_t d : shape) n *= d;
  return n;
}

Array::Array(std::shared_ptr<Buffer> buffer, int64_t offset, Shape shape, Strides strides,
             DType dtype, bool readonly)
    : buffer_(std::move(buffer)),
      offset_(offset),
      shape_(std::move(shape)),
      strides_(std::move(strides)),
      dtype_(dtype),
      readonly_(readonly) {}

Array Array::empty(const Shape& shape, DType dtype, Device device) {
  // Checked like NumPy: a product that overflows would otherwise wrap to a small allocation.
  // Zero-length axes are counted as 1 here, as NumPy does, so the strides cannot overflow either.
  uint64_t extent = gpupy::itemsize(dtype);
  for (int64_t d : shape) {
    if (d < 0) throw ValueError("[empty] negative dimensions are not allowed");
    if (__builtin_mul_overflow(extent, static_cast<uint64_t>(std::max<int64_t>(d, 1)), &extent) ||
        extent > static_cast<uint64_t>(INT64_MAX))
      throw ValueError(
          "[empty] array is too big; `arr.size * arr.dtype.itemsize` is larger "
          "than the maximum possible size");
  }
  size_t nbytes = static_cast<size_t>(shape_size(shape)) * gpupy::itemsize(dtype);
  Backend& backend = backend_for(device);
  // Zero-size arrays still get a distinct, valid address, as NumPy's do.
  uint64_t stream_id = 0;
  void* ptr = backend.allocate(std::max<size_t>(nbytes, 1), stream_id);
  auto buffer = std::make_shared<Buffer>(ptr, std::max<size_t>(nbytes, 1), device);
  buffer->stream_id = stream_id;
  return Array(std::move(buffer), 0, shape, c_strides(shape, gpupy::itemsize(dtype)), dtype);
}

Array Array::wrap(void* data, const Shape& shape, const Strides& strides, DType dtype,
                  Device device, std::shared_ptr<void> owner, bool readonly) {
  if (!owner) owner = std::shared_ptr<void>(data, [](void*) {});
  auto buffer = std::make_shared<Buffer>(data, 0, device, std::move(owner));
  return Array(std::move(buffer), 0, shape, strides, dtype, readonly);
}

bool Array::is_c_contiguous() const {
  if (size() == 0) return true;  // as in NumPy, whatever the strides of the other axes
  int64_t expected = static_cast<int64_t>(itemsize());
  for (int i = ndim() - 1; i >= 0; --i) {
    if (shape_[i] != 1 && strides_[i] != expected) return false;
    expected *= shape_[i];
  }
  return true;
}

bool Array::is_f_contiguous() const {
  if (size() == 0) return true;  // as in NumPy, whatever the strides of the other axes
  int64_t expected = static_cast<int64_t>(itemsize());
  for (int i = 0; i < ndim(); ++i) {
    if (shape_[i] != 1 && strides_[i] != expected) return false;
    expected *= shape_[i];
  }
  return true;
}

bool Array::is_dense() const {
  if (is_c_contiguous() || is_f_contiguous()) return true;
  // Sort the non-trivial axes by |stride| and check that they tile memory without gaps.
  std::vector<std::pair<int64_t, int64_t>> axes;
  for (int i = 0; i < ndim(); ++i)
    if (shape_[i] != 1) axes.push_back({std::abs(strides_[i]), shape_[i]});
  std::sort(axes.begin(), axes.end());
  int64_t expected = static_cast<int64_t>(itemsize());
  for (auto [stride, extent] : axes) {
    if (stride != expected) return false;
    expected *= extent;
  }
  return true;
}

Array Array::view(Shape shape, Strides strides, int64_t offset, DType dtype) const {
  return Array(buffer_, offset, std::move(shape), std::move(strides), dtype, readonly_);
}

std::pair<const char*, const char*> Array::byte_extent() const {
  const char* base = data();
  if (size() == 0) return {base, base};
  int64_t lo = 0, hi = 0;
  for (int i = 0; i < ndim(); ++i) {
    int64_t span = (shape_[i] - 1) * strides_[i];
    if (span < 0)
      lo += span;
    else
      hi += span;
  }
  return {base + lo, base + hi + static_cast<int64_t>(itemsize())};
}

std::string alignment_error(const void* data, const Shape& shape, const Strides& strides,
                            DType dtype) {
  auto align = static_cast<int64_t>(itemsize(dtype));
  if (shape_size(shape) == 0) return {};
  bool bad_address = reinterpret_cast<uintptr_t>(data) % align != 0;
  size_t i = 0;
  while (!bad_address && i < shape.size() && (shape[i] <= 1 || strides[i] % align == 0)) ++i;
  if (!bad_address && i == shape.size()) return {};
  std::ostringstream got;
  if (bad_address)
    got << "address " << data;
  else
    got << "a stride of " << strides[i] << " bytes";
  return std::string(dtype_name(dtype)) + " data must be " + std::to_string(align) +
         "-byte aligned, got " + got.str();
}

bool may_share_memory(const Array& a, const Array& b) {
  if (a.device() != b.device()) return false;
  auto [alo, ahi] = a.byte_extent();
  auto [blo, bhi] = b.byte_extent();
  return alo < bhi && blo < ahi;
}

}  // namespace gpupy
