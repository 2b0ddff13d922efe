"""exp, exp2, log, log2, sin, cos (float32), exp, exp2, log, cos (float64), expm1, log1p, tanh,
arctan2, power, float_power, floor, ceil, trunc and rint (float32, float64) on the host devices
against the C library's functions, bit for bit.

The cpu device computes these with vector loops that must return exactly what the scalar library
call returns (what emu returns, and what the cpu device returned before the loops existed). The
float32 exp inputs include the values whose results lie closest to a float32 rounding midpoint,
where the loops that rely on the library's error bound hand the element to it; the others include
the edges of the library's own paths, which the loops reproduce. Every case also runs strided and
in place."""

import ctypes
import ctypes.util
import platform

import gpupy
import numpy
import pytest

_EXP = {"exp": numpy.exp, "exp2": numpy.exp2}
_ROUNDING = ["floor", "ceil", "trunc", "rint"]
_CTYPES = {
    numpy.float32: ("f", ctypes.c_float, numpy.uint32),
    numpy.float64: ("", ctypes.c_double, numpy.uint64),
}


@pytest.fixture(autouse=True)
def _host_libm(device_name):
    if device_name == "cuda":
        pytest.skip("the cuda device computes with CUDA's math library, not the C library")
    if platform.libc_ver()[0] != "glibc":
        pytest.skip("the reference is glibc's libm")


def _library(name, dtype):
    suffix, ctype, _ = _CTYPES[dtype]
    fn = getattr(ctypes.CDLL(ctypes.util.find_library("m")), name + suffix)
    fn.restype, fn.argtypes = ctype, [ctype]
    return lambda xs: numpy.array([fn(x) for x in xs.tolist()], dtype=dtype)


def _near_midpoints(reference, rng, count):
    """Inputs whose exact result lies within 0.02 float32 ulp of a rounding midpoint."""
    x = rng.uniform(-100, 100, 400_000).astype(numpy.float32)
    with numpy.errstate(over="ignore"):
        exact = reference(x.astype(numpy.float64))  # float64: far finer than the float32 ulp
        rounded = exact.astype(numpy.float32)
    ok = numpy.isfinite(rounded) & (numpy.abs(rounded) >= numpy.finfo(numpy.float32).tiny)
    ulp = numpy.spacing(rounded[ok]).astype(numpy.float64)
    frac = (exact[ok] - rounded[ok].astype(numpy.float64)) / ulp
    near = numpy.abs(numpy.abs(frac) - 0.5) < 0.02
    return x[ok][near][:count]


def _inputs(dtype, reference=None):
    rng = numpy.random.default_rng(7)
    f32, uint = numpy.float32, _CTYPES[dtype][2]
    edges = [0.0, 1.0, 0.5, 2.0, 10.0, 64.0, 88.0, 88.72283, 88.72284, 89.0, 100.0, 87.33654]
    edges += [87.33655, 103.97, 103.98, 126.0, 127.0, 127.99999, 128.0, 149.0, 150.0, 1e-8, 1e-40]
    edges += [1e30, 3.4e38]
    special = numpy.array(edges, dtype=f32)
    special = numpy.concatenate([special, -special, numpy.nextafter(special, f32(numpy.inf))])
    special = numpy.concatenate([special, numpy.nextafter(special, f32(-numpy.inf))])
    special = numpy.concatenate([special, numpy.array([numpy.inf, -numpy.inf, numpy.nan], f32)])
    parts = [
        special.astype(dtype),
        rng.uniform(-110, 110, 20_000).astype(dtype),
        (rng.standard_normal(5_000) * 2.0 ** rng.integers(-30, 60, 5_000)).astype(dtype),
        rng.integers(0, 2**63, 20_001, dtype=numpy.uint64).astype(uint).view(dtype),
    ]
    if reference is not None:
        parts.append(_near_midpoints(reference, rng, 5_000))
    return numpy.concatenate(parts)


def _assert_same_bits(result, expected, inputs, nan_bits_where=None):
    nan = numpy.isnan(expected)
    assert numpy.array_equal(numpy.isnan(result), nan)
    uint = _CTYPES[expected.dtype.type][2]
    # NaN results are compared bit for bit too, except where a signalling NaN input was quieted on
    # its way through ctypes (so the reference saw another input), or outside nan_bits_where.
    quiet = ~nan | (_is_quiet_nan(inputs) if nan_bits_where is None else nan_bits_where)
    x, r, e = inputs[quiet], result[quiet], expected[quiet]
    bad = numpy.flatnonzero(r.view(uint) != e.view(uint))[:5]
    assert bad.size == 0, f"inputs {x[bad]}: gpupy {r[bad]}, C library {e[bad]}"


def _is_quiet_nan(x):
    uint = _CTYPES[x.dtype.type][2]
    quiet_bit = uint(1) << uint(numpy.finfo(x.dtype).nmant - 1)
    return numpy.isnan(x) & ((x.view(uint) & quiet_bit) != 0)


def _check(name, x):
    expected = _library(name, x.dtype.type)(x)
    ufunc = getattr(gpupy, name)
    _assert_same_bits(gpupy.asnumpy(ufunc(gpupy.asarray(x))), expected, x)
    # A strided view goes through the cpu chunk buffer; in place, the loop reads what it writes.
    _assert_same_bits(gpupy.asnumpy(ufunc(gpupy.asarray(x)[::3])), expected[::3], x[::3])
    inplace = gpupy.asarray(x)
    ufunc(inplace, out=inplace)
    _assert_same_bits(gpupy.asnumpy(inplace), expected, x)


@pytest.mark.parametrize("name", sorted(_EXP))
def test_exp_float32_equals_c_library(name):
    x = _inputs(numpy.float32, _EXP[name])
    assert x.size > 50_000  # the midpoint search found its cases
    _check(name, x)


@pytest.mark.parametrize("dtype", [numpy.float32, numpy.float64])
@pytest.mark.parametrize("name", _ROUNDING)
def test_rounding_equals_c_library(name, dtype):
    halves = numpy.arange(-2000, 2000, dtype=dtype) + dtype(0.5)  # rint's ties go to even
    x = numpy.concatenate([_inputs(dtype), halves])
    _check(name, x)


def test_midpoint_cases_are_found():
    # Guards the test above: without near-midpoint inputs it would not reach the library fallback.
    x = _near_midpoints(numpy.exp, numpy.random.default_rng(7), 5_000)
    assert x.size == 5_000


# Inputs at the edges of the paths of glibc's exp, log, logf, log2f, sinf and cosf (overflow and
# underflow, tiny arguments, the band around 1 that log treats apart, the reduction of sin and cos
# and its end at 120), each with its neighbours, and NaNs with payloads.
_EDGES = {
    "exp": [709.782712893384, 709.7827128933841, -745.1332191019411, -708.3964185322641, 512.0,
            511.99999999999994, 1024.0, 2.0**-54, 2.0**-55, 1e-300, 5e-324, 2.2250738585072014e-308,
            1.0, 0.5, 0.34657359027997264, 1.0397207708399179, 88.0, -1022.5, 1e308],
    # 1 - 2^-4 and 1 + 0x1.09p-4 bound log's band around 1; 0x1.6p-1 and 0x1.66p-1 start the tables
    "log": [0.9375, 0.9374999999999999, 1.064697265625, 1.064453125, 1.0, 0.5, 2.0, 0.6875, 1.375,
            5e-324, 2.2250738585072014e-308, 1.7976931348623157e308, 1e-300, 1e300, 0.1, 10.0],
    "log2": [1.0, 0.5, 2.0, 0.69921875, 1.3984375, 1e-45, 1.1754943508222875e-38, 3.4028234e38,
             1e-40, 0.1, 10.0, 1024.0],
    "sin": [0.0, 2.0**-12, 2.0**-12 * 1.001, 2.0**-126, 1e-45, 0.7853981, 0.78539819, 1.5707964,
            3.1415927, 4.712389, 6.2831855, 119.99999, 120.0, 120.00001, 1e4, 3.4e38, 100.53096],
    # expm1: the reduction's steps (ln2/2, 1.5 ln2, k = 20 and 57 for float64, 23 for float32),
    # where it returns -1 (56 ln2, 27 ln2), overflow; log1p: sqrt(2) - 1, 1 - sqrt(2)/2, tiny x,
    # 2^53 and 1 + x a power of two; tanh: 1, 22 and tiny x.
    "expm1": [0.34657359027997264, 1.0397207708399179, 13.862943611198906, 39.50996964, 15.94,
              38.816242111356935, 18.714973875118524, 709.782712893384, 88.7216796875, 88.72168,
              2.0**-54, 2.0**-25, 1e-300, 5e-324, 2.2250738585072014e-308, 0.25, 0.5, 1.0, 10.0],
    "log1p": [0.41421356237309503, 0.41421357, -0.2928932188134524, -0.29289323, 1.0, 0.5, -0.75,
              2.0**53, 2.0**24, 2.0**-29, 2.0**-54, 1e-300, 5e-324, 1e300, 1e30,
              1.7976931348623157e308, 3.4028234e38] + [2.0**j - 1 for j in range(-24, 64)],
    "tanh": [1.0, 22.0, 2.0**-55, 2.0**-26, 0.5, 0.34657, 1e-300, 5e-324, 2.2250738585072014e-308,
             20.0, 9.0, 3.0, 1e-40],
}  # fmt: skip
# float64 cos: glibc's path bounds (2^-27, 0.855469, 2.426265, 105414350), its table's rounding
# points (j + 1/2) / 128 about 0 and pi/2, its Taylor bound 0.126, the end of Box-Muller's
# [0, 2 pi).
_TABLE_POINTS = [(j + 0.5) / 128 for j in range(110)] + [0.126]
_EDGES["cos"] = _EDGES["sin"] + [2.0**-27, 0.85546875, 2.4262638092041016, 105414350.0, 1e8]
_EDGES["cos"] += _TABLE_POINTS + [
    numpy.pi / 2 + t for t in _TABLE_POINTS + [-t for t in _TABLE_POINTS]
]
_EDGES["cos"] += [6.283185307179586 * (1 - 2.0**-53), 6.283185307179586]
_EDGES["exp2"] = _EDGES["exp"] + [1023.9999999999999, 1024.0, -1074.0, -1075.0, -1022.0, 0.0078125]


def _edge_inputs(name, dtype):
    rng = numpy.random.default_rng(11)
    uint = _CTYPES[dtype][2]
    # Edges beyond float32's range become inf, and the neighbours of the largest float overflow.
    with numpy.errstate(over="ignore"):
        edges = numpy.array(_EDGES[name], dtype=dtype)
        edges = numpy.concatenate([edges, -edges, [0.0, numpy.inf, -numpy.inf]]).astype(dtype)
        for _ in range(3):
            edges = numpy.concatenate([edges, numpy.nextafter(edges, dtype(numpy.inf))])
            edges = numpy.concatenate([edges, numpy.nextafter(edges, dtype(-numpy.inf))])
    nmant = numpy.finfo(dtype).nmant
    payloads = rng.integers(1, 2 ** (nmant - 1), 8, dtype=numpy.uint64).astype(uint)
    quiet = numpy.array(numpy.nan, dtype=dtype).view(uint) | payloads  # quiet NaNs with payloads
    nans = numpy.concatenate([quiet, quiet | (uint(1) << uint(8 * dtype().itemsize - 1))])
    subnormal = rng.integers(1, 2**nmant, 200, dtype=numpy.uint64).astype(uint).view(dtype)
    ranges = {"exp": (-750, 750), "exp2": (-1080, 1030), "log": (0, 3), "log2": (0, 3)}
    ranges.update({"expm1": (-45, 90), "log1p": (-1, 4), "tanh": (-25, 25)})
    lo, hi = ranges.get(name, (-130, 130))
    quadrants = numpy.arange(-80, 81) * (numpy.pi / 4)
    parts = [
        edges,
        nans.view(dtype),
        subnormal,
        -subnormal,
        rng.uniform(lo, hi, 20_000).astype(dtype),
        rng.uniform(0.9, 1.1, 5_000).astype(dtype),
        (rng.standard_normal(5_000) * 2.0 ** rng.integers(-60, 60, 5_000)).astype(dtype),
        (quadrants + rng.uniform(-1e-4, 1e-4, (20, quadrants.size))).ravel().astype(dtype),
        rng.integers(0, 2**63, 20_001, dtype=numpy.uint64).astype(uint).view(dtype),
    ]
    return numpy.concatenate(parts)


@pytest.mark.parametrize(
    "name, dtype",
    [
        ("exp", numpy.float64),
        ("exp2", numpy.float64),
        ("log", numpy.float64),
        ("log", numpy.float32),
        ("log2", numpy.float32),
        ("sin", numpy.float32),
        ("cos", numpy.float32),
        ("cos", numpy.float64),
        ("expm1", numpy.float64),
        ("expm1", numpy.float32),
        ("log1p", numpy.float64),
        ("log1p", numpy.float32),
        ("tanh", numpy.float64),
        ("tanh", numpy.float32),
    ],
)
def test_replayed_functions_equal_c_library(name, dtype):
    x = _edge_inputs(name, dtype)
    _check(name, x)


# power: pairs of edges (zeros, infinities, NaN, 1, integers and halves, subnormals, extremes, and
# the |y| bounds 2^-65 and 2^63 of glibc's fast path), each with its neighbours and negation.
_POW_EDGES = [0.0, 1.0, 2.0, 3.0, 0.5, 1.5, 2.5, 1e-3, 100.0, 101.0, 1e-30, 2.0**-65, 2.0**63,
              2.0**24, 2.0**53, 1 / 3, 5e-324, 1e-40, 2.2250738585072014e-308,
              1.1754943508222875e-38, 3.4028234663852886e38, 1.7976931348623157e308, numpy.inf,
              numpy.nan]  # fmt: skip
# y ln x (float64) or y log2 x (float32) where the fast path ends and results overflow or underflow
_POW_LIMITS = {
    numpy.float64: [512.0, -512.0, 709.782712893384, -708.3964185322641, -745.1332191019411,
                    2.0**-54, -(2.0**-54)],
    numpy.float32: [126.0, -126.0, 128.0, -149.0, -150.0, 2.0**-25],
}  # fmt: skip


def _library2(name, dtype):
    suffix, ctype, _ = _CTYPES[dtype]
    fn = getattr(ctypes.CDLL(ctypes.util.find_library("m")), name + suffix)
    fn.restype, fn.argtypes = ctype, [ctype, ctype]
    return lambda xs, ys: numpy.array(
        [fn(a, b) for a, b in zip(xs.tolist(), ys.tolist(), strict=True)], dtype=dtype
    )


def _pow_inputs(dtype):
    rng = numpy.random.default_rng(13)
    uint = _CTYPES[dtype][2]
    with numpy.errstate(over="ignore", under="ignore"):
        edges = numpy.array(_POW_EDGES, dtype=dtype)
        edges = numpy.concatenate([edges, numpy.nextafter(edges, dtype(0)), -edges])
        edges = numpy.concatenate([edges, numpy.nextafter(edges, dtype(numpy.inf))])
    ex, ey = (v.ravel() for v in numpy.meshgrid(edges, edges))
    tiny, huge = (
        numpy.log2(numpy.finfo(dtype).smallest_subnormal),
        numpy.log2(numpy.finfo(dtype).max),
    )
    base = numpy.log(2.0) if dtype == numpy.float32 else 1.0  # y log x in the library's base
    x1 = numpy.exp2(rng.uniform(tiny, huge, 20_000)).astype(dtype)
    t = numpy.exp2(rng.uniform(-60, 10, x1.size)) * rng.choice([-1.0, 1.0], x1.size)
    x2 = numpy.exp2(rng.uniform(-30, 30, 10_000)).astype(dtype)
    limits = rng.choice(_POW_LIMITS[dtype], x2.size) * (1 + rng.uniform(-1e-6, 1e-6, x2.size))
    x3 = (1 + rng.choice([-1.0, 1.0], 5_000) * numpy.exp2(rng.uniform(-53, -1, 5_000))).astype(
        dtype
    )
    y3 = rng.choice([-1.0, 1.0], x3.size) * numpy.exp2(rng.uniform(-70, 64, x3.size))
    x4 = -numpy.exp2(rng.uniform(-20, 20, 5_000)).astype(dtype)  # negative x, integer y
    y4 = rng.integers(-60, 60, x4.size).astype(dtype)
    bits = rng.integers(0, 2**63, (2, 10_000), dtype=numpy.uint64).astype(uint).view(dtype)
    with numpy.errstate(all="ignore"):
        y1 = t / (numpy.log(x1.astype(numpy.float64)) / base)
        y2 = limits / (numpy.log(x2.astype(numpy.float64)) / base)
        x = numpy.concatenate([ex, x1, x2, x3, x4, bits[0]]).astype(dtype)
        y = numpy.concatenate([ey, y1, y2, y3, y4, bits[1]]).astype(dtype)
    return x, y


def _signalling(x):
    return numpy.isnan(x) & ~_is_quiet_nan(x)


def _check_pairs(ufunc, a, b, expected):
    """ufunc(a, b) against the library's results: arrays, strided views, in place (into b). NaN
    bits are compared except where a signalling NaN input was quieted by ctypes."""
    ga, gb = gpupy.asarray(a), gpupy.asarray(b)
    quiet = ~(_signalling(a) | _signalling(b))
    _assert_same_bits(gpupy.asnumpy(ufunc(ga, gb)), expected, a, quiet)
    _assert_same_bits(gpupy.asnumpy(ufunc(ga[::3], gb[::3])), expected[::3], a[::3], quiet[::3])
    inplace = gpupy.asarray(b)
    ufunc(ga, inplace, out=inplace)
    _assert_same_bits(gpupy.asnumpy(inplace), expected, a, quiet)
    return ga, gb, quiet


@pytest.mark.parametrize("dtype", [numpy.float32, numpy.float64])
def test_power_equals_c_library(dtype):
    x, y = _pow_inputs(dtype)
    library = _library2("pow", dtype)
    gx, gy, quiet = _check_pairs(gpupy.power, x, y, library(x, y))
    # One exponent for every element, one base for every element. (2, 0.5, -1 and 1 take NumPy's
    # shortcuts instead: test_power_shortcuts.py.)
    for e in [2.5, -1.5, 3.0, 1 / 3, 117.0, 1e-3]:
        want = library(x, numpy.full_like(x, e))
        _assert_same_bits(gpupy.asnumpy(gpupy.power(gx, e)), want, x, quiet)
    for b in [1.7, 0.3, -2.0]:
        want = library(numpy.full_like(y, b), y)
        _assert_same_bits(gpupy.asnumpy(gpupy.power(b, gy)), want, y, quiet)


def test_float_power_equals_c_library():
    x, y = _pow_inputs(numpy.float32)  # float_power computes in float64
    got = gpupy.asnumpy(gpupy.float_power(gpupy.asarray(x), gpupy.asarray(y)))
    with numpy.errstate(invalid="ignore"):  # signalling NaNs
        wide_x, wide_y = x.astype(numpy.float64), y.astype(numpy.float64)
    expected = _library2("pow", numpy.float64)(wide_x, wide_y)
    _assert_same_bits(got, expected, x, ~(_signalling(x) | _signalling(y)))


def _atan2_inputs(dtype):
    """(y, x) pairs: edges of either side (zeros, infinities, NaN, 1, subnormals, extremes) against
    each other, ratios |y / x| over [2^-80, 2^80] in every quadrant (past atan2f's cut-offs at
    2^-60 and 2^60, and atanf's path ends at 7/16, 11/16, 19/16, 39/16 and 2^26), x = 1 (atanf of
    y), and random bit patterns."""
    rng = numpy.random.default_rng(17)
    uint = _CTYPES[dtype][2]
    with numpy.errstate(over="ignore"):
        edges = numpy.array(
            [0.0, 1.0, 2.0, 0.5, 1e-40, 1e-30, 1e30, 3.4028234e38, numpy.inf, numpy.nan, 7 / 16,
             11 / 16, 19 / 16, 39 / 16, 2.0**26, 2.0**-29],
            dtype=dtype,
        )  # fmt: skip
        edges = numpy.concatenate([edges, -edges, numpy.nextafter(edges, dtype(numpy.inf))])
    ey, ex = (v.ravel() for v in numpy.meshgrid(edges, edges))
    sign = lambda n: rng.choice([-1.0, 1.0], n)  # noqa: E731
    x1 = sign(20_000) * numpy.exp2(rng.uniform(-40, 40, 20_000))
    y1 = sign(x1.size) * numpy.abs(x1) * numpy.exp2(rng.uniform(-80, 80, x1.size))
    ratios = numpy.array([7 / 16, 11 / 16, 19 / 16, 39 / 16, 2.0**26, 2.0**60, 2.0**-60])
    x2 = sign(5_000) * numpy.exp2(rng.uniform(-20, 20, 5_000))
    y2 = x2 * rng.choice(ratios, x2.size) * (1 + rng.uniform(-1e-6, 1e-6, x2.size)) * sign(x2.size)
    y3 = sign(5_000) * numpy.exp2(rng.uniform(-35, 35, 5_000))
    bits = rng.integers(0, 2**63, (2, 10_000), dtype=numpy.uint64).astype(uint).view(dtype)
    with numpy.errstate(over="ignore", under="ignore"):  # float32 ratios past its range
        y = numpy.concatenate([ey, *(v.astype(dtype) for v in (y1, y2, y3)), bits[0]])
        x = numpy.concatenate(
            [ex, *(v.astype(dtype) for v in (x1, x2, numpy.ones(y3.size))), bits[1]]
        )
    return y, x


@pytest.mark.parametrize("dtype", [numpy.float32, numpy.float64])
def test_arctan2_equals_c_library(dtype):
    y, x = _atan2_inputs(dtype)
    library = _library2("atan2", dtype)
    gy, gx, _ = _check_pairs(gpupy.arctan2, y, x, library(y, x))
    # One x for every y, and one y for every x.
    finite = numpy.isfinite(y) & numpy.isfinite(x)
    for b in [1.0, -1.0, 0.75, -3.5, 1e-30]:
        want = library(y[finite], numpy.full(finite.sum(), b, dtype))
        _assert_same_bits(gpupy.asnumpy(gpupy.arctan2(gy[finite], dtype(b))), want, y[finite])
        want = library(numpy.full(finite.sum(), b, dtype), x[finite])
        _assert_same_bits(gpupy.asnumpy(gpupy.arctan2(dtype(b), gx[finite])), want, x[finite])


# Every function with a cpu vector loop, in the layouts that the cpu device gathers into a buffer
# for that loop (reversed, transposed, a column, short runs, broadcast, a strided out=), and on
# float16, whose loops run float32's on widened values.
_VECTOR_LOOPS = [
    (name, numpy.float32)
    for name in ["exp", "exp2", "log", "log2", "sin", "cos", "expm1", "log1p", "tanh", "floor"]
] + [
    (name, numpy.float64)
    for name in ["exp", "exp2", "log", "cos", "expm1", "log1p", "tanh", "rint"]
]


def _layouts(x):
    """(numpy view, gpupy view) pairs of the same elements of x in other layouts."""
    g = gpupy.asarray(x)
    m = x.size // 96 * 96  # a multiple of 2, 8 and 12
    yield x[::-1], g[::-1]
    yield x[:m].reshape(12, -1).T, g[:m].reshape(12, -1).T
    # transposes of two long axes go through tiles (partial ones at either end)
    yield x[:m].reshape(96, -1).T, g[:m].reshape(96, -1).T
    yield x[:m].reshape(-1, 96)[::-1, ::2].T, g[:m].reshape(-1, 96)[::-1, ::2].T
    yield x[:m].reshape(-1, 2)[:, 1], g[:m].reshape(-1, 2)[:, 1]
    yield x[:m].reshape(-1, 8)[:, 2:5], g[:m].reshape(-1, 8)[:, 2:5]
    yield x[:m].reshape(-1, 12)[::-2, ::3], g[:m].reshape(-1, 12)[::-2, ::3]
    for rows in (x[:300, None], x[None, :300]):  # inner stride 0, and runs repeated
        shape = (300, 7) if rows.shape[0] == 300 else (7, 300)
        yield numpy.broadcast_to(rows, shape), gpupy.broadcast_to(gpupy.asarray(rows), shape)


@pytest.mark.parametrize("name, dtype", _VECTOR_LOOPS)
def test_strided_layouts_equal_c_library(name, dtype):
    x = _edge_inputs(name, dtype) if name not in _ROUNDING else _inputs(dtype)
    library = _library(name, dtype)
    ufunc = getattr(gpupy, name)
    for view, gview in _layouts(x):
        expected = library(view.ravel()).reshape(view.shape)
        _assert_same_bits(gpupy.asnumpy(ufunc(gview)), expected, view)
    out = gpupy.zeros(2 * x.size, dtype=dtype)
    ufunc(gpupy.asarray(x)[::-1], out=out[::-2])
    _assert_same_bits(gpupy.asnumpy(out[::-2]), library(x[::-1]), x[::-1])
    assert not gpupy.asnumpy(out[::2]).any()  # the gaps of out are left alone


@pytest.mark.parametrize("name", [n for n, dtype in _VECTOR_LOOPS if dtype == numpy.float32])
def test_float16_equals_c_library_through_float32(name):
    """float16 computes float16(f(float32(x))) with the float32 library function: every float16,
    contiguous and reversed, and within one float16 ulp of NumPy's float16 loop."""
    x = numpy.arange(2**16, dtype=numpy.uint16).view(numpy.float16)
    with numpy.errstate(all="ignore"):
        wide = _library(name, numpy.float32)(x.astype(numpy.float32))
        expected = wide.astype(numpy.float16).view(numpy.uint16)
        reference = getattr(numpy, name)(x)
    # gpupy narrows a NaN to a quiet one that keeps the payload's top bits (NumPy need not)
    bits = wide.view(numpy.uint32)
    nan_bits = ((bits >> 16) & 0x8000) | 0x7E00 | ((bits & 0x7FFFFF) >> 13)
    expected = numpy.where(numpy.isnan(wide), nan_bits, expected).astype(numpy.uint16)
    g = gpupy.asarray(x)
    for got, want, inputs in [
        (gpupy.asnumpy(getattr(gpupy, name)(g)), expected, x),
        (gpupy.asnumpy(getattr(gpupy, name)(g[::-3])), expected[::-3], x[::-3]),
    ]:
        bad = numpy.flatnonzero(got.view(numpy.uint16) != want)[:5]
        assert bad.size == 0, f"inputs {inputs[bad]}: gpupy {got[bad]}, C {want[bad].view(x.dtype)}"
    got = gpupy.asnumpy(getattr(gpupy, name)(g))
    both = numpy.isfinite(reference) & numpy.isfinite(got)
    assert numpy.array_equal(numpy.isnan(got), numpy.isnan(reference))
    steps = numpy.abs(got[both].astype(numpy.float64) - reference[both].astype(numpy.float64))
    with numpy.errstate(over="ignore"):  # the spacing of 65504 is inf
        ulp = numpy.spacing(numpy.abs(reference[both]))
    assert (steps <= ulp.astype(numpy.float64)).all()


def _signalling16(h):
    b = h.view(numpy.uint16)
    return ((b & 0x7C00) == 0x7C00) & ((b & 0x3FF) != 0) & ((b & 0x200) == 0)


def _narrowed(wide):
    """float16 bits of float32 results as gpupy narrows them: NaNs quiet, top payload bits kept."""
    bits = wide.view(numpy.uint32)
    with numpy.errstate(all="ignore"):
        half = wide.astype(numpy.float16).view(numpy.uint16)
    nan_bits = ((bits >> 16) & 0x8000) | 0x7E00 | ((bits & 0x7FFFFF) >> 13)
    return numpy.where(numpy.isnan(wide), nan_bits, half).astype(numpy.uint16)


@pytest.mark.parametrize(
    "name, dtype, inputs",
    [
        ("pow", numpy.float32, _pow_inputs),
        ("pow", numpy.float64, _pow_inputs),
        ("atan2", numpy.float32, _atan2_inputs),
    ],
)
def test_binary_layouts_equal_c_library(name, dtype, inputs):
    """power and arctan2 in short runs, transposed, into a strided out= and on float16 (every
    pair of a float16 grid), which the cpu device gathers into buffers for its vector loops."""
    a, b = inputs(dtype)
    ufunc = gpupy.power if name == "pow" else gpupy.arctan2
    library = _library2(name, dtype)
    quiet = ~(_signalling(a) | _signalling(b))
    m = a.size // 96 * 96
    ga, gb = gpupy.asarray(a[:m]), gpupy.asarray(b[:m])
    views = [
        lambda v: v.reshape(-1, 8)[:, 2:5],
        lambda v: v.reshape(96, -1).T,
        lambda v: v.reshape(-1, 12)[::-1, ::5],
    ]
    for view in views:
        want = library(view(a[:m]).ravel(), view(b[:m]).ravel())
        got = gpupy.asnumpy(ufunc(view(ga), view(gb))).ravel()
        _assert_same_bits(got, want, view(a[:m]).ravel(), view(quiet[:m]).ravel())
    out = gpupy.zeros(2 * m, dtype=dtype)
    ufunc(ga, gb, out=out[::2])
    _assert_same_bits(gpupy.asnumpy(out[::2]), library(a[:m], b[:m]), a[:m], quiet[:m])
    if dtype != numpy.float32:
        return
    grid = numpy.append(numpy.arange(0, 2**16, 97, dtype=numpy.uint16), 0x3C00)  # and 1.0
    grid = grid.astype(numpy.uint16).view(numpy.float16)
    ha, hb = (v.ravel() for v in numpy.meshgrid(grid, grid))
    with numpy.errstate(all="ignore"):
        want = _narrowed(library(ha.astype(numpy.float32), hb.astype(numpy.float32)))
    got = gpupy.asnumpy(ufunc(gpupy.asarray(ha), gpupy.asarray(hb))).view(numpy.uint16)
    # ctypes hands the library a signalling NaN quieted; the library's answer is NaN (even for
    # pow(x, 0) and pow(1, y), which are 1 for a quiet NaN)
    signalling = _signalling16(ha) | _signalling16(hb)
    assert numpy.isnan(got[signalling].view(numpy.float16)).all()
    want[signalling] = got[signalling]
    bad = numpy.flatnonzero(got != want)[:5]
    assert bad.size == 0, f"inputs {ha[bad]}, {hb[bad]}: gpupy {got[bad]}, C {want[bad]}"
