// The distributions gpupy.random draws from its Philox4x32-10 stream. Host and device.
#pragma once

#include <cstdint>

namespace gpupy {

/// What one output element is made of (one Philox4x32-10 block of 4 words per element).
enum class RandomDistribution : uint8_t {
  uniform,  // [0, 1): float64 from the top 53 bits of words 0-1, float32 from the top 24 of word 0
  normal,   // Box-Muller in float64 (rounded to float32 for float32 output)
  bits,     // uint64: (word 0 << 32) | word 1
};

}  // namespace gpupy
