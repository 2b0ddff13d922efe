// CUDA's cuda_runtime.h for kernels built for the emu device: gpupy/emu/cuda_emu.h, which every
// emu kernel source already starts with, provides what kernels use of it. Host only.
#pragma once
