// Run-time compilation of user CUDA kernels for cuda devices with NVRTC, loaded lazily with dlopen
// (libnvrtc.so.13, .so.12 or .so; $GPUPY_NVRTC_PATH first), so that gpupy imports and runs without
// the CUDA toolkit. Needs no GPU and no driver. Host only.
#pragma once

#include <memory>
#include <string>
#include <vector>

namespace gpupy::kernel {

struct NvrtcCompileOptions {
  std::vector<std::string> options;       ///< extra NVRTC flags ("-DN=4", "--use_fast_math")
  std::vector<std::string> include_dirs;  ///< searched for `#include "..."` (gpupy's are added)
  std::string arch = "sm_90";             ///< "sm_XY" gives a CUBIN for that architecture
  std::string cache_dir;                  ///< default: $GPUPY_CACHE_DIR or ~/.cache/gpupy
};

/// A compiled program: the CUBIN and the lowered (mangled) name of each name expression.
struct NvrtcProgram {
  std::string cubin;
  std::vector<std::string> name_expressions;
  std::vector<std::string> lowered_names;  ///< lowered_names[i] belongs to name_expressions[i]
  std::string key;                         ///< the cache key (hex SHA-256)
  /// The lowered name of `expression`; ValueError when it was not compiled.
  const std::string& lowered_name(const std::string& expression) const;
};

/// Compiles source (or finds it in the in-memory or on-disk cache <cache_dir>/nvrtc/<key>.cubin),
/// keyed by source, included headers' contents, options, arch, name expressions and NVRTC's
/// version. name_expressions: kernel names or template instances ("k<float, 3>"). Throws
/// CompileError with NVRTC's log when the source does not compile, CudaError when NVRTC cannot be
/// loaded.
std::shared_ptr<const NvrtcProgram> compile_nvrtc(const std::string& source,
                                                  const std::vector<std::string>& name_expressions,
                                                  const NvrtcCompileOptions& options = {});

/// Whether NVRTC can be loaded; otherwise *reason says why.
bool nvrtc_available(std::string* reason = nullptr);
/// NVRTC's version as "major.minor"; CudaError when it cannot be loaded.
std::string nvrtc_version();

namespace testing {
/// How often this process ran NVRTC on a kernel source (for cache tests).
unsigned long long nvrtc_invocations();
/// Forgets the in-memory NVRTC cache so the next compile consults the disk cache.
void clear_nvrtc_memory_cache();
}  // namespace testing

}  // namespace gpupy::kernel
