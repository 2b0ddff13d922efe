"""float16 (NumPy's 'e', IEEE binary16) as a gpupy dtype: names, creation, casts to and from every
dtype (all 65536 bit patterns), NumPy round trips, DLPack and the array interfaces, promotion
tables against NumPy, finfo/iinfo/isdtype, printing, and the random, linalg and fft rules.
Elementwise ops, reductions, sorting and indexing are in test_float16_ops.py."""

import warnings

import gpupy
import numpy as np
import pytest
from gpupy import testing

F16 = np.dtype(np.float16)
OTHERS = [np.dtype(d) for d in testing.ALL_DTYPES]
EVERY = OTHERS + [F16]


def _np_f16(values):
    return np.asarray(values, dtype=np.float16)


def assert_bits(expected, actual):
    """Bit-for-bit equality (so -0.0 differs from 0.0), except that any NaN matches any NaN."""
    e = np.asarray(expected)
    a = actual.get() if isinstance(actual, gpupy.ndarray) else np.asarray(actual)
    assert a.dtype == e.dtype, f"dtype: numpy {e.dtype}, gpupy {a.dtype}"
    assert a.shape == e.shape, f"shape: numpy {e.shape}, gpupy {a.shape}"
    if e.dtype.kind not in "fc":
        np.testing.assert_array_equal(a, e)
        return
    real = e.dtype.kind == "f"
    parts = [(e, a)] if real else [(e.real, a.real), (e.imag, a.imag)]
    for ep, ap in parts:
        nan = np.isnan(ep)
        np.testing.assert_array_equal(np.isnan(ap), nan, err_msg="NaN positions")
        ibits = np.dtype(f"u{ep.dtype.itemsize}")
        bad = np.flatnonzero((ep.view(ibits) != ap.view(ibits)) & ~nan)
        assert bad.size == 0, (
            f"{bad.size} values differ, first at {bad[0]}: "
            f"{ep.flat[bad[0]]!r} vs {ap.flat[bad[0]]!r}"
        )


ALL_BITS = np.arange(1 << 16, dtype=np.uint32).astype(np.uint16).view(np.float16)
FINITE_BITS = ALL_BITS[np.isfinite(ALL_BITS)]


# ---- the dtype object ----------------------------------------------------------------------------


def test_names():
    assert gpupy.float16 is np.float16
    assert gpupy.half is np.half
    for spelling in ("float16", "f2", "<f2", "e", "half", np.float16, gpupy.float16, F16):
        assert gpupy.zeros(2, dtype=spelling).dtype == F16
    assert gpupy.zeros(2, dtype="float16").dtype == gpupy.float16
    assert gpupy.zeros(1, dtype=gpupy.float16).itemsize == 2
    assert issubclass(gpupy.float16, gpupy.floating)
    assert gpupy.issubdtype(gpupy.float16, gpupy.floating)


def test_finfo_matches_numpy():
    f, n = gpupy.finfo(gpupy.float16), np.finfo(np.float16)
    assert f == n
    assert (f.bits, f.eps, f.max, f.min) == (16, float(n.eps), 65504.0, -65504.0)
    assert f.smallest_normal == 2.0**-14 and f.smallest_subnormal == 2.0**-24
    assert type(f.eps) is float and type(f.bits) is int
    assert f.dtype == F16 and f.precision == 3 and f.resolution == n.resolution
    assert gpupy.finfo(gpupy.zeros(1, dtype="float16")) == n


def test_iinfo_refuses_float16():
    with pytest.raises(ValueError):
        np.iinfo(np.float16)
    with pytest.raises(ValueError):
        gpupy.iinfo(gpupy.float16)


@pytest.mark.parametrize(
    "kind",
    ["real floating", "numeric", "complex floating", "integral", "bool", "signed integer"]
    + [("integral", "real floating")],
)
def test_isdtype(kind):
    assert gpupy.isdtype(gpupy.float16, kind) == np.isdtype(np.float16, kind)


# ---- creation ------------------------------------------------------------------------------------


SPECIAL = [0.0, -0.0, 1.0, -1.5, 0.1, 1 / 3, 65504.0, -65504.0, 65519.0, 65520.0, 1e5, -1e5]
SPECIAL += [2.0**-14, 2.0**-24, 2.0**-25, 2.0**-25 * 1.0001, 1e-8, 3.0e-5, np.inf, -np.inf, np.nan]
SPECIAL += [2049.0, 2051.0, 1 + 2.0**-11, 1 + 3 * 2.0**-11, 1 + 2.0**-11 + 2.0**-40]


def test_asarray_from_numpy_float16(device_name):
    host = ALL_BITS.reshape(256, 256)
    a = gpupy.asarray(host)
    assert a.dtype == F16 and a.device == gpupy.Device(device_name)
    assert_bits(host, a)
    assert_bits(host[::3, 1::2], gpupy.asarray(host[::3, 1::2]))


def test_asarray_list_with_dtype():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # both warn on overflow to inf
        assert_bits(np.asarray(SPECIAL, dtype=np.float16), gpupy.asarray(SPECIAL, dtype="float16"))
        assert_bits(np.asarray([[1, 2], [3, 70000]], dtype=np.float16),
                    gpupy.asarray([[1, 2], [3, 70000]], dtype=gpupy.float16))  # fmt: skip


def test_asarray_numpy_scalar_keeps_float16():
    a = gpupy.asarray(np.float16(0.1))
    assert a.ndim == 0 and a.dtype == F16
    assert_bits(np.asarray(np.float16(0.1)), a)
    assert a.item() == float(np.float16(0.1))
    assert type(a.item()) is float


@pytest.mark.parametrize(
    "make",
    [
        lambda xp: xp.zeros((2, 3), dtype="float16"),
        lambda xp: xp.ones(5, dtype=xp.float16),
        lambda xp: xp.empty(0, dtype="float16"),
        lambda xp: xp.full((3,), 0.1, dtype="float16"),
        lambda xp: xp.full((2, 2), 1e6, dtype="float16"),
        lambda xp: xp.full(4, -np.inf, dtype="float16"),
        lambda xp: xp.arange(0, 1, 0.125, dtype="float16"),
        lambda xp: xp.arange(10, dtype="float16"),
        lambda xp: xp.arange(2040, 2060, 3, dtype="float16"),
        lambda xp: xp.linspace(0, 1, 7, dtype="float16"),
        lambda xp: xp.linspace(-3, 1000, 11, dtype="float16", endpoint=False),
        lambda xp: xp.eye(3, dtype="float16"),
        lambda xp: xp.eye(3, 4, k=1, dtype="float16"),
        lambda xp: xp.identity(2, dtype="float16"),
        lambda xp: xp.zeros_like(xp.ones(3, dtype="float16")),
        lambda xp: xp.ones_like(xp.ones((2, 1), dtype="int8"), dtype="float16"),
        lambda xp: xp.full_like(xp.zeros(3, dtype="float16"), 2.5),
        lambda xp: xp.full_like(xp.zeros(3, dtype="float16"), 7),
        lambda xp: xp.tri(3, dtype="float16"),
        lambda xp: xp.asarray(xp.asarray([0.1, 0.2], dtype="float32"), dtype="float16"),
    ],
)
def test_creation_functions(make):
    with np.errstate(all="ignore"):
        expected = make(np)
    actual = make(gpupy)
    assert_bits(expected, actual)


def test_empty_and_zero_dim(device_name):
    for shape in [(), (0,), (3, 0), (0, 2, 1)]:
        a = gpupy.zeros(shape, dtype="float16")
        assert a.shape == shape and a.dtype == F16 and a.nbytes == 2 * a.size
        assert_bits(np.zeros(shape, np.float16), a)
    z = gpupy.asarray(np.float16(-2.5))
    assert float(z) == -2.5 and z.shape == () and z.dtype == F16
    assert_bits(np.float16(-2.5) * 2, z * 2)
    assert (z + gpupy.zeros(0, dtype="float16")).shape == (0,)
    assert gpupy.zeros(0, dtype="float16").sum().dtype == F16


# ---- casts ---------------------------------------------------------------------------------------


def _astype_numpy(x, to):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # overflow, invalid value, ComplexWarning
        with np.errstate(all="ignore"):
            return x.astype(to)


def test_every_bit_pattern_to_float32_and_back():
    a = gpupy.asarray(ALL_BITS)
    wide = a.astype("float32")
    assert_bits(ALL_BITS.astype(np.float32), wide)
    assert_bits(ALL_BITS, wide.astype("float16"))
    assert_bits(ALL_BITS.astype(np.float64), a.astype("float64"))
    assert_bits(ALL_BITS, a.astype("float64").astype("float16"))


def test_float32_to_float16_rounding():
    """Random float32 bit patterns plus the halfway cases (ties to even), overflow, underflow to
    subnormals and zero, and NaN: every one rounded as NumPy rounds it."""
    rng = np.random.default_rng(16)
    bits = rng.integers(0, 1 << 32, 200_000, dtype=np.uint64).astype(np.uint32)
    small = rng.integers(0x33000000, 0x47800000, 100_000, dtype=np.uint64).astype(np.uint32)
    # Halfway points between neighbouring float16 values, and one float32 ulp either side.
    lo, hi = FINITE_BITS[:-1].astype(np.float64), FINITE_BITS[1:].astype(np.float64)
    mid = ((lo + hi) / 2)[np.isfinite(lo + hi)].astype(np.float32)
    near = np.concatenate([mid, np.nextafter(mid, np.float32(np.inf)),
                           np.nextafter(mid, np.float32(-np.inf))])  # fmt: skip
    x = np.concatenate([bits.view(np.float32), small.view(np.float32), near,
                        np.asarray(SPECIAL, dtype=np.float32)])  # fmt: skip
    assert_bits(_astype_numpy(x, np.float16), gpupy.asarray(x).astype("float16"))


def test_float64_to_float16_is_rounded_once():
    """float64 -> float16 rounds the float64 value directly (not via float32, which would turn
    1 + 2**-11 + 2**-40 into a tie and round it down)."""
    rng = np.random.default_rng(64)
    bits = rng.integers(0, 1 << 63, 100_000, dtype=np.uint64)
    bits[::2] |= np.uint64(1 << 63)
    mid = (FINITE_BITS[:-1].astype(np.float64) + FINITE_BITS[1:].astype(np.float64)) / 2
    mid = mid[np.isfinite(mid)]
    x = np.concatenate(
        [
            bits.view(np.float64),
            mid,
            np.nextafter(mid, np.inf),
            np.nextafter(mid, -np.inf),
            np.asarray(SPECIAL, dtype=np.float64),
        ]
    )
    expected = _astype_numpy(x, np.float16)
    assert expected[-1] == np.float16(1 + 2.0**-10)  # the double-rounding case above
    assert_bits(expected, gpupy.asarray(x).astype("float16"))


def _source(dt):
    """Values of dtype dt that exercise a cast to float16: ties, overflow, negatives, NaN."""
    if dt.kind == "b":
        return np.array([True, False, True])
    if dt.kind in "iu":
        info = np.iinfo(dt)
        v = [0, 1, 2, 3, 7, 100, 2047, 2049, 2051, 4097, 4098, 4099, 65504, 65519, 65520, 70000]
        v += [1 << 20, (1 << 31) - 1, 1 << 40, (1 << 63) - 1, (1 << 64) - 1]
        v = [int(min(max(x, info.min), info.max)) for x in v]
        if dt.kind == "i":
            v += [max(x, int(info.min)) for x in (-1, -2049, -65520, -70000)]
        return np.array(v, dtype=dt)
    x = np.array(SPECIAL, dtype=np.float64)
    if dt.kind == "c":
        with np.errstate(invalid="ignore"):  # inf * 1j
            return (x + 1j * x[::-1]).astype(dt)
    return _astype_numpy(x, dt)


@pytest.mark.parametrize("dtype", OTHERS, ids=str)
def test_cast_to_float16(dtype):
    x = _source(dtype)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # as NumPy's conversion: overflow, ComplexWarning
        assert_bits(_astype_numpy(x, np.float16), gpupy.asarray(x).astype("float16"))
        assert_bits(_astype_numpy(x, np.float16), gpupy.asarray(x, dtype="float16"))


def _float16_source(to):
    """float16 values whose cast to `to` is defined (NaN, inf and out-of-range values cast to an
    integer are unspecified in NumPy and C)."""
    x = FINITE_BITS
    if to.kind in "iu":
        info = np.iinfo(to)
        wide = x.astype(np.float64)
        x = x[(wide >= info.min) & (wide <= info.max)]
    return x


@pytest.mark.parametrize("dtype", OTHERS, ids=str)
def test_cast_from_float16(dtype):
    x = ALL_BITS if dtype.kind in "bfc" else _float16_source(dtype)
    actual = gpupy.asarray(x).astype(dtype)
    assert_bits(_astype_numpy(x, dtype), actual)


def test_bool_and_signed_zero_casts():
    x = _np_f16([0.0, -0.0, np.nan, 2.0**-24, -np.inf])
    assert_bits(x.astype(bool), gpupy.asarray(x).astype(bool))
    assert_bits(x[:2].astype(np.int8), gpupy.asarray(x[:2]).astype("int8"))
    neg = gpupy.asarray(np.array([-0.0], np.float32)).astype("float16")
    assert np.signbit(neg.get()[0])


def test_astype_copy_and_same_dtype():
    a = gpupy.asarray(_np_f16([1, 2, 3]))
    b = a.astype("float16", copy=False)
    assert b._same_buffer(a)
    c = a.astype("float16")
    assert not c._same_buffer(a)
    assert_bits(a.get(), c)


# ---- NumPy round trips, DLPack, array interfaces -------------------------------------------------


def test_get_and_asnumpy(device_name):
    a = gpupy.asarray(ALL_BITS)
    assert_bits(ALL_BITS, a.get())
    assert_bits(ALL_BITS, gpupy.asnumpy(a))
    assert a.get().dtype == F16


def test_numpy_protocols_on_cpu(device_name):
    host = _np_f16([[1.5, -0.0], [np.inf, 6e-8]])
    a = gpupy.asarray(host)
    if device_name != "cpu":
        with pytest.raises(TypeError):
            np.asarray(a)
        with pytest.raises(BufferError):
            memoryview(a)
        return
    assert_bits(host, np.asarray(a))
    assert_bits(host, np.array(a))
    view = memoryview(a)
    assert view.format == "e" and view.itemsize == 2 and view.shape == (2, 2)
    assert_bits(host, np.asarray(view))
    assert_bits(host[:, ::-1], np.asarray(memoryview(a[:, ::-1])))
    assert bytes(a) == host.tobytes()
    iface = a.__array_interface__
    assert iface["typestr"] == "<f2" and iface["shape"] == (2, 2)
    assert iface["data"][0] == a._data_ptr
    assert not hasattr(a, "__cuda_array_interface__")


def test_numpy_from_gpupy_dlpack_cpu():
    g = gpupy.asarray(_np_f16([[1, 2, 3], [0.1, -0.0, np.nan]]), device="cpu")
    n = np.from_dlpack(g)
    assert n.dtype == F16 and n.ctypes.data == g._data_ptr
    assert_bits(g.get(), n)


def test_gpupy_from_numpy_dlpack_cpu():
    n = ALL_BITS[:12].reshape(3, 4).copy()
    g = gpupy.from_dlpack(n)
    assert g.dtype == F16 and g._data_ptr == n.ctypes.data
    n[0, 0] = 7.5
    assert g.get()[0, 0] == np.float16(7.5)


def test_dlpack_on_device(device_name):
    n = _np_f16([[1, 2, 3], [4, 5, 6.5]])
    g = gpupy.from_dlpack(n, device=device_name)
    assert g.dtype == F16 and g.device == gpupy.Device(device_name)
    assert_bits(n, g)
    if device_name == "cpu":
        back = np.from_dlpack(g)
    else:
        back = np.from_dlpack(g, device="cpu", copy=True)
    assert_bits(n, back)
    assert_bits(n, gpupy.from_dlpack(g))


def test_cuda_array_interface_typestr(device_name):
    if device_name != "cuda":
        pytest.skip("__cuda_array_interface__ exists on cuda arrays only")
    a = gpupy.ones((2, 3), dtype="float16")
    cai = a.__cuda_array_interface__
    assert cai["typestr"] == "<f2" and cai["shape"] == (2, 3)


# ---- promotion -----------------------------------------------------------------------------------


@pytest.mark.parametrize("other", EVERY, ids=str)
def test_promote_types_table(other):
    assert gpupy.promote_types(F16, other) == np.promote_types(F16, other)
    assert gpupy.promote_types(other, F16) == np.promote_types(other, F16)
    assert gpupy.result_type(F16, other) == np.result_type(F16, other)


@pytest.mark.parametrize("casting", ["no", "equiv", "safe", "same_kind", "unsafe"])
@pytest.mark.parametrize("other", EVERY, ids=str)
def test_can_cast_table(other, casting):
    assert gpupy.can_cast(F16, other, casting) == np.can_cast(F16, other, casting)
    assert gpupy.can_cast(other, F16, casting) == np.can_cast(other, F16, casting)


@pytest.mark.parametrize("scalar", [1, -3, 1.0, 1e10, 1j, True])
@pytest.mark.parametrize("dtype", ["float16", "bool", "int8", "uint8", "int16", "float32"])
def test_result_type_with_weak_scalars(dtype, scalar):
    expected = np.result_type(np.dtype(dtype), scalar)
    assert gpupy.result_type(np.dtype(dtype), scalar) == expected
    assert gpupy.result_type(gpupy.ones(2, dtype=dtype), scalar) == expected


@pytest.mark.parametrize("other", EVERY, ids=str)
def test_binary_result_dtypes_with_arrays(other):
    """The dtype of float16 (op) other for arrays, as NumPy gives it."""
    x = np.ones(3, np.float16)
    y = np.ones(3, other)
    with np.errstate(all="ignore"):
        for op in ("add", "multiply", "divide", "maximum", "power"):
            fn = getattr(np, op)
            assert getattr(gpupy, op)(gpupy.asarray(x), gpupy.asarray(y)).dtype == fn(x, y).dtype
            assert getattr(gpupy, op)(gpupy.asarray(y), gpupy.asarray(x)).dtype == fn(y, x).dtype


@pytest.mark.parametrize("scalar", [2, 2.5, 0.1, 1 + 2j, True, np.float32(2), np.float64(3)])
def test_operators_with_scalars(scalar):
    x = _np_f16([1.0, 2.5, -3.0, 0.1])
    a = gpupy.asarray(x)
    with np.errstate(all="ignore"):
        for fn in (lambda u: u + scalar, lambda u: scalar * u, lambda u: u / scalar,
                   lambda u: scalar - u, lambda u: u**2):  # fmt: skip
            assert_bits(fn(x), fn(a))


def test_large_python_int_overflows_to_inf():
    """NumPy converts the weak 70000 to float16 (inf, with a RuntimeWarning)."""
    x = _np_f16([1.0, -2.0])
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        expected = x + 70000
    assert_bits(expected, gpupy.asarray(x) + 70000)


# ---- printing ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "values",
    [[1.5, np.nan, 65504, 0.1], [1e-7], [[1, 2], [3, -0.0]], [], [np.inf, -np.inf, 1000, 0.001]],
)
def test_repr_and_str(values, device_name):
    host = _np_f16(values)
    a = gpupy.asarray(host)
    suffix = "" if device_name == "cpu" else f", device='{device_name}')"
    expected = repr(host) if device_name == "cpu" else repr(host)[:-1] + suffix
    assert repr(a) == expected
    assert str(a) == str(host)


def test_scalar_formatting():
    z = gpupy.asarray(np.float16(0.1))
    assert f"{z:.4f}" == f"{float(np.float16(0.1)):.4f}"
    assert str(z) == str(np.asarray(np.float16(0.1)))
    assert float(z) == float(np.float16(0.1))


# ---- random, linalg and fft ----------------------------------------------------------------------


@pytest.mark.parametrize(
    "draw",
    [
        lambda g: g.random(3, dtype="float16"),
        lambda g: g.random(size=3, dtype=np.float16),
        lambda g: g.standard_normal(3, dtype=np.float16),
        lambda g: g.standard_exponential(3, dtype=np.float16),
        lambda g: g.standard_gamma(1.0, size=3, dtype=np.float16),
    ],
)
def test_random_refuses_float16_like_numpy(draw):
    with pytest.raises(TypeError):
        draw(np.random.default_rng(0))
    with pytest.raises(TypeError) as info:
        draw(gpupy.random.default_rng(0))
    assert "float16" in str(info.value)


def test_random_results_cast_to_float16():
    g = gpupy.random.default_rng(5)
    x = g.random(100).astype("float16")
    assert x.dtype == F16
    host = x.get()
    assert ((host >= 0) & (host <= 1)).all()
    integers = g.integers(0, 10, 50).astype("float16")
    assert_bits(integers.get().astype(np.int64).astype(np.float16), integers)


_SQUARE = np.array([[2.0, 0.5], [0.5, 1.0]], dtype=np.float16)

REFUSED = {
    "inv": lambda la, a: la.inv(a),
    "det": lambda la, a: la.det(a),
    "slogdet": lambda la, a: la.slogdet(a),
    "solve": lambda la, a: la.solve(a, a),
    "cholesky": lambda la, a: la.cholesky(a),
    "eigh": lambda la, a: la.eigh(a),
    "eigvalsh": lambda la, a: la.eigvalsh(a),
    "eig": lambda la, a: la.eig(a),
    "eigvals": lambda la, a: la.eigvals(a),
    "svd": lambda la, a: la.svd(a),
    "svdvals": lambda la, a: la.svdvals(a),
    "qr": lambda la, a: la.qr(a),
    "pinv": lambda la, a: la.pinv(a),
    "lstsq": lambda la, a: la.lstsq(a, a),
    "matrix_rank": lambda la, a: la.matrix_rank(a),
    "cond": lambda la, a: la.cond(a),
    "tensorinv": lambda la, a: la.tensorinv(a, ind=1),
    "matrix_power_negative": lambda la, a: la.matrix_power(a, -1),
    "matrix_norm_2": lambda la, a: la.matrix_norm(a, ord=2),
}


@pytest.mark.parametrize("name", sorted(REFUSED))
def test_linalg_refuses_float16_like_numpy(name):
    with pytest.raises(TypeError, match="float16 is unsupported in linalg"):
        REFUSED[name](np.linalg, _SQUARE)
    with pytest.raises(TypeError, match="float16 is unsupported in linalg"):
        REFUSED[name](gpupy.linalg, gpupy.asarray(_SQUARE))


ACCEPTED = {
    "matmul": lambda la, a: la.matmul(a, a),
    "matrix_power": lambda la, a: la.matrix_power(a, 3),
    "multi_dot": lambda la, a: la.multi_dot([a, a, a]),
    "outer": lambda la, a: la.outer(a[0], a[1]),
    "cross": lambda la, a: la.cross(a[:, [0, 1, 1]], a[::-1, [1, 0, 0]]),
    "trace": lambda la, a: la.trace(a),
    "diagonal": lambda la, a: la.diagonal(a),
    "vecdot": lambda la, a: la.vecdot(a, a),
    "tensordot": lambda la, a: la.tensordot(a, a, axes=1),
    "vector_norm": lambda la, a: la.vector_norm(a),
    "matrix_norm_fro": lambda la, a: la.matrix_norm(a),
    "norm": lambda la, a: la.norm(a),
}


@pytest.mark.parametrize("name", sorted(ACCEPTED))
def test_linalg_float16_results(name):
    expected = ACCEPTED[name](np.linalg, _SQUARE)
    actual = ACCEPTED[name](gpupy.linalg, gpupy.asarray(_SQUARE))
    testing.assert_same(expected, actual, rtol=2e-3)


_SIGNAL = _np_f16([1.0, -2.5, 0.5, 3.0, 0.0, 1.25, -1.0, 2.0])

FFTS = ["fft", "ifft", "rfft", "irfft", "hfft", "ihfft", "fftn", "ifftn", "rfftn", "irfftn"]


@pytest.mark.parametrize("name", FFTS)
def test_fft_of_float16(name):
    """NumPy computes float16 transforms in single precision: complex64 out, and float16 out of
    the complex-to-real ones (irfft, hfft, irfftn)."""
    fn = getattr(np.fft, name)
    expected = fn(_SIGNAL)
    actual = getattr(gpupy.fft, name)(gpupy.asarray(_SIGNAL))
    rtol = 2e-3 if expected.dtype == F16 else 2e-5
    testing.assert_same(expected, actual, rtol=rtol, atol=1e-3)


def test_fft_2d_and_helpers():
    x = _SIGNAL.reshape(2, 4)
    testing.assert_same(np.fft.fft2(x), gpupy.fft.fft2(gpupy.asarray(x)), rtol=2e-5, atol=1e-5)
    testing.assert_same(np.fft.fftshift(x), gpupy.fft.fftshift(gpupy.asarray(x)))
    testing.assert_same(np.fft.rfftfreq(8, np.float16(0.5)), gpupy.fft.rfftfreq(8, 0.5))
