"""Ufunc corner cases where gpupy once differed from NumPy 2.4, each checked against NumPy itself:
the ufunc objects and their at/reduceat/accumulate methods, Python scalars beside arrays, and
the casting= and dtype= keywords."""

import math
import pickle
import warnings

import gpupy
import numpy as np
import pytest
from gpupy import testing

NUMPY_UFUNCS = sorted(
    n for n in dir(np) if isinstance(getattr(np, n), np.ufunc) and getattr(np, n).signature is None
)


@pytest.mark.parametrize("name", NUMPY_UFUNCS)
def test_every_numpy_ufunc_is_a_gpupy_ufunc(name):
    u, ref = getattr(gpupy, name), getattr(np, name)
    assert isinstance(u, gpupy.ufunc)
    assert (u.nin, u.nout, u.nargs, u.signature) == (ref.nin, ref.nout, ref.nargs, None)
    assert u.identity == ref.identity or (u.identity is None and ref.identity is None)
    assert repr(u) == f"<ufunc '{u.__name__}'>"
    assert u.__name__ in (name, ref.__name__) or getattr(gpupy, u.__name__) is u  # aliases
    assert pickle.loads(pickle.dumps(u)) is u
    assert u.ntypes == len(u.types) and all("->" in t for t in u.types)


@pytest.mark.parametrize("name", ["sin", "negative", "isnan", "sqrt", "add", "modf", "divmod"])
def test_ufunc_types_match_the_results(name):
    u = getattr(gpupy, name)
    for code in u.types:
        ins, outs = code.split("->")
        args = [gpupy.ones(2, dtype=c) for c in ins]
        result = u(*args)
        results = result if isinstance(result, tuple) else (result,)
        assert "".join(np.dtype(r.dtype).char for r in results) == outs
    if name in ("sin", "sqrt", "add"):
        assert {"d" * u.nin + "->d", "D" * u.nin + "->D"} <= set(u.types)


@pytest.mark.parametrize(
    "name,dtype", [("negative", "float64"), ("negative", "int16"), ("sin", "float64"),
                   ("square", "float32"), ("sqrt", "int32"), ("isnan", "float64"),
                   ("invert", "uint8"), ("absolute", "complex128"), ("logical_not", "int64")],
)  # fmt: skip
@testing.numpy_gpupy_allclose()
def test_unary_ufunc_at(name, dtype, xp):
    start = 0 if name == "sqrt" else -4  # NaN cast to an integer differs between machines
    a = np.arange(start, start + 12).astype(dtype).reshape(3, 4)
    a = xp.asarray(a * (1 + 1j) if "c" in dtype else a)
    u = getattr(xp, name)
    u.at(a, (xp.asarray([0, 2, 2, 0, 2]), xp.asarray([1, 3, 3, 1, 0])))
    u.at(a[:, ::2], [1, 1, 1])
    return a


METHOD_CALLS = {
    "reduce": lambda u, a: u.reduce(a),
    "accumulate": lambda u, a: u.accumulate(a),
    "reduceat": lambda u, a: u.reduceat(a, [0]),
    "outer": lambda u, a: u.outer(a, a),
    "at_with_operand": lambda u, a: u.at(a, [0], 1.0),
}


@pytest.mark.parametrize("call", sorted(METHOD_CALLS))
@pytest.mark.parametrize("name", ["sin", "isnan", "modf", "divmod"])
@testing.numpy_gpupy_allclose(accept_error=True)
def test_ufunc_methods_refused_as_numpy(name, call, xp):
    return METHOD_CALLS[call](getattr(xp, name), xp.arange(1.0, 4.0))


def test_numpy_ufuncs_and_methods_dispatch_to_gpupy_unary_ufuncs():
    a = gpupy.asarray([1.0, -2.0, 3.0])
    result = np.sin(a)
    assert isinstance(result, gpupy.ndarray)
    np.testing.assert_allclose(result.get(), np.sin([1.0, -2.0, 3.0]), rtol=1e-15)
    np.negative.at(a, [0, 2, 2])
    np.testing.assert_array_equal(a.get(), [-1.0, -2.0, 3.0])
    out = gpupy.empty(3)
    assert gpupy.sqrt(gpupy.asarray([1.0, 4.0, 9.0]), out=out) is out
    np.testing.assert_array_equal(out.get(), [1.0, 2.0, 3.0])


AT_IDX = (np.arange(600) * 7919) % 13  # every index repeated about 46 times


@pytest.mark.parametrize(
    "name,dtype,values_dtype",
    [("maximum", "float64", "float64"), ("minimum", "int16", "int8"),
     ("fmax", "float32", "float32"), ("bitwise_or", "uint8", "uint8"), ("gcd", "int64", "int32"),
     ("logical_xor", "bool", "bool"), ("multiply", "int8", "int8"), ("multiply", "int64", "int16"),
     ("multiply", "float64", "float64"), ("maximum", "int32", "float64"),
     ("subtract", "int16", "float32"), ("fmod", "float64", "float64"),
     ("minimum", "complex128", "complex128")],
)  # fmt: skip
@testing.numpy_gpupy_allclose(rtol=0)
def test_at_with_many_repeats_equals_numpy(name, dtype, values_dtype, xp):
    rng = np.random.default_rng(len(name) + len(dtype))
    raw = rng.integers(-3, 4, AT_IDX.size) if dtype != "bool" else rng.integers(0, 2, AT_IDX.size)
    if values_dtype.startswith("float"):
        raw = raw * 0.75 + 0.125
    values = xp.asarray(raw.astype(values_dtype))
    a = xp.asarray((np.arange(13) % 5 + 1).astype(dtype))
    getattr(xp, name).at(a, xp.asarray(AT_IDX), values)
    grid = xp.asarray((np.arange(24).reshape(4, 6) % 7 + 1).astype(dtype))[:, ::2]
    getattr(xp, name).at(grid, (xp.asarray(AT_IDX % 4), xp.asarray(AT_IDX % 3)), values)
    return a, grid


REDUCEAT_INDICES = {
    "increasing": [0, 3, 4, 9, 15],
    "mixed": [5, 2, 2, 9, 0, 15, 1],
    "decreasing": [15, 12, 7, 7, 1],
    "overlapping": [0, 19] * 20,  # long backward segments: reduced one by one
    "single": [6],
}


# Not power or arctan2: NumPy 2.4's float loops for them do not fold left to right in a reduction
# (numpy.power.reduce([2.0, 3.0, 2.0]) is 4.0; for integers it is 64 = (2**3)**2, as gpupy's).
@pytest.mark.parametrize("indices", sorted(REDUCEAT_INDICES))
@pytest.mark.parametrize(
    "name,dtype",
    [("add", "int8"), ("multiply", "float64"), ("maximum", "float32"), ("bitwise_xor", "int32"),
     ("subtract", "float64"), ("divide", "int64"), ("fmod", "float64"), ("logaddexp", "float64")],
)  # fmt: skip
@testing.numpy_gpupy_allclose(rtol=1e-14)
def test_reduceat_orders_and_ufuncs(indices, name, dtype, xp):
    rng = np.random.default_rng(3)
    base = rng.integers(1, 9, (20, 3)) if dtype[0] in "iu" else rng.uniform(0.5, 1.5, (20, 3))
    x = xp.asarray(base.astype(dtype))
    u, idx = getattr(xp, name), REDUCEAT_INDICES[indices]
    return u.reduceat(x, idx), u.reduceat(x.T, xp.asarray(idx), axis=1)


@pytest.mark.parametrize("indices", [[[0, 1]], [-1], [4], 0])
@testing.numpy_gpupy_raises()
def test_reduceat_bad_indices(indices, xp):
    xp.add.reduceat(xp.arange(4.0), indices)


@testing.numpy_gpupy_allclose()
def test_reduceat_dtype_out_and_empty_indices(xp):
    x = xp.asarray(np.arange(1, 11, dtype=np.int16))
    out = xp.zeros(3, dtype=np.float32)
    xp.subtract.reduceat(x, [0, 4, 2], dtype=np.float32, out=out)
    return out, xp.add.reduceat(x, [7, 1]), xp.divide.reduceat(x, [3, 8])


@pytest.mark.parametrize(
    "name,dtype",
    [("subtract", "int8"), ("subtract", "uint16"), ("subtract", "float64"), ("copysign", "float32"),
     ("divide", "float64"), ("power", "int64"), ("arctan2", "float64"), ("floor_divide", "int32")],
)  # fmt: skip
@testing.numpy_gpupy_allclose(rtol=0)
def test_accumulate_in_order(name, dtype, xp):
    rng = np.random.default_rng(5)
    if dtype[0] in "iu":
        base = rng.integers(
            1 if name in ("power", "floor_divide") else 0, 4 if name == "power" else 120, (70, 3)
        )
    else:
        base = rng.uniform(-2, 2, (70, 3))
    x = xp.asarray(base.astype(dtype))
    u = getattr(xp, name)
    out = xp.empty((3, 70), dtype=dtype)
    u.accumulate(x.T, axis=1, out=out)
    return u.accumulate(x), out, u.accumulate(x[:, 0], dtype="float64"), u.accumulate(x[:1])


_HUGE = 2**70


@pytest.mark.parametrize(
    "dtype, expr",
    [("int16", lambda xp, x: x == _HUGE), ("int16", lambda xp, x: x < _HUGE),
     ("uint8", lambda xp, x: x != -_HUGE), ("int64", lambda xp, x: _HUGE > x),
     ("int8", lambda xp, x: x >= 2**2000), ("uint64", lambda xp, x: xp.less(-_HUGE, x)),
     ("float32", lambda xp, x: x + _HUGE), ("float16", lambda xp, x: x * _HUGE),
     ("float64", lambda xp, x: _HUGE - x), ("complex64", lambda xp, x: xp.add(x, -_HUGE)),
     ("float64", lambda xp, x: x < _HUGE), ("int32", lambda xp, x: x + _HUGE),
     ("bool", lambda xp, x: x == _HUGE), ("float64", lambda xp, x: x + 2**2000)],
)  # fmt: skip
@pytest.mark.parametrize("shape", [(2, 3), (0, 5)])
@testing.numpy_gpupy_allclose(accept_error=True)
def test_python_int_beyond_every_integer_dtype(dtype, expr, shape, xp):
    # NumPy compares integers with it as with a value beyond them all, converts it to the float of
    # a float operand, and raises OverflowError otherwise (gpupy's operators once returned False
    # or raised TypeError).
    return expr(xp, xp.asarray(np.arange(math.prod(shape)).reshape(shape).astype(dtype)))


@pytest.mark.parametrize("name", ["hypot", "arctan2", "logaddexp", "copysign", "nextafter"])
@pytest.mark.parametrize("dtype", ["bool", "int8", "uint8", "int16", "float16", "float32"])
@pytest.mark.parametrize("value", [3, 300, 2.5, True, np.float32(2)])
@testing.numpy_gpupy_allclose()
def test_float_loop_of_an_array_and_a_python_scalar(name, dtype, value, xp):
    # The scalar first takes the dtype it promotes to with the array (bool and 3: int64), then
    # the float loop is chosen: hypot(bool_array, 3) is float64, not float16.
    x = xp.asarray(np.array([0, 1, 1]).astype(dtype))
    return getattr(xp, name)(x, value), getattr(xp, name)(value, x)


_CASTINGS = ["no", "equiv", "safe", "same_kind", "unsafe"]


@pytest.mark.parametrize("casting", _CASTINGS)
@pytest.mark.parametrize(
    "name, args",
    [("add", ("int8", "int8")), ("add", ("int8", "float64")), ("add", ("int8", 1)),
     ("add", ("int8", 1.5)), ("less", ("int8", "float64")), ("logical_and", ("int8", "int8")),
     ("logical_and", ("int8", "float64")), ("logical_or", ("bool", "complex64")),
     ("sqrt", ("int8",)), ("negative", ("float64",)), ("power", ("bool", "bool")),
     ("divide", ("int16", "int16")), ("add", ("int8", np.int16(3)))],
)  # fmt: skip
@pytest.mark.parametrize("out", [None, "int16", "float32", "int8"])
@testing.numpy_gpupy_allclose(accept_error=True)
def test_ufunc_casting_keyword(casting, name, args, out, xp):
    # casting= rules the inputs' casts to the loop and the result's cast into out (gpupy once
    # refused the keyword).
    ops = [xp.asarray(np.array([1, 2, 3]).astype(a)) if isinstance(a, str) else a for a in args]
    kwargs = {"casting": casting}
    if out is not None:
        kwargs["out"] = xp.full(3, 7, dtype=out)
        kwargs["where"] = xp.asarray([True, False, True])
    return getattr(xp, name)(*ops, **kwargs)


@pytest.mark.parametrize("casting", _CASTINGS)
@pytest.mark.parametrize("dtype", ["int16", "float32"])
@testing.numpy_gpupy_allclose(accept_error=True)
def test_ufunc_casting_with_dtype(casting, dtype, xp):
    x = xp.asarray(np.array([1.5, -2.0], np.float32))
    return xp.multiply(x, 2, dtype=dtype, casting=casting)


@pytest.mark.parametrize("casting", _CASTINGS)
@pytest.mark.parametrize("src, dst", [("int8", "int8"), ("int8", "int16"), ("int16", "int8"),
                                      ("float64", "int32"), ("complex64", "float32"),
                                      ("uint8", "float16"), ("float32", "float64")])  # fmt: skip
@testing.numpy_gpupy_allclose(accept_error=True)
def test_astype_casting(casting, src, dst, xp):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", np.exceptions.ComplexWarning)
        return xp.asarray(np.array([1, 2, 100]).astype(src)).astype(dst, casting=casting)


@pytest.mark.parametrize(
    "name, args, dtype",
    [("isnan", ("float64",), "bool"), ("isnan", ("float64",), "float64"),
     ("absolute", ("complex128",), "float64"), ("absolute", ("complex128",), "complex128"),
     ("equal", ("int64", "float64"), "bool"), ("equal", ("int64", "float64"), "float64"),
     ("less", ("int64", 3.5), "bool"), ("logical_and", ("int64", "float64"), "bool"),
     ("logical_and", ("int64", "int64"), "int64"), ("logical_not", ("int16",), "bool"),
     ("sin", ("int64",), "int64"), ("sin", ("int64",), "float32"),
     ("divide", ("int64", "int64"), "int64"), ("floor_divide", ("bool", "bool"), "bool"),
     ("left_shift", ("int64", "int64"), "float64"), ("power", ("bool", "bool"), "bool"),
     ("arctan2", ("int32", "int32"), "int32"), ("add", ("int64", 3.5), "int64"),
     ("add", ("float64", 1j), "float64"), ("add", ("int64", "int64"), "complex64"),
     ("square", ("complex128",), "float64"), ("sign", ("complex128",), "complex64"),
     ("add", ("uint8", 2**33), "uint64"), ("add", ("uint8", -1), "uint64"),
     ("multiply", ("int8", 300), "int8"), ("add", ("int8", 2), "bool")],
)  # fmt: skip
@testing.numpy_gpupy_allclose(accept_error=True)
def test_ufunc_dtype_names_the_output(name, args, dtype, xp):
    # dtype= picks the loop whose output is that dtype (NumPy's signature=(None, ..., dtype)):
    # equal(..., dtype=bool) compares in the inputs' dtype, sin(int, dtype=int64) has no loop
    # (gpupy once cast every input to dtype and ran whatever loop that gave).
    ops = [xp.asarray(np.array([1, 2, 0]).astype(a)) if isinstance(a, str) else a for a in args]
    return getattr(xp, name)(*ops, dtype=dtype)


@pytest.mark.parametrize(
    "call",
    [lambda xp, c: xp.add(c, c, out=xp.zeros(2), casting="unsafe"),
     lambda xp, c: xp.negative(c, out=xp.zeros(2, dtype="int32"), casting="unsafe"),
     lambda xp, c: xp.add(c, 1, dtype="float64", casting="unsafe"),
     lambda xp, c: xp.add(c, c, out=xp.zeros(2, dtype=complex))],
)  # fmt: skip
def test_ufunc_unsafe_complex_to_real_warns(call):
    # NumPy's ComplexWarning when casting= drops the imaginary part (of an input or the result)
    c = np.array([1 + 2j, 3 - 1j])
    with warnings.catch_warnings(record=True) as expected:
        warnings.simplefilter("always")
        want = call(np, c)
    with warnings.catch_warnings(record=True) as got:
        warnings.simplefilter("always")
        have = call(gpupy, gpupy.asarray(c))
    assert [w.category for w in got] == [w.category for w in expected]
    testing.assert_same(want, have)
