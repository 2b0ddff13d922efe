// The n-dimensional array handle: a shared buffer plus a strided view of it. Host only.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "gpupy/device.h"
#include "gpupy/dtype.h"
#include "gpupy/small_vector.h"

namespace gpupy {

/// Dimensions stored inline in every handle; more than this go to the heap.
inline constexpr size_t kInlineDims = 6;
using Shape = SmallVector<int64_t, kInlineDims>;
/// Strides are in bytes, as in NumPy, and may be negative or zero.
using Strides = SmallVector<int64_t, kInlineDims>;

/// A block of memory on one device. Freed through that device's backend when the last view dies,
/// unless `owner` is set: then it belongs to someone else (a NumPy array) that `owner` keeps alive.
struct Buffer {
  void* data = nullptr;
  size_t nbytes = 0;
  Device device;
  std::shared_ptr<void> owner;
  /// Id of the stream the memory was allocated on (cuda pool memory; 0 elsewhere), so that work
  /// on another stream is noticed with one comparison (see CudaBackend::stream_for).
  uint64_t stream_id = 0;

  Buffer(void* data, size_t nbytes, Device device, std::shared_ptr<void> owner = nullptr)
      : data(data), nbytes(nbytes), device(device), owner(std::move(owner)) {}
  ~Buffer();
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;
};

/// C-order strides (bytes) for a shape.
Strides c_strides(const Shape& shape, size_t itemsize);
/// Number of elements of a shape.
int64_t shape_size(const Shape& shape);

/// A view: buffer + byte offset + shape + strides + dtype. Copying an Array copies the handle.
class Array {
 public:
  Array() = default;
  Array(std::shared_ptr<Buffer> buffer, int64_t offset, Shape shape, Strides strides, DType dtype,
        bool readonly = false);

  /// New uninitialised C-contiguous array.
  static Array empty(const Shape& shape, DType dtype, Device device);
  /// Wraps memory owned elsewhere without copying; `owner` keeps it alive.
  static Array wrap(void* data, const Shape& shape, const Strides& strides, DType dtype,
                    Device device, std::shared_ptr<void> owner, bool readonly);

  bool valid() const { return buffer_ != nullptr; }
  const Shape& shape() const { return shape_; }
  const Strides& strides() const { return strides_; }
  int ndim() const { return static_cast<int>(shape_.size()); }
  int64_t size() const { return shape_size(shape_); }
  DType dtype() const { return dtype_; }
  size_t itemsize() const { return gpupy::itemsize(dtype_); }
  int64_t nbytes() const { return size() * static_cast<int64_t>(itemsize()); }
  Device device() const { return buffer_->device; }
  int64_t offset() const { return offset_; }
  bool readonly() const { return readonly_; }
  const std::shared_ptr<Buffer>& buffer() const { return buffer_; }
  /// Address of element [0, ..., 0].
  char* data() const { return static_cast<char*>(buffer_->data) + offset_; }

  bool is_c_contiguous() const;
  bool is_f_contiguous() const;
  /// Elements cover a dense block of memory in some order (no gaps, no overlap).
  bool is_dense() const;

  /// Another view of the same buffer.
  Array view(Shape shape, Strides strides, int64_t offset, DType dtype) const;
  Array view(Shape shape, Strides strides, int64_t offset) const {
    return view(std::move(shape), std::move(strides), offset, dtype_);
  }
  /// Lowest and one-past-highest byte addresses the view touches (for overlap checks).
  std::pair<const char*, const char*> byte_extent() const;

 private:
  std::shared_ptr<Buffer> buffer_;
  int64_t offset_ = 0;
  Shape shape_;
  Strides strides_;
  DType dtype_ = DType::float64;
  bool readonly_ = false;
};

/// True when the two views may touch the same bytes.
bool may_share_memory(const Array& a, const Array& b);

}  // namespace gpupy
