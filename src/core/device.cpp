// Device parsing and the default-device rule. Host only.
#include "gpupy/device.h"

#include <cstdlib>
#include <mutex>
#include <optional>

#include "../backend/registry.h"
#include "gpupy/error.h"

namespace gpupy {
namespace {

thread_local std::optional<Device> t_scoped_device;

Device initial_default_device() {
  if (const char* env = std::getenv("GPUPY_DEVICE"); env && *env) return Device::parse(env);
  return cuda::is_available() ? Device{DeviceType::cuda, 0} : Device{DeviceType::cpu, 0};
}

std::optional<Device>& process_default() {
  static std::optional<Device> device;
  return device;
}
std::mutex& default_mutex() {
  static std::mutex m;
  return m;
}

}  // namespace

std::string Device::str() const {
  switch (type) {
    case DeviceType::cpu:
      return "cpu";
    case DeviceType::emu:
      return "emu";
    case DeviceType::cuda:
      return "cuda:" + std::to_string(index);
  }
  return "?";
}

Device Device::parse(std::string_view text) {
  if (text == "cpu") return {DeviceType::cpu, 0};
  if (text == "emu") return {DeviceType::emu, 0};
  if (text == "cuda") return {DeviceType::cuda, 0};
  if (text.substr(0, 5) == "cuda:" && text.size() > 5) {
    int index = 0;
    for (char c : text.substr(5)) {
      if (c < '0' || c > '9') index = -1;
      if (index < 0) break;
      index = index * 10 + (c - '0');
    }
    if (index >= 0) return {DeviceType::cuda, index};
  }
  throw ValueError("[device] unknown device '" + std::string(text) +
                   "'; expected 'cpu', 'emu', 'cuda' or 'cuda:N'");
}

Device default_device() {
  if (t_scoped_device) return *t_scoped_device;
  std::lock_guard<std::mutex> lock(default_mutex());
  auto& d = process_default();
  if (!d) d = initial_default_device();
  return *d;
}

void set_default_device(Device device) {
  std::lock_guard<std::mutex> lock(default_mutex());
  process_default() = device;
}

DeviceScope::DeviceScope(Device device)
    : previous_(t_scoped_device.value_or(Device{})), had_previous_(t_scoped_device.has_value()) {
  t_scoped_device = device;
}

DeviceScope::~DeviceScope() {
  if (had_previous_)
    t_scoped_device = previous_;
  else
    t_scoped_device.reset();
}

}  // namespace gpupy
