// gpupy.linalg on cuda: cuSOLVER, dlopen-ed at first use, factorizes each matrix of a stack in a
// host loop on the current stream. cuSOLVER is column-major: a C-contiguous (rows, cols) matrix
// is read as its transpose, which each routine below turns to its advantage. Host only.
#include <cusolverDn.h>

#include <algorithm>
#include <climits>
#include <mutex>
#include <string>
#include <vector>

#include "../../core/cuda_library.h"
#include "../cuda_libs.h"
#include "cuda_backend.h"
#include "gpupy/error.h"
#include "gpupy/ops.h"
#include "kernels.h"
#include "stream.h"

namespace gpupy::cuda {
namespace {

struct CusolverApi {
  decltype(&cusolverDnCreate) create = nullptr;
  decltype(&cusolverDnSetStream) set_stream = nullptr;
  decltype(&cusolverDnCreateParams) create_params = nullptr;
  decltype(&cusolverDnXpotrf_bufferSize) potrf_size = nullptr;
  decltype(&cusolverDnXpotrf) potrf = nullptr;
  decltype(&cusolverDnXgetrf_bufferSize) getrf_size = nullptr;
  decltype(&cusolverDnXgetrf) getrf = nullptr;
  decltype(&cusolverDnXgetrs) getrs = nullptr;
  decltype(&cusolverDnXsyevd_bufferSize) syevd_size = nullptr;
  decltype(&cusolverDnXsyevd) syevd = nullptr;
  decltype(&cusolverDnXgeqrf_bufferSize) geqrf_size = nullptr;
  decltype(&cusolverDnXgeqrf) geqrf = nullptr;
  decltype(&cusolverDnXgesvd_bufferSize) gesvd_size = nullptr;
  decltype(&cusolverDnXgesvd) gesvd = nullptr;
  // Q of a QR factorization has no generic-API routine: one per dtype.
  decltype(&cusolverDnSorgqr_bufferSize) sorgqr_size = nullptr;
  decltype(&cusolverDnDorgqr_bufferSize) dorgqr_size = nullptr;
  decltype(&cusolverDnCungqr_bufferSize) cungqr_size = nullptr;
  decltype(&cusolverDnZungqr_bufferSize) zungqr_size = nullptr;
  decltype(&cusolverDnSorgqr) sorgqr = nullptr;
  decltype(&cusolverDnDorgqr) dorgqr = nullptr;
  decltype(&cusolverDnCungqr) cungqr = nullptr;
  decltype(&cusolverDnZungqr) zungqr = nullptr;
};

LoadedLibrary<CusolverApi> load() {
  return load_cuda_library<CusolverApi>(
      "GPUPY_CUSOLVER_LIBRARY", {"libcusolver.so.12", "libcusolver.so.11", "libcusolver.so"},
      "cuSOLVER", [](void* lib, CusolverApi& a, std::string& e) {
#define GPUPY_RESOLVE(field, symbol) resolve_symbol(lib, #symbol, a.field, e, "libcusolver")
        GPUPY_RESOLVE(create, cusolverDnCreate);
        GPUPY_RESOLVE(set_stream, cusolverDnSetStream);
        GPUPY_RESOLVE(create_params, cusolverDnCreateParams);
        GPUPY_RESOLVE(potrf_size, cusolverDnXpotrf_bufferSize);
        GPUPY_RESOLVE(potrf, cusolverDnXpotrf);
        GPUPY_RESOLVE(getrf_size, cusolverDnXgetrf_bufferSize);
        GPUPY_RESOLVE(getrf, cusolverDnXgetrf);
        GPUPY_RESOLVE(getrs, cusolverDnXgetrs);
        GPUPY_RESOLVE(syevd_size, cusolverDnXsyevd_bufferSize);
        GPUPY_RESOLVE(syevd, cusolverDnXsyevd);
        GPUPY_RESOLVE(geqrf_size, cusolverDnXgeqrf_bufferSize);
        GPUPY_RESOLVE(geqrf, cusolverDnXgeqrf);
        GPUPY_RESOLVE(gesvd_size, cusolverDnXgesvd_bufferSize);
        GPUPY_RESOLVE(gesvd, cusolverDnXgesvd);
        GPUPY_RESOLVE(sorgqr_size, cusolverDnSorgqr_bufferSize);
        GPUPY_RESOLVE(dorgqr_size, cusolverDnDorgqr_bufferSize);
        GPUPY_RESOLVE(cungqr_size, cusolverDnCungqr_bufferSize);
        GPUPY_RESOLVE(zungqr_size, cusolverDnZungqr_bufferSize);
        GPUPY_RESOLVE(sorgqr, cusolverDnSorgqr);
        GPUPY_RESOLVE(dorgqr, cusolverDnDorgqr);
        GPUPY_RESOLVE(cungqr, cusolverDnCungqr);
        GPUPY_RESOLVE(zungqr, cusolverDnZungqr);
#undef GPUPY_RESOLVE
      });
}

const CusolverApi& cusolver(const char* op) {
  static const LoadedLibrary<CusolverApi> loaded = load();
  if (!loaded.error.empty()) throw CudaError(op_message(op, loaded.error));
  return loaded.api;
}

std::string status_name(cusolverStatus_t s) {
  switch (s) {
    case CUSOLVER_STATUS_NOT_INITIALIZED:
      return "CUSOLVER_STATUS_NOT_INITIALIZED";
    case CUSOLVER_STATUS_ALLOC_FAILED:
      return "CUSOLVER_STATUS_ALLOC_FAILED";
    case CUSOLVER_STATUS_INVALID_VALUE:
      return "CUSOLVER_STATUS_INVALID_VALUE";
    case CUSOLVER_STATUS_ARCH_MISMATCH:
      return "CUSOLVER_STATUS_ARCH_MISMATCH";
    case CUSOLVER_STATUS_EXECUTION_FAILED:
      return "CUSOLVER_STATUS_EXECUTION_FAILED";
    case CUSOLVER_STATUS_INTERNAL_ERROR:
      return "CUSOLVER_STATUS_INTERNAL_ERROR";
    case CUSOLVER_STATUS_NOT_SUPPORTED:
      return "CUSOLVER_STATUS_NOT_SUPPORTED";
    default:
      return "cuSOLVER status " + std::to_string(static_cast<int>(s));
  }
}

DType solver_dtype(DType dt) {
  switch (dt) {
    case DType::float32:
    case DType::float64:
    case DType::complex64:
    case DType::complex128:
      return dt;
    default:
      return DType::float64;  // bool and integers, as NumPy converts them
  }
}

cudaDataType data_type(DType dt) {
  switch (dt) {
    case DType::float32:
      return CUDA_R_32F;
    case DType::float64:
      return CUDA_R_64F;
    case DType::complex64:
      return CUDA_C_32F;
    default:
      return CUDA_C_64F;
  }
}

DType real_of(DType dt) {
  return dt == DType::float32 || dt == DType::complex64 ? DType::float32 : DType::float64;
}

std::mutex g_mutex;  // a cuSOLVER handle is not safe to use from two threads at once

// One call of a public function: the validated stack of matrices, the device's handle (bound to
// the current stream) and the lock that serializes use of the handle.
class Session {
 public:
  Session(const Array& a, const char* op)
      : op(op),
        api(cusolver(op)),
        device(checked_device(a, op)),
        lock_(g_mutex),
        guard_(device.index) {
    dtype = solver_dtype(a.dtype());
    real = real_of(dtype);
    type = data_type(dtype);
    real_type = data_type(real);
    m = a.shape()[a.ndim() - 2];
    n = a.shape()[a.ndim() - 1];
    stack = Shape(a.shape().begin(), a.shape().end() - 2);
    count = shape_size(stack);
    stream = current_raw_stream(device.index);  // user arrays enter through copy()
    static cusolverDnHandle_t handles[kMaxDevices] = {};
    static cusolverDnParams_t params_of[kMaxDevices] = {};
    if (!handles[device.index]) {
      check(api.create(&handles[device.index]), "cusolverDnCreate");
      check(api.create_params(&params_of[device.index]), "cusolverDnCreateParams");
    }
    handle = handles[device.index];
    params = params_of[device.index];
    check(api.set_stream(handle, stream), "cusolverDnSetStream");
  }

  void check(cusolverStatus_t status, const char* call) const {
    if (status != CUSOLVER_STATUS_SUCCESS)
      throw CudaError(op_message(op, std::string(call) + " failed: " + status_name(status)));
  }
  void require_square() const {
    if (m != n)
      throw ValueError(op_message(op, "Last 2 dimensions of the array must be square, got (" +
                                          std::to_string(m) + ", " + std::to_string(n) + ")"));
  }
  // A C-contiguous copy (of the matrix transposes when `transpose`) in the solver dtype.
  Array copy(const Array& a, bool transpose) const {
    Array src = transpose ? matrix_transpose(a) : a;
    Array dst = Array::empty(src.shape(), dtype, device);
    if (dst.size() > 0) launch_copy(src, dst, backend_of(device.index).stream_for(src));
    return dst;
  }
  // A new array of shape stack + tail.
  Array stacked(std::initializer_list<int64_t> tail, DType dt) const {
    Shape shape = stack;
    shape.insert(shape.end(), tail);
    return Array::empty(shape, dt, device);
  }
  Array info() const {
    Array out = stacked({}, DType::int32);
    if (count > 0) launch_fill(out, Scalar(int64_t{0}).cast(DType::int32), stream);
    return out;
  }
  // Identity matrices (rows x cols) for every matrix of the stack.
  Array identity(int64_t rows, int64_t cols) const {
    Array out = stacked({rows, cols}, dtype);
    if (out.size() > 0) assign(out, Operand(eye(rows, cols, 0, dtype, device)));
    return out;
  }
  // Address of matrix `i` of a stacked array.
  char* at(const Array& x, int64_t i) const { return x.data() + i * (x.nbytes() / count); }
  int* info_at(const Array& info, int64_t i) const {
    return reinterpret_cast<int*>(info.data()) + i;
  }

  const char* op;
  const CusolverApi& api;
  Device device;
  DType dtype = DType::float64, real = DType::float64;
  cudaDataType type = CUDA_R_64F, real_type = CUDA_R_64F;
  int64_t m = 0, n = 0, count = 0;
  Shape stack;
  cudaStream_t stream = nullptr;
  cusolverDnHandle_t handle = nullptr;
  cusolverDnParams_t params = nullptr;

 private:
  static Device checked_device(const Array& a, const char* op) {
    if (a.device().type != DeviceType::cuda)
      throw ValueError(op_message(op, "the cuSOLVER path expects a cuda array"));
    if (a.ndim() < 2)
      throw ValueError(op_message(op, std::to_string(a.ndim()) +
                                          "-dimensional array given. Array must be at least "
                                          "two-dimensional"));
    require_device(a.device().index);
    return a.device();
  }
  std::unique_lock<std::mutex> lock_;
  DeviceGuard guard_;
};

// Device and host workspace of one routine; the host part lives until the queued calls are done.
struct Workspace {
  Workspace(const Session& s, size_t device_bytes, size_t host_bytes)
      : device(Array::empty({static_cast<int64_t>(std::max<size_t>(device_bytes, 1))}, DType::uint8,
                            s.device)),
        host(host_bytes),
        stream(s.stream) {}
  ~Workspace() {
    if (!host.empty()) cudaStreamSynchronize(stream);
  }
  void* dev() const { return device.data(); }
  void* hst() { return host.empty() ? nullptr : host.data(); }
  Array device;
  std::vector<char> host;
  cudaStream_t stream;
};

int checked_int(int64_t v, const char* op) {
  if (v > INT_MAX)
    throw NotImplementedError(op_message(op, "matrices beyond 2**31-1 rows are not supported"));
  return static_cast<int>(v);
}

// Generates the first `cols` columns of Q (m x cols, leading dimension m) in place from the k
// reflectors and `tau` left by geqrf, for each matrix of `a`.
template <class T, class SizeFn, class Fn>
void orgqr_as(const Session& s, SizeFn size_fn, Fn fn, const Array& a, const Array& tau,
              int64_t cols, int64_t k, const Array& info) {
  int m = checked_int(s.m, s.op), c = checked_int(cols, s.op), kk = checked_int(k, s.op);
  int lwork = 0;
  s.check(size_fn(s.handle, m, c, kk, reinterpret_cast<const T*>(a.data()), m,
                  reinterpret_cast<const T*>(tau.data()), &lwork),
          "orgqr_bufferSize");
  Array work = Array::empty({static_cast<int64_t>(std::max(lwork, 1))}, s.dtype, s.device);
  for (int64_t i = 0; i < s.count; ++i)
    s.check(fn(s.handle, m, c, kk, reinterpret_cast<T*>(s.at(a, i)), m,
               reinterpret_cast<const T*>(s.at(tau, i)), reinterpret_cast<T*>(work.data()), lwork,
               s.info_at(info, i)),
            "orgqr");
}

void orgqr(const Session& s, const Array& a, const Array& tau, int64_t cols, int64_t k,
           const Array& info) {
  const CusolverApi& p = s.api;
  switch (s.dtype) {
    case DType::float32:
      return orgqr_as<float>(s, p.sorgqr_size, p.sorgqr, a, tau, cols, k, info);
    case DType::float64:
      return orgqr_as<double>(s, p.dorgqr_size, p.dorgqr, a, tau, cols, k, info);
    case DType::complex64:
      return orgqr_as<cuComplex>(s, p.cungqr_size, p.cungqr, a, tau, cols, k, info);
    default:
      return orgqr_as<cuDoubleComplex>(s, p.zungqr_size, p.zungqr, a, tau, cols, k, info);
  }
}

// a[..., :rows, :] as a view.
Array leading_rows(const Array& a, int64_t rows) {
  IndexItem all_before;
  all_before.kind = IndexItem::Kind::ellipsis;
  IndexItem slice;
  slice.kind = IndexItem::Kind::slice;
  slice.stop = rows;  // start 0 and step 1 by default, as in Python
  IndexItem all;
  all.kind = IndexItem::Kind::slice;
  return getitem(a, {all_before, slice, all});
}

}  // namespace

std::pair<Array, Array> cholesky(const Array& a, bool upper) {
  Session s(a, "linalg.cholesky");
  s.require_square();
  // Read column-major the memory is M = conj(A). potrf on M's upper triangle (A's lower one) gives
  // M = U^H U, and U read back row-major is U^T with A = U^T conj(U): the lower factor. On M's
  // lower triangle (A's upper one) it gives M = L L^H, read back as the upper factor L^T.
  cublasFillMode_t fill = upper ? CUBLAS_FILL_MODE_LOWER : CUBLAS_FILL_MODE_UPPER;
  Array f = s.copy(a, false);
  Array info = s.info();
  if (s.count == 0 || s.n == 0) return {f, info};
  size_t dev = 0, host = 0;
  s.check(
      s.api.potrf_size(s.handle, s.params, fill, s.n, s.type, f.data(), s.n, s.type, &dev, &host),
      "cusolverDnXpotrf_bufferSize");
  Workspace w(s, dev, host);
  for (int64_t i = 0; i < s.count; ++i)
    s.check(s.api.potrf(s.handle, s.params, fill, s.n, s.type, s.at(f, i), s.n, s.type, w.dev(),
                        dev, w.hst(), host, s.info_at(info, i)),
            "cusolverDnXpotrf");
  return {f, info};
}

namespace {
// getrf in place on each matrix of `lu` (square, n x n): 1-based int64 pivots and info.
void getrf_all(const Session& s, const Array& lu, const Array& pivots, const Array& info) {
  if (s.count == 0 || s.n == 0) return;
  size_t dev = 0, host = 0;
  s.check(
      s.api.getrf_size(s.handle, s.params, s.n, s.n, s.type, lu.data(), s.n, s.type, &dev, &host),
      "cusolverDnXgetrf_bufferSize");
  Workspace w(s, dev, host);
  for (int64_t i = 0; i < s.count; ++i)
    s.check(s.api.getrf(s.handle, s.params, s.n, s.n, s.type, s.at(lu, i), s.n,
                        reinterpret_cast<int64_t*>(s.at(pivots, i)), s.type, w.dev(), dev, w.hst(),
                        host, s.info_at(info, i)),
            "cusolverDnXgetrf");
}
}  // namespace

std::tuple<Array, Array, Array> lu_factor(const Array& a) {
  Session s(a, "linalg.det");
  s.require_square();
  Array lu = s.copy(a, false);  // the factors of A^T: det(A^T) = det(A)
  Array pivots = s.stacked({s.n}, DType::int64);
  Array info = s.info();
  getrf_all(s, lu, pivots, info);
  return {lu, pivots, info};
}

std::pair<Array, Array> solve(const Array& a, const Array& b) {
  Session s(a, "linalg.solve");
  s.require_square();
  if (b.ndim() != a.ndim() || b.shape()[b.ndim() - 2] != s.n ||
      !std::equal(s.stack.begin(), s.stack.end(), b.shape().begin()))
    throw ValueError(op_message(s.op, "b must have the shape of a's stack of (n, k) matrices"));
  int64_t k = b.shape().back();
  // The memory of a is A^T column-major: its LU solves A X = B with the transposed operation.
  // B and X are column-major, i.e. stored as the row-major transposes (k, n).
  Array lu = s.copy(a, false);
  Array x = s.copy(b, true);
  Array pivots = s.stacked({s.n}, DType::int64);
  Array info = s.info();
  getrf_all(s, lu, pivots, info);
  if (s.count > 0 && s.n > 0 && k > 0) {
    Array solve_info = s.info();  // getrs reports only invalid arguments; getrf's info is kept
    for (int64_t i = 0; i < s.count; ++i)
      s.check(s.api.getrs(s.handle, s.params, CUBLAS_OP_T, s.n, k, s.type, s.at(lu, i), s.n,
                          reinterpret_cast<const int64_t*>(s.at(pivots, i)), s.type, s.at(x, i),
                          s.n, s.info_at(solve_info, i)),
              "cusolverDnXgetrs");
  }
  return {matrix_transpose(x), info};
}

std::tuple<Array, Array, Array> eigh(const Array& a, bool vectors) {
  Session s(a, "linalg.eigh");
  s.require_square();
  // The memory is conj(A) column-major; its upper triangle is A's lower one, its eigenvalues are
  // A's, and its eigenvectors are the conjugates of A's.
  Array v = s.copy(a, false);
  Array w = s.stacked({s.n}, s.real);
  Array info = s.info();
  if (s.count > 0 && s.n > 0) {
    cusolverEigMode_t job = vectors ? CUSOLVER_EIG_MODE_VECTOR : CUSOLVER_EIG_MODE_NOVECTOR;
    size_t dev = 0, host = 0;
    s.check(s.api.syevd_size(s.handle, s.params, job, CUBLAS_FILL_MODE_UPPER, s.n, s.type, v.data(),
                             s.n, s.real_type, w.data(), s.type, &dev, &host),
            "cusolverDnXsyevd_bufferSize");
    Workspace ws(s, dev, host);
    for (int64_t i = 0; i < s.count; ++i)
      s.check(s.api.syevd(s.handle, s.params, job, CUBLAS_FILL_MODE_UPPER, s.n, s.type, s.at(v, i),
                          s.n, s.real_type, s.at(w, i), s.type, ws.dev(), dev, ws.hst(), host,
                          s.info_at(info, i)),
              "cusolverDnXsyevd");
  }
  // Column j of the stored matrix (row j read row-major) is conj of A's eigenvector j.
  Array vt = matrix_transpose(v);
  bool complex = s.dtype == DType::complex64 || s.dtype == DType::complex128;
  return {w, complex && vectors ? conjugate(vt) : vt, info};
}

std::tuple<Array, Array, Array> qr(const Array& a, int mode) {
  Session s(a, "linalg.qr");
  int64_t m = s.m, n = s.n, k = std::min(m, n);
  // The copy of A^T is A column-major (m x n, leading dimension m).
  Array f = s.copy(a, true);
  Array tau = s.stacked({k}, s.dtype);
  Array info = s.info();
  if (s.count > 0 && k > 0) {
    size_t dev = 0, host = 0;
    s.check(s.api.geqrf_size(s.handle, s.params, m, n, s.type, f.data(), m, s.type, tau.data(),
                             s.type, &dev, &host),
            "cusolverDnXgeqrf_bufferSize");
    Workspace w(s, dev, host);
    for (int64_t i = 0; i < s.count; ++i)
      s.check(s.api.geqrf(s.handle, s.params, m, n, s.type, s.at(f, i), m, s.type, s.at(tau, i),
                          s.type, w.dev(), dev, w.hst(), host, s.info_at(info, i)),
              "cusolverDnXgeqrf");
  }
  Array r = triu(leading_rows(matrix_transpose(f), mode == 1 ? m : k));
  if (mode == 2) return {r, r, info};
  int64_t cols = mode == 1 ? m : k;
  if (k == 0 || s.count == 0) return {s.identity(m, cols), r, info};
  Array q = f;
  if (cols > n) {  // complete Q of a tall matrix: room for m columns, the reflectors first
    q = s.stacked({m, m}, s.dtype);
    launch_fill(q, Scalar(int64_t{0}).cast(s.dtype), s.stream);
    launch_copy(f, leading_rows(q, n), s.stream);
  }
  orgqr(s, q, tau, cols, k, info);
  return {matrix_transpose(leading_rows(q, cols)), r, info};
}

std::tuple<Array, Array, Array, Array> svd(const Array& a, bool vectors, bool full_matrices) {
  Session s(a, "linalg.svd");
  int64_t m = s.m, n = s.n, k = std::min(m, n);
  // gesvd needs rows >= cols. A wide A is stored as B = A^T (n x m) column-major, and
  // A = conj(V_B) S U_B^T; a tall one is copied transposed, i.e. A itself column-major.
  bool wide = n >= m;
  int64_t rows = wide ? n : m;  // cols of the column-major problem is k
  int64_t ucols = full_matrices ? rows : k;
  Array f = s.copy(a, !wide);
  Array sv = s.stacked({k}, s.real);
  Array info = s.info();
  if (k == 0 || s.count == 0) {
    Array u = s.identity(m, full_matrices ? m : k), vh = s.identity(full_matrices ? n : k, n);
    return {u, sv, vh, info};
  }
  // U_B is rows x ucols, stored as (ucols, rows); VT_B is k x k.
  Array ub = vectors ? s.stacked({ucols, rows}, s.dtype) : s.stacked({0}, s.dtype);
  Array vtb = vectors ? s.stacked({k, k}, s.dtype) : s.stacked({0}, s.dtype);
  signed char jobu = vectors ? (full_matrices ? 'A' : 'S') : 'N';
  signed char jobvt = vectors ? 'A' : 'N';
  void* u0 = vectors ? ub.data() : nullptr;
  void* vt0 = vectors ? vtb.data() : nullptr;
  size_t dev = 0, host = 0;
  s.check(s.api.gesvd_size(s.handle, s.params, jobu, jobvt, rows, k, s.type, f.data(), rows,
                           s.real_type, sv.data(), s.type, u0, rows, s.type, vt0, k, s.type, &dev,
                           &host),
          "cusolverDnXgesvd_bufferSize");
  Workspace w(s, dev, host);
  for (int64_t i = 0; i < s.count; ++i)
    s.check(s.api.gesvd(s.handle, s.params, jobu, jobvt, rows, k, s.type, s.at(f, i), rows,
                        s.real_type, s.at(sv, i), s.type, vectors ? s.at(ub, i) : nullptr, rows,
                        s.type, vectors ? s.at(vtb, i) : nullptr, k, s.type, w.dev(), dev, w.hst(),
                        host, s.info_at(info, i)),
            "cusolverDnXgesvd");
  if (!vectors) return {ub, sv, vtb, info};
  // Row-major reads: ub is U_B^T and vtb is (V_B^H)^T.
  if (wide) return {vtb, sv, ub, info};  // U = conj(V_B) = vtb, Vh = U_B^T = ub
  return {matrix_transpose(ub), sv, matrix_transpose(vtb), info};
}

}  // namespace gpupy::cuda
