// The NVIDIA libraries behind gpupy.fft and gpupy.linalg on cuda: cuFFT transforms along the last
// axis and cuSOLVER factorizations of stacks of matrices. src/backend/cuda/ implements them in CUDA
// builds and cuda_stub.cpp otherwise (where they throw), so the bindings need no #ifdef. Each works
// on a C-contiguous copy of its input made on the device; gpupy/fft.py and gpupy/linalg.py build
// NumPy's functions from them. Host only.
#pragma once

#include <cstdint>
#include <tuple>
#include <utility>

#include "gpupy/array.h"

namespace gpupy::cuda {

/// Which cuFFT transform: complex forward/inverse (C2C, Z2Z), real to half spectrum (R2C, D2Z),
/// half spectrum to real (C2R, Z2D).
enum class FftKind { forward, inverse, real_forward, real_inverse };

/// Unnormalised transform along the last axis of a cuda array, batched over the other axes, on the
/// current stream. float32/complex64 run in single precision, other dtypes are converted to
/// double. real_inverse takes n_out/2+1 complex values per row and returns n_out reals; the other
/// kinds ignore n_out. `op` names the caller in errors.
Array fft(const Array& x, FftKind kind, int64_t n_out, const char* op);

// The cuSOLVER routines take a stack (..., m, n) of float32/float64/complex64/complex128 matrices
// and return the LAPACK `info` of each matrix as an int32 array of the stack's shape (> 0: the
// factorization failed, e.g. a singular matrix), so that the caller raises LinAlgError.

/// Cholesky factor: lower L (A = L L^H) from A's lower triangle, or with `upper` the upper U
/// (A = U^H U) from the upper triangle, as NumPy reads them; the other strict triangle of the
/// result is unspecified (the caller applies tril or triu): (factor, info).
std::pair<Array, Array> cholesky(const Array& a, bool upper);
/// LU factorization with partial pivoting of A^T: (factors, 1-based int64 pivots, info). The
/// diagonal and the pivot parity are those of A's (what det and slogdet need).
std::tuple<Array, Array, Array> lu_factor(const Array& a);
/// X with A X = B for a (..., n, n) and b (..., n, k) of the same stack shape and dtype: (X, info).
std::pair<Array, Array> solve(const Array& a, const Array& b);
/// Eigenvalues (ascending, real dtype) of Hermitian matrices read from their lower triangle, and
/// the eigenvectors as columns (unspecified when `vectors` is false): (w, V, info).
std::tuple<Array, Array, Array> eigh(const Array& a, bool vectors);
/// QR factorization: mode 0 reduced (Q m x k, R k x n), 1 complete (Q m x m, R m x n), 2 R only
/// (Q unspecified), with k = min(m, n): (Q, R, info).
std::tuple<Array, Array, Array> qr(const Array& a, int mode);
/// Singular value decomposition A = U diag(S) Vh, S descending in the real dtype; U and Vh are
/// unspecified when `vectors` is false: (U, S, Vh, info).
std::tuple<Array, Array, Array, Array> svd(const Array& a, bool vectors, bool full_matrices);

}  // namespace gpupy::cuda
