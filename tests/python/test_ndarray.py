"""The ndarray's Python protocols: printing, scalar conversion, iteration, flags and NumPy
interop (__array__, __array_interface__, __array_ufunc__)."""

import copy
import operator

import gpupy
import numpy as np
import pytest
from gpupy import testing


def _on_cpu():
    return gpupy.get_default_device().type == "cpu"


@pytest.mark.parametrize(
    "data",
    [np.array([1.0, 2.0]), np.arange(6, dtype=np.int8).reshape(2, 3), np.array(True), np.ones(0)],
)
def test_repr_and_str(data):
    a = gpupy.asarray(data)
    text = repr(data)
    if a.device.type != "cpu":
        text = text[:-1] + f", device='{a.device}')"
    assert repr(a) == text
    assert str(a) == str(data)


def test_repr_names_non_cpu_device():
    try:
        a = gpupy.asarray(np.array([1.0, 2.0]), device="emu")
    except NotImplementedError:
        pytest.skip("emu device not built")
    assert repr(a) == "array([1., 2.], device='emu')"


@pytest.mark.parametrize("value", [0, 3, -2])
@testing.for_dtypes(["bool", "int8", "uint8", "int64", "float32", "float64", "complex64"])
def test_scalar_conversions(value, dtype):
    n = np.array(value).astype(dtype)
    a = gpupy.asarray(n)
    assert bool(a) == bool(n)
    assert a.item() == n.item() and type(a.item()) is type(n.item())
    assert complex(a) == complex(n)
    if n.dtype.kind != "c":
        assert float(a) == float(n) and int(a) == int(n)
    else:
        with pytest.raises(TypeError):
            float(a)
        with pytest.raises(TypeError):
            int(a)
    if n.dtype.kind in "iu":
        assert operator.index(a) == operator.index(n)
    else:
        with pytest.raises(TypeError):
            operator.index(a)


@pytest.mark.parametrize(
    "value",
    [np.float64(np.nan), np.float64(-np.inf), np.uint64(2**64 - 1), np.int64(-(2**63)), 2.5 - 1j],
)
@pytest.mark.parametrize("convert", [float, int, complex])
def test_scalar_conversions_edge_values_like_numpy(value, convert):
    n = np.array(value)
    a = gpupy.asarray(n)
    try:
        expected = convert(n)
    except (TypeError, ValueError, OverflowError) as exc:
        with pytest.raises(type(exc)):
            convert(a)
        return
    got = convert(a)
    assert type(got) is type(expected)
    assert got == expected or (got != got and expected != expected)  # NaN compares unequal


@pytest.mark.parametrize("shape", [(1,), (2,), (1, 1)])
@pytest.mark.parametrize("convert", [float, int, complex])
def test_scalar_conversions_need_zero_dims(shape, convert):
    with pytest.raises(TypeError, match="only 0-dimensional arrays"):
        convert(gpupy.ones(shape))


def test_item_with_indices_like_numpy():
    n = np.arange(12, dtype=np.int32).reshape(3, 4) - 5
    a = gpupy.asarray(n)
    for args in [(4,), (-1,), (2, 3), ((1, 0),), ((-1, -2),)]:
        assert a.item(*args) == n.item(*args) and type(a.item(*args)) is type(n.item(*args))
    assert a[1, 2].item(0) == n[1, 2].item(0)
    for args, exc in [((12,), IndexError), ((1, 2, 3), ValueError), ((), ValueError)]:
        with pytest.raises(exc):
            n.item(*args)
        with pytest.raises(exc, match=r"\[item\]"):
            a.item(*args)


@testing.for_dtypes(["int64", "float32", "float64"])
def test_builtin_round_and_divmod(dtype):
    n = (np.arange(1, 7).reshape(2, 3) * 1.37).astype(dtype)
    a = gpupy.asarray(n)
    for ndigits in (None, 0, 1, 2):
        r, g = round(n.mean(), ndigits), round(a.mean(), ndigits)
        assert g == r and isinstance(g, int if ndigits is None else float)
    with pytest.raises(TypeError, match=r"\[round\]"):
        round(a, 1)
    for got, expected in ((divmod(a, 4), divmod(n, 4)), (divmod(9, a), divmod(9, n))):
        for g, e in zip(got, expected, strict=True):
            testing.assert_same(e, g)


@pytest.mark.parametrize("spec", ["", ".3f", "8.2e", ">7", "d", "+", ".2%", "x"])
@pytest.mark.parametrize(
    "data",
    [1.5, np.float32(0.1), np.int32(-7), np.uint8(200), True, 2 + 3j, [1.0, 2.0], [[1, 2]], []],
)
def test_format_like_numpy(data, spec):
    """f-strings of 0-d results (f"{x.sum():.3f}") format the value; other arrays take only ''."""
    n = np.array(data)
    a = gpupy.asarray(n)
    try:
        expected = format(n, spec)
    except (TypeError, ValueError) as exc:
        with pytest.raises(type(exc)):
            format(a, spec)
        return
    if n.ndim:
        expected = str(a)  # array_str, which the printing tests compare with NumPy's
    assert format(a, spec) == expected
    assert f"{a:{spec}}" == expected


@pytest.mark.parametrize(
    "fn,data,exc",
    [
        (bool, np.array([1, 2]), ValueError),
        (bool, np.array([]), ValueError),
        (float, np.array([1.0]), TypeError),
        (int, np.array([1, 2]), TypeError),
        (complex, np.array([1]), TypeError),
        (operator.index, np.array([1]), TypeError),
        (len, np.array(1), TypeError),
        (iter, np.array(1), TypeError),
    ],
)
def test_conversion_errors_match_numpy(fn, data, exc):
    with pytest.raises(exc):
        fn(data)
    with pytest.raises(exc):
        fn(gpupy.asarray(data))


def test_bool_of_size_one_nd():
    assert bool(gpupy.asarray(np.array([[3]]))) is True
    assert bool(gpupy.asarray(np.array([0.0]))) is False


def test_item_errors():
    with pytest.raises(ValueError):
        gpupy.asarray(np.ones(2)).item()


@testing.for_dtypes()
def test_tolist(dtype):
    n = np.arange(6).reshape(3, 2).astype(dtype)
    assert gpupy.asarray(n).tolist() == n.tolist()
    assert gpupy.asarray(n[0, 0]).tolist() == n[0, 0].tolist()


def test_len_and_iter():
    n = np.arange(12.0).reshape(3, 4)
    a = gpupy.asarray(n)
    assert len(a) == 3
    rows = list(a)
    assert len(rows) == 3
    for r, e in zip(rows, n, strict=True):
        assert isinstance(r, gpupy.ndarray) and r.device == a.device
        testing.assert_same(e, r)
    assert list(gpupy.asarray(np.ones((0, 2)))) == []


@pytest.mark.parametrize(
    "data, value",
    [
        (np.arange(12.0).reshape(3, 4), 5.0),
        (np.arange(12.0).reshape(3, 4), 12),
        (np.array([1.0, np.nan]), np.nan),
        (np.arange(6, dtype=np.int8).reshape(2, 3), 300),
        (np.arange(6).reshape(2, 3), [3, 4, 5]),
        (np.zeros((0, 3)), 0),
        (np.array(7), 7),
        # Values no comparison takes are in no array (NumPy compares them unequal).
        (np.arange(4.0).reshape(2, 2), None),
        (np.arange(4.0).reshape(2, 2), "a"),
    ],
)
def test_contains_like_numpy(data, value):
    # 2-D arrays need __contains__: iterating rows would ask bool() of a row comparison.
    # Sequences are compared as gpupy arrays: binary operations take them as cpu data.
    probe = gpupy.asarray(value) if isinstance(value, list) else value
    assert (probe in gpupy.asarray(data)) == (value in data)


def test_delitem_refused_like_numpy():
    a = gpupy.arange(3)
    with pytest.raises(ValueError, match=r"\[delitem\] cannot delete array elements"):
        del a[0]
    with pytest.raises(ValueError, match="cannot delete array elements"):
        del np.arange(3)[0]


def test_inplace_matmul_like_numpy():
    n = np.arange(6.0).reshape(2, 3)
    m = np.arange(9.0).reshape(3, 3) - 4
    a = gpupy.asarray(n)
    alias = a
    a @= gpupy.asarray(m)
    n @= m
    assert alias is a
    testing.assert_same(n, a)
    # The array is both an operand and the output: the product must be read before it is written.
    sq = np.arange(9.0).reshape(3, 3) - 4
    b = gpupy.array(sq)
    b @= b
    sq @= sq.copy()
    testing.assert_same(sq, b)
    # The result must keep the array's shape and a cast to its dtype must be same_kind, as NumPy.
    with pytest.raises(ValueError):
        a @= gpupy.ones((3, 2))
    with pytest.raises(ValueError):
        n @= np.ones((3, 2))
    ints = gpupy.arange(4).reshape(2, 2)
    with pytest.raises(TypeError):
        ints @= gpupy.ones((2, 2))
    with pytest.raises(TypeError):
        ints_np = np.arange(4).reshape(2, 2)
        ints_np @= np.ones((2, 2))


def test_class_getitem_for_type_hints():
    alias = gpupy.ndarray[int]
    assert alias.__origin__ is gpupy.ndarray and alias.__args__ == (int,)


def test_flags():
    a = gpupy.asarray(np.zeros((3, 4)), copy=True)
    assert a.flags.c_contiguous and not a.flags.f_contiguous
    assert a.flags.writeable and a.flags.owndata
    assert a.flags["C_CONTIGUOUS"] and a.flags["WRITEABLE"]
    with pytest.raises(KeyError):
        a.flags["NOPE"]
    assert "C_CONTIGUOUS" in repr(a.flags)
    col = gpupy.asarray(np.zeros((3, 1)))
    assert col.flags.c_contiguous and col.flags.f_contiguous


def test_readonly_numpy_input_is_not_writeable():
    if not _on_cpu():
        pytest.skip("only cpu arrays share NumPy memory")
    n = np.arange(3.0)
    n.flags.writeable = False
    a = gpupy.asarray(n)
    assert not a.flags.writeable and not a.flags.owndata
    with pytest.raises(ValueError):
        gpupy.add(a, 1, out=a)


def test_device_moves():
    n = np.arange(5, dtype=np.int32)
    a = gpupy.asarray(n)
    assert a.device == gpupy.get_default_device()
    b = a.to_device("cpu")
    assert b.device == gpupy.Device("cpu")
    testing.assert_same(n, b)
    testing.assert_same(n, a.get())
    testing.assert_same(n, gpupy.asnumpy(a))
    assert gpupy.asnumpy(n) is n
    assert isinstance(a.get(), np.ndarray)


# ---- NumPy interop -------------------------------------------------------------------------------


def test_array_protocol_zero_copy_on_cpu():
    a = gpupy.asarray(np.arange(6.0), device="cpu", copy=True)
    n = np.asarray(a)
    assert np.shares_memory(n, np.asarray(a))
    n[0] = 42.0
    assert a.get()[0] == 42.0
    assert not np.shares_memory(np.array(a), n)
    assert not np.shares_memory(np.array(a, copy=True), n)
    assert np.asarray(a, dtype=np.float32).dtype == np.float32
    with pytest.raises(ValueError):
        a.__array__(dtype=np.float32, copy=False)
    assert np.shares_memory(np.asarray(a, copy=False), n)


def test_array_protocol_keeps_array_alive():
    n = np.asarray(gpupy.asarray(np.arange(4.0), device="cpu", copy=True))
    import gc

    gc.collect()
    assert n.tolist() == [0.0, 1.0, 2.0, 3.0]


def test_array_interface_on_cpu():
    a = gpupy.asarray(np.arange(6, dtype=np.int16).reshape(2, 3), device="cpu")
    iface = a.__array_interface__
    assert iface["shape"] == (2, 3) and iface["typestr"] == "<i2" and iface["version"] == 3
    assert iface["data"][0] == a._data_ptr


def test_implicit_conversion_refused_off_cpu():
    try:
        a = gpupy.asarray(np.arange(3.0), device="emu")
    except NotImplementedError:
        pytest.skip("emu device not built")
    with pytest.raises(TypeError, match="Implicit conversion"):
        np.asarray(a)
    assert not hasattr(a, "__array_interface__")


@pytest.mark.parametrize("name", ["add", "multiply", "maximum", "arctan2", "equal"])
def test_array_ufunc_binary(name):
    if not _on_cpu():
        pytest.skip("NumPy operands are cpu arrays")
    n = np.array([1.0, 2.0, 3.0])
    g = gpupy.asarray(np.array([3.0, 2.0, 1.0]))
    for args in [(n, g), (g, n), (g, 1)]:
        r = getattr(np, name)(*args)
        assert isinstance(r, gpupy.ndarray)
        testing.assert_same(getattr(np, name)(*[gpupy.asnumpy(x) for x in args]), r)


def test_numpy_operators_defer_to_gpupy():
    if not _on_cpu():
        pytest.skip("NumPy operands are cpu arrays")
    n = np.array([1, 2, 3])
    g = gpupy.asarray(np.array([1, 1, 1]))
    for r, e in [(n + g, n + 1), (n * g, n), (n - g, n - 1), (n < g, n < 1)]:
        assert isinstance(r, gpupy.ndarray)
        testing.assert_same(e, r)
    assert isinstance(np.float64(2.0) * g, gpupy.ndarray)


def test_array_ufunc_unary_and_out():
    g = gpupy.asarray(np.array([0.0, 1.0]))
    r = np.exp(g)
    assert isinstance(r, gpupy.ndarray)
    testing.assert_same(np.exp([0.0, 1.0]), r)
    out = gpupy.zeros(2)
    assert np.add(g, 1, out=out) is out
    testing.assert_same(np.array([1.0, 2.0]), out)


def test_array_ufunc_unsupported_returns_not_implemented():
    g = gpupy.asarray(np.array([1.0, 2.0]))
    assert g.__array_ufunc__(np.add, "__call__", g, 1, casting="unsafe") is NotImplemented
    # ufunc methods (accumulate, at, outer, ...) dispatch to gpupy.ufunc: test_ufunc_methods


def test_real_imag_conj_copy():
    n = np.array([1 + 2j, -3j])
    g = gpupy.asarray(n)
    testing.assert_same(n.real, g.real)
    testing.assert_same(n.imag, g.imag)
    testing.assert_same(n.conj(), g.conj())
    c = copy.copy(g)
    d = copy.deepcopy(g)
    assert not c._same_buffer(g) and not d._same_buffer(g)
    testing.assert_same(n, d)


def test_unhashable():
    with pytest.raises(TypeError):
        hash(gpupy.zeros(2))


@testing.for_dtypes()
def test_buffer_protocol_on_cpu(dtype):
    n = np.arange(6).reshape(2, 3).astype(dtype)
    a = gpupy.asarray(n, device="cpu", copy=True)
    m = memoryview(a)
    assert m.shape == (2, 3) and m.strides == n.strides and not m.readonly
    b = np.asarray(m)
    assert b.dtype == n.dtype and np.shares_memory(b, np.asarray(a))
    testing.assert_same(n, b)


def test_buffer_protocol_strided_and_readonly():
    n = np.arange(12.0).reshape(3, 4)[::2, ::-1]
    a = gpupy.asarray(n, device="cpu")
    testing.assert_same(n, np.asarray(memoryview(a)))
    assert bytes(a) == n.tobytes()
    r = np.arange(3.0)
    r.flags.writeable = False
    assert memoryview(gpupy.asarray(r, device="cpu")).readonly
    assert bytes(gpupy.asarray(np.array([1, 2], dtype=np.uint8), device="cpu")) == b"\x01\x02"


def test_buffer_protocol_refused_off_cpu():
    try:
        a = gpupy.asarray(np.arange(3.0), device="emu")
    except NotImplementedError:
        pytest.skip("emu device not built")
    with pytest.raises(BufferError):
        memoryview(a)


@pytest.mark.parametrize(
    "op",
    [
        operator.add,
        operator.lt,
        operator.pow,
        operator.iadd,
        operator.matmul,
        operator.imatmul,
        divmod,
    ],
)
def test_operator_with_none_is_pythons_type_error(op):
    # NumPy raises TypeError here (ValueError for @, which reads None as a 0-d object array);
    # gpupy's operator returns NotImplemented, so Python raises its TypeError naming both types.
    with pytest.raises((TypeError, ValueError) if "matmul" in op.__name__ else TypeError):
        op(np.ones(2), None)
    python_message = "unsupported operand|not supported between"
    with pytest.raises(TypeError, match=python_message):
        op(gpupy.ones(2), None)
    with pytest.raises(TypeError, match=python_message):
        op(None, gpupy.ones(2))


@pytest.mark.parametrize("op", [operator.eq, operator.ne])
def test_equality_with_none_is_elementwise_like_numpy(op):
    n = np.arange(6.0).reshape(3, 2)
    a = gpupy.asarray(n)
    for got, want in ((op(a, None), op(n, None)), (op(None, a), op(None, n))):
        assert isinstance(got, gpupy.ndarray) and got.device == a.device
        testing.assert_same(want, got)


@pytest.mark.parametrize(
    "call, message",
    [
        (
            lambda: gpupy.add(gpupy.ones(2), None),
            r"^\[asarray\] NumPy dtype 'object' is not supported",
        ),
        (lambda: gpupy.sin(None), r"^\[asarray\] NumPy dtype 'object' is not supported"),
        (lambda: gpupy.where(None, 1, 2), r"^\[where\] expected an array, got None"),
        (lambda: gpupy.asarray(None), r"^\[asarray\] expected an array, got None"),
    ],
)
def test_functions_given_none_name_the_operation(call, message):
    # NumPy reads None as an object array; gpupy has none and says so, naming the operation.
    with pytest.raises(TypeError, match=message):
        call()


# ---- .real and .imag are views (found by NumPy's test_umath.py TestComplexFunctions) -----------


@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
@testing.numpy_gpupy_allclose()
def test_real_imag_are_writeable_views(xp, dtype):
    base = (np.arange(12) + 1j * np.arange(12, 24)).astype(dtype).reshape(3, 4)
    c = xp.asarray(base)[:, ::2].T  # a strided, transposed view
    c.real[0] = -1
    c.imag[:, 1] = 9
    c.imag = c.imag * 2
    c.real = 3.5
    assert c.real.dtype == c.imag.dtype == np.dtype(dtype).char.lower()
    return c, c.real, c.imag


@testing.numpy_gpupy_allclose(accept_error=True)
def test_real_array_real_is_a_view_and_imag_read_only_zeros(xp):
    a = xp.arange(4.0)
    a.real[1] = 7
    a.real = a.real + 1
    assert not a.imag.flags.writeable
    return a, a.imag


@testing.numpy_gpupy_allclose(accept_error=True)
def test_real_array_refuses_setting_imag(xp):
    a = xp.arange(4.0)
    a.imag = 1
    return a


# ---- ndarray.shape = ... (found by NumPy's test_umath.py and test_multiarray.py) ----------------


@pytest.mark.parametrize("shape", [(3, 4), (2, -1), -1, (1, 12, 1)])
@testing.numpy_gpupy_allclose()
def test_setting_shape_reshapes_in_place(xp, shape):
    a = xp.arange(12.0)
    a.shape = shape
    a[(0,) * a.ndim] = -1  # still the same memory
    return a, a.flags.owndata


@pytest.mark.parametrize("shape", [(12,), (5,)])
@testing.numpy_gpupy_allclose(accept_error=True)
def test_setting_shape_refuses_copies_and_bad_sizes(xp, shape):
    a = xp.arange(12).reshape(3, 4).T  # flattening it would copy: AttributeError
    a.shape = shape
    return a


@pytest.mark.parametrize("operands", ["aa", "an", "na", "a1", "1a"])
def test_operator_concat_is_refused(operands):
    # as NumPy's arrays: operator.concat does not fall back to a + b
    def pick(kind, xp):
        return {"a": xp.arange(3), "n": np.arange(3), "1": 1}[kind]

    with pytest.raises(TypeError):
        operator.concat(*(pick(k, np) for k in operands))
    with pytest.raises(TypeError):
        operator.concat(*(pick(k, gpupy) for k in operands))
    np.testing.assert_array_equal((gpupy.arange(3) + gpupy.arange(3)).get(), [0, 2, 4])
