// CUDA availability, device count and properties, and the per-device backend singletons.
// Replaces src/backend/cuda_stub.cpp in CUDA builds. Host only.
#include <atomic>
#include <cstdlib>
#include <mutex>
#include <string>

#include "../registry.h"
#include "cuda_backend.h"
#include "cuda_check.h"
#include "gpupy/error.h"
#include "stream.h"

namespace gpupy {
namespace cuda {
namespace {

struct Availability {
  int count = 0;
  std::string reason;
};

// cudaGetDeviceCount once: it initializes the runtime and loads the driver, which is slow and
// whose failure (no driver, no device) is permanent for the process.
const Availability& availability() {
  static const Availability result = [] {
    Availability a;
    const char* visible = std::getenv("CUDA_VISIBLE_DEVICES");
    if (visible && *visible == '\0') {
      a.reason = "CUDA_VISIBLE_DEVICES is set to an empty string";
      return a;
    }
    int count = 0;
    cudaError_t status = cudaGetDeviceCount(&count);
    if (status != cudaSuccess) {
      cudaGetLastError();
      std::string name = cudaGetErrorName(status);
      if (status == cudaErrorInsufficientDriver)
        a.reason = "no NVIDIA driver, or one too old for this CUDA runtime (" + name + ")";
      else if (status == cudaErrorNoDevice)
        a.reason = "no CUDA-capable device is visible (" + name + ")";
      else if (status == cudaErrorInitializationError)
        a.reason = "the CUDA driver failed to initialize (" + name + ")";
      else
        a.reason = "CUDA is unusable: " + name + ": " + cudaGetErrorString(status);
      return a;
    }
    if (count == 0) a.reason = "no CUDA-capable device is visible";
    a.count = count < kMaxDevices ? count : kMaxDevices;
    return a;
  }();
  return result;
}

std::atomic<bool> g_allow_tf32{false};

}  // namespace

bool is_built() { return true; }

bool is_available(std::string* reason) {
  const Availability& a = availability();
  if (reason) *reason = a.reason;
  return a.count > 0;
}

int device_count() { return availability().count; }

void require_device(int device) {
  const Availability& a = availability();
  if (a.count == 0) throw CudaError("[cuda] no usable CUDA device: " + a.reason);
  if (device < 0 || device >= a.count)
    throw ValueError("[cuda] device index " + std::to_string(device) + " out of range; " +
                     std::to_string(a.count) + " device(s) visible");
}

DeviceProperties device_properties(int device) {
  require_device(device);
  cudaDeviceProp p{};
  GPUPY_CUDA_CHECK(cudaGetDeviceProperties(&p, device));
  DeviceProperties out;
  out.name = p.name;
  out.major = p.major;
  out.minor = p.minor;
  out.total_memory = p.totalGlobalMem;
  out.multiprocessor_count = p.multiProcessorCount;
  out.max_threads_per_block = p.maxThreadsPerBlock;
  out.max_shared_memory_per_block = p.sharedMemPerBlock;
  out.warp_size = p.warpSize;
  return out;
}

int runtime_version() {
  int version = 0;
  if (cudaRuntimeGetVersion(&version) != cudaSuccess) cudaGetLastError();
  return version;
}

MemoryInfo memory_info(int device) {
  require_device(device);
  DeviceGuard guard(device);
  MemoryInfo info;
  GPUPY_CUDA_CHECK(cudaMemGetInfo(&info.free, &info.total));
  return info;
}

PointerLocation pointer_location(const void* ptr) {
  if (availability().count == 0) return {};
  cudaPointerAttributes attr{};
  cudaError_t status = cudaPointerGetAttributes(&attr, ptr);
  if (status == cudaErrorInvalidValue) {  // what drivers before CUDA 11 said of host pointers
    cudaGetLastError();
    return {PointerLocation::not_cuda, -1};
  }
  GPUPY_CUDA_CHECK(status);
  switch (attr.type) {
    case cudaMemoryTypeDevice:
      return {PointerLocation::on_device, attr.device};
    case cudaMemoryTypeManaged:
      return {PointerLocation::managed, attr.device};
    case cudaMemoryTypeHost:
      return {PointerLocation::pinned_host, attr.device};
    default:
      return {PointerLocation::not_cuda, -1};
  }
}

void set_memory_limit(int device, size_t bytes) {
  static_cast<CudaBackend&>(cuda_backend(device)).pool().set_limit(bytes);
}
size_t memory_limit(int device) {
  return static_cast<CudaBackend&>(cuda_backend(device)).pool().limit();
}

void set_allow_tf32(bool allow) { g_allow_tf32.store(allow); }
bool allow_tf32() { return g_allow_tf32.load(); }

}  // namespace cuda

Backend& cuda_backend(int index) {
  // Hot path (every allocation and op): one atomic load. Backends are never destroyed, because
  // arrays may outlive static destruction at interpreter exit.
  static std::atomic<cuda::CudaBackend*> backends[cuda::kMaxDevices];
  static std::mutex mutex;
  if (index >= 0 && index < cuda::kMaxDevices)
    if (auto* b = backends[index].load(std::memory_order_acquire)) return *b;
  cuda::require_device(index);
  std::lock_guard<std::mutex> lock(mutex);
  if (!backends[index].load()) backends[index].store(new cuda::CudaBackend(index));
  return *backends[index].load();
}

}  // namespace gpupy
