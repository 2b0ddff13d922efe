"""average, cov, corrcoef, ptp, histogram2d and histogramdd against NumPy on the selected device."""

import gpupy
import numpy
import pytest
from gpupy import testing

rs = numpy.random.RandomState(7)


def _data(shape, dtype):
    if dtype == "bool":
        return rs.rand(*shape) > 0.5
    if numpy.dtype(dtype).kind in "iu":
        return rs.randint(0, 50, shape).astype(dtype)
    x = rs.randn(*shape)
    if numpy.dtype(dtype).kind == "c":
        x = x + 1j * rs.randn(*shape)
    return x.astype(dtype)


@pytest.mark.parametrize("dtype", ["bool", "int32", "uint8", "float32", "float64", "complex128"])
def test_average_dtypes_and_weights(dtype):
    a = _data((3, 4), dtype)
    w = rs.rand(4)
    wi = rs.randint(1, 5, (3, 4))

    @testing.numpy_gpupy_allclose(rtol=1e-5 if dtype == "float32" else 1e-12)
    def body(xp):
        x = xp.asarray(a)
        return (
            xp.average(x),
            xp.average(x, axis=0),
            xp.average(x, axis=1, weights=xp.asarray(w)),
            xp.average(x, weights=xp.asarray(wi)),
            *xp.average(x, axis=(0, 1), weights=xp.asarray(wi), returned=True, keepdims=True),
            *xp.average(x, axis=1, returned=True),
        )

    body()


def test_average_weights_along_several_axes_and_lists():
    a = rs.randn(2, 3, 4)
    w = rs.rand(4, 2)

    @testing.numpy_gpupy_allclose()
    def body(xp):
        return xp.average(xp.asarray(a), axis=(2, 0), weights=xp.asarray(w)), xp.average(
            [[1, 2], [3, 4]], axis=0, weights=[1, 3]
        )

    body()


def test_average_errors():
    a = gpupy.asarray([[1.0, 2.0], [3.0, 4.0]])
    with pytest.raises(TypeError, match=r"\[average\] Axis must be specified"):
        gpupy.average(a, weights=gpupy.asarray([1.0, 2.0]))
    with pytest.raises(ValueError, match=r"\[average\] Shape of weights"):
        gpupy.average(a, axis=0, weights=gpupy.asarray([1.0, 2.0, 3.0]))
    with pytest.raises(ZeroDivisionError, match=r"\[average\] Weights sum to zero"):
        gpupy.average(a, axis=1, weights=gpupy.asarray([1.0, -1.0]))
    with pytest.raises(ValueError, match=r"\[average\]"):
        gpupy.average(a, axis=2)
    with pytest.raises(ZeroDivisionError, match=r"\[average\] division by zero"):
        gpupy.average(gpupy.zeros((3, 0)), axis=0)


@pytest.mark.filterwarnings("ignore:Mean of empty slice:RuntimeWarning")
def test_average_empty_input():
    @testing.numpy_gpupy_allclose()
    def body(xp):
        return xp.average(xp.zeros((0, 3)), axis=0, returned=True)

    body()


@pytest.mark.parametrize("dtype", ["int64", "uint8", "float32", "float64", "complex128"])
def test_ptp(dtype):
    a = _data((4, 5), dtype)

    @testing.numpy_gpupy_allclose()
    def body(xp):
        x = xp.asarray(a)
        return xp.ptp(x), xp.ptp(x, axis=0), xp.ptp(x, axis=-1, keepdims=True)

    body()


def test_ptp_wraps_and_errors():
    numpy.testing.assert_array_equal(gpupy.ptp(numpy.int8([-100, 100])).get(), numpy.int8(-56))
    numpy.testing.assert_array_equal(gpupy.ptp(3.5).get(), 0.0)
    with pytest.raises(TypeError, match=r"\[ptp\]"):
        gpupy.ptp(gpupy.asarray([True, False]))
    with pytest.raises(ValueError, match=r"\[ptp\] zero-size"):
        gpupy.ptp(gpupy.zeros((0, 3)))


@pytest.mark.parametrize("dtype", ["bool", "int16", "float32", "float64", "complex128"])
def test_cov_corrcoef_dtypes(dtype):
    m = _data((3, 7), dtype)
    y = _data((2, 7), dtype)

    @testing.numpy_gpupy_allclose(rtol=1e-4 if dtype == "float32" else 1e-10, atol=1e-6)
    def body(xp):
        x = xp.asarray(m)
        return (
            xp.cov(x),
            xp.cov(x, xp.asarray(y)),
            xp.cov(x.T, rowvar=False, bias=True),
            xp.corrcoef(x),
            xp.corrcoef(x[0], x[1]),
        )

    @testing.numpy_gpupy_allclose(rtol=1e-5)
    def single(xp):
        return xp.cov(xp.asarray(m), dtype="float32"), xp.corrcoef(xp.asarray(m), dtype="float32")

    body()
    if dtype != "complex128":
        single()


def test_cov_weights_ddof_and_shapes():
    m = rs.randn(2, 6)
    fw = rs.randint(1, 4, 6)
    aw = rs.rand(6)

    @testing.numpy_gpupy_allclose(rtol=1e-10)
    def body(xp):
        x = xp.asarray(m)
        return (
            xp.cov(x, fweights=xp.asarray(fw)),
            xp.cov(x, aweights=xp.asarray(aw)),
            xp.cov(x, fweights=xp.asarray(fw), aweights=xp.asarray(aw)),
            xp.cov(x, fweights=xp.asarray(fw), aweights=xp.asarray(aw), ddof=0),
            xp.cov(x, ddof=3),
            xp.cov([1.0, 2.0, 4.0]),  # one variable: 0-d
            xp.cov(xp.asarray(m[0]), xp.asarray(m[1])),
            xp.corrcoef([1.0, 2.0, 4.0]),
            xp.cov(xp.zeros((0, 3))),
        )

    body()


def test_cov_errors():
    with pytest.raises(ValueError, match=r"\[cov\] m has more than 2"):
        gpupy.cov(gpupy.zeros((2, 2, 2)))
    with pytest.raises(ValueError, match=r"\[cov\] ddof must be integer"):
        gpupy.cov(gpupy.ones((2, 3)), ddof=1.5)
    with pytest.raises(TypeError, match=r"\[cov\] fweights must be integer"):
        gpupy.cov(gpupy.ones((2, 3)), fweights=[1.5, 1, 1])
    with pytest.raises(ValueError, match=r"\[cov\] aweights cannot be negative"):
        gpupy.cov(gpupy.ones((2, 3)), aweights=[-1.0, 1, 1])
    with pytest.raises(RuntimeError, match=r"\[cov\] incompatible numbers of samples"):
        gpupy.cov(gpupy.ones((2, 3)), fweights=[1, 1])
    with pytest.warns(RuntimeWarning, match="Degrees of freedom"):
        c = gpupy.cov(gpupy.asarray([[1.0], [2.0]]))
    with numpy.errstate(all="ignore"), pytest.warns(RuntimeWarning):
        expected = numpy.cov(numpy.array([[1.0], [2.0]]))
    numpy.testing.assert_array_equal(c.get(), expected)


@pytest.mark.parametrize(
    "kwargs",
    [
        {},
        {"bins": (4, 6)},
        {"bins": 5, "range": [(-1, 1), (-2, 0.5)]},
        {"bins": [[-2.0, 0.0, 0.5, 3.0], 3], "density": True},
        {"bins": [-1.0, 0.0, 1.0]},
        {"bins": 3, "weights": True},
    ],
)
def test_histogram2d(kwargs):
    x, y = rs.randn(200), rs.randn(200)
    x[:3] = [3.0, -2.0, 0.0]
    w = rs.rand(200)

    @testing.numpy_gpupy_allclose(rtol=1e-12)
    def body(xp):
        kw = dict(kwargs)
        if kw.pop("weights", False):
            kw["weights"] = xp.asarray(w)
        return xp.histogram2d(xp.asarray(x), xp.asarray(y), **kw)

    body()


@pytest.mark.parametrize("dtype", ["int32", "float32", "float64"])
def test_histogramdd(dtype):
    s = _data((120, 3), dtype)

    @testing.numpy_gpupy_allclose(rtol=1e-6)
    def body(xp):
        x = xp.asarray(s)
        h1, e1 = xp.histogramdd(x, bins=(2, 3, 4))
        h2, e2 = xp.histogramdd([x[:, 0], x[:, 1]], bins=[[0, 10, 30, 40], 3], density=True)
        h3, e3 = xp.histogramdd(x[:, 0], bins=5, range=[(5, 20)])
        return h1, *e1, h2, *e2, h3, *e3

    body()


def test_histogramdd_empty_and_errors():
    @testing.numpy_gpupy_allclose()
    def body(xp):
        h, e = xp.histogramdd(xp.zeros((0, 2)), bins=3)
        return h, *e

    body()
    s = gpupy.asarray(rs.randn(10, 2))
    with pytest.raises(ValueError, match=r"\[histogramdd\] The dimension of bins"):
        gpupy.histogramdd(s, bins=[2, 3, 4])
    with pytest.raises(ValueError, match=r"\[histogramdd\] `bins\[0\]` must be positive"):
        gpupy.histogramdd(s, bins=[0, 3])
    with pytest.raises(TypeError, match=r"\[histogramdd\] `bins\[1\]` must be an integer"):
        gpupy.histogramdd(s, bins=[2, 2.5])
    with pytest.raises(ValueError, match=r"\[histogramdd\] `bins\[0\]` must be monotonically"):
        gpupy.histogramdd(s, bins=[[1.0, 0.0], 2])
    with pytest.raises(ValueError, match=r"\[histogramdd\] range argument"):
        gpupy.histogramdd(s, range=[(0, 1)])
    with pytest.raises(ValueError, match=r"\[histogram2d\]"):
        gpupy.histogram2d(gpupy.ones(3), gpupy.ones(4))


def test_numpy_dispatch_reaches_gpupy():
    a = gpupy.asarray(rs.randn(3, 4))
    for fn in (numpy.average, numpy.cov, numpy.corrcoef, numpy.ptp):
        out = fn(a)
        assert isinstance(out, gpupy.ndarray)
    h, xe, ye = numpy.histogram2d(a[0], a[1], bins=2)
    assert isinstance(h, gpupy.ndarray) and isinstance(xe, gpupy.ndarray)


@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
def test_cov_complex_with_weights(dtype):
    """The weighted count of complex data is complex (imaginary part 0) in NumPy's average; the
    degrees-of-freedom check compares its real part."""
    x = (numpy.arange(10.0) % 4 + 1j * (numpy.arange(10.0) % 3)).reshape(2, 5).astype(dtype)

    @testing.numpy_gpupy_allclose(rtol=1e-5 if dtype == "complex64" else 1e-12)
    def body(xp):
        fw, aw = xp.asarray([1, 2, 0, 3, 1]), xp.asarray([0.5, 1.0, 2.0, 0.3, 1.5])
        return [
            xp.cov(xp.asarray(x), fweights=fw, aweights=aw),
            xp.cov(xp.asarray(x), aweights=aw, ddof=0),
            xp.corrcoef(xp.asarray(x)),
        ]

    body()


# One axis rule (_indexing._axes) for average, ptp, nanmedian, gradient and trim_zeros: an integer
# (NumPy's included), a tuple of them, AxisError out of range, ValueError when repeated.
AXIS_CALLS = {
    "average": lambda xp, a, axis: xp.average(a, axis=axis),
    "ptp": lambda xp, a, axis: xp.ptp(a, axis=axis),
    "nanmedian": lambda xp, a, axis: xp.nanmedian(a, axis=axis),
    "gradient": lambda xp, a, axis: xp.gradient(a, axis=axis),
    "trim_zeros": lambda xp, a, axis: xp.trim_zeros(a, axis=axis),
}


@pytest.mark.parametrize("name", sorted(AXIS_CALLS))
@pytest.mark.parametrize("axis", [numpy.int64(1), (0, 2), (-1, 0), (1, 1), 3, (0, -4)])
@testing.numpy_gpupy_allclose(accept_error=True)
def test_axis_arguments_follow_numpy(name, axis, xp):
    a = xp.asarray(numpy.arange(1.0, 25.0).reshape(2, 3, 4))
    return AXIS_CALLS[name](xp, a, axis)
