// The alignment gpupy's kernels need of memory it did not allocate (NumPy buffers, DLPack tensors,
// __cuda_array_interface__ arrays). Host only.
#pragma once

#include <string>

#include "gpupy/array.h"

namespace gpupy {

/// Empty when items of `dtype` at `data` with these strides sit at multiples of the item size (the
/// alignment gpupy's kernels load them with: complex values as one word of both parts), else
/// what is wrong, e.g. "complex128 data must be 16-byte aligned, got address 0x1001".
std::string alignment_error(const void* data, const Shape& shape, const Strides& strides,
                            DType dtype);

}  // namespace gpupy
