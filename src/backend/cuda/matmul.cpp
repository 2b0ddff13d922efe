// matmul on cuda: float and complex dtypes through cuBLAS (row-major via C^T = B^T A^T), integer
// and bool dtypes through gpupy's own kernel. Host only.
#include <climits>
#include <mutex>
#include <optional>

#include "../cuda_api.h"
#include "cublas_loader.h"
#include "cuda_backend.h"
#include "gpupy/error.h"
#include "kernels.h"

namespace gpupy::cuda {
namespace {

constexpr const char* kOp = "matmul";

// One operand's matrices as cuBLAS sees them: column-major storage of either X^T (row-major X,
// op N after the swap) or X itself (column-major X, op T), a leading dimension, a batch stride.
struct Layout {
  const void* ptr;
  bool col_major;
  int64_t ld;
  int64_t batch_stride;  // elements
};

// A single stride that steps through all batch matrices in order, if one exists.
std::optional<int64_t> uniform_batch_stride(const Array& x, size_t isz) {
  int64_t stride = 0, expected = -1;
  for (int i = x.ndim() - 3; i >= 0; --i) {
    int64_t extent = x.shape()[i], s = x.strides()[i];
    if (extent == 1) continue;
    if (s < 0 || s % static_cast<int64_t>(isz)) return std::nullopt;
    if (expected < 0)
      stride = s;  // innermost non-trivial batch axis
    else if (s != expected)
      return std::nullopt;
    expected = s * extent;
  }
  return stride / static_cast<int64_t>(isz);
}

std::optional<Layout> layout_of(const Array& x) {
  size_t isz = x.itemsize();
  int nd = x.ndim();
  int64_t r = x.shape()[nd - 2], c = x.shape()[nd - 1];
  int64_t sr = x.strides()[nd - 2], sc = x.strides()[nd - 1];
  if (sr % static_cast<int64_t>(isz) || sc % static_cast<int64_t>(isz)) return std::nullopt;
  sr /= static_cast<int64_t>(isz);
  sc /= static_cast<int64_t>(isz);
  auto batch = uniform_batch_stride(x, isz);
  if (!batch) return std::nullopt;
  Layout l{x.data(), false, 0, *batch};
  if ((c == 1 || sc == 1) && (r == 1 || sr >= c)) {
    l.ld = r == 1 ? std::max<int64_t>(c, 1) : sr;
  } else if ((r == 1 || sr == 1) && (c == 1 || sc >= r)) {
    l.col_major = true;
    l.ld = c == 1 ? std::max<int64_t>(r, 1) : sc;
  } else {
    return std::nullopt;
  }
  if (l.ld > INT_MAX) return std::nullopt;
  return l;
}

// A C-contiguous copy of `x` on its device (for layouts cuBLAS cannot read directly).
Array contiguous(const Array& x, cudaStream_t stream) {
  Array c = Array::empty(x.shape(), x.dtype(), x.device());
  launch_copy(x, c, stream);
  return c;
}

struct GemmArgs {
  int m, n, k, batch;
  Layout a, b, c;
};

// Computes C^T = B^T A^T in column-major terms, which is C = A B for row-major C.
void gemm(int device, DType dt, const GemmArgs& g, cudaStream_t stream) {
  const CublasApi& api = cublas(kOp);
  static std::mutex mutex;  // a cuBLAS handle is not safe to use from two threads at once
  std::lock_guard<std::mutex> lock(mutex);
  cublasHandle_t h = cublas_handle(device, kOp);
  check_cublas(api.set_stream(h, stream), "cublasSetStream", kOp);
  cublasMath_t mode =
      (dt == DType::float32 && allow_tf32()) ? CUBLAS_TF32_TENSOR_OP_MATH : CUBLAS_DEFAULT_MATH;
  check_cublas(api.set_math_mode(h, mode), "cublasSetMathMode", kOp);
  cublasOperation_t ta = g.b.col_major ? CUBLAS_OP_T : CUBLAS_OP_N;
  cublasOperation_t tb = g.a.col_major ? CUBLAS_OP_T : CUBLAS_OP_N;
  int lda = static_cast<int>(g.b.ld), ldb = static_cast<int>(g.a.ld);
  int ldc = static_cast<int>(g.c.ld);
  long long sa = g.b.batch_stride, sb = g.a.batch_stride, sc = g.c.batch_stride;
#define GPUPY_GEMM(fn, T, one, zero)                                                               \
  do {                                                                                             \
    const T alpha = one, beta = zero;                                                              \
    check_cublas(api.fn(h, ta, tb, g.n, g.m, g.k, &alpha, static_cast<const T*>(g.b.ptr), lda, sa, \
                        static_cast<const T*>(g.a.ptr), ldb, sb, &beta,                            \
                        static_cast<T*>(const_cast<void*>(g.c.ptr)), ldc, sc, g.batch),            \
                 #fn, kOp);                                                                        \
  } while (0)
  switch (dt) {
    case DType::float32:
      GPUPY_GEMM(sgemm, float, 1.0f, 0.0f);
      break;
    case DType::float64:
      GPUPY_GEMM(dgemm, double, 1.0, 0.0);
      break;
    case DType::complex64:
      GPUPY_GEMM(cgemm, cuComplex, make_cuComplex(1, 0), make_cuComplex(0, 0));
      break;
    case DType::complex128:
      GPUPY_GEMM(zgemm, cuDoubleComplex, make_cuDoubleComplex(1, 0), make_cuDoubleComplex(0, 0));
      break;
    default:
      throw TypeError("[matmul] no cuBLAS routine for this dtype");
  }
#undef GPUPY_GEMM
}

int checked_int(int64_t v, const char* what) {
  if (v > INT_MAX)
    throw NotImplementedError(std::string("[matmul] ") + what +
                              " beyond 2**31-1 is not supported on cuda");
  return static_cast<int>(v);
}

}  // namespace

void blas_matmul(int device, const Array& a, const Array& b, const Array& out,
                 cudaStream_t stream) {
  int nd = out.ndim();
  if (nd < 2 || a.ndim() < 2 || b.ndim() < 2)
    throw ValueError("[matmul] the cuda backend expects operands with at least 2 dimensions");
  int64_t m = out.shape()[nd - 2], n = out.shape()[nd - 1], k = a.shape()[a.ndim() - 1];
  int64_t batch = shape_size(Shape(out.shape().begin(), out.shape().end() - 2));
  if (m == 0 || n == 0 || batch == 0) return;
  if (k == 0) {
    launch_fill(out, Scalar(int64_t{0}).cast(out.dtype()), stream);
    return;
  }
  auto la = layout_of(a);
  Array a2 = la ? a : contiguous(a, stream);
  if (!la) la = layout_of(a2);
  auto lb = layout_of(b);
  Array b2 = lb ? b : contiguous(b, stream);
  if (!lb) lb = layout_of(b2);
  // The result must be row-major with one batch stride; otherwise compute into a temporary.
  auto lc = layout_of(out);
  bool direct = lc && !lc->col_major && (batch == 1 || lc->batch_stride > 0) && lc->ld >= n;
  Array c = direct ? out : Array::empty(out.shape(), out.dtype(), out.device());
  if (!direct) lc = layout_of(c);
  GemmArgs g{checked_int(m, "rows"),
             checked_int(n, "columns"),
             checked_int(k, "inner size"),
             checked_int(batch, "batch size"),
             *la,
             *lb,
             *lc};
  gemm(device, out.dtype(), g, stream);
  if (!direct) launch_copy(c, out, stream);
}

}  // namespace gpupy::cuda
