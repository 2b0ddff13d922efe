// The CUDA runtime features gpupy offers beyond the Backend interface: streams, events, device
// properties, the pool limit and TF32. src/backend/cuda/ implements them in CUDA builds and
// cuda_stub.cpp otherwise (where they throw), so the bindings need no #ifdef. Host only.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

namespace gpupy {
struct Buffer;
class Array;
}  // namespace gpupy

namespace gpupy::cuda {

class CudaEvent;

/// A CUDA stream of one device; copies of the handle share the stream.
class CudaStream {
 public:
  struct Impl;
  CudaStream() = default;
  /// A new stream on `device`, by default not synchronizing with the legacy default stream.
  static CudaStream create(int device, bool non_blocking = true);
  /// The stream work on `device` is queued on by this thread.
  static CudaStream current(int device);

  bool valid() const { return impl_ != nullptr; }
  /// The cudaStream_t value as an integer (what __cuda_array_interface__ reports).
  uintptr_t handle() const;
  int device() const;
  /// Waits until all work queued on the stream is done.
  void synchronize() const;
  /// True when all work queued on the stream is done.
  bool query() const;
  /// True while the stream captures a CUDA graph (its work is recorded, not run).
  bool is_capturing() const;
  /// Makes work queued later on this stream wait for `event`.
  void wait(const CudaEvent& event) const;
  const std::shared_ptr<Impl>& impl() const { return impl_; }

 private:
  explicit CudaStream(std::shared_ptr<Impl> impl) : impl_(std::move(impl)) {}
  std::shared_ptr<Impl> impl_;
};

/// A CUDA event (for ordering streams and timing).
class CudaEvent {
 public:
  struct Impl;
  CudaEvent() = default;
  /// A new event on cuda device `device` (-1: the default device if it is a cuda one, else 0);
  /// `timing` enables elapsed_time. Record it only on streams of the same device.
  static CudaEvent create(bool timing = true, int device = -1);

  bool valid() const { return impl_ != nullptr; }
  /// Captures the work queued so far on `stream`.
  void record(const CudaStream& stream) const;
  /// Waits until the captured work is done.
  void synchronize() const;
  /// True when the captured work is done.
  bool query() const;
  /// Milliseconds between this event and `end`, both recorded and completed.
  float elapsed_time(const CudaEvent& end) const;
  const std::shared_ptr<Impl>& impl() const { return impl_; }

 private:
  explicit CudaEvent(std::shared_ptr<Impl> impl) : impl_(std::move(impl)) {}
  std::shared_ptr<Impl> impl_;
};

/// Makes `stream` current for its device on this thread; returns the stream it replaces.
CudaStream set_current_stream(const CudaStream& stream);
/// RAII (C++'s `with stream:`): makes `stream` current for its device on this thread until
/// destroyed.
class StreamScope {
 public:
  explicit StreamScope(const CudaStream& stream) : previous_(set_current_stream(stream)) {}
  ~StreamScope() { set_current_stream(previous_); }
  StreamScope(const StreamScope&) = delete;
  StreamScope& operator=(const StreamScope&) = delete;

 private:
  CudaStream previous_;
};
/// The current stream's cudaStream_t as an integer, for interop protocols.
uintptr_t current_stream_handle(int device);
/// Makes `consumer` (1: legacy default stream, 2: per-thread default stream, else a cudaStream_t)
/// wait for the work queued so far on this thread's current stream of `device` (DLPack export).
void stream_wait_current(int device, uintptr_t consumer);
/// Makes `consumer` wait for the work queued so far on `producer` (both numbered as in
/// stream_wait_current): a CudaKernel launch on a user stream ordered with foreign arrays.
void stream_wait_stream(int device, uintptr_t consumer, uintptr_t producer);
/// True while `stream` (numbered as in stream_wait_current) captures a CUDA graph, and for the
/// legacy default stream while a blocking stream captures (CUDA refuses work on it then).
bool stream_is_capturing(int device, uintptr_t stream);

/// Where CUDA says a pointer gpupy did not allocate (a __cuda_array_interface__ or DLPack one)
/// points: `device` is the cuda device of device memory (and of pinned host memory).
struct PointerLocation {
  enum Kind { unknown, not_cuda, pinned_host, on_device, managed } kind = unknown;
  int device = -1;
};
/// unknown when CUDA is not built or not usable (no foreign device memory can exist then).
PointerLocation pointer_location(const void* ptr);

/// Keeps `buffer` from reuse, once its arrays are freed, until the work queued so far on `stream`
/// (numbered as in stream_wait_current; 0 is the legacy default stream too) is done: for memory
/// used on a stream gpupy does not queue work on itself (user kernels, DLPack consumers, other
/// libraries). Ignores buffers not on a cuda device and memory gpupy did not allocate.
void record_stream(const Buffer& buffer, uintptr_t stream);

/// What cudaGetDeviceProperties reports, the part users ask for.
struct DeviceProperties {
  std::string name;
  int major = 0, minor = 0;
  size_t total_memory = 0;
  int multiprocessor_count = 0;
  int max_threads_per_block = 0;
  size_t max_shared_memory_per_block = 0;
  int warp_size = 0;
};
DeviceProperties device_properties(int device);

/// Caps the bytes the memory pool of `device` holds (0: no cap).
void set_memory_limit(int device, size_t bytes);
size_t memory_limit(int device);

/// The CUDA runtime version gpupy was built with (1000 * major + 10 * minor); 0 without CUDA.
int runtime_version();

/// Free and total bytes of `device`'s memory as the driver counts them (all processes).
struct MemoryInfo {
  size_t free = 0, total = 0;
};
MemoryInfo memory_info(int device);

/// `nbytes` of page-locked host memory (cudaHostAlloc), released with free_pinned; MemoryError
/// when none is left, CudaError when CUDA refuses. Copies between it and device memory can run
/// asynchronously.
void* alloc_pinned(size_t nbytes);
void free_pinned(void* ptr);
/// Queues a copy of the C-contiguous cuda array `src` into host memory `dst` on `stream` and
/// returns at once (pinned `dst`: the copy overlaps later work). `src`'s memory is kept from
/// reuse until the copy is done; `dst` must stay alive until then.
void copy_to_host_async(void* dst, const Array& src, const CudaStream& stream);

/// Opens an NVTX range on this thread (`argb` its color, 0 for none) and closes the innermost
/// one. Nearly free unless a profiler (Nsight Systems) injects NVTX; no-ops without CUDA.
void nvtx_push(const char* name, uint32_t argb);
void nvtx_pop();

/// Whether float32 matmul may use TF32 tensor cores (default false: strict FP32).
void set_allow_tf32(bool allow);
bool allow_tf32();

}  // namespace gpupy::cuda
