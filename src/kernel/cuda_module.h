// CUBINs loaded and launched through the CUDA driver API, which is resolved with dlopen from
// libcuda.so.1 on first use (gpupy never links libcuda, so it imports on machines without a
// driver). Kernels run on gpupy's current stream of their device. Host only.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace gpupy::kernel {

/// Compute capability of CUDA device `device` as "sm_XY"; CudaError without a usable driver.
std::string cuda_device_arch(int device);

/// A CUBIN loaded into the primary context of one device; launching is thread-safe.
class CudaModule {
 public:
  CudaModule(const CudaModule&) = delete;
  CudaModule& operator=(const CudaModule&) = delete;
  ~CudaModule();

  /// Loads cubin on device; kernels[i] = (name expression, lowered name). CudaError when the
  /// driver is missing or refuses the CUBIN.
  static std::shared_ptr<CudaModule> load(
      int device, const std::string& cubin,
      const std::vector<std::pair<std::string, std::string>>& kernels);

  /// Launches the kernel of name expression `expression` on `stream` (a CUstream/cudaStream_t;
  /// 0: the legacy default stream); args as cuLaunchKernel's kernelParams.
  void launch(const std::string& expression, const unsigned grid[3], const unsigned block[3],
              std::size_t shared_bytes, std::uintptr_t stream, void** args) const;
  int device() const { return device_; }

 private:
  CudaModule(int device, void* context, void* module)
      : device_(device), ctx_(context), mod_(module) {}
  int device_;
  void* ctx_;                               // CUcontext (the device's primary context)
  void* mod_;                               // CUmodule
  std::map<std::string, void*> functions_;  // expression -> CUfunction
};

}  // namespace gpupy::kernel
