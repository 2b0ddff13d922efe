// The search order for run-time loaded CUDA libraries. Host only.
#include "cuda_library.h"

#include <cstdlib>
#include <vector>

namespace gpupy {

void* open_cuda_library(const char* env_override, std::initializer_list<const char*> names,
                        std::string& tried) {
  std::vector<std::string> candidates;
  if (const char* path = std::getenv(env_override); path && *path) candidates.push_back(path);
  for (const char* name : names) candidates.push_back(name);
  for (const char* var : {"CUDA_HOME", "CUDA_PATH"})
    if (const char* dir = std::getenv(var); dir && *dir)
      for (const char* name : names) candidates.push_back(std::string(dir) + "/lib64/" + name);
  for (const char* name : names) candidates.push_back(std::string("/usr/local/cuda/lib64/") + name);
  for (const std::string& name : candidates) {
    if (void* lib = dlopen(name.c_str(), RTLD_NOW | RTLD_LOCAL)) return lib;
    const char* why = dlerror();
    tried += (tried.empty() ? "" : "; ") + (why ? std::string(why) : name);
  }
  return nullptr;
}

}  // namespace gpupy
