"""convolve, correlate, gradient, trapezoid, interp, unwrap, cross, kron, vander and the window
functions against NumPy on the selected device."""

import warnings

import gpupy
import numpy
import pytest
from gpupy import testing

rs = numpy.random.RandomState(11)


def _data(shape, dtype, low=-20, high=20):
    if dtype == "bool":
        return rs.rand(*shape) > 0.5
    if numpy.dtype(dtype).kind in "iu":
        lo = 0 if numpy.dtype(dtype).kind == "u" else low
        return rs.randint(lo, high, shape).astype(dtype)
    x = rs.randn(*shape)
    if numpy.dtype(dtype).kind == "c":
        x = x + 1j * rs.randn(*shape)
    return x.astype(dtype)


CONV_DTYPES = ["bool", "int8", "uint16", "int64", "float32", "float64", "complex64", "complex128"]


@pytest.mark.parametrize("dtype", CONV_DTYPES)
def test_convolve_correlate_modes(dtype):
    a = _data((9,), dtype)
    v = _data((4,), dtype)

    @testing.numpy_gpupy_allclose(rtol=1e-5 if dtype in ("float32", "complex64") else 1e-12)
    def body(xp):
        x, k = xp.asarray(a), xp.asarray(v)
        out = []
        for mode in ("full", "same", "valid"):
            out += [xp.convolve(x, k, mode), xp.convolve(k, x, mode)]
            out += [xp.correlate(x, k, mode), xp.correlate(k, x, mode)]
        return out

    body()


def test_convolve_mixed_dtypes_scalars_and_long_inputs():
    a = rs.randint(-1000, 1000, 3000)
    v = rs.randint(-1000, 1000, 1500)

    @testing.numpy_gpupy_allclose()
    def body(xp):
        return (
            xp.convolve(xp.asarray(numpy.uint8([200, 100, 7])), xp.asarray(numpy.int8([3, -1]))),
            xp.convolve(3, [1, 2]),
            xp.convolve([1.5], [2, 3, 4], mode="same"),
            # A direct sum: exact for integers, however long the inputs.
            xp.convolve(xp.asarray(a), xp.asarray(v)),
            xp.correlate(xp.asarray(a), xp.asarray(v), "same"),
        )

    body()


def test_convolve_correlate_errors():
    with pytest.raises(ValueError, match=r"\[convolve\] a cannot be empty"):
        gpupy.convolve([], [1.0])
    with pytest.raises(ValueError, match=r"\[correlate\] second array"):
        gpupy.correlate([1.0], [])
    with pytest.raises(ValueError, match=r"\[correlate\] mode must be one of"):
        gpupy.correlate([1.0, 2.0], [1.0], "bad")
    with pytest.raises(ValueError, match=r"\[convolve\]"):
        gpupy.convolve(gpupy.ones((2, 2)), [1.0])
    with pytest.raises(ValueError, match=r"\[correlate\]"):
        gpupy.correlate(2.0, [1.0])


LENGTHS_A = (1, 2, 3, 4, 5, 7, 10, 16, 31, 50)
LENGTHS_V = (1, 2, 3, 6, 17, 50)


def _allowed_error(op, a, v, mode, dtype):
    """Per output, how far gpupy may be from NumPy when both sum the same float products in
    different orders: each is within k * eps * sum |a_i v_j| of the exact sum (k the overlap,
    at most the shorter length); float16 sums in float32 and then rounds once more."""
    fn = getattr(numpy, op)
    mags = fn(numpy.abs(a).astype("float64"), numpy.abs(v).astype("float64"), mode)
    k = min(len(a), len(v)) + 2
    if dtype == "float16":
        return 4 * k * numpy.finfo("float32").eps * mags, numpy.finfo("float16").eps
    return 4 * k * numpy.finfo(dtype).eps * mags, 0.0


def _check_against_numpy(op, a, v, mode):
    expected = getattr(numpy, op)(a, v, mode)
    got = getattr(gpupy, op)(gpupy.asarray(a), gpupy.asarray(v), mode).get()
    where = f"{op}({a.dtype}[{len(a)}], {v.dtype}[{len(v)}], {mode!r})"
    assert got.dtype == expected.dtype, where
    assert got.shape == expected.shape, where
    if expected.dtype.kind in "fc":
        bound, rel = _allowed_error(op, a, v, mode, expected.dtype.name)
        wide = "complex128" if expected.dtype.kind == "c" else "float64"
        err = numpy.abs(got.astype(wide) - expected.astype(wide))
        ok = err <= bound + rel * numpy.abs(expected.astype(wide))
        assert ok.all(), f"{where}: {got[~ok]} vs NumPy's {expected[~ok]}"
    else:
        numpy.testing.assert_array_equal(got, expected, err_msg=where)


@testing.for_dtypes()
@pytest.mark.parametrize("mode", ["full", "same", "valid"])
def test_convolve_correlate_every_dtype_length_and_order(dtype, mode):
    """Every NumPy dtype, lengths 1..50 on both sides, both argument orders (NumPy's swap rule)."""
    for n in LENGTHS_A:
        for m in LENGTHS_V:
            a, v = _data((n,), dtype), _data((m,), dtype)
            for op in ("convolve", "correlate"):
                _check_against_numpy(op, a, v, mode)
                _check_against_numpy(op, v, a, mode)


@pytest.mark.parametrize(
    "dtype,n,m", [("float64", 2000, 700), ("complex128", 900, 1200), ("float32", 1500, 333)]
)
def test_convolve_correlate_long_floats(dtype, n, m):
    a, v = _data((n,), dtype), _data((m,), dtype)
    for mode in ("full", "same", "valid"):
        for op in ("convolve", "correlate"):
            _check_against_numpy(op, a, v, mode)


@pytest.mark.parametrize("dtype", ["int8", "uint8", "int32", "int64", "uint64"])
def test_convolve_correlate_integers_wrap_as_numpy(dtype):
    """Full-range integers: the sums overflow and wrap modulo 2**bits, exactly as NumPy's."""
    info = numpy.iinfo(dtype)
    rng = numpy.random.default_rng(5)
    a = rng.integers(info.min, info.max, 300, dtype=dtype, endpoint=True)
    v = rng.integers(info.min, info.max, 120, dtype=dtype, endpoint=True)
    for mode in ("full", "same", "valid"):
        for op in ("convolve", "correlate"):
            _check_against_numpy(op, a, v, mode)
            _check_against_numpy(op, v, a, mode)


def test_convolve_mixed_bool_and_float16():
    """bool is NumPy's (any product true); float16 sums in float32 and rounds once, as NumPy's
    dot does (a float16 running sum would stop growing at 3000 + 1)."""
    h = numpy.array([1000, 1000, 1000, 1, 1, 1], "float16")
    got = gpupy.convolve(gpupy.asarray(h), gpupy.asarray(numpy.ones(6, "float16"))).get()
    want = [1000, 2000, 3000, 3000, 3002, 3004, 2003, 1003, 3, 2, 1]
    assert got.dtype == numpy.float16
    numpy.testing.assert_array_equal(got, numpy.array(want, "float16"))
    b = gpupy.asarray(numpy.array([True, False, True]))
    assert gpupy.convolve(b, gpupy.asarray(numpy.array([True, True]))).get().tolist() == [True] * 4
    mixed = gpupy.convolve(b, gpupy.asarray(numpy.array([3, 4], "int16"))).get()
    assert mixed.dtype == numpy.int16 and mixed.tolist() == [3, 4, 3, 4]


def test_convolve_correlate_sum_each_output_in_ascending_order():
    """The documented order, on every device: 1e16 + 1 - 1e16 + 1 = 1 summed left to right (a
    pairwise or reversed sum gives 0)."""
    v = numpy.array([1e16, 1.0, -1e16, 1.0])
    ones = gpupy.asarray(numpy.ones(4))
    assert gpupy.correlate(ones, gpupy.asarray(v)).get().tolist() == [1.0]
    assert gpupy.correlate(gpupy.asarray(v), ones).get().tolist() == [1.0]
    assert gpupy.convolve(ones, gpupy.asarray(v[::-1].copy()), "valid").get().tolist() == [1.0]


@pytest.mark.parametrize("dtype", ["float32", "float64", "complex128"])
def test_convolve_correlate_cpu_and_emu_agree_bit_for_bit(dtype):
    """cpu (blocks of outputs, zero-padded ends) and emu (the CUDA kernel, one output per thread)
    sum the same products in the same order, so their results are identical."""
    if not _emu_available():
        pytest.skip("the emu device is not built")
    a, v = _data((300,), dtype), _data((41,), dtype)
    w = _data((70,), dtype)
    w[30] = numpy.nan  # a nan in the shorter operand: cpu sums the ends one overlap at a time
    for mode in ("full", "same", "valid"):
        for x, k in ((a, v), (v, a), (a, w), (w, a)):
            on = {
                dev: gpupy.correlate(
                    gpupy.asarray(x, device=dev), gpupy.asarray(k, device=dev), mode
                ).get()
                for dev in ("cpu", "emu")
            }
            numpy.testing.assert_array_equal(on["cpu"], on["emu"])


def _emu_available():
    try:
        gpupy.zeros(1, device="emu")
    except NotImplementedError:
        return False
    return True


def test_convolve_complex_infinity_is_the_product_formula():
    """Outputs with one product are that product, (inf + 0j) * (1 + 2j) = inf + infj, as NumPy's
    multiply gives (NumPy 2.4's convolve gives nan + infj here: gpupy keeps the formula)."""
    a = gpupy.asarray(numpy.array([numpy.inf + 0j, 1 + 1j, 2 - 1j]))
    v = gpupy.asarray(numpy.array([1 + 2j, 3 + 0j]))
    got = gpupy.convolve(a, v).get()
    assert got[0] == complex(numpy.inf, numpy.inf)
    numpy.testing.assert_array_equal(got[2:], [7 + 6j, 6 - 3j])


def test_sliding_dot_errors():
    x = gpupy.asarray(numpy.arange(4.0))
    with pytest.raises(ValueError, match=r"\[sliding_dot\] start 2 and length 7 do not fit the"):
        gpupy._core._sliding_dot(x, x, 2, 7)
    with pytest.raises(ValueError, match=r"\[sliding_dot\]"):
        gpupy._core._sliding_dot(x, x, 2**62, 2**62)
    with pytest.raises(ValueError, match=r"\[sliding_dot\]"):
        gpupy._core._sliding_dot(x, x, -1, 2)
    with pytest.raises(ValueError, match=r"\[sliding_dot\] a and v must be one-dimensional"):
        gpupy._core._sliding_dot(x.reshape(2, 2), x, 0, 1)
    with pytest.raises(ValueError, match=r"\[sliding_dot\] a and v cannot be empty"):
        gpupy._core._sliding_dot(x[:0], x, 0, 0)
    other = "emu" if str(x.device) != "emu" else "cpu"
    with pytest.raises(ValueError, match=r"\[sliding_dot\] operands are on different devices"):
        gpupy._core._sliding_dot(x, gpupy.asarray(numpy.arange(2.0), device=other), 0, 1)


@pytest.mark.parametrize("dtype", ["int32", "uint8", "float32", "float64", "complex128"])
def test_gradient_dtypes_spacing_and_edge_order(dtype):
    f = _data((5, 7), dtype, 0, 30)
    xs = numpy.cumsum(rs.rand(7) + 0.1)
    xi = numpy.array([0, 1, 3, 4, 7])

    @testing.numpy_gpupy_allclose(rtol=1e-4 if dtype == "float32" else 1e-10, atol=1e-9)
    def body(xp):
        a = xp.asarray(f)
        out = []
        for edge in (1, 2):
            out += [*xp.gradient(a, edge_order=edge), xp.gradient(a, 0.5, axis=1, edge_order=edge)]
            out += [*xp.gradient(a, xp.asarray(xi), xp.asarray(xs), edge_order=edge)]
            out += [*xp.gradient(a, 2.0, xp.asarray(xs), axis=(-2, -1), edge_order=edge)]
        out.append(xp.gradient(xp.asarray(f[0])))
        return out

    body()


def test_gradient_errors():
    f = gpupy.asarray(rs.randn(3, 4))
    with pytest.raises(ValueError, match=r"\[gradient\] Shape of array too small"):
        gpupy.gradient(f[:2], axis=0, edge_order=2)
    with pytest.raises(ValueError, match=r"\[gradient\] 'edge_order' greater than 2"):
        gpupy.gradient(f, edge_order=3)
    with pytest.raises(TypeError, match=r"\[gradient\] invalid number of arguments"):
        gpupy.gradient(f, 1.0, 2.0, 3.0)
    with pytest.raises(ValueError, match=r"\[gradient\] when 1d, distances must match"):
        gpupy.gradient(f, [1.0, 2.0], [1.0, 2.0, 3.0, 4.0])
    with pytest.raises(ValueError, match=r"\[gradient\] distances must be either scalars or 1d"):
        gpupy.gradient(f, gpupy.ones((3, 1)), 1.0)
    with pytest.raises(ValueError, match=r"\[gradient\]"):
        gpupy.gradient(f, axis=2)


@pytest.mark.parametrize("dtype", ["bool", "int16", "float32", "float64", "complex128"])
def test_trapezoid(dtype):
    y = _data((4, 6), dtype)
    x2 = numpy.cumsum(rs.rand(4, 6), axis=0)

    @testing.numpy_gpupy_allclose(rtol=1e-5 if dtype == "float32" else 1e-12)
    def body(xp):
        a = xp.asarray(y)
        return (
            xp.trapezoid(a),
            xp.trapezoid(a, dx=0.25, axis=0),
            xp.trapezoid(a, dx=numpy.float64(0.25)),  # a NumPy scalar promotes as in NumPy
            xp.trapezoid(a, x=xp.asarray(numpy.arange(6.0) ** 2)),
            xp.trapezoid(a, x=xp.asarray(x2), axis=0),
            xp.trapezoid(xp.asarray(y[:, :1])),
            xp.trapezoid([1, 2, 3], x=[[0, 1, 3]]),
        )

    body()


def test_interp():
    xp_ = numpy.sort(rs.rand(12))
    xd = xp_.copy()
    xd[5] = xd[4]  # a repeated abscissa (not with period=: NumPy's unstable sort orders them)
    fp = rs.randn(12)
    fc = fp + 1j * rs.randn(12)
    x = numpy.concatenate([rs.rand(30) * 1.6 - 0.3, xp_[[0, 3, -1]], [numpy.nan]])

    @testing.numpy_gpupy_allclose(rtol=1e-12)
    def body(xp):
        a, b, f, c = xp.asarray(x), xp.asarray(xp_), xp.asarray(fp), xp.asarray(fc)
        return (
            xp.interp(a, xp.asarray(xd), f),
            xp.interp(a, b, f),
            xp.interp(a, b, f, left=-5.0, right=7.5),
            xp.interp(a, b, c),
            xp.interp(a, b, c, left=1j, right=2.0),
            xp.interp(a * 3, b, f, period=0.8),
            xp.interp(a, b, c, period=-0.8),
            xp.interp(0.5, [0, 1], [0, 10]),
            xp.interp(a, [0.5], [3.0]),
            xp.interp(xp.asarray(numpy.arange(5)), [1, 3], [1, 2]),
        )

    body()


def test_interp_errors():
    with pytest.raises(ValueError, match=r"\[interp\] fp and xp are not of the same length"):
        gpupy.interp([1.0], [1.0, 2.0], [1.0])
    with pytest.raises(ValueError, match=r"\[interp\] array of sample points is empty"):
        gpupy.interp([1.0], [], [])
    with pytest.raises(TypeError, match=r"\[interp\] x and xp must be real"):
        gpupy.interp([1j], [0.0, 1.0], [0.0, 1.0])
    with pytest.raises(ValueError, match=r"\[interp\] period must be a non-zero value"):
        gpupy.interp([1.0], [1.0, 2.0], [1.0, 2.0], period=0)


@pytest.mark.parametrize("dtype", ["int64", "float32", "float64"])
def test_unwrap(dtype):
    p = numpy.cumsum(rs.randn(3, 25) * 2.5, axis=1).astype(dtype)
    if dtype == "int64":
        p = numpy.cumsum(rs.randint(-9, 9, (3, 25)), axis=1)

    @testing.numpy_gpupy_allclose(rtol=1e-5 if dtype == "float32" else 1e-12, atol=1e-5)
    def body(xp):
        a = xp.asarray(p)
        return (
            xp.unwrap(a),
            xp.unwrap(a, axis=0, discont=4.0),
            xp.unwrap(a, period=6),
            xp.unwrap(a, period=7),
            xp.unwrap(xp.asarray(p[:, :0])),
        )

    body()


@pytest.mark.parametrize("dtype", ["int32", "uint8", "float32", "float64", "complex128"])
def test_cross(dtype):
    a = _data((4, 3), dtype, 0, 9)
    b = _data((2, 1, 3), dtype, 0, 9)
    a2 = _data((4, 2), dtype, 0, 9)

    @testing.numpy_gpupy_allclose(accept_error=True)
    def body(xp):
        x, y, x2 = xp.asarray(a), xp.asarray(b), xp.asarray(a2)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)
            return (
                xp.cross(x, y),
                xp.cross(x.T, y, axisa=0, axisc=1),
                xp.cross(x.T, y.T, axis=0),
                xp.cross(x2, y),
                xp.cross(x, x2),
                xp.cross(x2, x2[::-1]),
                xp.cross([1, 2, 3], [4, 5, 6]),
            )

    body()


def test_cross_errors_and_warning():
    with pytest.raises(ValueError, match=r"\[cross\] incompatible dimensions"):
        gpupy.cross(gpupy.ones((3, 4)), gpupy.ones((3, 4)))
    with pytest.raises(ValueError, match=r"\[cross\]"):
        gpupy.cross(gpupy.ones(3), gpupy.ones(3), axisc=1)
    with pytest.warns(DeprecationWarning, match="2-dimensional vectors"):
        gpupy.cross(gpupy.ones(2), gpupy.ones(2))


@pytest.mark.parametrize("dtype", ["bool", "int16", "uint8", "float32", "complex128"])
def test_kron_vander(dtype):
    a = _data((2, 3), dtype, 0, 5)
    b = _data((3, 1, 2), dtype, 0, 5)
    x = _data((5,), dtype, 0, 5)

    @testing.numpy_gpupy_allclose(rtol=1e-6 if dtype == "float32" else 1e-12)
    def body(xp):
        return (
            xp.kron(xp.asarray(a), xp.asarray(b)),
            xp.kron(xp.asarray(b), xp.asarray(a[0])),
            xp.kron(xp.asarray(a), 3),
            xp.vander(xp.asarray(x)),
            xp.vander(xp.asarray(x), 3, increasing=True),
            xp.vander(xp.asarray(x), 0),
        )

    body()


def test_vander_errors():
    with pytest.raises(ValueError, match=r"\[vander\] x must be a one-dimensional"):
        gpupy.vander(gpupy.ones((2, 2)))
    with pytest.raises(ValueError, match=r"\[vander\] negative dimensions"):
        gpupy.vander(gpupy.ones(2), -1)


@pytest.mark.parametrize("m", [-1, 0, 1, 2, 7, 16.0])
def test_windows(m):
    @testing.numpy_gpupy_allclose(rtol=1e-13, atol=1e-15)
    def body(xp):
        return (
            xp.hamming(m),
            xp.hanning(m),
            xp.bartlett(m),
            xp.blackman(m),
            xp.kaiser(m, 0.0),
            xp.kaiser(m, 8.6),
            xp.kaiser(m, 40.0),
        )

    body()


def test_i0_against_numpy_over_the_float64_range():
    x = numpy.concatenate([numpy.linspace(-60, 60, 1201), numpy.linspace(60, 700, 300), [0.0]])
    got = gpupy.i0(gpupy.asarray(x)).get()
    numpy.testing.assert_allclose(got, numpy.i0(x), rtol=5e-15)
    assert numpy.isnan(gpupy.i0(gpupy.asarray([numpy.nan])).get()[0])
    assert numpy.isinf(gpupy.i0(gpupy.asarray([800.0])).get()[0])


def test_numpy_dispatch_reaches_gpupy():
    a = gpupy.asarray(rs.randn(6))
    for out in (
        numpy.convolve(a, a),
        numpy.correlate(a, a),
        numpy.gradient(a),
        numpy.trapezoid(a),
        numpy.interp(a, gpupy.sort(a), a),
        numpy.unwrap(a),
        numpy.kron(a, a),
        numpy.vander(a),
        numpy.cross(a.reshape(2, 3), a.reshape(2, 3)),
    ):
        assert isinstance(out, gpupy.ndarray)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("mode", ["full", "same", "valid"])
def test_convolve_correlate_keep_infinities_at_the_ends(mode, dtype):
    """The zero padding never multiplies an inf (0 * inf would be nan where NumPy has inf)."""
    a = numpy.array([1.0, 2.0, numpy.inf, 4.0], dtype)
    v = numpy.array([1.0, 2.0, 2.0, 3.0, -numpy.inf], dtype)
    w = numpy.array([numpy.nan, 1.0, 2.0, numpy.inf], dtype)
    z = numpy.array([numpy.inf, 1.0, 2.0, 3.0, 4.0, -numpy.inf, 5.0], dtype)
    u = numpy.array([1.0, -2.0, 3.0], dtype)

    @testing.numpy_gpupy_allclose(rtol=1e-6 if dtype == "float32" else 1e-15)
    def body(xp):
        x, k, y = xp.asarray(a), xp.asarray(v), xp.asarray(w)
        out = [xp.convolve(x, k, mode), xp.convolve(k, x, mode), xp.correlate(x, k, mode)]
        out += [xp.correlate(k, x, mode), xp.convolve(y, k, mode), xp.correlate(k, y, mode)]
        # The infinities in the longer operand, the shorter one finite.
        s, t = xp.asarray(z), xp.asarray(u)
        return out + [xp.convolve(s, t, mode), xp.correlate(s, t, mode), xp.correlate(t, s, mode)]

    body()


def test_cross_with_two_vectors_and_infinities():
    """A 2-vector's missing component is not multiplied as 0 (0 * inf would be nan)."""
    a = numpy.array([[1.0, numpy.inf, 2.0], [3.0, 4.0, -numpy.inf]])
    b = numpy.array([1.0, 2.0])

    @testing.numpy_gpupy_allclose(rtol=1e-15)
    def body(xp):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)
            return [xp.cross(xp.asarray(a), xp.asarray(b)), xp.cross(xp.asarray(b), xp.asarray(a))]

    body()


def test_interp_complex_parts_are_separate():
    """Real and imaginary parts are interpolated on their own, as NumPy does: a nan or inf in
    one part of fp does not spread into the other."""
    fp = numpy.array([1 + 1j, numpy.nan + 2j, 3 + 1j * numpy.inf, 4 - 1j])

    @testing.numpy_gpupy_allclose(rtol=1e-15)
    def body(xp):
        x = xp.asarray([-1.0, 0.5, 1.5, 2.5, 3.0, 9.0])
        xp_ = xp.asarray([0.0, 1.0, 2.0, 3.0])
        out = [
            xp.interp(x, xp_, xp.asarray(fp)),
            xp.interp(x, xp_, xp.asarray(fp.astype("complex64")), left=2j, right=-1.0),
            xp.interp(x, xp_, xp.asarray(fp), period=2.5),
        ]
        # Compared part by part: a nan anywhere in a complex value would hide the other part.
        return [part for r in out for part in (xp.real(r), xp.imag(r))]

    body()


def test_gradient_of_booleans_checks_the_shape_first():
    """As in NumPy: too short an axis is a ValueError even for booleans, a 0-d array has no
    axes (an empty tuple), and otherwise booleans cannot be subtracted (TypeError)."""

    @testing.numpy_gpupy_allclose(accept_error=True)
    def body(xp):
        return xp.gradient(xp.asarray([True]))

    body()
    assert gpupy.gradient(gpupy.asarray(True)) == numpy.gradient(numpy.asarray(True)) == ()
    with pytest.raises(TypeError, match=r"^\[gradient\] numpy boolean subtract"):
        gpupy.gradient(gpupy.asarray([True, False]))


def test_trapezoid_spacings_that_do_not_match_y_name_trapezoid():
    with pytest.raises(ValueError, match=r"^\[trapezoid\] operands could not be broadcast"):
        gpupy.trapezoid(gpupy.ones(4), gpupy.ones(3))


@pytest.mark.parametrize("name", ["convolve", "correlate"])
@pytest.mark.parametrize(
    "mode", [0, 1, 2, numpy.int64(1), 3, -1, True, 1.0, None, "Full"], ids=repr
)
@pytest.mark.parametrize("v", [[1, 1], [2, -1, 3, 1]])
@testing.numpy_gpupy_allclose(accept_error=True)
def test_convolve_modes_as_numpy_reads_them(name, mode, v, xp):
    # NumPy's legacy integer modes 0, 1, 2 are valid, same, full; other ints are a ValueError,
    # other types a TypeError
    return getattr(xp, name)(xp.asarray([1, 2, 3]), xp.asarray(v), mode=mode)
