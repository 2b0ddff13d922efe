"""xp.scipy: SciPy on the numpy backend; on the gpupy backend gpupy's device functions (scipy.fft,
solve_circulant) and host SciPy for the rest (copies counted), compared with SciPy on NumPy
arrays; a clean degradation without SciPy; solve_circulant against SciPy's."""

import os
import subprocess
import sys

import gpupy
import numpy
import pytest
from gpupy import cunumpy as xp
from gpupy.cunumpy._scipy_facade import ScipyNamespace
from kernel_packages import on_gpupy
from numpy.testing import assert_allclose, assert_array_equal

gpupy_backend = on_gpupy  # the gpupy backend on the test's device

sp = pytest.importorskip("scipy")
import scipy.fft  # noqa: E402
import scipy.linalg  # noqa: E402
import scipy.ndimage  # noqa: E402
import scipy.sparse  # noqa: E402
import scipy.sparse.linalg  # noqa: E402
import scipy.special  # noqa: E402


def _host(a):
    return gpupy.asnumpy(a)


def test_numpy_backend_resolves_to_scipy_itself():
    assert xp.get_backend() == "numpy"
    assert xp.scipy.linalg.solve is scipy.linalg.solve
    assert xp.scipy.special.erf is scipy.special.erf
    assert xp.scipy.linalg.solve_circulant is scipy.linalg.solve_circulant
    assert xp.scipy.sparse.linalg.resolve() is scipy.sparse.linalg
    assert xp.scipy.resolve() is sp and xp.scipy.fft is xp.scipy.fft  # children are kept
    with pytest.raises(AttributeError, match=r"xp.scipy.linalg.nosuch is not available on the nu"):
        _ = xp.scipy.linalg.nosuch
    assert xp.scipy.linalg.available("eigh") and not xp.scipy.linalg.available("nosuch")
    assert xp.scipy.available("sparse") and "solve" in dir(xp.scipy.linalg)
    with pytest.raises(ValueError, match=r"\[scipy\] scipy.nosuch is not forwarded"):
        ScipyNamespace("nosuch")


def test_importing_cunumpy_never_imports_scipy():
    root = os.path.dirname(os.path.dirname(os.path.abspath(gpupy.__file__)))
    code = "import sys; from gpupy import cunumpy as xp\nxp.scipy.linalg\n"
    code += "print('scipy' in sys.modules)"
    out = subprocess.run(
        [sys.executable, "-c", code],
        env=dict(os.environ, PYTHONPATH=root),
        capture_output=True,
        text=True,
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "False"


def test_a_switch_takes_effect_at_the_next_access(device_name):
    fft = xp.scipy.fft
    assert fft.fft is scipy.fft.fft
    with xp.use_backend("gpupy"):
        assert fft.fft is not scipy.fft.fft and fft.fft.__name__ == "fft"
    assert fft.fft is scipy.fft.fft


_RNG = numpy.random.default_rng(7)
_FFT_CASES = [
    ("fft", _RNG.random(16), {}),
    ("ifft", _RNG.random(12) + 1j * _RNG.random(12), {"norm": "ortho"}),
    ("rfft", _RNG.random(15).astype(numpy.float32), {"n": 20}),
    ("irfft", _RNG.random(9) + 1j * _RNG.random(9), {"n": 16}),
    ("hfft", _RNG.random(5) + 1j * _RNG.random(5), {}),
    ("ihfft", _RNG.random(8), {"norm": "forward"}),
    ("fft2", _RNG.random((4, 6)), {}),
    ("ifft2", _RNG.random((3, 4, 5)), {"axes": (0, 2)}),
    ("fftn", numpy.arange(24).reshape(2, 3, 4), {"s": (2, 4, 4), "axes": (0, 1, 2)}),
    ("ifftn", _RNG.random((4, 4)).astype(numpy.complex64), {}),
    ("rfft2", _RNG.random((6, 4)), {"workers": 2, "overwrite_x": True}),
    ("irfft2", _RNG.random((4, 3)) + 0j, {}),
    ("rfftn", _RNG.random((2, 3, 4)), {"axes": (1, 2)}),
    ("irfftn", _RNG.random((4, 5)) + 0j, {"s": (4, 8), "axes": (0, 1)}),
    ("fftshift", numpy.arange(10.0).reshape(2, 5), {"axes": 1}),
    ("ifftshift", numpy.arange(7.0), {}),
]


@pytest.mark.parametrize("name,x,kw", _FFT_CASES, ids=[c[0] for c in _FFT_CASES])
def test_gpupy_backend_runs_scipy_fft_on_the_device(gpupy_backend, name, x, kw):
    want = getattr(scipy.fft, name)(x, **kw)
    d = xp.asarray(x)
    with xp.assert_no_transfers():
        got = getattr(xp.scipy.fft, name)(d, **kw)
    assert isinstance(got, gpupy.ndarray) and got.device == d.device
    assert got.dtype == want.dtype and got.shape == want.shape
    tol = 1e-5 if want.dtype in (numpy.float32, numpy.complex64) else 1e-12
    assert_allclose(_host(got), want, rtol=tol, atol=tol * numpy.abs(want).max())


def test_gpupy_fft_frequencies_and_refused_plans(gpupy_backend, device_name):
    f = xp.scipy.fft.fftfreq(8, 0.5)
    assert str(f.device) == device_name
    assert_allclose(_host(f), scipy.fft.fftfreq(8, 0.5))
    assert_allclose(_host(xp.scipy.fft.rfftfreq(9, d=2.0)), scipy.fft.rfftfreq(9, d=2.0))
    with pytest.raises(NotImplementedError, match=r"\[scipy.fft.fft\] plan= is not supported"):
        xp.scipy.fft.fft(xp.ones(4), plan=object())


def test_other_scipy_functions_run_on_the_host_with_counted_copies(gpupy_backend, device_name):
    x = numpy.linspace(-2, 2, 7)
    a = _RNG.random((4, 4))
    with xp.count_transfers() as c:
        erf = xp.scipy.special.erf(xp.asarray(x))
        expm = xp.scipy.linalg.expm(xp.asarray(a))
        p, lower, upper = xp.scipy.linalg.lu(xp.asarray(a))
    for got, want in ((erf, scipy.special.erf(x)), (expm, scipy.linalg.expm(a))):
        assert isinstance(got, gpupy.ndarray) and str(got.device) == device_name
        assert_allclose(_host(got), want, rtol=1e-14)
    for got, want in zip((p, lower, upper), scipy.linalg.lu(a), strict=True):
        assert str(got.device) == device_name
        assert_allclose(_host(got), want, rtol=1e-14)
    if gpupy_backend:  # one copy down per argument, one up per array result
        assert (c.to_host, c.to_device, c.kernel_conversions) == (3, 5, 3)
    else:
        assert c.to_host == c.to_device == 0
    assert xp.scipy.special.erf.__name__ == "erf" and xp.scipy.special.erf is xp.scipy.special.erf


def test_classes_stay_scipy_objects_holding_host_data(gpupy_backend, device_name):
    n = 6
    dense = numpy.diag(numpy.full(n, 4.0)) + numpy.diag(numpy.ones(n - 1), 1)
    assert xp.scipy.sparse.csr_matrix is scipy.sparse.csr_matrix
    mat = xp.scipy.sparse.csr_matrix(dense)  # host data, as SciPy's
    b = numpy.arange(1.0, n + 1)
    x = xp.scipy.sparse.linalg.spsolve(mat, xp.asarray(b))
    assert str(x.device) == device_name
    assert_allclose(_host(x), numpy.linalg.solve(dense, b), rtol=1e-13)
    img = _RNG.random((5, 6))
    got = xp.scipy.ndimage.gaussian_filter(xp.asarray(img), sigma=1.0)
    assert_allclose(_host(got), scipy.ndimage.gaussian_filter(img, sigma=1.0), rtol=1e-13)


def test_missing_names_on_the_gpupy_backend(gpupy_backend):
    with pytest.raises(
        AttributeError, match=r"xp.scipy.special.nosuch is not available on the gpu"
    ):
        _ = xp.scipy.special.nosuch
    assert not xp.scipy.special.available("nosuch") and xp.scipy.special.available("gamma")
    assert "solve_circulant" in dir(xp.scipy.linalg) and "fft" in dir(xp.scipy.fft)
    assert xp.scipy.optimize.fsolve is xp.optimize.fsolve
    assert xp.scipy.integrate.odeint is xp.integrate.odeint


@pytest.fixture
def without_scipy(monkeypatch):
    """Makes `import scipy` and its submodules fail, as on a machine without SciPy."""
    for name in [n for n in sys.modules if n == "scipy" or n.startswith("scipy.")]:
        monkeypatch.setitem(sys.modules, name, None)
    monkeypatch.setitem(sys.modules, "scipy", None)


def test_without_scipy_the_facade_degrades_cleanly(without_scipy, device_name):
    with pytest.raises(ImportError, match=r"needs scipy.linalg: SciPy is not installed \(pip in"):
        _ = xp.scipy.linalg.solve
    assert not xp.scipy.linalg.available("solve") and not xp.scipy.available("linalg")
    with pytest.raises(ImportError, match=r"\[optimize.fsolve\] needs SciPy"):
        xp.optimize.fsolve(lambda x: x, numpy.ones(1))
    with xp.use_backend("gpupy"):
        assert_allclose(_host(xp.scipy.fft.fft(xp.ones(4))), [4, 0, 0, 0])
        x = xp.scipy.linalg.solve_circulant(xp.asarray([2.0, 1.0, 0.0]), xp.asarray([3.0] * 3))
        assert_allclose(_host(x), [1.0, 1.0, 1.0])
        with pytest.raises(
            AttributeError, match=r"gpupy runs it with host SciPy, which is not installed"
        ):
            _ = xp.scipy.special.erf
        assert xp.scipy.fft.available("fft") and not xp.scipy.fft.available("dct")
        assert xp.scipy.available("fft") and not xp.scipy.available("special")
        assert not xp.scipy.available("optimize") and not xp.scipy.optimize.available("fsolve")
        with pytest.raises(AttributeError, match=r"xp.scipy.optimize.root is not available on th"):
            _ = xp.scipy.optimize.root
        x = numpy.linspace(0, 1, 5)  # newton needs no SciPy
        r = xp.optimize.newton(lambda p: p * p - xp.asarray(x + 1), xp.ones(5), lambda p: 2 * p)
        assert_allclose(_host(r), numpy.sqrt(x + 1), rtol=1e-12)


# solve_circulant on the device, against SciPy's


def _circulant_cases():
    rng = numpy.random.default_rng(3)
    c = numpy.array([[1.5, 2, 3, 0, 0], [1, 1, 4, 3, 2]])
    b = numpy.arange(15.0).reshape(-1, 5)
    return [
        ((numpy.array([2.0, 2, 4]), numpy.array([1.0, 2, 3])), {}),
        ((c[:, numpy.newaxis, :], b), {"baxis": -1, "outaxis": -1}),
        ((rng.random(6) + 1j * rng.random(6), rng.random((6, 2))), {}),
        ((rng.random(4).astype(numpy.float32), rng.random(4).astype(numpy.float32)), {}),
        ((numpy.array([1.0, 1, 0, 0]), numpy.array([1.0, 2, 3, 4])), {"singular": "lstsq"}),
        ((numpy.array([4, 1, 0, 1]), numpy.array([6, 6, 6, 6])), {"tol": 1e-3}),
        ((rng.random((3, 4)), rng.random((4, 3))), {"caxis": 1, "baxis": 0, "outaxis": 1}),
    ]


@pytest.mark.parametrize("args,kw", _circulant_cases())
def test_solve_circulant_matches_scipy(gpupy_backend, args, kw):
    want = scipy.linalg.solve_circulant(*args, **kw)
    got = xp.scipy.linalg.solve_circulant(*(xp.asarray(a) for a in args), **kw)
    assert got.dtype == want.dtype and got.shape == want.shape
    tol = 1e-5 if want.dtype in (numpy.float32, numpy.complex64) else 1e-11
    assert_allclose(_host(got), want, rtol=tol, atol=tol)


def test_solve_circulant_errors_and_empty_input(gpupy_backend):
    f = xp.scipy.linalg.solve_circulant
    with pytest.raises(numpy.linalg.LinAlgError, match="near singular circulant matrix"):
        f(xp.asarray([1.0, 1, 0, 0]), xp.asarray([1.0, 2, 3, 4]))
    with pytest.raises(ValueError, match=r"shapes of c \(3,\) and b \(4,\) are incompatible"):
        f(xp.ones(3), xp.ones(4))
    with pytest.raises(ValueError, match=r"caxis=2 is out of bounds for c of 1-D"):
        f(xp.ones(3), xp.ones(3), caxis=2)
    with pytest.raises(ValueError, match=r"singular must be 'raise' or 'lstsq', got 'ignore'"):
        f(xp.ones(3), xp.ones(3), singular="ignore")
    for cdt, bdt in ((numpy.float32, numpy.float32), (numpy.int64, numpy.float64)):
        c, b = numpy.arange(1, 4, dtype=cdt), numpy.ones((3, 0), bdt)
        want = scipy.linalg.solve_circulant(c, b)
        got = f(xp.asarray(c), xp.asarray(b))
        assert got.shape == want.shape and got.dtype == want.dtype
    assert_array_equal(_host(f(xp.asarray([4.0, 1.0, 0.0, 1.0]), xp.full(4, 6.0))), [1.0] * 4)


def test_cupy_backend_resolves_to_cupyx_scipy(monkeypatch):
    """With a stand-in CuPy (this machine has none): names come from cupyx.scipy, solve_circulant
    (which cupyx lacks) is gpupy's, and a missing name names the cupy backend."""
    import types

    from gpupy.cunumpy import _backend

    cupy = types.ModuleType("cupy")
    cupy.__version__, cupy.__all__, cupy.is_available = "14.0.0", [], lambda: True
    cupyx = types.ModuleType("cupyx")
    cupyx_scipy = types.ModuleType("cupyx.scipy")
    special = types.ModuleType("cupyx.scipy.special")
    linalg = types.ModuleType("cupyx.scipy.linalg")
    special.erf, linalg.solve = object(), object()
    cupyx.scipy, cupyx_scipy.special, cupyx_scipy.linalg = cupyx_scipy, special, linalg
    for m in (cupy, cupyx, cupyx_scipy, special, linalg):
        monkeypatch.setitem(sys.modules, m.__name__, m)
    monkeypatch.setattr(_backend, "_cupy_status", None)
    monkeypatch.setattr(xp, "_exports", {})  # the stand-in's (empty) names are not kept
    with xp.use_backend("cupy", strict=True):
        assert xp.get_backend() == "cupy"
        assert xp.scipy.special.erf is special.erf and xp.scipy.linalg.solve is linalg.solve
        assert xp.scipy.linalg.resolve() is linalg
        assert xp.scipy.linalg.solve_circulant.__module__ == "gpupy.cunumpy._circulant"
        with pytest.raises(AttributeError, match=r"not available on the cupy backend: cupyx.sci"):
            _ = xp.scipy.linalg.expm
        with pytest.raises(ImportError, match=r"needs cupyx.scipy.fft: CuPy's cupyx.scipy is not"):
            _ = xp.scipy.fft.fft
    assert xp.scipy.special.erf is scipy.special.erf
