// CUDA's dim3/uint3 and the small vector types, for the emulation runtime and emulated kernels.
// Host only.
#pragma once

namespace gpupy::emu {

/// Index triple (the type of threadIdx and blockIdx).
struct uint3 {
  unsigned x, y, z;
};

/// Launch extent; unset components default to 1 as in CUDA.
struct dim3 {
  unsigned x, y, z;
  constexpr dim3(unsigned vx = 1, unsigned vy = 1, unsigned vz = 1) : x(vx), y(vy), z(vz) {}
  constexpr dim3(uint3 v) : x(v.x), y(v.y), z(v.z) {}
  constexpr operator uint3() const { return {x, y, z}; }
};

/// Vector types most kernels use, laid out as CUDA lays them out.
struct alignas(8) float2 {
  float x, y;
};
struct alignas(16) float4 {
  float x, y, z, w;
};
struct alignas(8) int2 {
  int x, y;
};
struct alignas(16) int4 {
  int x, y, z, w;
};
struct alignas(16) double2 {
  double x, y;
};

constexpr float2 make_float2(float x, float y) { return {x, y}; }
constexpr float4 make_float4(float x, float y, float z, float w) { return {x, y, z, w}; }
constexpr int2 make_int2(int x, int y) { return {x, y}; }
constexpr int4 make_int4(int x, int y, int z, int w) { return {x, y, z, w}; }
constexpr double2 make_double2(double x, double y) { return {x, y}; }
constexpr uint3 make_uint3(unsigned x, unsigned y, unsigned z) { return {x, y, z}; }

}  // namespace gpupy::emu
