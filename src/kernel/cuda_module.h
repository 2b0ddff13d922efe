// CUBINs loaded and launched through the CUDA driver API, which is resolved with dlopen from
// libcuda.so.1 on first use (gpupy never links libcuda, so it imports on machines without a
// driver). Kernels run on the stream the caller passes. Host only.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace gpupy::kernel {

/// The CUDA driver's version (1000 * major + 10 * minor, e.g. 13000), read once; 0 with `reason`
/// saying why when libcuda cannot be loaded or does not answer. Needs no GPU and no cuInit.
int cuda_driver_version(std::string* reason = nullptr);

/// Compute capability of CUDA device `device` as "sm_XY"; CudaError without a usable driver.
std::string cuda_device_arch(int device);

/// The launch limits of CUDA device `device` (what CudaKernel validates a launch against).
struct CudaLaunchLimits {
  std::string name;
  int max_block[3] = {0, 0, 0};
  int max_grid[3] = {0, 0, 0};
  int max_threads_per_block = 0;
  int shared_per_block = 0;        // bytes without opting in
  int shared_per_block_optin = 0;  // bytes a kernel may opt in to
};
CudaLaunchLimits cuda_launch_limits(int device);

/// A kernel's own limits: the most threads a block may have with its register use, and its
/// static shared memory in bytes.
struct CudaKernelAttributes {
  int max_threads_per_block = 0;
  int static_shared_bytes = 0;
};

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
  CudaKernelAttributes attributes(const std::string& expression) const;
  /// Lets the kernel take up to `bytes` of dynamic shared memory (the opt-in attribute).
  void set_max_dynamic_shared_bytes(const std::string& expression, int bytes) const;

 private:
  CudaModule(int device, void* context, void* module)
      : device_(device), ctx_(context), mod_(module) {}
  int device_;
  void* ctx_;                               // CUcontext (the device's primary context)
  void* mod_;                               // CUmodule
  std::map<std::string, void*> functions_;  // expression -> CUfunction
  void* function(const std::string& expression) const;
};

}  // namespace gpupy::kernel
