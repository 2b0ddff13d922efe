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
#include "matmul_layout.h"

namespace gpupy::cuda {
namespace {

constexpr const char* kOp = "matmul";

// A C-contiguous copy of `x` on its device (for layouts cuBLAS cannot read directly).
Array contiguous(const Array& x, cudaStream_t stream) {
  Array c = Array::empty(x.shape(), x.dtype(), x.device());
  launch_copy(x, c, stream);
  return c;
}

int checked_int(int64_t v, const char* what) {
  if (v > INT_MAX)
    throw NotImplementedError(std::string("[matmul] ") + what +
                              " beyond 2**31-1 is not supported on cuda");
  return static_cast<int>(v);
}

// Queues the GEMM on `stream` with the math mode the user chose (strict FP32 unless TF32 is on).
void gemm(int device, DType dt, const ColumnMajorGemm& g, cudaStream_t stream) {
  const CublasApi& api = cublas(kOp);
  static std::mutex mutex;  // a cuBLAS handle is not safe to use from two threads at once
  std::lock_guard<std::mutex> lock(mutex);
  cublasHandle_t h = cublas_handle(device, stream, kOp);
  check_cublas(api.set_stream(h, stream), "cublasSetStream", kOp);
  cublasMath_t mode =
      (dt == DType::float32 && allow_tf32()) ? CUBLAS_TF32_TENSOR_OP_MATH : CUBLAS_DEFAULT_MATH;
  check_cublas(api.set_math_mode(h, mode), "cublasSetMathMode", kOp);
  cublasOperation_t ta = g.trans_a ? CUBLAS_OP_T : CUBLAS_OP_N;
  cublasOperation_t tb = g.trans_b ? CUBLAS_OP_T : CUBLAS_OP_N;
  int m = checked_int(g.m, "columns"), n = checked_int(g.n, "rows");
  int k = checked_int(g.k, "inner size"), batch = checked_int(g.batch, "batch size");
  int lda = static_cast<int>(g.lda), ldb = static_cast<int>(g.ldb), ldc = static_cast<int>(g.ldc);
#define GPUPY_GEMM(fn, T, one, zero)                                                              \
  do {                                                                                            \
    const T alpha = one, beta = zero;                                                             \
    check_cublas(api.fn(h, ta, tb, m, n, k, &alpha, static_cast<const T*>(g.a), lda, g.stride_a,  \
                        static_cast<const T*>(g.b), ldb, g.stride_b, &beta, static_cast<T*>(g.c), \
                        ldc, g.stride_c, batch),                                                  \
                 #fn, kOp);                                                                       \
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
  auto la = matrix_layout(a);
  Array a2 = la ? a : contiguous(a, stream);
  if (!la) la = matrix_layout(a2);
  auto lb = matrix_layout(b);
  Array b2 = lb ? b : contiguous(b, stream);
  if (!lb) lb = matrix_layout(b2);
  // The result must be row-major with one batch stride; otherwise compute into a temporary.
  auto lc = matrix_layout(out);
  bool direct = lc && !lc->col_major && (batch == 1 || lc->batch_stride > 0) && lc->ld >= n;
  Array c = direct ? out : Array::empty(out.shape(), out.dtype(), out.device());
  if (!direct) lc = matrix_layout(c);
  gemm(device, out.dtype(), as_column_major_gemm(*la, *lb, *lc, m, n, k, batch), stream);
  if (!direct) launch_copy(c, out, stream);
}

}  // namespace gpupy::cuda
