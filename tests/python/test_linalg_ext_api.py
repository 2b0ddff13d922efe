"""gpupy.linalg against numpy.linalg on the selected device: devices and placement of results,
multi_dot, tensorinv and tensorsolve, NumPy's signatures (svd, eigh's UPLO, matrix_rank, pinv,
qr) and errors named after the operation."""

import gpupy
import numpy as np
import pytest
from gpupy import testing
from linalg_helpers import _data, _rtol, _spd


def test_linalgerror_is_numpys(device_name):
    assert gpupy.linalg.LinAlgError is np.linalg.LinAlgError
    with pytest.raises(np.linalg.LinAlgError):
        gpupy.linalg.cholesky(gpupy.asarray(-np.eye(3), device=device_name))
    with pytest.raises(np.linalg.LinAlgError):
        gpupy.linalg.solve(gpupy.zeros((2, 2), device=device_name), gpupy.ones(2))


def test_results_on_input_device_without_implicit_conversion(device_name):
    a = gpupy.asarray(_spd((3, 3), "float64", 19), device=device_name)
    results = [gpupy.linalg.inv(a), gpupy.linalg.det(a), *gpupy.linalg.svd(a)]
    for r in results:
        assert isinstance(r, gpupy.ndarray)
        assert r.device == a.device
    assert isinstance(gpupy.linalg.eigh(a).eigenvalues, gpupy.ndarray)
    if device_name == "emu":
        with pytest.raises(TypeError):
            np.asarray(a)
        with pytest.raises(TypeError):
            np.asarray(results[0])


def test_input_is_not_written(device_name):
    host = _spd((3, 3), "float64", 20)
    a = gpupy.asarray(host, device=device_name)
    gpupy.linalg.inv(a)
    gpupy.linalg.cholesky(a)
    np.testing.assert_array_equal(a.get(), host)


def test_host_view_is_zero_copy(device_name):
    if device_name == "cuda":
        pytest.skip("host views exist for host memory only")
    a = gpupy.asarray(np.arange(6.0).reshape(2, 3), device=device_name)
    view = gpupy._core._host_view(a)
    assert view.ctypes.data == a._data_ptr
    # The view's base keeps `a` alive: a memoryview of it (cpu) or a holder of it (emu).
    holder = view.base
    assert getattr(holder, "obj", None) is a or getattr(holder, "array", None) is a
    t = gpupy.matrix_transpose(a)
    np.testing.assert_array_equal(gpupy._core._host_view(t), a.get().T)


def test_mixed_devices_refused(device_name):
    if device_name == "cpu":
        pytest.skip("needs a second device")
    a = gpupy.eye(2, device=device_name)
    with pytest.raises(ValueError, match=r"^\[linalg.solve\]"):
        gpupy.linalg.solve(a, gpupy.ones(2, device="cpu"))


def test_eig_is_refused_on_cuda(device_name):
    if device_name != "cuda":
        pytest.skip("cuda only")
    a = gpupy.eye(2, device="cuda")
    with pytest.raises(NotImplementedError, match=r"^\[linalg.eig\].*cuda"):
        gpupy.linalg.eig(a)


@pytest.mark.parametrize(
    "call",
    [
        lambda: gpupy.linalg.inv([[1.0, 0.0], [0.0, 1.0]]),
        lambda: gpupy.linalg.vector_norm([1.0, 2.0]),
        lambda: gpupy.fft.fft([1.0, 2.0]),
        lambda: gpupy.fft.fftshift([1.0, 2.0]),
    ],
)
def test_host_data_for_a_cuda_default_goes_to_cuda(call):
    # Host data bound for a cuda default device is computed there, never silently on the host:
    # without a usable GPU (or a CUDA build) the cuda error surfaces. Entering the scope needs no
    # GPU.
    if gpupy._core.cuda_is_available()[0]:
        pytest.skip("checks the machines without a usable GPU")
    with gpupy.Device("cuda"):
        with pytest.raises((gpupy.cuda.CudaError, NotImplementedError), match=r"\[cuda\]"):
            call()


_CHAINS = [
    [(10, 30), (30, 5)],
    [(10, 30), (30, 5), (5, 60)],
    [(30, 5), (5, 60), (60, 2)],
    [(10, 30), (30, 5), (5, 60), (60, 2)],
    [(30,), (30, 5), (5, 60), (60, 2)],
    [(30,), (30, 5), (5, 60), (60,)],
    [(4, 30), (30, 5), (5, 60), (60, 3), (3,)],
    [(2, 3, 4), (4, 5)],  # two arrays: plain dot, any dimensions
]


@pytest.mark.parametrize("shapes", _CHAINS)
@testing.for_dtypes(("int64", "float32", "float64", "complex128"))
def test_multi_dot(dtype, shapes):
    arrays = [_data(s, dtype, i) for i, s in enumerate(shapes)]

    @testing.numpy_gpupy_allclose(rtol=1e-4 if dtype == "float32" else 1e-12)
    def body(xp):
        return xp.linalg.multi_dot([xp.asarray(a) for a in arrays])

    body()


def test_multi_dot_order_out_and_errors():
    from gpupy.linalg import _chain_order

    # The textbook example: (A1 (A2 A3)) ((A4 A5) A6) for 30x35, 35x15, 15x5, 5x10, 10x20, 20x25.
    split = _chain_order([30, 35, 15, 5, 10, 20, 25])
    assert split[0][5] == 2 and split[0][2] == 0 and split[3][5] == 4
    a, b, c = (
        gpupy.asarray(_data(s, "float64", i)) for i, s in enumerate([(3, 4), (4, 5), (5, 2)])
    )
    out = gpupy.empty((3, 2))
    assert gpupy.linalg.multi_dot([a, b, c], out=out) is out
    np.testing.assert_allclose(out.get(), (a @ b @ c).get(), rtol=1e-12)
    assert isinstance(np.linalg.multi_dot([a, b, c]), gpupy.ndarray)
    with pytest.raises(ValueError, match=r"\[linalg.multi_dot\] Expecting at least two"):
        gpupy.linalg.multi_dot([a])
    with pytest.raises(gpupy.linalg.LinAlgError, match=r"\[linalg.multi_dot\] 3-dimensional"):
        gpupy.linalg.multi_dot([a, b, gpupy.ones((5, 2, 1))])


@testing.for_dtypes(("float32", "float64", "complex128"))
def test_tensorinv_tensorsolve(dtype):
    a = (np.eye(24).reshape(4, 6, 8, 3) + 0.1 * _data((4, 6, 8, 3), dtype, 1)).astype(dtype)
    s = (np.eye(6).reshape(6, 2, 3) + 0.1 * _data((6, 2, 3), dtype, 2)).astype(dtype)
    b = _data((6,), dtype, 3)
    t = (np.eye(6).reshape(2, 3, 6) + 0.1 * _data((2, 3, 6), dtype, 4)).astype(dtype)
    bt = _data((2, 3), dtype, 5)

    @testing.numpy_gpupy_allclose(rtol=_rtol(dtype), atol=1e-5, accept_error=True)
    def body(xp):
        return (
            xp.linalg.tensorinv(xp.asarray(a), ind=2),
            xp.linalg.tensorinv(xp.asarray(a.reshape(24, 4, 6)), ind=1),
            xp.linalg.tensorsolve(xp.asarray(s), xp.asarray(b)),
            xp.linalg.tensorsolve(xp.asarray(t), xp.asarray(bt), axes=(0,)),
        )

    body()


def test_tensorinv_tensorsolve_errors():
    with pytest.raises(ValueError, match=r"\[linalg.tensorinv\] Invalid ind"):
        gpupy.linalg.tensorinv(gpupy.ones((2, 2)), ind=0)
    with pytest.raises(gpupy.linalg.LinAlgError, match=r"\[linalg.tensorsolve\] Input arrays"):
        gpupy.linalg.tensorsolve(gpupy.ones((2, 3, 4)), gpupy.ones(2))
    with pytest.raises(gpupy.linalg.LinAlgError):
        gpupy.linalg.tensorinv(gpupy.ones((2, 3)), ind=1)


def test_multi_dot_and_tensorsolve_follow_the_gpupy_operand(device_name):
    """NumPy arrays and lists among gpupy operands go to the gpupy operands' device rather than
    to the default device, as in every other gpupy function."""
    if device_name == "cpu":
        pytest.skip("needs a device other than the default cpu")
    here = [gpupy.asarray(np.full((4, 2), 2.0)), gpupy.ones(2)]
    a = np.eye(6).reshape(6, 2, 3)
    b = gpupy.arange(6.0)
    with gpupy.Device("cpu"):
        got = gpupy.linalg.multi_dot([np.ones((3, 4)), *here])
        x = gpupy.linalg.tensorsolve(a.tolist(), b)
    assert got.device == x.device == gpupy.Device(device_name)
    np.testing.assert_array_equal(got.get(), np.full(3, 16.0))
    np.testing.assert_array_equal(x.get(), np.linalg.tensorsolve(a, np.arange(6.0)))


def _hermitian(dtype, n=4, batch=()):
    x = _data(batch + (n, n), dtype, seed=7)
    return x @ np.conj(np.swapaxes(x, -1, -2)) + np.eye(n, dtype=dtype)


@pytest.mark.parametrize("dtype", ["float64", "complex128", "float32"])
def test_numpy_signatures_svd(dtype):
    """NumPy's positional full_matrices, compute_uv=False and hermitian=True."""
    x = _data((2, 5, 3), dtype)
    h = _hermitian(dtype, batch=(2,))
    g, gh = gpupy.asarray(x), gpupy.asarray(h)
    rtol = _rtol(dtype)
    got, expected = gpupy.linalg.svd(g, False), np.linalg.svd(x, False)
    np.testing.assert_allclose(got[1].get(), expected[1], rtol=rtol)
    assert got[0].shape == expected[0].shape and got[2].shape == expected[2].shape
    np.testing.assert_allclose(gpupy.linalg.svd(g, compute_uv=False).get(), expected[1], rtol=rtol)
    for got, expected in zip(
        gpupy.linalg.svd(gh, hermitian=True), np.linalg.svd(h, hermitian=True), strict=True
    ):
        assert got.dtype == expected.dtype
        np.testing.assert_allclose(got.get(), expected, rtol=rtol, atol=rtol)
    got = gpupy.linalg.svd(gh, compute_uv=False, hermitian=True)
    np.testing.assert_allclose(
        got.get(), np.linalg.svd(h, compute_uv=False, hermitian=True), rtol=rtol
    )


@pytest.mark.parametrize("uplo", ["L", "U"])
@pytest.mark.parametrize("dtype", ["float64", "complex128"])
def test_numpy_signatures_eigh_uplo(uplo, dtype):
    """UPLO picks the triangle read: the other one is ignored (here it is garbage)."""
    h = _hermitian(dtype, batch=(2,))
    h[..., 0, 2] += 5.0  # upper triangle only
    h[..., 3, 1] -= 2.0  # lower triangle only
    g = gpupy.asarray(h)
    w, v = gpupy.linalg.eigh(g, UPLO=uplo)
    ew, ev = np.linalg.eigh(h, UPLO=uplo)
    np.testing.assert_allclose(w.get(), ew, rtol=1e-10)
    np.testing.assert_allclose(np.abs(v.get()), np.abs(ev), rtol=1e-8, atol=1e-10)
    np.testing.assert_allclose(gpupy.linalg.eigvalsh(g, uplo).get(), ew, rtol=1e-10)
    with pytest.raises(ValueError, match=r"\[linalg.eigh\] UPLO"):
        gpupy.linalg.eigh(g, "X")


def test_numpy_signatures_rank_pinv_qr():
    rng = np.random.default_rng(1)
    low = rng.standard_normal((6, 2)) @ rng.standard_normal((2, 5))  # rank 2
    stack = np.stack([low, np.eye(6, 5) * 1e-3])
    sym = low @ low.T
    g, gs, gsym = gpupy.asarray(low), gpupy.asarray(stack), gpupy.asarray(sym)
    assert int(gpupy.linalg.matrix_rank(g, 1e-8)) == np.linalg.matrix_rank(low, 1e-8) == 2
    np.testing.assert_array_equal(
        gpupy.linalg.matrix_rank(gs, tol=[1e-8, 1e-2]).get(),
        np.linalg.matrix_rank(stack, [1e-8, 1e-2]),
    )
    assert int(gpupy.linalg.matrix_rank(gsym, hermitian=True)) == np.linalg.matrix_rank(
        sym, hermitian=True
    )
    np.testing.assert_allclose(
        gpupy.linalg.pinv(g, 1e-6).get(), np.linalg.pinv(low, 1e-6), rtol=1e-8, atol=1e-12
    )
    np.testing.assert_allclose(
        gpupy.linalg.pinv(gsym, hermitian=True).get(),
        np.linalg.pinv(sym, hermitian=True),
        rtol=1e-6,
        atol=1e-10,
    )
    with pytest.raises(ValueError, match=r"\[linalg.pinv\]"):
        gpupy.linalg.pinv(g, 1e-6, rtol=1e-6)
    q, r = gpupy.linalg.qr(g, "complete")
    assert q.shape == (6, 6) and r.shape == (6, 5)
    np.testing.assert_allclose((q @ r).get(), low, atol=1e-12)


@pytest.mark.parametrize(
    ("call", "error", "message"),
    [
        (lambda: gpupy.linalg.inv(gpupy.zeros((2, 2))), "LinAlgError", r"^\[linalg.inv\] Singular"),
        (lambda: gpupy.linalg.solve(gpupy.ones((2, 3)), gpupy.ones(2)), "LinAlgError", "square"),
        (lambda: gpupy.linalg.cholesky(-gpupy.eye(2)), "LinAlgError", r"^\[linalg.cholesky\]"),
        (lambda: gpupy.fft.rfft(gpupy.ones(3), n=0), "ValueError", r"^\[fft.rfft\] Invalid"),
        (lambda: gpupy.fft.fft2(gpupy.zeros((0, 3))), "ValueError", r"^\[fft.fft2\] Invalid"),
    ],
)
def test_host_library_errors_name_the_operation(call, error, message):
    # as the cuda path does (test_cuda_libs_paths): "[linalg.inv] Singular matrix"
    expected = {"LinAlgError": gpupy.linalg.LinAlgError, "ValueError": ValueError}[error]
    with pytest.raises(expected, match=message) as info:
        call()
    assert str(info.value).startswith("[")


def test_pinv_default_cutoff_is_numpys():
    # NumPy cuts at 1e-15 * s_max by default, the Array API (rtol=None) at max(M, N) * eps * s_max:
    # a singular value between the two is inverted by the first and dropped by the second.
    rng = np.random.default_rng(1)
    q1, q2 = (np.linalg.qr(rng.standard_normal((10, 10)))[0] for _ in range(2))
    a = (q1 * np.r_[np.linspace(1, 0.1, 9), 1.5e-15]) @ q2.T
    g = gpupy.asarray(a)
    np.testing.assert_allclose(gpupy.linalg.pinv(g).get(), np.linalg.pinv(a), rtol=1e-6)
    np.testing.assert_allclose(
        gpupy.linalg.pinv(g, rtol=None).get(), np.linalg.pinv(a, rtol=None), rtol=1e-10, atol=1e-12
    )
    assert abs(gpupy.linalg.pinv(g).get()).max() > 1e13 > abs(np.linalg.pinv(a, rtol=None)).max()


# ---- found by NumPy's own linalg/tests/test_linalg.py (tools/numpy_suite.py) -------------------


@pytest.mark.parametrize("dtype", ["float64", "complex128"])
@testing.numpy_gpupy_allclose(rtol=1e-12)
def test_svd_hermitian_of_a_singular_matrix_keeps_vh_unitary(xp, dtype):
    x = xp.asarray(np.array([[1, 0, 0], [0, 0, 0], [0, 0, -2]], dtype=dtype))
    u, s, vh = xp.linalg.svd(x, hermitian=True)
    return u, s, vh, vh @ xp.conj(vh.T)


@pytest.mark.parametrize("uplo", ["l", "u", "L", "U", "x"])
@pytest.mark.parametrize("name", ["eigh", "eigvalsh"])
@testing.numpy_gpupy_allclose(rtol=1e-12, accept_error=True)
def test_eigh_uplo_in_either_case(xp, name, uplo):
    a = xp.asarray(np.array([[2.0, 5.0], [-1.0, 3.0]]))  # the triangles differ
    result = getattr(xp.linalg, name)(a, UPLO=uplo)
    return result[0] if name == "eigh" else result


@testing.numpy_gpupy_allclose(accept_error=True)
def test_matrix_rank_refuses_tol_with_rtol(xp):
    return xp.linalg.matrix_rank(xp.eye(3), tol=1e-3, rtol=1e-3)
