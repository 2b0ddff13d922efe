// Streams, events and the per-device, per-thread current stream. Host only.
#include "stream.h"

#include <atomic>
#include <mutex>
#include <vector>

#include "../registry.h"
#include "cuda_backend.h"
#include "cuda_check.h"
#include "gpupy/device.h"
#include "gpupy/error.h"

namespace gpupy::cuda {
namespace {

// One non-blocking stream per device, created on first use and kept for the process, so queued
// work never serializes with other libraries' legacy-default-stream work.
std::atomic<cudaStream_t> g_default_raw[kMaxDevices];
uint64_t g_default_id[kMaxDevices];  // written before g_default_raw is published
CudaStream g_default[kMaxDevices];
std::atomic<uint64_t> g_next_stream_id{1};
std::mutex g_default_mutex;

// This thread's choice per device; an invalid CudaStream means "the default".
thread_local CudaStream t_current[kMaxDevices];
thread_local cudaStream_t t_current_raw[kMaxDevices];
thread_local uint64_t t_current_id[kMaxDevices];

const CudaStream& default_stream(int device) {
  if (g_default_raw[device].load(std::memory_order_acquire)) return g_default[device];
  std::lock_guard<std::mutex> lock(g_default_mutex);
  if (!g_default[device].valid()) {
    g_default[device] = CudaStream::create(device, true);
    auto* impl = g_default[device].impl().get();
    impl->owned = false;
    g_default_id[device] = impl->id;
    g_default_raw[device].store(impl->stream, std::memory_order_release);
  }
  return g_default[device];
}

void check_index(int device) {
  if (device < 0 || device >= kMaxDevices)
    throw ValueError("[cuda] device index " + std::to_string(device) + " out of range");
}

}  // namespace

CudaStream::Impl::~Impl() {
  if (!owned || !stream) return;
  // The memory pool keys blocks by stream and orders reuse with events on it: its blocks go to
  // the default stream once this one's work is done. No throw in a destructor (at exit the
  // runtime may be gone, and the memory with it).
  try {
    if (cudaStreamSynchronize(stream) == cudaSuccess) {
      cudaStream_t successor = default_stream(device).impl()->stream;
      backend_of(device).pool().retire_stream(stream, successor);
    }
  } catch (...) {
  }
  cudaStreamDestroy(stream);
}
CudaEvent::Impl::~Impl() {
  if (event) cudaEventDestroy(event);
}

DeviceGuard::DeviceGuard(int device) {
  GPUPY_CUDA_CHECK(cudaGetDevice(&previous_));
  if (previous_ != device)
    GPUPY_CUDA_CHECK(cudaSetDevice(device));
  else
    previous_ = -1;
}
DeviceGuard::~DeviceGuard() {
  if (previous_ >= 0) cudaSetDevice(previous_);
}

CudaStream CudaStream::create(int device, bool non_blocking) {
  require_device(device);
  DeviceGuard guard(device);
  auto impl = std::make_shared<Impl>();
  impl->device = device;
  GPUPY_CUDA_CHECK(cudaStreamCreateWithFlags(
      &impl->stream, non_blocking ? cudaStreamNonBlocking : cudaStreamDefault));
  impl->owned = true;
  impl->id = g_next_stream_id.fetch_add(1, std::memory_order_relaxed);
  return CudaStream(std::move(impl));
}

CudaStream CudaStream::current(int device) {
  check_index(device);
  if (t_current[device].valid()) return t_current[device];
  return default_stream(device);
}

cudaStream_t current_raw_stream(int device) {
  if (cudaStream_t s = t_current_raw[device]) return s;
  if (cudaStream_t s = g_default_raw[device].load(std::memory_order_acquire)) return s;
  return default_stream(device).impl()->stream;
}

StreamRef current_stream_ref(int device) {
  if (cudaStream_t s = t_current_raw[device]) return {s, t_current_id[device]};
  if (cudaStream_t s = g_default_raw[device].load(std::memory_order_acquire))
    return {s, g_default_id[device]};
  const CudaStream::Impl& impl = *default_stream(device).impl();
  return {impl.stream, impl.id};
}

uintptr_t current_stream_handle(int device) {
  check_index(device);
  return reinterpret_cast<uintptr_t>(current_raw_stream(device));
}

namespace {

// A stream as the interop protocols name it: 1 the legacy default stream, 2 the per-thread one.
cudaStream_t protocol_stream(uintptr_t handle) {
  return handle == 1   ? cudaStreamLegacy
         : handle == 2 ? cudaStreamPerThread
                       : reinterpret_cast<cudaStream_t>(handle);
}

// Makes work queued later on `consumer` wait for the work queued so far on `producer`.
void order_streams(int device, cudaStream_t consumer, cudaStream_t producer) {
  if (consumer == producer) return;  // same stream: already ordered
  DeviceGuard guard(device);
  cudaEvent_t event = nullptr;
  GPUPY_CUDA_CHECK(cudaEventCreateWithFlags(&event, cudaEventDisableTiming));
  cudaError_t status = cudaEventRecord(event, producer);
  if (status == cudaSuccess) status = cudaStreamWaitEvent(consumer, event, 0);
  cudaEventDestroy(event);  // CUDA releases it once the wait has been satisfied
  GPUPY_CUDA_CHECK(status);
}

}  // namespace

void stream_wait_current(int device, uintptr_t consumer) {
  check_index(device);
  order_streams(device, protocol_stream(consumer), current_raw_stream(device));
}

void stream_wait_stream(int device, uintptr_t consumer, uintptr_t producer) {
  check_index(device);
  order_streams(device, protocol_stream(consumer), protocol_stream(producer));
}

bool stream_is_capturing(int device, uintptr_t stream) {
  check_index(device);
  DeviceGuard guard(device);
  cudaStreamCaptureStatus status = cudaStreamCaptureStatusNone;
  cudaError_t err = cudaStreamIsCapturing(protocol_stream(stream), &status);
  // The legacy stream while a blocking stream captures: unusable until the capture ends, so it
  // counts as capturing (a sync on it would fail). The error is not sticky; clear it.
  if (err == cudaErrorStreamCaptureImplicit) {
    cudaGetLastError();
    return true;
  }
  GPUPY_CUDA_CHECK(err);
  // An invalidated capture still refuses syncs until cudaStreamEndCapture.
  return status != cudaStreamCaptureStatusNone;
}

CudaStream set_current_stream(const CudaStream& stream) {
  if (!stream.valid()) throw ValueError("[cuda] set_current_stream: invalid stream");
  int device = stream.device();
  CudaStream previous = CudaStream::current(device);
  t_current[device] = stream;
  t_current_raw[device] = stream.impl()->stream;
  t_current_id[device] = stream.impl()->id;
  return previous;
}

uintptr_t CudaStream::handle() const { return reinterpret_cast<uintptr_t>(impl_->stream); }
int CudaStream::device() const { return impl_->device; }

void CudaStream::synchronize() const { GPUPY_CUDA_CHECK(cudaStreamSynchronize(impl_->stream)); }

bool CudaStream::query() const {
  cudaError_t status = cudaStreamQuery(impl_->stream);
  if (status == cudaErrorNotReady) return false;
  GPUPY_CUDA_CHECK(status);
  return true;
}

bool CudaStream::is_capturing() const {
  return stream_is_capturing(impl_->device, reinterpret_cast<uintptr_t>(impl_->stream));
}

void CudaStream::wait(const CudaEvent& event) const {
  GPUPY_CUDA_CHECK(cudaStreamWaitEvent(impl_->stream, event.impl()->event, 0));
}

CudaEvent CudaEvent::create(bool timing, int device) {
  // An event belongs to the device current at its creation, and cudaEventRecord refuses a
  // stream of another device: the CUDA runtime's current device is not gpupy's default one.
  if (device < 0) {
    const Device d = default_device();
    device = d.type == DeviceType::cuda ? d.index : 0;
  }
  require_device(device);
  DeviceGuard guard(device);
  auto impl = std::make_shared<Impl>();
  impl->device = device;
  GPUPY_CUDA_CHECK(
      cudaEventCreateWithFlags(&impl->event, timing ? cudaEventDefault : cudaEventDisableTiming));
  return CudaEvent(std::move(impl));
}

void CudaEvent::record(const CudaStream& stream) const {
  DeviceGuard guard(stream.device());
  GPUPY_CUDA_CHECK(cudaEventRecord(impl_->event, stream.impl()->stream));
}

void CudaEvent::synchronize() const { GPUPY_CUDA_CHECK(cudaEventSynchronize(impl_->event)); }

bool CudaEvent::query() const {
  cudaError_t status = cudaEventQuery(impl_->event);
  if (status == cudaErrorNotReady) return false;
  GPUPY_CUDA_CHECK(status);
  return true;
}

float CudaEvent::elapsed_time(const CudaEvent& end) const {
  float ms = 0;
  GPUPY_CUDA_CHECK(cudaEventElapsedTime(&ms, impl_->event, end.impl()->event));
  return ms;
}

}  // namespace gpupy::cuda
