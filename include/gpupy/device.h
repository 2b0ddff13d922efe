// Devices (cpu, cuda:N, emu) and the default-device rule. Host only.
#pragma once

#include <string>
#include <string_view>

namespace gpupy {

enum class DeviceType : unsigned char { cpu, cuda, emu };

/// Where an array's memory lives and which backend runs its kernels.
struct Device {
  DeviceType type = DeviceType::cpu;
  int index = 0;

  /// "cpu", "emu" or "cuda:N".
  std::string str() const;
  /// Parses "cpu", "emu", "cuda", "cuda:N"; throws ValueError otherwise.
  static Device parse(std::string_view text);
  /// True for devices whose memory the host may not read directly (cuda, and emu by contract).
  bool is_device_memory() const { return type != DeviceType::cpu; }
  friend bool operator==(const Device& a, const Device& b) {
    return a.type == b.type && a.index == b.index;
  }
  friend bool operator!=(const Device& a, const Device& b) { return !(a == b); }
};

/// The device new arrays go to: the innermost `DeviceScope` of this thread, else $GPUPY_DEVICE,
/// else cuda:0 when a GPU is usable, else cpu.
Device default_device();
/// Changes the process-wide default (what $GPUPY_DEVICE set at start-up).
void set_default_device(Device device);

/// RAII: makes `device` the default for this thread until destroyed (`with gpupy.Device(...)`).
class DeviceScope {
 public:
  explicit DeviceScope(Device device);
  ~DeviceScope();
  DeviceScope(const DeviceScope&) = delete;
  DeviceScope& operator=(const DeviceScope&) = delete;

 private:
  Device previous_;
  bool had_previous_;
};

}  // namespace gpupy
