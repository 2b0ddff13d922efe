// cpu matmul: BLAS gemm for float and complex dtypes when a BLAS is loaded, a blocked C++ kernel
// for integers, bool and the no-BLAS case. Host only.
#include <algorithm>
#include <climits>
#include <optional>
#include <type_traits>
#include <vector>

#include "../../core/dispatch.h"
#include "blas.h"
#include "cpu_backend.h"
#include "parallel.h"

namespace gpupy::cpu {
namespace {

/// One (rows x cols) matrix of a batch: first element and byte strides.
struct Mat {
  char* data;
  int64_t rows, cols, rs, cs;
};

/// Byte offsets of each batch item in a, b and out (batch axes are all but the last two).
struct BatchOffsets {
  std::vector<int64_t> a, b, c;
};

BatchOffsets batch_offsets(const Array& a, const Array& b, const Array& out) {
  const int nb = out.ndim() - 2;
  int64_t count = 1;
  for (int d = 0; d < nb; ++d) count *= out.shape()[d];
  BatchOffsets r;
  r.a.reserve(count), r.b.reserve(count), r.c.reserve(count);
  std::vector<int64_t> idx(nb, 0);
  int64_t oa = 0, ob = 0, oc = 0;
  for (int64_t t = 0; t < count; ++t) {
    r.a.push_back(oa), r.b.push_back(ob), r.c.push_back(oc);
    for (int d = nb - 1; d >= 0; --d) {
      oa += a.strides()[d], ob += b.strides()[d], oc += out.strides()[d];
      if (++idx[d] < out.shape()[d]) break;
      const int64_t n = out.shape()[d];
      oa -= n * a.strides()[d], ob -= n * b.strides()[d], oc -= n * out.strides()[d];
      idx[d] = 0;
    }
  }
  return r;
}

Mat matrix(const Array& x, int64_t offset) {
  const int nd = x.ndim();
  return {x.data() + offset, x.shape()[nd - 2], x.shape()[nd - 1], x.strides()[nd - 2],
          x.strides()[nd - 1]};
}

// ---- The C++ kernel
// ------------------------------------------------------------------------------

// Integers accumulate in unsigned arithmetic (NumPy wraps on overflow; signed overflow is UB in
// C++), at least 32 bits wide so that products of small types do not promote to signed int.
template <class T>
using Acc = std::conditional_t<
    std::is_same_v<T, bool>, uint8_t,
    std::conditional_t<std::is_integral_v<T>,
                       std::conditional_t<(sizeof(T) > 4), uint64_t, uint32_t>, T>>;

template <class T>
inline Acc<T> madd(Acc<T> r, Acc<T> x, Acc<T> y) {
  if constexpr (std::is_same_v<T, bool>)
    return r | (x & y);
  else
    return Acc<T>(r + x * y);
}

constexpr int64_t kTileM = 32, kTileN = 256, kTileK = 128;

// C[i0:i0+32, j0:j0+256] = A[i0:, :] @ B[:, j0:] in i-k-j order so the inner loop runs along
// contiguous rows of B (packed, row stride ldb) and the compiler vectorises it.
template <class T>
void gemm_tile(const Mat& a, const T* b, int64_t ldb, const Mat& c, int64_t i0, int64_t j0) {
  using A = Acc<T>;
  const int64_t mi = std::min(kTileM, a.rows - i0), nj = std::min(kTileN, c.cols - j0);
  thread_local std::vector<A> tile;
  tile.assign(kTileM * kTileN, A(0));
  for (int64_t k0 = 0; k0 < a.cols; k0 += kTileK) {
    const int64_t k1 = std::min(a.cols, k0 + kTileK);
    for (int64_t i = 0; i < mi; ++i) {
      A* __restrict row = tile.data() + i * kTileN;
      const char* arow = a.data + (i0 + i) * a.rs;
      for (int64_t k = k0; k < k1; ++k) {
        const A av = A(*reinterpret_cast<const T*>(arow + k * a.cs));
        // Zeros contribute nothing to integer and bool sums (for floats 0 * inf must stay NaN).
        if constexpr (std::is_integral_v<T>)
          if (av == A(0)) continue;
        const T* __restrict brow = b + k * ldb + j0;
        for (int64_t j = 0; j < nj; ++j) row[j] = madd<T>(row[j], av, A(brow[j]));
      }
    }
  }
  for (int64_t i = 0; i < mi; ++i)
    for (int64_t j = 0; j < nj; ++j) {
      const A v = tile[i * kTileN + j];
      T* dst = reinterpret_cast<T*>(c.data + (i0 + i) * c.rs + (j0 + j) * c.cs);
      if constexpr (std::is_same_v<T, bool>)
        *dst = v != 0;
      else
        *dst = T(v);
    }
}

// `b` has unit column stride (packed by the caller when it had not).
template <class T>
void own_kernel(const Array& a, const Array& b, const Array& out) {
  const BatchOffsets off = batch_offsets(a, b, out);
  const Mat a0 = matrix(a, 0), b0 = matrix(b, 0);
  const int64_t m = a0.rows, n = b0.cols, k = a0.cols;
  const int64_t ldb = b0.rows == 1 ? n : b0.rs / int64_t(sizeof(T));
  const int64_t tm = (m + kTileM - 1) / kTileM, tn = (n + kTileN - 1) / kTileN;
  const int64_t tiles = static_cast<int64_t>(off.c.size()) * tm * tn;
  // Small products run on the calling thread: the pool's hand-off costs more than the work.
  const int64_t work_per_tile = std::min(m, kTileM) * std::min(n, kTileN) * std::max<int64_t>(k, 1);
  const int64_t grain = std::max<int64_t>(1, (1 << 16) / work_per_tile);
  parallel_for(tiles, grain, [&](int64_t begin, int64_t end) {
    for (int64_t t = begin; t < end; ++t) {
      const int64_t batch = t / (tm * tn), r = t % (tm * tn);
      const Mat am = matrix(a, off.a[batch]), cm = matrix(out, off.c[batch]);
      const T* bp = reinterpret_cast<const T*>(b.data() + off.b[batch]);
      gemm_tile<T>(am, bp, ldb, cm, (r / tn) * kTileM, (r % tn) * kTileN);
    }
  });
}

// ---- BLAS
// ----------------------------------------------------------------------------------------

/// How BLAS reads a matrix: transposed or not, with its leading dimension (in elements).
struct BlasView {
  int trans;
  int64_t ld;
};

std::optional<BlasView> blas_view(const Mat& x, int64_t item) {
  auto fits = [&](int64_t s, int64_t min_ld) {
    return s > 0 && s % item == 0 && s / item >= min_ld && s / item < INT_MAX;
  };
  const int64_t rows = x.rows, cols = x.cols;
  if (cols == 1 || x.cs == item) {
    if (rows == 1) return BlasView{kNoTrans, std::max<int64_t>(cols, 1)};
    if (fits(x.rs, std::max<int64_t>(cols, 1))) return BlasView{kNoTrans, x.rs / item};
  }
  if (rows == 1 || x.rs == item) {
    if (cols == 1) return BlasView{kTrans, std::max<int64_t>(rows, 1)};
    if (fits(x.cs, std::max<int64_t>(rows, 1))) return BlasView{kTrans, x.cs / item};
  }
  return std::nullopt;
}

template <class T>
void call_gemm(const BlasLibrary& lib, int ta, int tb, int m, int n, int k, const void* a, int lda,
               const void* b, int ldb, void* c, int ldc) {
  if constexpr (std::is_same_v<T, float>) {
    lib.sgemm(kRowMajor, ta, tb, m, n, k, 1.0f, static_cast<const float*>(a), lda,
              static_cast<const float*>(b), ldb, 0.0f, static_cast<float*>(c), ldc);
  } else if constexpr (std::is_same_v<T, double>) {
    lib.dgemm(kRowMajor, ta, tb, m, n, k, 1.0, static_cast<const double*>(a), lda,
              static_cast<const double*>(b), ldb, 0.0, static_cast<double*>(c), ldc);
  } else {
    const T one(1), zero(0);
    auto fn = std::is_same_v<T, complex64> ? lib.cgemm : lib.zgemm;
    fn(kRowMajor, ta, tb, m, n, k, &one, a, lda, b, ldb, &zero, c, ldc);
  }
}

/// A positive whole-element stride that fits BLAS's int, else 0.
int64_t blas_inc(int64_t stride, int64_t item) {
  return stride > 0 && stride % item == 0 && stride / item < INT_MAX ? stride / item : 0;
}

// A product with one row or one column goes to dot or gemv, as NumPy's matmul does: gemm pads it
// to a whole register tile and runs several times slower. Returns false when it does not apply.
template <class T>
bool blas_vector_product(const BlasLibrary& lib, const Array& a, const Array& b, const Array& out,
                         BlasView va, BlasView vb) {
  constexpr int64_t item = sizeof(T);
  const Mat a0 = matrix(a, 0), b0 = matrix(b, 0), c0 = matrix(out, 0);
  const int64_t m = a0.rows, k = a0.cols, n = b0.cols;
  if constexpr (!std::is_floating_point_v<T>) {
    return false;
  } else {
    constexpr bool f32 = std::is_same_v<T, float>;
    if (m != 1 && n != 1) return false;
    if (f32 ? !(lib.sdot && lib.sgemv) : !(lib.ddot && lib.dgemv)) return false;
    // x: a's row when m == 1, else b's column; y: out's row or column.
    const int64_t incx = m == 1 ? blas_inc(a0.cs, item) : blas_inc(b0.rs, item);
    const int64_t incy = n == 1 ? blas_inc(c0.rs, item) : blas_inc(c0.cs, item);
    const int64_t incx2 = blas_inc(b0.rs, item);  // b's column, for the dot
    if (!incx || (m == 1 && n == 1 ? !incx2 : !incy)) return false;
    const BatchOffsets off = batch_offsets(a, b, out);
    for (size_t t = 0; t < off.c.size(); ++t) {
      const T* ap = reinterpret_cast<const T*>(a.data() + off.a[t]);
      const T* bp = reinterpret_cast<const T*>(b.data() + off.b[t]);
      T* cp = reinterpret_cast<T*>(out.data() + off.c[t]);
      if (m == 1 && n == 1) {
        if constexpr (f32)
          *cp = lib.sdot(int(k), ap, int(incx), bp, int(incx2));
        else
          *cp = lib.ddot(int(k), ap, int(incx), bp, int(incx2));
        continue;
      }
      // y = A x with A = a (n == 1), or y = B^T x with B = b (m == 1); `v` is how A or B is stored.
      const BlasView v = n == 1 ? va : vb;
      const bool row_major_a = (n == 1) == (v.trans == kNoTrans);
      const int rows = int(n == 1 ? (v.trans == kNoTrans ? m : k) : (v.trans == kNoTrans ? k : n));
      const int cols = int(n == 1 ? (v.trans == kNoTrans ? k : m) : (v.trans == kNoTrans ? n : k));
      const T* mat = n == 1 ? ap : bp;
      const T* x = n == 1 ? bp : ap;
      const int trans = row_major_a ? kNoTrans : kTrans;
      if constexpr (f32)
        lib.sgemv(kRowMajor, trans, rows, cols, 1.0f, mat, int(v.ld), x, int(incx), 0.0f, cp,
                  int(incy));
      else
        lib.dgemv(kRowMajor, trans, rows, cols, 1.0, mat, int(v.ld), x, int(incx), 0.0, cp,
                  int(incy));
    }
    return true;
  }
}

/// A C-contiguous copy of `x` (used when its strides are not expressible to BLAS).
Array contiguous(const Array& x) {
  Array c = Array::empty(x.shape(), x.dtype(), x.device());
  copy_kernel(x, c);
  return c;
}

// Returns false (and does nothing) when the sizes do not fit BLAS's 32-bit integers.
template <class T>
bool blas_matmul(const BlasLibrary& lib, Array a, Array b, const Array& out) {
  const int64_t item = sizeof(T);
  const Mat a0 = matrix(a, 0), b0 = matrix(b, 0), c0 = matrix(out, 0);
  if (a0.rows >= INT_MAX || b0.cols >= INT_MAX || a0.cols >= INT_MAX) return false;
  auto va = blas_view(a0, item), vb = blas_view(b0, item), vc = blas_view(c0, item);
  if (!vc || vc->trans != kNoTrans) return false;  // the front end always passes C order
  if (!va) a = contiguous(a), va = blas_view(matrix(a, 0), item);
  if (!vb) b = contiguous(b), vb = blas_view(matrix(b, 0), item);
  if (!va || !vb) return false;
  if (blas_vector_product<T>(lib, a, b, out, *va, *vb)) return true;
  const BatchOffsets off = batch_offsets(a, b, out);
  for (size_t t = 0; t < off.c.size(); ++t)
    call_gemm<T>(lib, va->trans, vb->trans, int(a0.rows), int(b0.cols), int(a0.cols),
                 a.data() + off.a[t], int(va->ld), b.data() + off.b[t], int(vb->ld),
                 out.data() + off.c[t], int(vc->ld));
  return true;
}

}  // namespace

void matmul_kernel(const Array& a, const Array& b, const Array& out) {
  dispatch_dtype_except_float16(out.dtype(), "matmul", [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_floating_point_v<T> || is_complex_v<T>) {
      const BlasLibrary* lib = blas_library();
      if (lib && blas_matmul<T>(*lib, a, b, out)) return;
    }
    const Mat b0 = matrix(b, 0);
    // The kernel reads B's rows with unit stride and a whole-element row stride.
    const int64_t item = sizeof(T);
    const bool packed = (b0.cols == 1 || b0.cs == item) && (b0.rows == 1 || b0.rs % item == 0);
    own_kernel<T>(a, packed ? b : contiguous(b), out);
  });
}

}  // namespace gpupy::cpu
