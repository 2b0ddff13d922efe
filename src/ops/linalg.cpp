// Linear algebra front end: matmul and dot (shape rules, promotion, output allocation). Host only.
#include <string>

#include "../backend/backend.h"
#include "gpupy/error.h"
#include "gpupy/ops.h"
#include "shape_util.h"

namespace gpupy {
namespace {

constexpr const char* kSignature = "(n?,k),(k,m?)->(n?,m?)";

Device same_device(const Array& a, const Array& b, const char* op) {
  if (a.device() != b.device())
    throw ValueError(op_message(op, "operands are on different devices (" + a.device().str() +
                                        " and " + b.device().str() +
                                        "); move one with to_device()"));
  return a.device();
}

Shape leading(const Shape& s, size_t drop) { return Shape(s.begin(), s.end() - drop); }

Shape concat(Shape a, const Shape& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

/// A fresh C-contiguous array viewed with another shape of the same size.
Array reshaped(const Array& a, const Shape& shape) {
  Array c = a.is_c_contiguous() ? a : copy(a);
  return c.view(shape, c_strides(shape, c.itemsize()), c.offset());
}

void check_core_dims(const Array& a, const Array& b) {
  for (int i = 0; i < 2; ++i)
    if ((i == 0 ? a : b).ndim() == 0)
      throw ValueError(op_message(
          "matmul", "Input operand " + std::to_string(i) +
                        " does not have enough dimensions (has 0, gufunc core with signature " +
                        kSignature + " requires 1)"));
}

}  // namespace

Array matmul(const Array& a_in, const Array& b_in) {
  check_core_dims(a_in, b_in);
  const Device device = same_device(a_in, b_in, "matmul");
  const DType dt = promote_types(a_in.dtype(), b_in.dtype());
  // Cast before the 1-D promotion and batch broadcast so that no broadcast copy is made.
  Array a = a_in.dtype() == dt ? a_in : astype(a_in, dt);
  Array b = b_in.dtype() == dt ? b_in : astype(b_in, dt);
  const bool a_vec = a.ndim() == 1, b_vec = b.ndim() == 1;
  if (a_vec) a = a.view({1, a.shape()[0]}, {0, a.strides()[0]}, a.offset());
  if (b_vec) b = b.view({b.shape()[0], 1}, {b.strides()[0], 0}, b.offset());
  const int64_t m = a.shape()[a.ndim() - 2], k = a.shape().back();
  const int64_t kb = b.shape()[b.ndim() - 2], n = b.shape().back();
  if (k != kb)
    throw ValueError(op_message(
        "matmul", "Input operand 1 has a mismatch in its core dimension 0, with gufunc signature " +
                      std::string(kSignature) + " (size " + std::to_string(kb) +
                      " is different from " + std::to_string(k) + ")"));
  const Shape batch = broadcast_shapes(leading(a.shape(), 2), leading(b.shape(), 2), "matmul");
  a = broadcast_to(a, concat(batch, {m, k}));
  b = broadcast_to(b, concat(batch, {k, n}));
  Array out = Array::empty(concat(batch, {m, n}), dt, device);
  if (out.size() > 0) {
    Backend& backend = backend_for(device);
    if (k == 0)
      backend.fill(out, Scalar(int64_t{0}).cast(dt));
    else
      backend.matmul(a, b, out);
  }
  Shape shape = batch;
  if (!a_vec) shape.push_back(m);
  if (!b_vec) shape.push_back(n);
  return out.view(shape, c_strides(shape, out.itemsize()), out.offset());
}

Array dot(const Array& a, const Array& b) {
  if (a.ndim() == 0 || b.ndim() == 0) return multiply(a, b);
  const int kb_axis = b.ndim() >= 2 ? b.ndim() - 2 : 0;
  const int64_t k = a.shape().back();
  if (k != b.shape()[kb_axis])
    throw ValueError(op_message(
        "dot", "shapes " + shape_str(a.shape()) + " and " + shape_str(b.shape()) +
                   " not aligned: " + std::to_string(k) + " (dim " + std::to_string(a.ndim() - 1) +
                   ") != " + std::to_string(b.shape()[kb_axis]) + " (dim " +
                   std::to_string(kb_axis) + ")"));
  // Up to 2-D b, dot's contraction is matmul's (with a's leading axes as matmul batch axes).
  if (b.ndim() <= 2) return matmul(a, b);
  same_device(a, b, "dot");
  // N-D b: contract a (P, k) with b's axis -2 moved first and the rest flattened: (k, Q).
  const int nb = b.ndim();
  Shape bshape{k}, result = leading(a.shape(), 1);
  Strides bstrides{b.strides()[nb - 2]};
  int64_t q = 1;
  for (int d = 0; d < nb; ++d) {
    if (d == nb - 2) continue;
    bshape.push_back(b.shape()[d]);
    bstrides.push_back(b.strides()[d]);
    result.push_back(b.shape()[d]);
    q *= b.shape()[d];
  }
  Array bq = reshaped(b.view(bshape, bstrides, b.offset()), {k, q});
  Array aq = a.ndim() == 1 ? a : reshaped(a, {shape_size(leading(a.shape(), 1)), k});
  Array r = matmul(aq, bq);
  return r.view(result, c_strides(result, r.itemsize()), r.offset());
}

}  // namespace gpupy
