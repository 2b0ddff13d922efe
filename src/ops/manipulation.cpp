// Shape manipulation: views whenever NumPy returns one. Host only.
#include <algorithm>
#include <numeric>

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
  int nd = static_cast<int>(shape.size()), lead = nd - a.ndim();
  if (lead < 0)
    throw ValueError(
        "[broadcast_to] input operand has more dimensions than allowed by the axis "
        "remapping");
  for (int64_t d : shape)
    if (d < 0)
      throw ValueError("[broadcast_to] all elements of broadcast shape must be non-negative");
  Strides strides(nd, 0);
  for (int i = 0; i < a.ndim(); ++i) {
    int64_t d = a.shape()[i];
    if (d == shape[lead + i])
      strides[lead + i] = a.strides()[i];
    else if (d != 1)
      throw ValueError("[broadcast_to] cannot broadcast an array of shape " + shape_str(a.shape()) +
                       " to shape " + shape_str(shape));
  }
  // Read-only like NumPy's: several result elements alias one input element.
  return Array(a.buffer(), a.offset(), shape, std::move(strides), a.dtype(), true);
}

std::vector<Array> broadcast_arrays(const std::vector<Array>& arrays) {
  Shape shape;
  for (const Array& a : arrays) shape = broadcast_shapes(shape, a.shape(), "broadcast_arrays");
  std::vector<Array> out;
  out.reserve(arrays.size());
  // NumPy still hands out writeable views here (a FutureWarning announces read-only ones).
  for (const Array& a : arrays) {
    Array b = broadcast_to(a, shape);
    out.push_back(Array(b.buffer(), b.offset(), b.shape(), b.strides(), b.dtype(), a.readonly()));
  }
  return out;
}

namespace {

// The -1 entry (at most one) is inferred from the size of `a`.
Shape infer_shape(const Array& a, const Shape& shape) {
  Shape out = shape;
  int unknown = -1;
  int64_t known = 1;
  for (size_t i = 0; i < out.size(); ++i) {
    if (out[i] < 0) {  // NumPy takes any negative entry as the unknown one
      if (unknown >= 0) throw ValueError("[reshape] can only specify one unknown dimension");
      unknown = static_cast<int>(i);
    } else {
      known *= out[i];
    }
  }
  if (unknown >= 0 && known != 0 && a.size() % known == 0) out[unknown] = a.size() / known;
  if ((unknown >= 0 && (known == 0 || a.size() % known != 0)) || (unknown < 0 && known != a.size()))
    throw ValueError("[reshape] cannot reshape array of size " + std::to_string(a.size()) +
                     " into shape " + shape_str(shape));
  return out;
}

// NumPy's _attempt_nocopy_reshape (C order): groups of old axes that map onto groups of new axes
// must be contiguous among themselves. Needs size > 0. Returns false when a copy is required.
bool nocopy_strides(const Array& a, const Shape& newdims, Strides& newstrides) {
  Shape olddims;
  Strides oldstrides;
  for (int i = 0; i < a.ndim(); ++i)
    if (a.shape()[i] != 1) {
      olddims.push_back(a.shape()[i]);
      oldstrides.push_back(a.strides()[i]);
    }
  size_t oldnd = olddims.size(), newnd = newdims.size();
  newstrides.assign(newnd, 0);
  size_t oi = 0, oj = 1, ni = 0, nj = 1;
  while (ni < newnd && oi < oldnd) {
    int64_t np = newdims[ni], op = olddims[oi];
    while (np != op) {
      if (np < op) {
        if (nj >= newnd) return false;
        np *= newdims[nj++];
      } else {
        if (oj >= oldnd) return false;
        op *= olddims[oj++];
      }
    }
    for (size_t ok = oi; ok + 1 < oj; ++ok)
      if (oldstrides[ok] != olddims[ok + 1] * oldstrides[ok + 1]) return false;
    newstrides[nj - 1] = oldstrides[oj - 1];
    for (size_t nk = nj - 1; nk > ni; --nk) newstrides[nk - 1] = newstrides[nk] * newdims[nk];
    ni = nj++;
    oi = oj++;
  }
  int64_t last = ni >= 1 ? newstrides[ni - 1] : static_cast<int64_t>(a.itemsize());
  for (size_t nk = ni; nk < newnd; ++nk) newstrides[nk] = last;
  return true;
}

}  // namespace

Array reshape(const Array& a, const Shape& shape) {
  Shape newshape = infer_shape(a, shape);
  if (a.size() == 0 || a.is_c_contiguous())
    return a.view(newshape, c_strides(newshape, a.itemsize()), a.offset());
  Strides strides;
  if (nocopy_strides(a, newshape, strides)) return a.view(newshape, strides, a.offset());
  Array c = copy(a);
  return c.view(newshape, c_strides(newshape, c.itemsize()), c.offset());
}

Array permute_dims(const Array& a, const std::vector<int>& axes) {
  int nd = a.ndim();
  if (static_cast<int>(axes.size()) != nd)
    throw ValueError("[permute_dims] axes don't match array");
  std::vector<bool> seen(nd, false);
  Shape shape(nd);
  Strides strides(nd);
  for (int i = 0; i < nd; ++i) {
    int ax = normalize_axis(axes[i], nd, "permute_dims");
    if (seen[ax]) throw ValueError("[permute_dims] repeated axis in transpose");
    seen[ax] = true;
    shape[i] = a.shape()[ax];
    strides[i] = a.strides()[ax];
  }
  return a.view(shape, strides, a.offset());
}

Array transpose(const Array& a) {
  return a.view(Shape(a.shape().rbegin(), a.shape().rend()),
                Strides(a.strides().rbegin(), a.strides().rend()), a.offset());
}

Array matrix_transpose(const Array& a) {
  if (a.ndim() < 2)
    throw ValueError("[matrix_transpose] input array must be at least 2-dimensional");
  return swapaxes(a, -1, -2);
}

Array swapaxes(const Array& a, int axis1, int axis2) {
  int i = normalize_axis(axis1, a.ndim(), "swapaxes");
  int j = normalize_axis(axis2, a.ndim(), "swapaxes");
  Shape shape = a.shape();
  Strides strides = a.strides();
  std::swap(shape[i], shape[j]);
  std::swap(strides[i], strides[j]);
  return a.view(shape, strides, a.offset());
}

namespace {

// Normalises `axes` against `ndim` and rejects repeats, as NumPy's normalize_axis_tuple.
std::vector<int> axis_tuple(const std::vector<int>& axes, int ndim, const char* op) {
  std::vector<int> out;
  std::vector<bool> seen(ndim, false);
  for (int ax : axes) {
    int n = normalize_axis(ax, ndim, op);
    if (seen[n]) throw ValueError(op_message(op, "repeated axis"));
    seen[n] = true;
    out.push_back(n);
  }
  return out;
}

}  // namespace

Array moveaxis(const Array& a, const std::vector<int>& source,
               const std::vector<int>& destination) {
  std::vector<int> src = axis_tuple(source, a.ndim(), "moveaxis");
  std::vector<int> dst = axis_tuple(destination, a.ndim(), "moveaxis");
  if (src.size() != dst.size())
    throw ValueError(
        "[moveaxis] `source` and `destination` arguments must have the same number of elements");
  std::vector<int> order;
  for (int i = 0; i < a.ndim(); ++i)
    if (std::find(src.begin(), src.end(), i) == src.end()) order.push_back(i);
  std::vector<std::pair<int, int>> moves;
  for (size_t k = 0; k < src.size(); ++k) moves.push_back({dst[k], src[k]});
  std::sort(moves.begin(), moves.end());
  for (auto [d, s] : moves) order.insert(order.begin() + d, s);
  return permute_dims(a, order);
}

Array expand_dims(const Array& a, const std::vector<int>& axes) {
  int nd = a.ndim() + static_cast<int>(axes.size());
  std::vector<int> norm = axis_tuple(axes, nd, "expand_dims");
  std::vector<bool> is_new(nd, false);
  for (int ax : norm) is_new[ax] = true;
  Shape shape;
  Strides strides;
  int src = 0;
  for (int i = 0; i < nd; ++i) {
    if (is_new[i]) {
      shape.push_back(1);
      strides.push_back(0);
    } else {
      shape.push_back(a.shape()[src]);
      strides.push_back(a.strides()[src++]);
    }
  }
  return a.view(shape, strides, a.offset());
}

Array expand_dims(const Array& a, int axis) { return expand_dims(a, std::vector<int>{axis}); }

Array squeeze(const Array& a, const Axes& axes) {
  std::vector<bool> drop(a.ndim(), false);
  if (!axes) {
    for (int i = 0; i < a.ndim(); ++i) drop[i] = a.shape()[i] == 1;
  } else {
    for (int ax : axis_tuple(*axes, a.ndim(), "squeeze")) {
      if (a.shape()[ax] != 1)
        throw ValueError(
            "[squeeze] cannot select an axis to squeeze out which has size not equal to one");
      drop[ax] = true;
    }
  }
  Shape shape;
  Strides strides;
  for (int i = 0; i < a.ndim(); ++i)
    if (!drop[i]) {
      shape.push_back(a.shape()[i]);
      strides.push_back(a.strides()[i]);
    }
  return a.view(shape, strides, a.offset());
}

Array ravel(const Array& a) {
  // Like NumPy: a view only when already C-contiguous, never a no-copy reshape attempt.
  Array c = a.is_c_contiguous() ? a : copy(a);
  return c.view({c.size()}, {static_cast<int64_t>(c.itemsize())}, c.offset());
}

Array ascontiguousarray(const Array& a) {
  Array c = a.is_c_contiguous() ? a : copy(a);
  if (c.ndim() == 0) return c.view({1}, {static_cast<int64_t>(c.itemsize())}, c.offset());
  return c;
}

Array flip(const Array& a, const Axes& axes) {
  std::vector<int> all(a.ndim());
  std::iota(all.begin(), all.end(), 0);
  Strides strides = a.strides();
  int64_t offset = a.offset();
  for (int ax : axis_tuple(axes.value_or(all), a.ndim(), "flip")) {
    // Start at the last element of the axis and walk backwards; empty axes stay where they are.
    if (a.shape()[ax] > 0) offset += (a.shape()[ax] - 1) * strides[ax];
    strides[ax] = -strides[ax];
  }
  return a.view(a.shape(), strides, offset);
}

}  // namespace gpupy
