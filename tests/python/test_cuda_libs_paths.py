"""The cuda code paths of gpupy.fft and gpupy.linalg, run on the cpu device against NumPy.

The cuFFT / cuSOLVER primitives of _core are replaced by NumPy stand-ins that follow the C++
side step by step: the same contiguous copies, the same column-major reading of row-major memory
and the same LAPACK conventions (upper triangle for potrf/syevd, the transposed getrs, gesvd on
rows >= cols). This checks the index bookkeeping of src/backend/cuda/{fft,linalg_cuda}.cpp and the
compositions of _cuda_fft / _cuda_linalg on machines without a GPU; tests/python/test_fft.py and
test_linalg_ext.py check the real libraries under --device=cuda.
"""

import gpupy
import numpy as np
import pytest
from gpupy import _core, _cuda_fft, _cuda_linalg  # noqa: F401 - patched below
from gpupy import fft as gfft
from gpupy import linalg as glinalg
from test_linalg_ext import _data


def _np(x):
    return x.get()


def _swap(m):
    return np.swapaxes(m, -1, -2)


def _solver_dtype(dt):
    return dt if dt.kind in "fc" else np.dtype("float64")


def _col_major(a, transpose=False):
    """The C++ copy (C-contiguous, solver dtype) and the column-major matrices cuSOLVER sees."""
    a = _np(a)
    mem = np.ascontiguousarray(_swap(a) if transpose else a, dtype=_solver_dtype(a.dtype))
    return mem, _swap(mem).copy()


def _info(stack, failed):
    return gpupy.asarray(np.asarray(failed, dtype=np.int32).reshape(stack))


def _upper_hermitian(m):
    """The Hermitian matrix LAPACK reads from the upper triangle (UPLO='U')."""
    return np.where(np.triu(np.ones(m.shape[-2:], bool)), m, np.conj(_swap(m)))


def _per_matrix(fn, m):
    stack = m.shape[:-2]
    flat = m.reshape((-1,) + m.shape[-2:])
    return stack, [fn(x) for x in flat]


def fake_cholesky(a, upper):
    mem, m = _col_major(a)
    stack, parts = _per_matrix(lambda x: _potrf(x, lower=upper), m)
    out = np.stack([p[0] for p in parts]).reshape(m.shape) if parts else m
    return gpupy.asarray(_swap(out).copy()), _info(stack, [p[1] for p in parts])


def _potrf(x, lower):
    """LAPACK potrf on one column-major matrix: only the chosen triangle is read and written."""
    keep = np.tril(np.ones(x.shape, bool)) if lower else np.triu(np.ones(x.shape, bool))
    hermitian = np.where(keep, x, np.conj(x.T))
    try:
        factor = np.linalg.cholesky(hermitian)  # L with M = L L^H
    except np.linalg.LinAlgError:
        return x, 1
    return np.where(keep, factor if lower else np.conj(factor.T), x), 0


def _getrf(x):
    lu, n = x.copy(), x.shape[0]
    piv, info = np.zeros(n, np.int64), 0
    for j in range(n):
        p = j + int(np.argmax(np.abs(lu[j:, j])))
        piv[j] = p + 1
        lu[[j, p]] = lu[[p, j]]
        if lu[j, j] == 0:
            info = info or j + 1
            continue
        lu[j + 1 :, j] /= lu[j, j]
        lu[j + 1 :, j + 1 :] -= np.outer(lu[j + 1 :, j], lu[j, j + 1 :])
    return lu, piv, info


def fake_lu_factor(a):
    mem, m = _col_major(a)
    stack, parts = _per_matrix(_getrf, m)
    lu = np.stack([p[0] for p in parts]).reshape(m.shape)
    piv = np.stack([p[1] for p in parts]).reshape(m.shape[:-1])
    return gpupy.asarray(_swap(lu).copy()), gpupy.asarray(piv), _info(stack, [p[2] for p in parts])


def fake_solve(a, b):
    _, m = _col_major(a)  # A^T
    _, bm = _col_major(b, transpose=True)  # B column-major (n x k)
    stack, parts = _per_matrix(_getrf, m)
    info = [p[2] for p in parts]
    x = np.empty(bm.shape, bm.dtype)
    flat_x, flat_m, flat_b = x.reshape((-1,) + x.shape[-2:]), m.reshape((-1,) + m.shape[-2:]), bm
    flat_b = bm.reshape((-1,) + bm.shape[-2:])
    for i in range(flat_m.shape[0]):
        # getrs with CUBLAS_OP_T: (A^T)^T X = B.
        flat_x[i] = flat_b[i] if info[i] else np.linalg.solve(flat_m[i].T, flat_b[i])
    x_mem = np.ascontiguousarray(_swap(x))  # X stored column-major
    return gpupy.asarray(_swap(x_mem)), _info(stack, info)


def fake_eigh(a, vectors):
    mem, m = _col_major(a)  # conj(A) for a Hermitian A
    w, z = np.linalg.eigh(_upper_hermitian(m))
    z_mem = _swap(z)  # column-major eigenvectors of the memory's matrix
    v = np.conj(_swap(z_mem)) if mem.dtype.kind == "c" else _swap(z_mem)
    return gpupy.asarray(w), gpupy.asarray(v), _info(m.shape[:-2], np.zeros(m.shape[:-2]))


def fake_qr(a, mode):
    _, f = _col_major(a, transpose=True)  # A column-major (m x n)
    m, n = f.shape[-2:]
    k = min(m, n)
    q, r = np.linalg.qr(f, mode="complete")
    rows = m if mode == 1 else k
    cols = m if mode == 1 else k
    return (
        gpupy.asarray(q[..., :, :cols]),
        gpupy.asarray(r[..., :rows, :]),
        _info(f.shape[:-2], np.zeros(f.shape[:-2])),
    )


def fake_svd(a, vectors, full):
    x = _np(a)
    m, n = x.shape[-2:]
    wide = n >= m
    _, b = _col_major(a, transpose=not wide)  # rows >= cols
    u_b, s, vt_b = np.linalg.svd(b, full_matrices=full)
    ub_mem, vtb_mem = _swap(u_b), _swap(vt_b)  # stored column-major, read back row-major
    if wide:
        u, vh = vtb_mem, ub_mem
    else:
        u, vh = _swap(ub_mem), _swap(vtb_mem)
    info = _info(x.shape[:-2], np.zeros(x.shape[:-2]))
    return gpupy.asarray(u), gpupy.asarray(s), gpupy.asarray(vh), info


def fake_fft(x, kind, n_out, op):
    y = _np(x)
    single = y.dtype in (np.float32, np.complex64)
    real, cplx = (np.float32, np.complex64) if single else (np.float64, np.complex128)
    n = y.shape[-1]
    if kind == "forward":
        out = np.fft.fft(y.astype(cplx))
    elif kind == "inverse":
        out = np.fft.ifft(y.astype(cplx)) * n
    elif kind == "real_forward":
        out = np.fft.rfft(y.astype(real))
    else:
        assert n == n_out // 2 + 1
        # cuFFT leaves the result for a non-real zero/Nyquist frequency unspecified: make any
        # imaginary part left there visible instead of ignoring it as pocketfft does.
        poison = np.abs(y[..., 0].imag).sum() + (
            np.abs(y[..., -1].imag).sum() if n_out % 2 == 0 else 0
        )
        out = np.fft.irfft(y.astype(cplx), n_out) * n_out + poison
    return gpupy.asarray(out.astype(cplx if kind != "real_inverse" else real))


@pytest.fixture
def cuda_paths(monkeypatch, device_name):
    if device_name != "cpu":
        pytest.skip("the simulated primitives run on cpu arrays")

    def all_on_cuda(op, *arrays):
        return tuple(gpupy.asarray(a) for a in arrays)

    monkeypatch.setattr(gfft, "_on_cuda", all_on_cuda)
    monkeypatch.setattr(glinalg, "_on_cuda", all_on_cuda)
    for name, fn in [
        ("_cuda_fft", fake_fft),
        ("_cuda_cholesky", fake_cholesky),
        ("_cuda_lu_factor", fake_lu_factor),
        ("_cuda_solve", fake_solve),
        ("_cuda_eigh", fake_eigh),
        ("_cuda_qr", fake_qr),
        ("_cuda_svd", fake_svd),
    ]:
        monkeypatch.setattr(_core, name, fn)


def _close(actual, expected, dtype):
    single = np.dtype(dtype) in (np.float32, np.complex64)
    tol = 2e-4 if single else 1e-9
    actual = np.asarray(actual.get() if isinstance(actual, gpupy.ndarray) else actual)
    assert actual.dtype == np.asarray(expected).dtype
    np.testing.assert_allclose(actual, expected, rtol=tol, atol=tol)


DTYPES = ["float32", "float64", "complex64", "complex128"]


@pytest.mark.parametrize("dtype", DTYPES + ["int32"])
@pytest.mark.parametrize("norm", [None, "backward", "ortho", "forward"])
def test_one_axis_transforms(cuda_paths, dtype, norm):
    host = _data((3, 6, 5), dtype, 1)
    x = gpupy.asarray(host)
    for name in ["fft", "ifft", "rfft", "irfft", "hfft", "ihfft"]:
        for axis in (-1, 1, 0):
            for n in (None, 3, 8, 9):
                try:
                    expected = getattr(np.fft, name)(host, n=n, axis=axis, norm=norm)
                except TypeError:
                    with pytest.raises(TypeError):
                        getattr(gfft, name)(x, n=n, axis=axis, norm=norm)
                    continue
                _close(getattr(gfft, name)(x, n=n, axis=axis, norm=norm), expected, dtype)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize(
    "s, axes", [(None, None), ((4, 6), (0, 2)), ((3, -1), (2, 0)), (None, (1,))]
)
def test_n_axes_transforms(cuda_paths, dtype, s, axes):
    host = _data((3, 4, 6), dtype, 2)
    x = gpupy.asarray(host)
    for name in ["fftn", "ifftn", "rfftn", "irfftn"]:
        for norm in ("backward", "ortho", "forward"):
            try:
                expected = getattr(np.fft, name)(host, s=s, axes=axes, norm=norm)
            except TypeError:  # rfftn of complex input
                with pytest.raises(TypeError):
                    getattr(gfft, name)(x, s=s, axes=axes, norm=norm)
                continue
            _close(getattr(gfft, name)(x, s=s, axes=axes, norm=norm), expected, dtype)
    for axes_ in (None, 0, (0, 2)):
        _close(gfft.fftshift(x, axes=axes_), np.fft.fftshift(host, axes=axes_), dtype)
        _close(gfft.ifftshift(x, axes=axes_), np.fft.ifftshift(host, axes=axes_), dtype)


def test_fft_errors(cuda_paths):
    with pytest.raises(ValueError, match=r"^\[fft.fft\]"):
        gfft.fft(gpupy.ones(4), n=0)
    with pytest.raises(IndexError, match=r"^\[fft.ifft\]"):
        gfft.ifft(gpupy.ones(4), axis=1)
    with pytest.raises(TypeError, match=r"^\[fft.rfft\]"):
        gfft.rfft(gpupy.ones(4, dtype="complex64"))


def _spd(shape, dtype, seed):
    a = _data(shape, dtype, seed)
    return (a @ np.conj(_swap(a)) + shape[-1] * np.eye(shape[-1])).astype(dtype)


@pytest.mark.parametrize("dtype", DTYPES + ["int64"])
@pytest.mark.parametrize("shape", [(4, 4), (2, 3, 3), (1, 5, 5)])
def test_square_factorizations(cuda_paths, dtype, shape):
    host = _spd(shape, dtype, 3)
    # Garbage in the strict upper triangle: cholesky and eigh read the lower one, as NumPy does.
    noisy = host + np.triu(_data(shape, dtype, 4), 1)
    b = _data(shape[:-1] + (2,), dtype, 5)
    xn, xb = gpupy.asarray(noisy), gpupy.asarray(b)
    _close(glinalg.cholesky(xn), np.linalg.cholesky(noisy), dtype)
    _close(glinalg.cholesky(xn, upper=True), np.linalg.cholesky(noisy, upper=True), dtype)
    w, v = glinalg.eigh(xn)
    w_np, v_np = np.linalg.eigh(noisy)
    _close(w, w_np, dtype)
    _close(glinalg.eigvalsh(xn), w_np, dtype)
    # Eigenvectors are unique up to a phase: compare |v^H v_np| with the identity.
    overlap = np.abs(np.conj(_swap(v.get())) @ v_np)
    np.testing.assert_allclose(
        overlap, np.broadcast_to(np.eye(shape[-1]), overlap.shape), atol=1e-3
    )
    general = host + _data(shape, dtype, 6)  # not symmetric: checks the transposed reading
    g = gpupy.asarray(general)
    _close(glinalg.det(g), np.linalg.det(general), dtype)
    sign, logabs = glinalg.slogdet(g)
    sign_np, logabs_np = np.linalg.slogdet(general)
    _close(sign, sign_np, dtype)
    _close(logabs, logabs_np, dtype)
    _close(glinalg.inv(g), np.linalg.inv(general), dtype)
    _close(glinalg.solve(g, xb), np.linalg.solve(general, b), dtype)
    if len(shape) == 2:  # a vector right-hand side
        _close(glinalg.solve(g, xb[..., 0]), np.linalg.solve(general, b[..., 0]), dtype)
    for p in (None, 2, -2, 1, -1, np.inf, "fro", "nuc"):
        _close(glinalg.cond(g, p), np.linalg.cond(general, p), dtype)
    for k in (-2, 0, 1, 3, 6):
        if k < 0 and np.dtype(dtype).kind in "iu":
            continue
        _close(glinalg.matrix_power(g, k), np.linalg.matrix_power(general, k), dtype)


@pytest.mark.parametrize("dtype", DTYPES + ["int32"])
@pytest.mark.parametrize("shape", [(5, 3), (3, 5), (2, 4, 4), (2, 2, 3, 6), (2, 6, 2)])
def test_rectangular_factorizations(cuda_paths, dtype, shape):
    host = _data(shape, dtype, 7)
    x = gpupy.asarray(host)
    for mode in ("reduced", "complete"):
        q, r = glinalg.qr(x, mode=mode)
        q_np, r_np = np.linalg.qr(host, mode=mode)
        _close(q @ r, q_np @ r_np, dtype)
        _close(gpupy.abs(r), np.abs(r_np), dtype)  # R is unique up to the signs of its rows
        assert q.shape == q_np.shape
    _close(gpupy.abs(glinalg.qr(x, mode="r")), np.abs(np.linalg.qr(host, mode="r")), dtype)
    for full in (True, False):
        u, s, vh = glinalg.svd(x, full_matrices=full)
        u_np, s_np, vh_np = np.linalg.svd(host, full_matrices=full)
        assert u.shape == u_np.shape and vh.shape == vh_np.shape
        _close(s, s_np, dtype)
        k = s_np.shape[-1]
        _close((u[..., :, :k] * s[..., None, :]) @ vh[..., :k, :], host.astype(u_np.dtype), dtype)
    _close(glinalg.svdvals(x), np.linalg.svdvals(host), dtype)
    _close(glinalg.pinv(x), np.linalg.pinv(host), dtype)
    _close(glinalg.matrix_rank(x), np.linalg.matrix_rank(host), "int64")
    for ord_ in ("fro", "nuc", 1, -1, 2, -2, np.inf, -np.inf):
        for keepdims in (False, True):
            expected = np.linalg.matrix_norm(host, ord=ord_, keepdims=keepdims)
            _close(glinalg.matrix_norm(x, ord=ord_, keepdims=keepdims), expected, dtype)
    for ord_ in (2, 1, 0, 3, np.inf, -np.inf):
        for axis in (None, -1, (0, 1)):
            expected = np.linalg.vector_norm(host, ord=ord_, axis=axis)
            _close(glinalg.vector_norm(x, ord=ord_, axis=axis), expected, dtype)
    _close(glinalg.norm(x), np.linalg.norm(host), dtype)
    _close(
        glinalg.norm(x, axis=(0, -1), keepdims=True),
        np.linalg.norm(host, axis=(0, -1), keepdims=True),
        dtype,
    )


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize(
    "shape, rhs", [((6, 3), (6,)), ((6, 3), (6, 2)), ((3, 5), (3, 2)), ((4, 4), (4,))]
)
def test_lstsq(cuda_paths, dtype, shape, rhs):
    a, b = _data(shape, dtype, 8), _data(rhs, dtype, 9)
    got = glinalg.lstsq(gpupy.asarray(a), gpupy.asarray(b))
    expected = np.linalg.lstsq(a, b)
    for g, e in zip(got, expected, strict=True):
        _close(g, np.asarray(e), dtype if np.asarray(e).dtype.kind in "fc" else "int32")


def test_singular_and_invalid(cuda_paths):
    singular = gpupy.asarray(np.array([[[1.0, 2.0], [2.0, 4.0]], [[1.0, 0.0], [0.0, 1.0]]]))
    with pytest.raises(np.linalg.LinAlgError, match=r"^\[linalg.inv\] Singular matrix"):
        glinalg.inv(singular)
    with pytest.raises(np.linalg.LinAlgError, match=r"^\[linalg.solve\] Singular matrix"):
        glinalg.solve(singular, gpupy.ones((2, 2, 1)))
    with pytest.raises(np.linalg.LinAlgError, match=r"positive definite"):
        glinalg.cholesky(gpupy.asarray(-np.eye(3)))
    with pytest.raises(np.linalg.LinAlgError, match=r"square"):
        glinalg.det(gpupy.ones((2, 3)))
    with pytest.raises(np.linalg.LinAlgError, match=r"two-dimensional"):
        glinalg.svd(gpupy.ones(3))
    with pytest.raises(ValueError, match=r"^\[linalg.qr\]"):
        glinalg.qr(gpupy.ones((2, 2)), mode="bad")
    np.testing.assert_allclose(glinalg.det(singular).get(), [0.0, 1.0])
    sign, logabs = glinalg.slogdet(singular)
    np.testing.assert_array_equal(sign.get(), [0.0, 1.0])
    np.testing.assert_array_equal(logabs.get(), [-np.inf, 0.0])
    csign, clog = glinalg.slogdet(singular.astype("complex128"))
    np.testing.assert_array_equal(csign.get(), [0.0, 1.0])
    assert np.isinf(glinalg.cond(singular, 1).get()[0])
    _close(
        glinalg.cross(gpupy.asarray(np.eye(3)), gpupy.asarray(np.ones((3, 3))), axis=0),
        np.linalg.cross(np.eye(3), np.ones((3, 3)), axis=0),
        "float64",
    )
    with pytest.raises(NotImplementedError, match=r"^\[linalg.eig\]"):
        glinalg.eig(gpupy.eye(2))
