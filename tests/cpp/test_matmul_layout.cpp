// The mapping of row-major batched matmul onto one column-major GEMM (what the cuda backend hands
// cuBLAS), checked against a reference column-major GEMM on the CPU for every operand layout.
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <vector>

#include "backend/cuda/matmul_layout.h"

using gpupy::Array;
using gpupy::DType;
using gpupy::cuda::ColumnMajorGemm;
using gpupy::cuda::matrix_layout;

namespace {

enum class Kind { c_order, f_order, padded_rows, padded_cols, broadcast_batch };

// A batch of r x c float64 matrices with value(b, i, j) stored in layout `kind`.
struct Operand {
  std::shared_ptr<std::vector<double>> storage;
  Array array;
};

double value(int which, int64_t b, int64_t i, int64_t j) {
  return which * 100 + b * 10 + i * 3.0 - j * 0.5 + (i == j);
}

Operand make(int which, int64_t batch, int64_t r, int64_t c, Kind kind) {
  int64_t rs, cs;  // element strides of rows and columns
  if (kind == Kind::f_order || kind == Kind::padded_cols) {
    rs = 1;
    cs = kind == Kind::f_order ? r : r + 2;
  } else {
    cs = 1;
    rs = kind == Kind::padded_rows ? c + 3 : c;
  }
  int64_t per = rs * (r - 1) + cs * (c - 1) + 1;
  int64_t bs = kind == Kind::broadcast_batch ? 0 : per;
  auto storage = std::make_shared<std::vector<double>>(per * (bs ? batch : 1), -1e9);
  for (int64_t b = 0; b < (bs ? batch : 1); ++b)
    for (int64_t i = 0; i < r; ++i)
      for (int64_t j = 0; j < c; ++j) (*storage)[b * bs + i * rs + j * cs] = value(which, b, i, j);
  Array a = Array::wrap(storage->data(), {batch, r, c}, {bs * 8, rs * 8, cs * 8}, DType::float64,
                        gpupy::Device{}, storage, false);
  return {storage, a};
}

// BLAS semantics: C = op(A) op(B), column-major, per batch. cuBLAS refuses leading dimensions
// below the stored rows (CUBLAS_STATUS_INVALID_VALUE), which a CPU reference would not notice.
void reference_gemm(const ColumnMajorGemm& g) {
  EXPECT_GE(g.lda, std::max<int64_t>(1, g.trans_a ? g.k : g.m));
  EXPECT_GE(g.ldb, std::max<int64_t>(1, g.trans_b ? g.n : g.k));
  EXPECT_GE(g.ldc, std::max<int64_t>(1, g.m));
  for (int64_t p = 0; p < g.batch; ++p) {
    auto* a = static_cast<const double*>(g.a) + p * g.stride_a;
    auto* b = static_cast<const double*>(g.b) + p * g.stride_b;
    auto* c = static_cast<double*>(g.c) + p * g.stride_c;
    for (int64_t i = 0; i < g.m; ++i)
      for (int64_t j = 0; j < g.n; ++j) {
        double sum = 0;
        for (int64_t q = 0; q < g.k; ++q)
          sum += (g.trans_a ? a[q + i * g.lda] : a[i + q * g.lda]) *
                 (g.trans_b ? b[j + q * g.ldb] : b[q + j * g.ldb]);
        c[i + j * g.ldc] = sum;
      }
  }
}

void check(Kind ka, Kind kb, int64_t batch, int64_t m, int64_t k, int64_t n) {
  Operand a = make(1, batch, m, k, ka), b = make(2, batch, k, n, kb);
  Operand out = make(3, batch, m, n, Kind::c_order);
  auto la = matrix_layout(a.array), lb = matrix_layout(b.array), lc = matrix_layout(out.array);
  ASSERT_TRUE(la && lb && lc);
  ASSERT_FALSE(lc->col_major);
  reference_gemm(gpupy::cuda::as_column_major_gemm(*la, *lb, *lc, m, n, k, batch));
  bool abcast = ka == Kind::broadcast_batch, bbcast = kb == Kind::broadcast_batch;
  for (int64_t p = 0; p < batch; ++p)
    for (int64_t i = 0; i < m; ++i)
      for (int64_t j = 0; j < n; ++j) {
        double expected = 0;
        for (int64_t q = 0; q < k; ++q)
          expected += value(1, abcast ? 0 : p, i, q) * value(2, bbcast ? 0 : p, q, j);
        ASSERT_DOUBLE_EQ((*out.storage)[(p * m + i) * n + j], expected)
            << "batch " << p << " at " << i << "," << j;
      }
}

}  // namespace

TEST(MatmulLayout, EveryOperandLayoutGivesTheRowMajorProduct) {
  const Kind kinds[] = {Kind::c_order, Kind::f_order, Kind::padded_rows, Kind::padded_cols,
                        Kind::broadcast_batch};
  for (Kind ka : kinds)
    for (Kind kb : kinds) {
      SCOPED_TRACE(testing::Message() << "layouts " << int(ka) << "," << int(kb));
      check(ka, kb, 3, 4, 5, 2);
      check(ka, kb, 2, 1, 3, 4);  // single-row A
      check(ka, kb, 2, 3, 1, 1);  // k == 1, single-column result
    }
}

// matmul's 1-D operands: a as a (1, k) row with a zero row stride, b as a (k, 1) column.
TEST(MatmulLayout, VectorOperandsGiveValidLeadingDimensions) {
  std::vector<double> x = {1, 2, 3}, y = {4, 5, 6}, c(1, -1);
  auto wrap = [](std::vector<double>& v, gpupy::Shape shape, gpupy::Strides strides) {
    return Array::wrap(v.data(), shape, strides, DType::float64, gpupy::Device{}, nullptr, false);
  };
  for (int64_t step : {1, 2}) {  // contiguous and every other element of the vectors
    std::vector<double> xs(3 * step), ys(3 * step);
    for (int i = 0; i < 3; ++i) xs[i * step] = x[i], ys[i * step] = y[i];
    auto la = matrix_layout(wrap(xs, {1, 3}, {0, 8 * step}));
    auto lb = matrix_layout(wrap(ys, {3, 1}, {8 * step, 0}));
    auto lc = matrix_layout(wrap(c, {1, 1}, {8, 8}));
    ASSERT_TRUE(la && lb && lc);
    reference_gemm(gpupy::cuda::as_column_major_gemm(*la, *lb, *lc, 1, 1, 3, 1));
    EXPECT_DOUBLE_EQ(c[0], 32.0);
  }
}

TEST(MatmulLayout, StridesAGemmCannotReadNeedACopy) {
  std::vector<double> buf(64);
  auto view = [&](gpupy::Shape shape, gpupy::Strides strides) {
    return Array::wrap(buf.data(), shape, strides, DType::float64, gpupy::Device{}, nullptr, false);
  };
  EXPECT_FALSE(matrix_layout(view({3, 3}, {48, 16})));                  // neither axis unit-stride
  EXPECT_FALSE(matrix_layout(view({2, 2, 3}, {-48, 24, 8})));           // batch walks backwards
  EXPECT_FALSE(matrix_layout(view({2, 2, 2, 2}, {8 * 16, 0, 16, 8})));  // half-broadcast batch
  auto t = matrix_layout(view({3, 2}, {8, 24}));  // a transposed C-order 2x3 matrix
  ASSERT_TRUE(t);
  EXPECT_TRUE(t->col_major);
  EXPECT_EQ(t->ld, 3);
}
