"""frexp, ldexp and isnat against NumPy: bit-exact on special values (signed zeros, subnormals,
inf, nan, overflow and underflow) and on random values across the whole exponent range, NumPy's
dtype rules, out=, and dispatch from numpy.frexp / numpy.ldexp / numpy.isnat."""

import gpupy
import numpy as np
import pytest
from gpupy import testing

FLOATS = ("float16", "float32", "float64")
UINT = {"float16": np.uint16, "float32": np.uint32, "float64": np.uint64}


def _specials(dtype):
    fi = np.finfo(dtype)
    tiny, sub = fi.smallest_normal, fi.smallest_subnormal
    v = [0.0, -0.0, 1.0, -1.0, 0.5, 3.0, -0.75, np.inf, -np.inf, np.nan, fi.max, -fi.max, tiny]
    v += [-tiny, sub, -sub, sub * 3, tiny - sub, -(tiny / 2), fi.eps, 1 - fi.epsneg, 1e-3]
    return np.array(v, dtype=dtype)


def _random(dtype, n=2000, seed=0):
    """Random mantissas scaled over every exponent, subnormals included, both signs."""
    rng = np.random.default_rng(seed)
    fi = np.finfo(dtype)
    low = int(np.log2(fi.smallest_subnormal)) - 1
    exps = rng.integers(low, fi.maxexp, n)
    m = rng.uniform(0.5, 1.0, n) * rng.choice([-1.0, 1.0], n)
    return np.ldexp(m, exps).astype(dtype)


def _assert_bits(expected, actual):
    """Same dtype, shape and bits (every NaN counts as equal to every NaN)."""
    actual = actual.get() if isinstance(actual, gpupy.ndarray) else actual
    expected = np.asarray(expected)
    assert actual.dtype == expected.dtype and actual.shape == expected.shape
    nan = np.isnan(expected) if expected.dtype.kind == "f" else np.zeros(expected.shape, bool)
    if expected.dtype.kind == "f":
        np.testing.assert_array_equal(np.isnan(actual), nan)
        bits = UINT[expected.dtype.name]
        np.testing.assert_array_equal(actual[~nan].view(bits), expected[~nan].view(bits))
    else:
        np.testing.assert_array_equal(actual, expected)


# ---- frexp ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("dtype", FLOATS)
def test_frexp_bit_exact(dtype):
    x = np.concatenate([_specials(dtype), _random(dtype)])
    m, e = gpupy.frexp(gpupy.asarray(x))
    em, ee = np.frexp(x)
    _assert_bits(em, m)
    _assert_bits(ee, e)


@pytest.mark.parametrize(
    "dtype,loop",
    [("bool", "float16"), ("int8", "float16"), ("uint8", "float16"), ("int16", "float32")]
    + [("uint16", "float32"), ("int32", "float64"), ("uint32", "float64"), ("int64", "float64")]
    + [("uint64", "float64")],
)
def test_frexp_of_integers(dtype, loop):
    # NumPy computes int8, uint8 and bool in float16, int16 and uint16 in float32.
    x = np.array([0, 1, 2, 3, 7, 100], dtype=dtype) if dtype != "bool" else np.array([0, 1], bool)
    m, e = gpupy.frexp(gpupy.asarray(x))
    em, ee = np.frexp(x.astype(loop))
    _assert_bits(em, m)
    _assert_bits(ee, e)


def test_frexp_shapes_and_scalars():
    for x in (np.zeros((0, 3)), np.array(6.0), np.arange(24.0).reshape(2, 3, 4)[:, ::2, 1:]):
        m, e = gpupy.frexp(gpupy.asarray(x))
        em, ee = np.frexp(x)
        _assert_bits(em, m)
        _assert_bits(ee, e)
    m, e = gpupy.frexp(-12.0)  # a Python float
    assert (m.item(), e.item(), m.dtype, e.dtype) == (-0.75, 4, np.float64, np.int32)
    m, e = gpupy.frexp([1.0, 0.25])
    assert m.tolist() == [0.5, 0.5] and e.tolist() == [1, -1]


def test_frexp_out():
    x = gpupy.asarray([3.0, -0.0, 1e-310])
    m, e = gpupy.empty(3), gpupy.empty(3, dtype="int64")
    rm, re = gpupy.frexp(x, out=(m, e))
    assert rm is m and re is e
    em, ee = np.frexp(x.get())
    _assert_bits(em, m)
    _assert_bits(ee.astype(np.int64), e)
    m2 = gpupy.empty(3)
    assert gpupy.frexp(x, m2)[0] is m2  # positional out
    _assert_bits(em, m2)
    m3, _ = gpupy.frexp(x, out=(None, None))
    _assert_bits(em, m3)


def test_frexp_out_aliasing_the_input():
    h = np.array([3.0, -5.0, 0.1, np.inf])
    em, ee = np.frexp(h)
    x = gpupy.array(h)  # a copy: on the cpu, asarray would share h's memory
    gpupy.frexp(x, out=(x, None))
    _assert_bits(em, x)
    x, m = gpupy.array(h), gpupy.empty(4)
    gpupy.frexp(x, out=(m, x))  # the exponent (as float64) overwrites x; m still from old x
    _assert_bits(em, m)
    _assert_bits(ee.astype(np.float64), x)


def test_frexp_errors():
    with pytest.raises(TypeError, match=r"^\[frexp\]"):
        gpupy.frexp(gpupy.asarray([1 + 2j]))
    x = gpupy.asarray([1.0])
    with pytest.raises(TypeError, match=r"^\[frexp\]"):
        gpupy.frexp(x, out=(gpupy.empty(1, dtype="int32"), None))  # float into int
    with pytest.raises(TypeError, match=r"^\[frexp\]"):
        gpupy.frexp(x, out=(None, gpupy.empty(1, dtype="bool")))  # int32 into bool
    with pytest.raises(TypeError, match=r"^\[frexp\]"):
        gpupy.frexp(x, gpupy.empty(1), out=(None, None))
    with pytest.raises(TypeError, match=r"^\[frexp\]"):
        gpupy.frexp(x, out=gpupy.empty(1))
    with pytest.raises(ValueError, match=r"^\[frexp\]"):
        gpupy.frexp(x, out=(gpupy.empty(1),))
    with pytest.raises(ValueError, match=r"^\[frexp\]"):
        gpupy.frexp(gpupy.ones(3), out=(gpupy.empty(2), None))


def test_frexp_where_and_casting():
    h = np.array([3.0, -5.0, 0.1, np.inf])
    mask = np.array([True, False, False, True])
    em, ee = np.full(4, 7.0), np.full(4, 6, dtype=np.int64)
    np.frexp(h, out=(em, ee), where=mask)
    m, e = gpupy.full(4, 7.0), gpupy.full(4, 6, dtype="int64")
    gpupy.frexp(gpupy.asarray(h), out=(m, e), where=gpupy.asarray(mask))
    _assert_bits(em, m)
    _assert_bits(ee, e)
    with pytest.raises(TypeError, match=r"^\[frexp\]"):  # NumPy: no loop for any dtype=
        gpupy.frexp(gpupy.asarray(h), dtype="float64")
    with pytest.raises(TypeError, match=r"^\[frexp\]"):  # int64 -> float64 is not 'no'
        gpupy.frexp(gpupy.arange(3), casting="no")


def test_numpy_frexp_dispatches():
    x = gpupy.asarray([8.0, -0.1])
    m, e = np.frexp(x)
    assert isinstance(m, gpupy.ndarray) and isinstance(e, gpupy.ndarray)
    assert m.device == x.device
    em, ee = np.frexp(x.get())
    _assert_bits(em, m)
    _assert_bits(ee, e)
    mo, eo = gpupy.empty(2), gpupy.empty(2, dtype="int32")
    rm, re = np.frexp(x, out=(mo, eo))
    assert rm is mo and re is eo
    _assert_bits(ee, eo)


# ---- ldexp ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("exp_dtype", ("int32", "int64"))
def test_ldexp_bit_exact(dtype, exp_dtype):
    rng = np.random.default_rng(1)
    x = np.concatenate([_specials(dtype), _random(dtype, 1000)])
    span = 2 * np.finfo(dtype).maxexp + 200  # from underflow to zero up to overflow to inf
    e = rng.integers(-span, span, x.size).astype(exp_dtype)
    e[:6] = [0, 1, -1, np.iinfo(exp_dtype).max, np.iinfo(exp_dtype).min, 5]
    with np.errstate(over="ignore"):
        expected = np.ldexp(x, e)
    _assert_bits(expected, gpupy.ldexp(gpupy.asarray(x), gpupy.asarray(e)))


@pytest.mark.parametrize("dtype", FLOATS)
def test_ldexp_rounds_subnormals_and_keeps_signs(dtype):
    fi = np.finfo(dtype)
    sub_exp = int(np.log2(fi.smallest_subnormal))
    x = np.array([3.0, -3.0, 1.5, -1.0, 1.0, -0.0, 0.0, 5.0, -fi.max, fi.max], dtype=dtype)
    e = np.array([sub_exp - 1, sub_exp - 1, sub_exp, sub_exp - 1, sub_exp - 2, 40, -40, 3, 1, 1])
    with np.errstate(over="ignore"):
        expected = np.ldexp(x, e)
    _assert_bits(expected, gpupy.ldexp(gpupy.asarray(x), gpupy.asarray(e)))


@pytest.mark.parametrize(
    "x,e",
    [
        (np.float32([1.5, 2.0]), np.int64([3, -2])),
        (np.float32([1.5, 2.0]), np.int8([3, -2])),
        (np.float16([1.5, 2.0]), np.int64([3, -20])),
        (np.float16([1.5, 2.0]), 20),  # 1.5 * 2**20 overflows float16
        (np.float32([1.5, 2.0]), np.uint32([3, 2])),
        (np.float64([1.5, 2.0]), np.array([True, False])),
        (np.int16([3, 5]), np.int64([3, -2])),  # int16 fits float32
        (np.int32([3, 5]), np.int32([3, -2])),  # int32 needs float64
        (np.uint64([3, 5]), 4),
        (np.float32([1.5, 2.0]), 7),  # a Python int stays weak
        (2.5, np.int64([1, -1])),
        (3, 2),
        (np.float32(1.5), np.int64(2**40)),  # overflows to inf
    ],
)
def test_ldexp_dtypes_follow_numpy(x, e):
    g = [gpupy.asarray(v) if isinstance(v, np.ndarray) else v for v in (x, e)]
    with np.errstate(over="ignore"):
        expected = np.asarray(np.ldexp(x, e))
    _assert_bits(expected, gpupy.ldexp(*g))


def test_ldexp_small_integers_use_float16():
    # NumPy computes int8, uint8 and bool in float16.
    x = np.array([1, -3, 7, 100], dtype=np.int8)
    actual = gpupy.ldexp(gpupy.asarray(x), 2)
    _assert_bits(np.ldexp(x, 2), actual)
    with np.errstate(over="ignore"):  # 100 * 1024 overflows float16
        _assert_bits(np.ldexp(x, 10), gpupy.ldexp(gpupy.asarray(x), 10))


def test_ldexp_broadcasting_shapes_and_out():
    x = np.linspace(-3, 3, 12).reshape(3, 4)
    e = np.arange(-2, 2)
    _assert_bits(np.ldexp(x, e), gpupy.ldexp(gpupy.asarray(x), gpupy.asarray(e)))
    _assert_bits(np.ldexp(np.zeros((0, 4)), e), gpupy.ldexp(gpupy.zeros((0, 4)), gpupy.asarray(e)))
    _assert_bits(np.ldexp(np.float64(0.75), 3), gpupy.ldexp(gpupy.asarray(0.75), 3))
    out = gpupy.empty((3, 4), dtype="float32")
    assert gpupy.ldexp(gpupy.asarray(x), gpupy.asarray(e), out=out) is out
    _assert_bits(np.ldexp(x, e).astype(np.float32), out)


def test_ldexp_errors():
    x = gpupy.asarray([1.0, 2.0])
    for bad in (gpupy.asarray([1.0, 2.0]), gpupy.asarray([1, 2], dtype="uint64"), 2.0, 1j):
        with pytest.raises(TypeError, match=r"^\[ldexp\]"):
            gpupy.ldexp(x, bad)
    with pytest.raises(TypeError, match=r"^\[ldexp\]"):
        gpupy.ldexp(gpupy.asarray([1j]), 2)
    for big in (2**40, -(2**40), 2**64 - 1):  # a Python int must fit int32, as in NumPy
        with pytest.raises(OverflowError, match=r"^\[ldexp\]"):
            gpupy.ldexp(x, big)
    with pytest.raises(TypeError, match=r"^\[ldexp\]"):
        gpupy.ldexp(x, 2, out=gpupy.empty(2, dtype="int64"))
    with pytest.raises(ValueError, match=r"^\[ldexp\]"):
        gpupy.ldexp(x, gpupy.asarray([1, 2, 3]))


def test_numpy_ldexp_dispatches():
    x, e = gpupy.asarray([1.5, -2.0]), gpupy.asarray([3, -1])
    r = np.ldexp(x, e)
    assert isinstance(r, gpupy.ndarray) and r.device == x.device
    _assert_bits(np.ldexp(x.get(), e.get()), r)
    _assert_bits(np.ldexp(x.get(), 4), np.ldexp(x, 4))


# ---- isnat ---------------------------------------------------------------------------------------


def test_isnat_refuses_non_datetime_input():
    for value in (gpupy.asarray([1.0]), gpupy.asarray([1]), 1.0, [1, 2]):
        with pytest.raises(TypeError, match=r"^\[isnat\] .*datetime64"):
            gpupy.isnat(value)
    with pytest.raises(TypeError, match="isnat"):
        np.isnat(gpupy.asarray([1.0]))  # through __array_ufunc__


def test_isnat_of_a_numpy_datetime_array():
    d = np.array(["2024-01-01", "NaT", "1970-01-01"], dtype="datetime64[D]")
    r = gpupy.isnat(d)
    assert isinstance(r, gpupy.ndarray) and r.tolist() == np.isnat(d).tolist()
    assert gpupy.isnat(np.array([1, "NaT"], dtype="timedelta64[s]")).tolist() == [False, True]


@pytest.mark.parametrize(
    "x, e",
    [(2.0, 2**63 - 1), (2.0, -(2**63)), (2.0, 2**63), (2.0, 5), (0.5, 2**40),
     ("array", 2**31 - 1), ("array", 2**40)],
)  # fmt: skip
@testing.numpy_gpupy_allclose(accept_error=True)
def test_ldexp_of_python_scalars_takes_the_int64_loop(x, e, xp):
    # two Python scalars become float64 and int64 arrays (NumPy's 'dl' loop); a Python int next
    # to an array takes the int32 loop and overflows beyond it (OverflowError in both)
    with np.errstate(over="ignore"):
        return xp.ldexp(xp.asarray([2.0]) if x == "array" else x, e)
