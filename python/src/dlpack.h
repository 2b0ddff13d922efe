// The DLPack 1.1 ABI (data structures only), written from the DLPack specification so that the
// bindings need no external header. Host only.
#pragma once

#include <cstdint>

extern "C" {

/// Version of the ABI a versioned tensor follows.
struct DLPackVersion {
  uint32_t major;
  uint32_t minor;
};

inline constexpr uint32_t kDLPackMajorVersion = 1;
inline constexpr uint32_t kDLPackMinorVersion = 1;

// A C enum is an int; the fixed underlying type keeps the same layout in C++.
enum DLDeviceType : int32_t {
  kDLCPU = 1,
  kDLCUDA = 2,
  kDLCUDAHost = 3,
  kDLOpenCL = 4,
  kDLVulkan = 7,
  kDLMetal = 8,
  kDLVPI = 9,
  kDLROCM = 10,
  kDLROCMHost = 11,
  kDLExtDev = 12,
  kDLCUDAManaged = 13,
  kDLOneAPI = 14,
  kDLWebGPU = 15,
  kDLHexagon = 16,
  kDLMAIA = 17,
};

struct DLDevice {
  DLDeviceType device_type;
  int32_t device_id;
};

enum DLDataTypeCode : uint8_t {
  kDLInt = 0,
  kDLUInt = 1,
  kDLFloat = 2,
  kDLOpaqueHandle = 3,
  kDLBfloat = 4,
  kDLComplex = 5,
  kDLBool = 6,
};

struct DLDataType {
  uint8_t code;
  uint8_t bits;
  uint16_t lanes;
};

/// A strided view. Strides count elements (not bytes); null strides mean C-contiguous.
struct DLTensor {
  void* data;
  DLDevice device;
  int32_t ndim;
  DLDataType dtype;
  int64_t* shape;
  int64_t* strides;
  uint64_t byte_offset;
};

/// The legacy (pre-1.0) managed tensor, in capsules named "dltensor".
struct DLManagedTensor {
  DLTensor dl_tensor;
  void* manager_ctx;
  void (*deleter)(DLManagedTensor* self);
};

inline constexpr uint64_t kDLFlagReadOnly = 1ULL << 0;
inline constexpr uint64_t kDLFlagIsCopied = 1ULL << 1;
inline constexpr uint64_t kDLFlagIsSubbytePadded = 1ULL << 2;

/// The 1.x managed tensor, in capsules named "dltensor_versioned".
struct DLManagedTensorVersioned {
  DLPackVersion version;
  void* manager_ctx;
  void (*deleter)(DLManagedTensorVersioned* self);
  uint64_t flags;
  DLTensor dl_tensor;
};

}  // extern "C"
