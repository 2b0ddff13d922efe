"""Creation functions: values, dtype and device defaults, copy semantics and errors."""

import platform
import warnings

import gpupy
import numpy as np
import pytest
from gpupy import testing


@testing.for_dtypes()
@testing.numpy_gpupy_allclose()
def test_empty_zeros_ones_full(dtype, xp):
    e = xp.empty((2, 3), dtype=dtype)
    assert e.shape == (2, 3) and e.dtype == np.dtype(dtype)
    return xp.zeros((2, 3), dtype=dtype), xp.ones(4, dtype=dtype), xp.full((3,), 1, dtype=dtype)


@testing.numpy_gpupy_allclose()
def test_default_dtypes(xp):
    return (
        xp.zeros(3), xp.ones((1, 2)), xp.empty(0), xp.full(2, 7), xp.full(2, 1.5),
        xp.full(2, True), xp.full(2, 1j), xp.eye(3), xp.identity(2), xp.arange(5),
        xp.arange(0.0, 1.0, 0.25), xp.linspace(0, 1, 5),
    )  # fmt: skip


@testing.for_dtypes()
@testing.numpy_gpupy_allclose()
def test_like_functions(dtype, xp):
    a = xp.asarray(np.arange(6).reshape(2, 3).astype(dtype))
    e = xp.empty_like(a)
    assert e.shape == a.shape and e.dtype == a.dtype
    return xp.zeros_like(a), xp.ones_like(a), xp.full_like(a, 1), xp.zeros_like(a, dtype="int16")


def test_like_functions_keep_device():
    a = gpupy.asarray(np.ones(3))
    for b in (gpupy.empty_like(a), gpupy.zeros_like(a), gpupy.ones_like(a), gpupy.full_like(a, 2)):
        assert b.device == a.device
    assert gpupy.zeros_like(a, device="cpu").device == gpupy.Device("cpu")
    testing.assert_same(np.zeros((2, 2)), gpupy.zeros_like(np.ones((2, 2))))


@pytest.mark.parametrize("args", [(5,), (1, 7), (2, 10, 3), (10, 2, -2), (0.5, 3.0, 0.5), (3, 1)])
@testing.numpy_gpupy_allclose()
def test_arange(args, xp):
    return xp.arange(*args)


@pytest.mark.parametrize(
    "args",
    [
        (np.uint8(0), np.uint8(7)),
        (np.int8(100), 127),
        (np.uint64(0), 3),
        (0, np.float32(3.5)),
        (np.float16(0), 3),
        (np.bool_(False), 3),
        (np.int32(0), 9, np.int16(2)),
    ],
    ids=repr,
)
@testing.numpy_gpupy_allclose()
def test_arange_of_numpy_scalars(args, xp):
    # NumPy promotes typed bounds with int64: an int8 range is int64, a float32 one float64.
    return xp.arange(*args)


def test_arange_of_a_0d_array_bound():
    n = gpupy.max(gpupy.asarray(np.array([3, 120], dtype=np.int8)))
    r = gpupy.arange(n + 0)
    assert r.dtype == np.int64
    testing.assert_same(np.arange(np.int8(120)), r)


@testing.for_dtypes(["int8", "uint16", "float32", "float64"])
@testing.numpy_gpupy_allclose()
def test_arange_dtype(dtype, xp):
    return xp.arange(1, 9, 2, dtype=dtype)


@pytest.mark.parametrize("kw", [{}, {"endpoint": False}, {"num": 1}, {"num": 0}])
@testing.numpy_gpupy_allclose()
def test_linspace(kw, xp):
    kw = dict(kw)
    return xp.linspace(-1.0, 2.0, kw.pop("num", 7), **kw)


@testing.numpy_gpupy_allclose()
def test_linspace_complex_and_int(xp):
    return xp.linspace(0, 1 + 1j, 4), xp.linspace(0, 10, 4, dtype="int32")


@testing.numpy_gpupy_allclose(rtol=1e-15)
def test_linspace_from_0d_results(xp):
    # linspace(x.min(), x.max(), n): gpupy's 0-d reduction results as endpoints
    x = xp.asarray([3.0, -1.5, 7.25], dtype="float32")
    return xp.linspace(x.min(), x.max(), 9), xp.linspace(xp.asarray(2), 5, 4)


@testing.numpy_gpupy_allclose(rtol=1e-15)
def test_linspace_retstep_and_array_endpoints(xp):
    samples, step = xp.linspace(0.0, 1.0, 5, retstep=True)
    rows, row_steps = xp.linspace(xp.asarray([0.0, 1.0]), [1.0, 3.0], 3, axis=1, retstep=True)
    ints = xp.linspace(-10, 0, 4, dtype="int64", retstep=True)
    return samples, xp.asarray(step), rows, row_steps, ints[0], xp.asarray(ints[1])


def test_linspace_undefined_step_is_nan():
    for num, endpoint in ((0, True), (1, True)):
        y, step = gpupy.linspace(2.0, 5.0, num, endpoint=endpoint, retstep=True)
        assert y.shape == (num,) and np.isnan(step)


@pytest.mark.parametrize("n,m,k", [(3, None, 0), (3, 4, 1), (4, 3, -2), (2, 2, 5)])
@testing.for_dtypes(["bool", "int32", "float64", "complex64"])
@testing.numpy_gpupy_allclose()
def test_eye(n, m, k, dtype, xp):
    return xp.eye(n, m, k, dtype=dtype)


@pytest.mark.parametrize(
    "n,m,k", [(0, None, 2**63), (3, None, 2**63), (3, 4, -(2**70)), (2, 5, 5), (4, 2, -4)]
)
@testing.numpy_gpupy_allclose()
def test_eye_offset_past_the_matrix(n, m, k, xp):
    # NumPy gives all zeros for any k outside the matrix, also past int64.
    return xp.eye(n, m, k=k)


def test_eye_non_integer_offset():
    with pytest.raises(TypeError, match=r"\[eye\]"):
        gpupy.eye(3, k=1.5)


@testing.numpy_gpupy_allclose()
def test_asarray_nested_sequences_of_arrays(xp):
    # The arrays' data stays on their device; shape and dtype follow NumPy.
    a = xp.asarray(np.array([3, 250], dtype="uint8"))
    f = xp.asarray(np.array([[1.5, -2.0]], dtype="float32"))
    return (
        xp.asarray([[a[0] * a[1], a[1]], [a[1], a[0]]]),
        xp.asarray([a, a], dtype="int16"),
        xp.asarray([a[0], 300]),
        xp.asarray((f, f + 1)),
        xp.asarray([[f[0, 0], 2.5]]),
    )


@testing.numpy_gpupy_allclose()
def test_full_with_array_fill_values(xp):
    # full(n, -0.5 * r) where r came from x[1] - x[0]: a 0-d array, as in NumPy
    x = xp.asarray(np.linspace(0.0, 1.0, 5))
    r = x[1] - x[0]
    return (
        xp.full(3, -0.5 * r),
        xp.full_like(x, x.max()),
        xp.full((2, 3), xp.asarray([1.0, 2.0, 3.0])),
        xp.full(3, r, dtype="int64"),
        xp.full((2, 2), [1, 2]),
        xp.full(2, np.asarray(2.5, np.float32)),
    )


def test_asarray_nested_arrays_ragged():
    a = gpupy.asarray([1.0, 2.0])
    with pytest.raises(ValueError, match="inhomogeneous"):
        gpupy.asarray([a, a[:1]])


@testing.for_dtypes()
@testing.numpy_gpupy_allclose()
def test_asarray_and_array(dtype, xp):
    n = np.arange(6).reshape(3, 2).astype(dtype)
    return xp.asarray(n), xp.array(n), xp.asarray(n.tolist(), dtype=dtype), xp.asarray(n[::2, ::-1])


@testing.numpy_gpupy_allclose()
def test_asarray_from_python_values(xp):
    return xp.asarray(3), xp.asarray(2.5), xp.asarray([True, False]), xp.asarray([[1, 2], [3, 4]])


def test_asarray_copy_semantics_numpy_input():
    n = np.arange(4.0)
    a = gpupy.asarray(n)
    if a.device.type == "cpu":
        assert np.shares_memory(np.asarray(a), n)
        assert np.shares_memory(np.asarray(gpupy.asarray(n, copy=False)), n)
    else:
        with pytest.raises(ValueError):
            gpupy.asarray(n, copy=False)
    c = gpupy.asarray(n, copy=True)
    n[0] = 9.0
    assert c.get()[0] == 0.0
    assert gpupy.array(n).get()[0] == 9.0
    with pytest.raises(ValueError):
        gpupy.asarray([1.0, 2.0], copy=False)
    with pytest.raises(ValueError):
        gpupy.asarray(n, dtype=np.float32, copy=False)


def _numpy_layouts():
    base = np.arange(24.0).reshape(4, 6)
    readonly = base.copy()
    readonly.flags.writeable = False
    unaligned = np.frombuffer(np.arange(9, dtype=np.float64).tobytes()[1:65], dtype=np.float64)
    return {
        "c": base,
        "f": np.asfortranarray(base),
        "reversed": base[::-1, ::-2],
        "zero-d": np.array(2.5),
        "empty": np.zeros((0, 3)),
        "readonly": readonly,
        "unaligned": unaligned,
        "float16": base.astype(np.float16),
        "bool": base > 10,
        "complex64": (base + 1j).astype(np.complex64),
        "uint64": base.astype(np.uint64),
        "big-endian float64": base.astype(">f8"),
        "little-endian int32": base.astype("<i4"),
        "swapped complex128": (base + 2j).astype((base + 2j).dtype.newbyteorder()),
        "swapped uint16, reversed": base.astype(np.dtype(np.uint16).newbyteorder())[::-1],
    }


@pytest.mark.parametrize("name", list(_numpy_layouts()))
def test_asarray_of_numpy_arrays_keeps_values_shape_and_dtype(name):
    n = _numpy_layouts()[name]
    a = gpupy.asarray(n)
    assert a.shape == n.shape and a.dtype == n.dtype.newbyteorder("=")
    np.testing.assert_array_equal(a.get(), n)
    if a.device.type == "cpu" and n.flags.aligned and n.dtype.isnative:
        assert np.shares_memory(np.asarray(a), n) or n.size == 0  # wrapped, not copied
        assert a.flags.writeable == n.flags.writeable


def test_asarray_of_byte_swapped_numpy_arrays_reads_native_values():
    swapped = np.arange(6.0).reshape(2, 3).astype(np.dtype(np.float64).newbyteorder())
    a = gpupy.asarray(swapped)
    assert a.dtype == np.float64
    np.testing.assert_array_equal(a.get(), [[0, 1, 2], [3, 4, 5]])
    np.testing.assert_array_equal((a + 1).get(), swapped + 1)
    # the data must be byte-swapped into a new buffer, so copy=False cannot share it
    with pytest.raises(ValueError, match=r"\[asarray\] Unable to avoid copy"):
        gpupy.asarray(swapped, copy=False, device="cpu")


def test_asarray_copy_semantics_gpupy_input():
    a = gpupy.ones(3)
    assert gpupy.asarray(a) is a or gpupy.asarray(a)._same_buffer(a)
    assert gpupy.asarray(a, copy=False)._same_buffer(a)
    assert not gpupy.asarray(a, copy=True)._same_buffer(a)
    assert not gpupy.array(a)._same_buffer(a)
    assert gpupy.asarray(a, dtype="float32").dtype == np.float32
    with pytest.raises(ValueError):
        gpupy.asarray(a, dtype="float32", copy=False)


def test_asarray_device_argument():
    a = gpupy.asarray(np.ones(2), device="cpu")
    assert a.device == gpupy.Device("cpu")
    assert gpupy.asarray(a, device=gpupy.Device("cpu")).device.type == "cpu"


@pytest.mark.parametrize(
    "call,exc",
    [
        (lambda xp: xp.zeros((2, -1)), ValueError),
        (lambda xp: xp.ones(3, dtype="longdouble"), TypeError),
        (lambda xp: xp.full(2, 1000, dtype="int8"), OverflowError),
        (lambda xp: xp.empty(2, dtype="not-a-dtype"), TypeError),
        (lambda xp: xp.eye(-1), ValueError),
        (lambda xp: xp.linspace(0, 1, -2), ValueError),
        (lambda xp: xp.arange(0, 5, 0), ZeroDivisionError),  # as NumPy
        (lambda xp: xp.asarray(np.ones(2, dtype=np.longdouble)), TypeError),
        (lambda xp: xp.asarray(["a", "b"]), TypeError),
        (lambda xp: xp.zeros(2, device="gpu7"), ValueError),
    ],
)
def test_creation_errors(call, exc):
    with pytest.raises(exc):
        call(gpupy)


@pytest.mark.parametrize(
    "shape, exc",
    [(2.5, TypeError), ((2, 2.5), TypeError), ("", TypeError), ((3, None), TypeError)]
    + [(2**63, ValueError), ((2, 2**70), ValueError)],
)
@pytest.mark.parametrize("op", ["empty", "zeros", "ones", "full", "reshape", "broadcast_to"])
def test_shape_arguments_name_the_operation(op, shape, exc):
    # NumPy refuses the same shapes (TypeError, or ValueError/OverflowError beyond int64); they
    # reached the user as RuntimeError('std::bad_cast').
    call = {
        "full": lambda: gpupy.full(shape, 1),
        "reshape": lambda: gpupy.zeros(4).reshape(shape),
        "broadcast_to": lambda: gpupy.broadcast_to(gpupy.zeros(1), shape),
    }.get(op, lambda: getattr(gpupy, op)(shape))
    with pytest.raises(exc, match=rf"^\[{op}\]"):
        call()
    assert gpupy.zeros(np.int64(3)).shape == (3,) and gpupy.zeros(np.array([2, 1])).shape == (2, 1)


def test_dtype_attributes():
    names = ["bool_", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64"]
    names += ["float16", "float32", "float64", "complex64", "complex128"]
    for name in names:
        assert getattr(gpupy, name) is getattr(np, name)
        assert gpupy.zeros(1, dtype=getattr(gpupy, name)).dtype == np.dtype(name)
    assert gpupy.bool is np.bool_


def test_finfo_iinfo():
    assert gpupy.finfo(gpupy.float32) == np.finfo(np.float32)
    assert gpupy.finfo(gpupy.complex128).eps == np.finfo(np.float64).eps
    assert gpupy.iinfo("uint16").max == 65535
    assert gpupy.iinfo(gpupy.zeros(1, dtype="int8")).min == -128
    with pytest.raises(ValueError):
        gpupy.finfo(np.int32)
    with pytest.raises(ValueError):
        gpupy.iinfo(np.float64)
    assert gpupy.finfo(np.float16) == np.finfo(np.float16)
    with pytest.raises(TypeError):
        gpupy.finfo(np.longdouble)


@pytest.mark.parametrize("shape", [(1 << 40, 1 << 20), (1 << 62, 4), (0, 1 << 62, 1 << 62)])
@testing.numpy_gpupy_allclose(accept_error=True)
def test_too_big_shapes_raise_like_numpy(shape, xp):
    # The byte count must not wrap around to a small allocation.
    return xp.zeros(shape, dtype="float64")


# Values whose float -> integer conversion wraps: devices whose conversions saturate (CUDA's give
# 0 for -1.0 -> uint8) must still agree with NumPy.
_WRAPPING = [-1.0, 300.0, -129.0, -0.5, 255.9, 65543.0, 3e9]
# NaN, infinities and out-of-range values: NumPy's results are those of x86-64 (it warns), except
# for uint32, where its contiguous and strided loops disagree.
_INVALID = [np.nan, np.inf, -np.inf, 1e20, -1e20, 1.8e19, 2.0**63, 2.0**64, -3e9]


@pytest.mark.parametrize("src", ["float32", "float64", "complex128"])
@testing.for_dtypes(testing.INT_DTYPES + testing.UINT_DTYPES)
def test_astype_float_to_int_matches_numpy(src, dtype):
    x86 = platform.machine() in ("x86_64", "AMD64")
    values = _WRAPPING + (_INVALID if x86 and dtype != "uint32" else [])
    n = np.array(values, dtype=src)
    if n.dtype.kind == "f":
        n = np.concatenate([n, n[::-1]])  # a strided source as well, below
    with np.errstate(invalid="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore", np.exceptions.ComplexWarning)
        want = n.astype(dtype)
        a = gpupy.asarray(n)
        testing.assert_same(want, a.astype(dtype))
        testing.assert_same(n[::2].astype(dtype), a[::2].astype(dtype))


@testing.numpy_gpupy_allclose()
def test_scalar_arguments_take_0d_arrays(xp):
    """np.arange(y.max() + 1), np.linspace(x.min(), x.max(), n), np.full(n, x.mean()): the 0-d
    results of reductions stand where scalars are expected."""
    y = xp.asarray([3, 1, 4])
    x = xp.asarray([0.5, -1.5, 2.0])
    return (
        xp.arange(y.max() + 1),
        xp.arange(y.min(), y.max(), y[1]),
        xp.linspace(x.min(), x.max(), 5),
        xp.full(2, x.mean()),
        xp.full((2,), y.max(), dtype="float32"),
    )


def test_scalar_arguments_refuse_non_0d_arrays():
    with pytest.raises(TypeError, match="expected a scalar"):
        gpupy.arange(gpupy.asarray([3]))
    # full takes arrays that broadcast to the shape, as NumPy does: test_full_with_array_fill_values


@testing.numpy_gpupy_allclose()
def test_sequences_of_arrays_as_function_inputs(xp):
    """Functions that take array_like accept lists of gpupy arrays on any device (NumPy cannot read
    emu or cuda data; the arrays are stacked on their device)."""
    a, b = xp.asarray([1.0, 5.0, 3.0]), xp.asarray([4.0, 2.0, 6.0])
    return xp.mean([a, b], axis=0), xp.sum((a, b), axis=1), xp.max([a, b]), xp.sort([b, a], axis=0)


@pytest.mark.parametrize("ndmin", [0, 1, 2, 4])
@pytest.mark.parametrize("value", [2.5, [1, 2], [[1], [2]]])
@pytest.mark.parametrize("copy", [True, None])
@testing.numpy_gpupy_allclose()
def test_array_ndmin_order_subok(ndmin, value, copy, xp):
    # NumPy's ndmin prepends ones (gpupy once refused the keyword)
    base = xp.asarray(np.asarray(value, dtype=np.float32))
    return xp.array(base, ndmin=ndmin, copy=copy, order="K", subok=True), xp.array(
        value, ndmin=ndmin
    )


@pytest.mark.parametrize(
    "start, stop, step, dtype",
    [(-3.0, -1.0, 0.5, "int8"), (-5.0, 4.0, 0.5, "int16"), (0, 10, 2.5, "uint8"),
     (0.5, 10.3, 1, "int32"), (250.0, 260.0, 1.0, "uint8"), (5.0, 0.0, -0.7, "int64"),
     (0, 3.5, 1, "int64"), (0, 1, 0.0, "int8")],
)  # fmt: skip
@testing.numpy_gpupy_allclose(accept_error=True)
def test_arange_integer_dtype_with_float_arguments(start, stop, step, dtype, xp):
    # the length comes from the floats, the step from the first two values cast to dtype
    # (gpupy once cast the step itself: arange(-3.0, -1.0, 0.5, dtype=int8) was all -3)
    return xp.arange(start, stop, step, dtype=dtype)


@pytest.mark.parametrize(
    "value, dtype",
    [(float("inf"), "int64"), (float("nan"), "int8"), (1 + 2j, "float64"), (2**70, "float32"),
     (2**70, "int64"), (1j, "bool"), (2.5, "int16"), (-float("inf"), "uint16")],
)  # fmt: skip
@testing.numpy_gpupy_allclose(accept_error=True)
def test_asarray_of_a_python_scalar_checks_the_conversion(value, dtype, xp):
    # NumPy raises for NaN or infinity to an integer and complex to a real dtype, and converts a
    # Python int beyond int64 to a float (gpupy once stored garbage or raised OverflowError);
    # insert() converts its values the same way
    return xp.asarray(value, dtype=dtype), xp.insert(xp.zeros(2, dtype=dtype), 1, value)


@pytest.mark.parametrize(
    "args", [(0.3, -2, -0.7), (0.47, -21.077, -0.743), (0, 1, 0.1), (-5.0, 2.0, 0.5), (1, 7, 3)]
)
@pytest.mark.parametrize("dtype", ["float32", "float64", "complex64", "complex128", None])
@testing.numpy_gpupy_allclose(rtol=0)
def test_arange_fills_as_numpy(args, dtype, xp):
    # NumPy's step is the difference of the first two elements rounded to the dtype, and the
    # second element is start + step rounded once; a complex dtype takes the real range
    return xp.arange(*args, dtype=dtype)


@pytest.mark.parametrize(
    "value, dtype",
    [(-2.25, "uint32"), (-2.25, "int8"), (1e300, "int64"), (300.5, "int8"), (2.7, "uint8"),
     (-0.5, "uint8"), (255.9, "uint8")],
)  # fmt: skip
@pytest.mark.parametrize("fn", ["asarray", "array", "insert"])
@testing.numpy_gpupy_allclose(accept_error=True)
def test_python_float_to_an_integer_dtype_is_numpys_int(value, dtype, fn, xp):
    # NumPy converts the float with int(): a value the dtype cannot hold raises OverflowError
    # (gpupy wrapped it)
    if fn == "insert":
        return xp.insert(xp.asarray(np.array([1, 2], dtype=dtype)), [1], value)
    return getattr(xp, fn)(value, dtype=dtype)


@pytest.mark.parametrize(
    "args, dtype",
    [((-5.0, 4.0, 0.5), "uint32"), ((127.5, 130, 1), "int8"), ((250.0, 260.0, 1.5), "uint8"),
     ((3.0, 1.0, 1.0), "uint8"), ((2.0, 3.0, 1.0), "int8")],
)  # fmt: skip
@testing.numpy_gpupy_allclose(accept_error=True)
def test_arange_integer_dtype_float_start_out_of_range(args, dtype, xp):
    # NumPy stores the first two values through int(): one the dtype cannot hold raises
    # OverflowError (gpupy wrapped it); an empty range stores none
    return xp.arange(*args, dtype=dtype)


@pytest.mark.parametrize(
    "start, stop, step",
    [(-5.0, 2.0, 3.3), (-2.0, 2.0, 1.1), (0.3, -4.0, -1), (0.3, 5.0, 1), (-2.0, 1010.0, 1.1),
     (-2.0, 2050.0, 1.1), (0.0, 4.0, 0.1), (2**-20, 1.0, 1e-3)],
)  # fmt: skip
@testing.numpy_gpupy_allclose(rtol=0)
def test_arange_float16_fills_in_float32(start, stop, step, xp):
    # NumPy's float16 fill: start + i * delta in float32 (delta unrounded), each element rounded
    # once; gpupy rounded delta to float16, so the last elements drifted
    return xp.arange(start, stop, step, dtype="float16")


@pytest.mark.parametrize("value", [2**64 - 1, 2**63, -(2**63), 5, [2**64 - 1, 1]])
@pytest.mark.parametrize("fn", ["asarray", "array"])
@testing.numpy_gpupy_allclose()
def test_python_int_above_int64_is_uint64(fn, value, xp):
    # NumPy makes it uint64; gpupy's full() refused it as out of bounds for int64
    return getattr(xp, fn)(value)


@pytest.mark.parametrize("x", [[1, 2], (1.5,)])
@testing.numpy_gpupy_allclose(accept_error=True)
def test_astype_refuses_python_sequences_and_numbers(xp, x):
    # found by NumPy's test_numeric.py TestAsType: NumPy's astype wants an array
    return xp.astype(x, xp.float64)


# dtype= as NumPy's scalar types and canonical dtype objects is read by pointer; Python types,
# aliases and other dtype objects still go through numpy.dtype.
@pytest.mark.parametrize(
    "dtype",
    [np.float32, np.dtype("float32"), np.int8, np.dtype("uint16"), np.bool_, np.complex64,
     np.dtype("=i4"), float, int, np.longlong, np.intc],
    ids=repr,
)  # fmt: skip
@testing.numpy_gpupy_allclose(accept_error=True)
def test_astype_and_zeros_dtype_objects(dtype, xp):
    a = xp.asarray(np.array([1.5, -2.0, 3.25]))
    return a.astype(dtype), xp.zeros(2, dtype=dtype)


# NumPy refuses a bool as a dimension and as a reduction axis (True is not 1 there); gpupy read it
# through __index__. (NumPy's Python-level functions, flip or sort, do take a bool axis.)
BOOL_AS_INT = {
    "zeros": lambda xp, a: xp.zeros((True, 2)),
    "full": lambda xp, a: xp.full(True, 1.0),
    "reshape": lambda xp, a: xp.reshape(a, (True, -1)),
    "method reshape": lambda xp, a: a.reshape(True, -1),
    "broadcast_to": lambda xp, a: xp.broadcast_to(a[0], (True, 3)),
    "zeros_like": lambda xp, a: xp.zeros_like(a, shape=(True, 2)),
    "sum": lambda xp, a: xp.sum(a, axis=True),
    "argmax": lambda xp, a: xp.argmax(a, axis=False),
    "std of a tuple": lambda xp, a: xp.std(a, axis=(True,)),
    "add.reduce": lambda xp, a: xp.add.reduce(a, axis=True),
}


@pytest.mark.parametrize("call", BOOL_AS_INT.values(), ids=BOOL_AS_INT.keys())
@testing.numpy_gpupy_raises()
def test_bool_is_no_dimension_or_reduction_axis(call, xp):
    return call(xp, xp.asarray(np.arange(6).reshape(2, 3)))
