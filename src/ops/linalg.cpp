// Linear algebra front end: matmul and dot (shape rules, promotion, output allocation). Host only.
#include <algorithm>
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

Array permuted(const Array& a, const std::vector<int>& axes) {
  Shape shape;
  Strides strides;
  for (int d : axes) shape.push_back(a.shape()[d]), strides.push_back(a.strides()[d]);
  return a.view(shape, strides, a.offset());
}

Array flat(const Array& a) { return reshaped(a, {a.size()}); }

}  // namespace

Array matmul(const Array& a_in, const Array& b_in) {
  check_core_dims(a_in, b_in);
  const Device device = same_device(a_in, b_in, "matmul");
  DType dt = promote_types(a_in.dtype(), b_in.dtype());
  // Cast before the 1-D promotion and batch broadcast so that no broadcast copy is made.
  // float16 multiplies and accumulates in float32 and is rounded once at the end.
  const DType result_dtype = dt;
  dt = kernel_dtype(dt);
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
  out = out.view(shape, c_strides(shape, out.itemsize()), out.offset());
  return out.dtype() == result_dtype ? out : astype(out, result_dtype);
}

Array dot(const Array& a, const Array& b) {
  same_device(a, b, "dot");  // before the paths below, whose errors would name multiply/matmul
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

Array tensordot(const Array& a, const Array& b, const std::vector<int>& axes_a,
                const std::vector<int>& axes_b) {
  if (axes_a.size() != axes_b.size()) throw ValueError("[tensordot] shape-mismatch for sum");
  std::vector<int> sum_a, sum_b, perm_a, perm_b;
  for (size_t i = 0; i < axes_a.size(); ++i) {
    sum_a.push_back(normalize_axis(axes_a[i], a.ndim(), "tensordot"));
    sum_b.push_back(normalize_axis(axes_b[i], b.ndim(), "tensordot"));
    if (a.shape()[sum_a.back()] != b.shape()[sum_b.back()])
      throw ValueError("[tensordot] shape-mismatch for sum");
  }
  Shape result;
  int64_t p = 1, k = 1, q = 1;
  for (int d = 0; d < a.ndim(); ++d)
    if (std::find(sum_a.begin(), sum_a.end(), d) == sum_a.end())
      perm_a.push_back(d), result.push_back(a.shape()[d]), p *= a.shape()[d];
  for (int d : sum_a) k *= a.shape()[d];
  perm_a.insert(perm_a.end(), sum_a.begin(), sum_a.end());
  perm_b = sum_b;
  for (int d = 0; d < b.ndim(); ++d)
    if (std::find(sum_b.begin(), sum_b.end(), d) == sum_b.end())
      perm_b.push_back(d), result.push_back(b.shape()[d]), q *= b.shape()[d];
  if (perm_a.size() != static_cast<size_t>(a.ndim()) ||
      perm_b.size() != static_cast<size_t>(b.ndim()))
    throw ValueError("[tensordot] repeated axis in the summed axes");
  Array r = matmul(reshaped(permuted(a, perm_a), {p, k}), reshaped(permuted(b, perm_b), {k, q}));
  return r.view(result, c_strides(result, r.itemsize()), r.offset());
}

Array inner(const Array& a, const Array& b) {
  if (a.ndim() == 0 || b.ndim() == 0) return multiply(a, b);
  if (a.shape().back() != b.shape().back())
    throw ValueError(op_message("inner", "shapes " + shape_str(a.shape()) + " and " +
                                             shape_str(b.shape()) + " not aligned"));
  return tensordot(a, b, {-1}, {-1});
}

Array outer(const Array& a, const Array& b) {
  Array fa = flat(a), fb = flat(b);
  return multiply(fa.view({a.size(), 1}, {fa.strides()[0], 0}, fa.offset()),
                  fb.view({1, b.size()}, {0, fb.strides()[0]}, fb.offset()));
}

Array vdot(const Array& a, const Array& b) {
  if (a.size() != b.size())
    throw ValueError(op_message("vdot", "vectors have different lengths (" +
                                            std::to_string(a.size()) + " and " +
                                            std::to_string(b.size()) + ")"));
  Array fa = flat(a);
  return matmul(is_complex(a.dtype()) ? conjugate(fa) : fa, flat(b));
}

Array vecdot(const Array& x1, const Array& x2, int axis) {
  for (int i = 0; i < 2; ++i)
    if ((i == 0 ? x1 : x2).ndim() == 0)
      throw ValueError(op_message(
          "vecdot", "Input operand " + std::to_string(i) +
                        " does not have enough dimensions (has 0, gufunc core with signature "
                        "(n),(n)->() requires 1)"));
  // Each operand's core axis moves last; x1 becomes a row (..., 1, n), x2 a column (..., n, 1).
  auto core_last = [axis](const Array& x, bool row) {
    const int ax = normalize_axis(axis, x.ndim(), "vecdot");
    Shape shape;
    Strides strides;
    for (int d = 0; d < x.ndim(); ++d)
      if (d != ax) shape.push_back(x.shape()[d]), strides.push_back(x.strides()[d]);
    const int64_t n = x.shape()[ax], s = x.strides()[ax];
    shape.insert(shape.end(), {row ? 1 : n, row ? n : 1});
    strides.insert(strides.end(), {row ? 0 : s, row ? s : 0});
    return x.view(shape, strides, x.offset());
  };
  Array a = core_last(x1, true), b = core_last(x2, false);
  const int64_t n1 = a.shape().back(), n2 = b.shape()[b.ndim() - 2];
  if (n1 != n2)
    throw ValueError(
        op_message("vecdot",
                   "Input operand 1 has a mismatch in its core dimension 0, with gufunc signature "
                   "(n),(n)->() (size " +
                       std::to_string(n2) + " is different from " + std::to_string(n1) + ")"));
  if (is_complex(a.dtype())) a = conjugate(a);
  Array r = matmul(a, b);
  Shape shape = leading(r.shape(), 2);
  return r.view(shape, c_strides(shape, r.itemsize()), r.offset());
}

Array sliding_dot(const Array& a_in, const Array& v_in, int64_t start, int64_t length) {
  const Device device = same_device(a_in, v_in, "sliding_dot");
  if (a_in.ndim() != 1 || v_in.ndim() != 1)
    throw ValueError("[sliding_dot] a and v must be one-dimensional");
  const int64_t n = a_in.size(), m = v_in.size();
  if (n == 0 || m == 0) throw ValueError("[sliding_dot] a and v cannot be empty");
  if (start < 0 || length < 0 || length > n + m - 1 - start)
    throw ValueError(op_message("sliding_dot", "start " + std::to_string(start) + " and length " +
                                                   std::to_string(length) +
                                                   " do not fit the full correlation of " +
                                                   std::to_string(n + m - 1) + " values"));
  const DType result_dtype = promote_types(a_in.dtype(), v_in.dtype());
  const DType dt = kernel_dtype(result_dtype);  // float16 sums in float32, as NumPy's dot
  const Array a = ascontiguousarray(astype(a_in, dt, false));
  const Array v = ascontiguousarray(astype(v_in, dt, false));
  Array out = Array::empty({length}, dt, device);
  if (length > 0) backend_for(device).sliding_dot(a, v, start - (m - 1), out);
  return out.dtype() == result_dtype ? out : astype(out, result_dtype);
}

}  // namespace gpupy
