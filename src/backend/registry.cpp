// Routes a Device to the backend that serves it. Host only.
#include "registry.h"

#include "gpupy/error.h"

namespace gpupy {

Backend& backend_for(Device device) {
  switch (device.type) {
    case DeviceType::cpu:
      return cpu_backend();
    case DeviceType::emu:
      return emu_backend();
    case DeviceType::cuda:
      return cuda_backend(device.index);
  }
  throw ValueError("[device] unknown device type");
}

}  // namespace gpupy
