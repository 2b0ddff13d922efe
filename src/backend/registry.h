// Entry points of each backend, resolved at link time (a real backend or its stub). Host only.
#pragma once

#include <string>

#include "backend.h"

namespace gpupy {

Backend& cpu_backend();
/// The emu backend; throws NotImplementedError in a build without it.
Backend& emu_backend();
/// The cuda backend for device `index`; throws when CUDA is not built or not usable.
Backend& cuda_backend(int index);

namespace cuda {
/// Whether this build contains the CUDA backend.
bool is_built();
/// Whether a CUDA device can be used now; `reason` explains a false answer.
bool is_available(std::string* reason = nullptr);
int device_count();
}  // namespace cuda

}  // namespace gpupy
