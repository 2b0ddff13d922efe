// Shape manipulation: views whenever NumPy returns one. Host only.
#include <algorithm>

#include "../backend/backend.h"
#include "gpupy/error.h"
#include "gpupy/ops.h"
#include "shape_util.h"

namespace gpupy {

Shape broadcast_shapes(const Shape& a, const Shape& b, const char* op) {
  size_t n = std::max(a.size(), b.size());
  Shape out(n);
  for (size_t i = 0; i < n; ++i) {
    int64_t da = i < n - a.size() ? 1 : a[i - (n - a.size())];
    int64_t db = i < n - b.size() ? 1 : b[i - (n - b.size())];
    if (da != db && da != 1 && db != 1)
      throw ValueError(op_message(op, "operands could not be broadcast together with shapes " +
                                          shape_str(a) + " " + shape_str(b)));
    out[i] = da == 1 ? db : da;
  }
  return out;
}

Array broadcast_to(const Array& a, const Shape& shape) {
  if (a.shape() == shape) return a;
  int nd = static_cast<int>(shape.size()), lead = nd - a.ndim();
  if (lead < 0)
    throw ValueError(
        "[broadcast_to] input operand has more dimensions than allowed by the axis "
        "remapping");
  Strides strides(nd, 0);
  for (int i = 0; i < a.ndim(); ++i) {
    int64_t d = a.shape()[i];
    if (d == shape[lead + i])
      strides[lead + i] = a.strides()[i];
    else if (d != 1)
      throw ValueError("[broadcast_to] cannot broadcast an array of shape " + shape_str(a.shape()) +
                       " to shape " + shape_str(shape));
  }
  return a.view(shape, strides, a.offset());
}

}  // namespace gpupy

namespace gpupy {

#define GPUPY_PENDING(sig, name) \
  sig { throw NotImplementedError("[" name "] not implemented yet"); }
GPUPY_PENDING(Array reshape(const Array&, const Shape&), "reshape")
GPUPY_PENDING(Array permute_dims(const Array&, const std::vector<int>&), "permute_dims")
GPUPY_PENDING(Array transpose(const Array&), "transpose")
GPUPY_PENDING(Array expand_dims(const Array&, int), "expand_dims")
GPUPY_PENDING(Array squeeze(const Array&, const Axes&), "squeeze")
GPUPY_PENDING(Array ravel(const Array&), "ravel")
GPUPY_PENDING(Array ascontiguousarray(const Array&), "ascontiguousarray")

}  // namespace gpupy
