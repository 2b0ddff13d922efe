// How a row-major batched matmul maps onto one column-major strided-batched GEMM call (cuBLAS):
// C = A B is computed as C^T = B^T A^T. Plain C++ so the mapping is unit-tested without a GPU.
// Host only.
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>

#include "gpupy/array.h"

namespace gpupy::cuda {

/// One operand's matrices as a column-major GEMM sees them: the storage of X^T (row-major X) or
/// of X itself (column-major X, `col_major`), with a leading dimension and a batch stride.
struct MatrixLayout {
  const void* ptr;
  bool col_major;
  int64_t ld;            // elements
  int64_t batch_stride;  // elements; 0 for a matrix broadcast over the batch
};

/// A single stride (elements) that steps through all batch matrices of `x` in order, if any.
inline std::optional<int64_t> uniform_batch_stride(const Array& x) {
  auto isz = static_cast<int64_t>(x.itemsize());
  int64_t stride = 0, expected = -1;
  for (int i = x.ndim() - 3; i >= 0; --i) {
    int64_t extent = x.shape()[i], s = x.strides()[i];
    if (extent == 1) continue;
    if (s < 0 || s % isz) return std::nullopt;
    if (expected < 0)
      stride = s;  // innermost non-trivial batch axis
    else if (s != expected)
      return std::nullopt;
    expected = s * extent;
  }
  return stride / isz;
}

/// The layout of `x` (ndim >= 2) if a GEMM can read it in place, else nullopt (copy it first).
inline std::optional<MatrixLayout> matrix_layout(const Array& x) {
  auto isz = static_cast<int64_t>(x.itemsize());
  int nd = x.ndim();
  int64_t r = x.shape()[nd - 2], c = x.shape()[nd - 1];
  int64_t sr = x.strides()[nd - 2], sc = x.strides()[nd - 1];
  if (sr % isz || sc % isz) return std::nullopt;
  sr /= isz;
  sc /= isz;
  auto batch = uniform_batch_stride(x);
  if (!batch) return std::nullopt;
  MatrixLayout l{x.data(), false, 0, *batch};
  if ((c == 1 || sc == 1) && (r == 1 || sr >= c)) {
    l.ld = r == 1 ? std::max<int64_t>(c, 1) : sr;
  } else if ((r == 1 || sr == 1) && (c == 1 || sc >= r)) {
    l.col_major = true;
    l.ld = c == 1 ? std::max<int64_t>(r, 1) : sc;
  } else {
    return std::nullopt;
  }
  if (l.ld > INT32_MAX) return std::nullopt;
  return l;
}

/// The arguments of one column-major strided-batched GEMM: C = op(A) op(B), C m x n.
struct ColumnMajorGemm {
  bool trans_a, trans_b;
  int64_t m, n, k, batch;
  const void* a;
  int64_t lda, stride_a;
  const void* b;
  int64_t ldb, stride_b;
  void* c;
  int64_t ldc, stride_c;
};

/// Row-major out[m, n] = a[m, k] @ b[k, n] as a column-major GEMM: the operands swap places and a
/// column-major operand is read transposed. `out` must be row-major (not col_major).
inline ColumnMajorGemm as_column_major_gemm(const MatrixLayout& a, const MatrixLayout& b,
                                            const MatrixLayout& out, int64_t m, int64_t n,
                                            int64_t k, int64_t batch) {
  return {b.col_major,
          a.col_major,
          n,
          m,
          k,
          batch,
          b.ptr,
          b.ld,
          b.batch_stride,
          a.ptr,
          a.ld,
          a.batch_stride,
          const_cast<void*>(out.ptr),
          out.ld,
          out.batch_stride};
}

}  // namespace gpupy::cuda
