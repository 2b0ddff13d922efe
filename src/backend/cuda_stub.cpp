// Stands in for the cuda backend in builds without CUDA (GPUPY_CUDA=OFF or no nvcc): nothing is
// available, and the stream/event API of cuda_api.h throws. Host only.
#include <atomic>

#include "cuda_api.h"
#include "cuda_libs.h"
#include "gpupy/error.h"
#include "registry.h"

namespace gpupy {

namespace {
[[noreturn]] void not_built() {
  throw NotImplementedError(
      "[cuda] gpupy was built without CUDA support (GPUPY_CUDA=OFF or no nvcc)");
}
}  // namespace

Backend& cuda_backend(int /*index*/) { not_built(); }

namespace cuda {
bool is_built() { return false; }
bool is_available(std::string* reason) {
  if (reason) *reason = "gpupy was built without CUDA support";
  return false;
}
int device_count() { return 0; }

struct CudaStream::Impl {};
struct CudaEvent::Impl {};

CudaStream CudaStream::create(int, bool) { not_built(); }
CudaStream CudaStream::current(int) { not_built(); }
uintptr_t CudaStream::handle() const { not_built(); }
int CudaStream::device() const { not_built(); }
void CudaStream::synchronize() const { not_built(); }
bool CudaStream::query() const { not_built(); }
bool CudaStream::is_capturing() const { not_built(); }
void CudaStream::wait(const CudaEvent&) const { not_built(); }

CudaEvent CudaEvent::create(bool, int) { not_built(); }
void CudaEvent::record(const CudaStream&) const { not_built(); }
void CudaEvent::synchronize() const { not_built(); }
bool CudaEvent::query() const { not_built(); }
float CudaEvent::elapsed_time(const CudaEvent&) const { not_built(); }

CudaStream set_current_stream(const CudaStream&) { not_built(); }
uintptr_t current_stream_handle(int) { not_built(); }
void stream_wait_current(int, uintptr_t) { not_built(); }
void stream_wait_stream(int, uintptr_t, uintptr_t) { not_built(); }
bool stream_is_capturing(int, uintptr_t) { return false; }  // no cuda streams exist
void record_stream(const Buffer&, uintptr_t) {}             // no cuda arrays exist in this build
DeviceProperties device_properties(int) { not_built(); }
PointerLocation pointer_location(const void*) { return {}; }
void set_memory_limit(int, size_t) { not_built(); }
int runtime_version() { return 0; }
MemoryInfo memory_info(int) { not_built(); }
void* alloc_pinned(size_t) { not_built(); }
void free_pinned(void*) {}
void copy_to_host_async(void*, const Array&, const CudaStream&) { not_built(); }
void nvtx_push(const char*, uint32_t) {}
void nvtx_pop() {}
size_t memory_limit(int) { not_built(); }

Array fft(const Array&, FftKind, int64_t, const char*) { not_built(); }
std::pair<Array, Array> cholesky(const Array&, bool) { not_built(); }
std::tuple<Array, Array, Array> lu_factor(const Array&) { not_built(); }
std::pair<Array, Array> solve(const Array&, const Array&) { not_built(); }
std::tuple<Array, Array, Array> eigh(const Array&, bool) { not_built(); }
std::tuple<Array, Array, Array> qr(const Array&, int) { not_built(); }
std::tuple<Array, Array, Array, Array> svd(const Array&, bool, bool) { not_built(); }

// Kept so that scripts can set the preference unconditionally.
namespace {
std::atomic<bool> g_allow_tf32{false};
}
void set_allow_tf32(bool allow) { g_allow_tf32.store(allow); }
bool allow_tf32() { return g_allow_tf32.load(); }
}  // namespace cuda

}  // namespace gpupy
