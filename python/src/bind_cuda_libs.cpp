// Bindings of the cuFFT and cuSOLVER entry points that gpupy.fft and gpupy.linalg compose for cuda
// arrays. Builds without CUDA bind the same names; their C++ side throws. Host compiler.
#include <nanobind/stl/pair.h>
#include <nanobind/stl/tuple.h>

#include "../../src/backend/cuda_libs.h"
#include "bindings.h"

namespace gpupy::py {
namespace {
using namespace nb::literals;

cuda::FftKind fft_kind(const std::string& kind) {
  if (kind == "forward") return cuda::FftKind::forward;
  if (kind == "inverse") return cuda::FftKind::inverse;
  if (kind == "real_forward") return cuda::FftKind::real_forward;
  if (kind == "real_inverse") return cuda::FftKind::real_inverse;
  throw ValueError("[fft] unknown transform kind '" + kind + "'");
}

}  // namespace

void bind_cuda_libs(nb::module_& m) {
  m.def(
      "_cuda_fft",
      [](const Array& x, const std::string& kind, int64_t n_out, const std::string& op) {
        cuda::FftKind k = fft_kind(kind);
        nb::gil_scoped_release release;
        return cuda::fft(x, k, n_out, op.c_str());
      },
      "x"_a, "kind"_a, "n_out"_a, "op"_a,
      "Unnormalised cuFFT transform along the last axis (kind: forward, inverse, real_forward, "
      "real_inverse; n_out: the real length of real_inverse).");
  m.def("_cuda_cholesky", &cuda::cholesky, nb::call_guard<nb::gil_scoped_release>(), "a"_a,
        "upper"_a, "cuSOLVER potrf: (factor in its lower or upper triangle, info).");
  m.def("_cuda_lu_factor", &cuda::lu_factor, nb::call_guard<nb::gil_scoped_release>(), "a"_a,
        "cuSOLVER getrf of A^T: (factors, 1-based pivots, info).");
  m.def("_cuda_solve", &cuda::solve, nb::call_guard<nb::gil_scoped_release>(), "a"_a, "b"_a,
        "cuSOLVER getrf + getrs: (X with A X = B, info).");
  m.def("_cuda_eigh", &cuda::eigh, nb::call_guard<nb::gil_scoped_release>(), "a"_a, "vectors"_a,
        "cuSOLVER syevd/heevd: (eigenvalues, eigenvectors, info).");
  m.def("_cuda_qr", &cuda::qr, nb::call_guard<nb::gil_scoped_release>(), "a"_a, "mode"_a,
        "cuSOLVER geqrf + orgqr/ungqr (mode 0 reduced, 1 complete, 2 r): (Q, R, info).");
  m.def("_cuda_svd", &cuda::svd, nb::call_guard<nb::gil_scoped_release>(), "a"_a, "vectors"_a,
        "full_matrices"_a, "cuSOLVER gesvd: (U, S, Vh, info).");
}

}  // namespace gpupy::py
