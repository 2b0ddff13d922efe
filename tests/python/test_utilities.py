"""NumPy's utility names on gpupy arrays against NumPy: dtype queries, printing and print options,
number formatting, array_equiv, floating-point error settings and buffer size."""

import gpupy
import numpy as np
import pytest

DTYPES = ("bool", "int8", "uint16", "int64", "uint64", "float32", "float64", "complex64")


def _sample(dtype, shape=(2, 3)):
    h = (np.arange(np.prod(shape)).reshape(shape) * 7 % 5 - 1).astype(dtype)
    return h, gpupy.asarray(h)


# ---- dtype queries -------------------------------------------------------------------------------


def test_issubdtype_and_typename():
    for dt in DTYPES:
        for parent in (np.integer, np.signedinteger, np.floating, np.complexfloating, np.number):
            assert gpupy.issubdtype(dt, parent) == np.issubdtype(dt, parent)
        assert gpupy.issubdtype(gpupy.asarray([1], dtype=dt).dtype, dt)
    assert gpupy.issubdtype(gpupy.float32, gpupy.float64) is False
    for char in "?bBhHiIlLqQfdgFDGSUVO":
        assert gpupy.typename(char) == np.typename(char)
    with pytest.raises(KeyError, match=r"\[typename\]"):
        gpupy.typename("M")


@pytest.mark.parametrize("dtypes", [("int8",), ("int64", "float32"), ("float32", "complex64")])
def test_common_type(dtypes):
    hosts = [np.zeros(2, dt) for dt in dtypes]
    arrays = [gpupy.asarray(h) for h in hosts]
    assert gpupy.common_type(*arrays) is np.common_type(*hosts)
    assert np.common_type(*arrays) is np.common_type(*hosts)  # through __array_function__


def test_common_type_errors():
    with pytest.raises(TypeError, match=r"^\[common_type\]"):
        gpupy.common_type(gpupy.asarray([True]))


def test_min_scalar_type():
    for value, dt in [(300, "int64"), (-3, "int64"), (3.5, "float64"), (1e300, "float64")]:
        a = gpupy.asarray(value, dtype=dt)
        assert gpupy.min_scalar_type(a) == np.min_scalar_type(np.asarray(value, dt))
        assert np.min_scalar_type(a) == np.min_scalar_type(np.asarray(value, dt))
    assert gpupy.min_scalar_type(gpupy.zeros((3,), dtype="int16")) == np.dtype("int16")
    assert gpupy.min_scalar_type(70000) == np.min_scalar_type(70000)


def test_mintypecode():
    a = gpupy.zeros(2, dtype="float32")
    assert gpupy.mintypecode(["d", a]) == np.mintypecode(["d", "f"])
    assert gpupy.mintypecode([a], "fd", "?") == "f"
    assert gpupy.mintypecode("idF") == np.mintypecode("idF")


# ---- printing ------------------------------------------------------------------------------------


@pytest.mark.parametrize("dtype", DTYPES)
def test_repr_str_and_array2string_match_numpy(dtype, device_name):
    h, g = _sample(dtype)
    suffix = "" if device_name == "cpu" else f", device='{g.device}'"
    assert repr(g) == repr(h)[:-1] + suffix + ")"
    assert gpupy.array_repr(g) == repr(g)
    assert str(g) == str(h) == gpupy.array_str(g)
    assert gpupy.array2string(g, separator=", ") == np.array2string(h, separator=", ")


def test_printing_of_empty_and_0d(device_name):
    for h in (np.zeros((0, 3)), np.array(2.5), np.array(7, dtype="uint8")):
        g = gpupy.asarray(h)
        assert gpupy.array_str(g) == np.array_str(h)
        assert gpupy.array_repr(g).startswith(np.array_repr(h)[:-1])
        assert gpupy.array2string(g) == np.array2string(h)


def test_printing_keywords_and_numpy_dispatch():
    h = np.array([1 / 3, 1e-9, 12345.678])
    g = gpupy.asarray(h)
    assert gpupy.array_str(g, precision=2, suppress_small=True) == np.array_str(h, None, 2, True)
    assert gpupy.array_repr(g, 30, 3)[:-1].startswith(np.array_repr(h, 30, 3)[:-1])
    kw = {"precision": 3, "sign": "+", "floatmode": "fixed", "prefix": "x(", "suffix": ")"}
    assert gpupy.array2string(g, **kw) == np.array2string(h, **kw)
    assert np.array2string(g, precision=1) == np.array2string(h, precision=1)
    assert np.array_str(g) == np.array_str(h)
    assert np.array_repr(g) == gpupy.array_repr(g)
    big = np.arange(2000.0)
    assert gpupy.array2string(gpupy.asarray(big), threshold=10) == np.array2string(
        big, threshold=10
    )


def test_print_options_apply_to_gpupy_repr():
    h = np.array([1 / 3, 2 / 3, 20.0])
    g = gpupy.asarray(h)
    before = gpupy.get_printoptions()
    assert before == np.get_printoptions()
    with gpupy.printoptions(precision=2, sign="+") as options:
        assert options["precision"] == 2
        assert str(g) == str(h) and "+0.33" in str(g)
    assert gpupy.get_printoptions() == before
    try:
        gpupy.set_printoptions(precision=3, threshold=5, edgeitems=1)
        assert gpupy.get_printoptions()["precision"] == 3
        assert str(g) == str(h) and "0.333" in str(g)
        big = gpupy.arange(100)
        assert str(big) == str(np.arange(100)) and "..." in str(big)
    finally:
        np.set_printoptions(**before)
    assert gpupy.get_printoptions() == before


def test_override_repr(device_name):
    g = gpupy.arange(3)
    with gpupy.printoptions(override_repr=lambda a: f"<{a.sum()}>"):
        expected = "<3>" if device_name == "cpu" else f"<3> (device='{g.device}')"
        assert repr(g) == expected
    assert repr(g).startswith("array([0, 1, 2]")


def test_print_option_errors():
    with pytest.raises(ValueError, match=r"^\[set_printoptions\]"):
        gpupy.set_printoptions(floatmode="bogus")
    with pytest.raises(ValueError, match=r"^\[printoptions\]"):
        with gpupy.printoptions(sign="x"):
            pass
    with pytest.raises(TypeError, match=r"^\[array2string\]"):
        gpupy.array2string(gpupy.arange(3), precision="x")


def test_format_float():
    for dt in ("float32", "float64"):
        for v in (0.1, -2.5e-8, 1e16, 3.0):
            g, h = gpupy.asarray(v, dtype=dt), np.asarray(v, dtype=dt)[()]
            assert gpupy.format_float_positional(g) == np.format_float_positional(h)
            assert gpupy.format_float_scientific(g, precision=4) == np.format_float_scientific(
                h, precision=4
            )
    kw = {"precision": 3, "unique": False, "sign": True, "pad_left": 4}
    assert gpupy.format_float_positional(1 / 3, **kw) == np.format_float_positional(1 / 3, **kw)
    with pytest.raises(TypeError, match=r"^\[format_float_positional\]"):
        gpupy.format_float_positional("x")


def test_base_and_binary_repr():
    for n in (0, 5, -5, 255, 2**40):
        for base in (2, 7, 16, 36):
            assert gpupy.base_repr(n, base, padding=2) == np.base_repr(n, base, padding=2)
        assert gpupy.binary_repr(n) == np.binary_repr(n)
        assert gpupy.binary_repr(n, width=50) == np.binary_repr(n, width=50)
    assert gpupy.binary_repr(gpupy.asarray(-3, dtype="int8"), 8) == np.binary_repr(-3, 8)
    assert gpupy.base_repr(gpupy.asarray(100), 16) == "64"
    with pytest.raises(ValueError, match=r"^\[base_repr\]"):
        gpupy.base_repr(5, 40)


# ---- array_equiv ---------------------------------------------------------------------------------


@pytest.mark.parametrize("dtype", ("bool", "int32", "uint8", "float64", "complex128"))
def test_array_equiv(dtype):
    h = np.array([[1, 0, 1], [1, 0, 1]], dtype=dtype)
    g = gpupy.asarray(h)
    cases = [h, h[:1], h[0], h[:, :2], np.zeros((0,), dtype), h + 1, h.real.astype("float32")]
    for other in cases:
        assert gpupy.array_equiv(g, gpupy.asarray(other)) == np.array_equiv(h, other)
        assert gpupy.array_equiv(gpupy.asarray(other), g) == np.array_equiv(other, h)
    assert np.array_equiv(g, g) is True  # through __array_function__
    assert gpupy.array_equiv(g, h.tolist()) is True


def test_array_equiv_special_values():
    assert gpupy.array_equiv([np.nan], [np.nan]) is np.array_equiv([np.nan], [np.nan])
    assert gpupy.array_equiv([], []) is np.array_equiv([], [])
    assert gpupy.array_equiv(gpupy.zeros((0, 3)), gpupy.zeros((3,))) is np.array_equiv(
        np.zeros((0, 3)), np.zeros(3)
    )
    assert gpupy.array_equiv(3, gpupy.full((2, 2), 3)) is True
    assert gpupy.array_equiv([-0.0], [0.0]) is True
    with pytest.raises(TypeError, match=r"^\[array_equiv\]"):
        gpupy.array_equiv(gpupy.zeros(2), [object(), 1])


def test_array_equiv_on_different_devices_raises(device_name):
    if device_name == "cpu":
        pytest.skip("needs a second device")
    with pytest.raises(ValueError, match="different devices"):
        gpupy.array_equiv(gpupy.zeros(2), gpupy.zeros(2, device="cpu"))


# ---- floating-point errors and buffers -----------------------------------------------------------


def test_seterr_geterr_roundtrip():
    old = gpupy.geterr()
    assert old == np.geterr()
    try:
        previous = gpupy.seterr(divide="ignore", over="raise")
        assert previous == old
        assert gpupy.geterr()["divide"] == "ignore" and gpupy.geterr()["over"] == "raise"
        with pytest.raises(ValueError, match=r"^\[seterr\]"):
            gpupy.seterr(all="sometimes")
    finally:
        gpupy.seterr(**old)
    assert gpupy.geterr() == old


def test_errstate_records_settings_and_device_kernels_never_raise():
    x = gpupy.asarray([1.0, 0.0, -1.0])
    with gpupy.errstate(all="raise"):
        assert gpupy.geterr() == dict.fromkeys(("divide", "over", "under", "invalid"), "raise")
        r = x / gpupy.zeros(3)  # IEEE results, no exception from gpupy kernels
        with pytest.raises(FloatingPointError):
            np.ones(1) / np.zeros(1)  # NumPy's own computations honour the settings
    assert np.isposinf(r.get()[0]) and np.isnan(r.get()[1]) and np.isneginf(r.get()[2])

    @gpupy.errstate(divide="ignore")
    def inside():
        return gpupy.geterr()["divide"]

    assert inside() == "ignore" and gpupy.geterr()["divide"] != "ignore"
    assert isinstance(gpupy.errstate(), np.errstate)


def test_seterrcall():
    calls = []
    old = gpupy.seterrcall(lambda kind, flag: calls.append(kind))
    try:
        assert gpupy.geterrcall() is not old or old is None
        with gpupy.errstate(divide="call"):
            np.ones(1) / np.zeros(1)
            gpupy.ones(1) / gpupy.zeros(1)  # gpupy kernels never call the handler
        assert calls == ["divide by zero"]
        with pytest.raises(TypeError, match=r"^\[seterrcall\]"):
            gpupy.seterrcall(42)
    finally:
        gpupy.seterrcall(old)


def test_bufsize():
    old = gpupy.getbufsize()
    assert old == np.getbufsize()
    try:
        assert gpupy.setbufsize(old * 2) == old
        assert gpupy.getbufsize() == np.getbufsize() == old * 2
    finally:
        gpupy.setbufsize(old)
