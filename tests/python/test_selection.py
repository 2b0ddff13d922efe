"""where, clip, nan_to_num, tril/triu, diagonal/trace/diag, isclose/allclose/array_equal against
NumPy."""

import gpupy
import numpy as np
import pytest
from gpupy import testing


def _data(shape, dtype="int64", start=0):
    a = np.arange(start, start + int(np.prod(shape))).reshape(shape)
    return (a % 7 - 3).astype(dtype) if dtype != "bool" else (a % 3 == 0)


@testing.for_dtypes(testing.ALL_DTYPES)
@testing.numpy_gpupy_allclose()
def test_where_all_dtypes(dtype, xp):
    c = xp.asarray(_data((3, 4)) > 0)
    return xp.where(c, xp.asarray(_data((3, 4), dtype)), xp.asarray(_data((3, 4), dtype, 5)))


@pytest.mark.parametrize("d1", ["bool", "int8", "uint8", "int64", "uint64", "float32", "complex64"])
@pytest.mark.parametrize("d2", ["bool", "int16", "uint32", "float64", "complex128"])
@testing.numpy_gpupy_allclose()
def test_where_promotion(d1, d2, xp):
    c = xp.asarray(np.array([True, False, True]))
    return xp.where(c, xp.asarray(_data((3,), d1)), xp.asarray(_data((3,), d2)))


@pytest.mark.parametrize(
    "cshape,xshape,yshape",
    [
        ((), (), ()),
        ((0,), (0,), (1,)),
        ((2, 1), (1, 3), ()),
        ((4,), (3, 4), (3, 1)),
        ((2, 0), (1,), (2, 1)),
    ],
)
@testing.numpy_gpupy_allclose()
def test_where_broadcasting(cshape, xshape, yshape, xp):
    c = xp.asarray(_data(cshape) > 0)
    return xp.where(c, xp.asarray(_data(xshape, "float32")), xp.asarray(_data(yshape, "int16")))


@pytest.mark.parametrize("x,y", [(1, 2.5), (True, 3), (-1, 300), (1j, 2), (2.5, "arr")])
@testing.numpy_gpupy_allclose()
def test_where_scalars(x, y, xp):
    c = xp.asarray(np.array([True, False]))
    a = xp.asarray(np.array([7, 8], dtype="uint8"))
    return xp.where(c, x, a if y == "arr" else y), xp.where(c, a, x), xp.where(True, x, a)


@testing.numpy_gpupy_allclose()
def test_where_non_contiguous_and_nonbool_condition(xp):
    a = xp.asarray(_data((6, 8), "float64"))
    c = xp.asarray(_data((8, 6), "int32"))
    return xp.where(c.T[::2], a[::2, ::-1], a[1::2].T.T)


@testing.numpy_gpupy_allclose(accept_error=True)
def test_where_shape_error(xp):
    return xp.where(xp.asarray(np.ones(3, bool)), xp.asarray(np.ones(4)), 0)


@testing.for_dtypes(("int8", "uint8", "int64", "float32", "float64"))
@testing.numpy_gpupy_allclose()
def test_clip_dtypes(dtype, xp):
    a = xp.asarray(_data((4, 5), dtype))
    return xp.clip(a, 0, 2), xp.clip(a, None, 1), xp.clip(a, -1, None), a.clip(1, 1)


@pytest.mark.parametrize(
    "lo,hi", [(0, 2.5), (-1, 300), (-1, 100), (np.int64(0), 3), (1.5, 2), (None, None), (300, 400)]
)
@testing.numpy_gpupy_allclose(accept_error=True)
def test_clip_promotion(lo, hi, xp):
    return xp.clip(xp.asarray(np.array([1, 5, 200], dtype="uint8")), lo, hi)


@testing.numpy_gpupy_allclose()
def test_clip_nan_and_array_bounds(xp):
    a = xp.asarray(np.array([[1.0, np.nan, -3.0], [4.0, 0.5, np.inf]]))
    lo = xp.asarray(np.array([0.0, 1.0, np.nan]))
    return (
        xp.clip(a, lo, 2.0),
        xp.clip(a, np.nan, 1),
        xp.clip(a, max=1.0),
        xp.clip(a[:, ::-1], -1, 1),
    )


@testing.for_dtypes(testing.ALL_DTYPES)
@testing.numpy_gpupy_allclose()
def test_clip_one_pass_every_dtype(dtype, xp):
    # Both bounds given: the single-pass clip, contiguous, strided, 0-d and with array bounds.
    a = xp.asarray(_data((6, 7), dtype))
    if np.dtype(dtype).kind == "b":
        lo, hi = False, True
    elif np.dtype(dtype).kind == "u":
        lo, hi = 1, 3
    else:
        lo, hi = -1, 2
    bound = a[0]
    return (
        xp.clip(a, lo, hi),
        xp.clip(a[::2, ::-3], lo, hi),
        xp.clip(a[2, 3], lo, hi),
        xp.clip(a, bound, hi),
        xp.clip(a, lo, bound),
        xp.clip(a, hi, lo),  # min > max: every element becomes max
    )


@pytest.mark.parametrize("dtype", ["float16", "float32", "float64", "complex64", "complex128"])
@testing.numpy_gpupy_allclose()
def test_clip_one_pass_specials(dtype, xp):
    v = [np.nan, -np.inf, np.inf, -0.0, 0.0, 1.5, -2.5, 0.25]
    a = xp.asarray(np.array(v, dtype=dtype))
    return (
        xp.clip(a, -1.0, 1.0),
        xp.clip(a, np.nan, 1.0),
        xp.clip(a, -1.0, np.nan),
        xp.clip(a, 0.0, -0.0),
        xp.clip(a, -np.inf, np.inf),
        xp.clip(xp.asarray(np.array([], dtype=dtype)), 0, 1),
    )


@pytest.mark.parametrize("dtype", ["int8", "uint8", "int32", "uint64", "bool"])
@testing.numpy_gpupy_allclose()
def test_clip_one_pass_python_scalars_promote(dtype, xp):
    a = xp.asarray(np.array([0, 1, 5, 100], dtype=dtype))
    return xp.clip(a, 1, 4), xp.clip(a, 0.5, 3.5), xp.clip(a, -1, 3)


def test_clip_ternary_ufunc_matches_numpy():
    a = np.array([-3.0, 0.5, np.nan, 7.0])
    got = gpupy._core.clip(gpupy.asarray(a), -1.0, 2.0)
    np.testing.assert_array_equal(got.get(), np.clip(a, -1.0, 2.0))
    out = gpupy.empty(4)
    assert gpupy._core.clip(gpupy.asarray(a), -1.0, 2.0, out) is out
    np.testing.assert_array_equal(out.get(), np.clip(a, -1.0, 2.0))
    with pytest.raises(ValueError, match=r"\[clip\]"):
        gpupy._core.clip(gpupy.asarray(a), gpupy.asarray(np.zeros(3)), 1.0)


@testing.numpy_gpupy_allclose()
def test_clip_keyword_forms(xp):
    a = xp.asarray(np.array([-2.0, 0.5, 3.0]))
    out = xp.empty(3)
    return (
        xp.clip(a, min=0.0, max=1.0),
        xp.clip(a, a_min=0.0, a_max=1.0),
        xp.clip(a, min=0.0),
        xp.clip(a, 0.0, 1.0, out),
        out,
    )


def test_clip_signature_follows_array_api():
    # The Array API names the bounds min/max and lets them be passed by position or keyword.
    import inspect

    strict = pytest.importorskip("array_api_strict")
    ours = list(inspect.signature(gpupy.clip).parameters.values())[1:3]
    theirs = list(inspect.signature(strict.clip).parameters.values())[1:3]
    assert [(p.name, p.kind) for p in ours] == [(p.name, p.kind) for p in theirs]
    with pytest.raises(ValueError, match=r"\[clip\]"):
        gpupy.clip(gpupy.asarray([1.0]), 0.0, a_max=2.0)


@testing.for_dtypes(("int32", "float32", "float64", "complex64"))
@testing.numpy_gpupy_allclose()
def test_nan_to_num(dtype, xp):
    v = np.array([np.nan, np.inf, -np.inf, 1.5, -2.0])
    if dtype == "int32":
        v = np.array([1, -2, 3])
    if dtype == "complex64":
        c = np.zeros(5, dtype)
        c.real, c.imag = v, v[::-1]
        v = c
    a = xp.asarray(v.astype(dtype))
    return xp.nan_to_num(a), xp.nan_to_num(a, nan=-1.0, posinf=9.0, neginf=-9.0)


@pytest.mark.parametrize("shape", [(4, 4), (3, 5), (5, 3), (2, 3, 4), (0, 3), (4,)])
@pytest.mark.parametrize("k", [0, 1, -2, 7])
@testing.numpy_gpupy_allclose()
def test_tril_triu(shape, k, xp):
    a = xp.asarray(_data(shape, "float32"))
    return xp.tril(a, k), xp.triu(a, k), xp.tril(a.T if len(shape) == 2 else a, k)


@testing.for_dtypes(testing.ALL_DTYPES)
@testing.numpy_gpupy_allclose()
def test_tril_dtypes(dtype, xp):
    return xp.triu(xp.asarray(_data((3, 3), dtype)), 1)


@testing.numpy_gpupy_allclose(accept_error=True)
def test_tril_0d_error(xp):
    return xp.tril(xp.asarray(np.array(1.0)))


@pytest.mark.parametrize(
    "shape,offset,a1,a2",
    [
        ((4, 4), 0, 0, 1),
        ((3, 5), 2, 0, 1),
        ((3, 5), -1, 0, 1),
        ((3, 5), 9, 0, 1),
        ((2, 3, 4), 1, 2, 0),
        ((2, 3, 4), -1, -1, -2),
        ((0, 3), 0, 0, 1),
    ],
)
@testing.numpy_gpupy_allclose()
def test_diagonal_and_trace(shape, offset, a1, a2, xp):
    a = xp.asarray(_data(shape, "int16"))
    return (
        xp.diagonal(a, offset, a1, a2),
        a.diagonal(offset, a1, a2),
        xp.trace(a, offset, a1, a2),
        xp.trace(a, offset, a1, a2, dtype="float32"),
    )


@pytest.mark.parametrize(
    "call",
    [
        lambda xp, a: xp.diagonal(a[0]),
        lambda xp, a: xp.diagonal(a, 0, 1, 1),
        lambda xp, a: xp.diagonal(a, 0, 0, 5),
    ],
)
@testing.numpy_gpupy_allclose(accept_error=True)
def test_diagonal_errors(call, xp):
    return call(xp, xp.asarray(_data((3, 3))))


@testing.numpy_gpupy_allclose(accept_error=True)
def test_diagonal_is_read_only_view(xp):
    a = xp.asarray(_data((3, 3), "float64"))
    d = xp.diagonal(a[:, ::-1])
    d[0] = 5


@pytest.mark.parametrize("k", [0, 2, -1])
@testing.for_dtypes(("bool", "int32", "float64", "complex128"))
@testing.numpy_gpupy_allclose()
def test_diag(dtype, k, xp):
    v = xp.asarray(_data((3,), dtype))
    m = xp.asarray(_data((3, 4), dtype))
    return xp.diag(v, k), xp.diag(m, k), xp.diag(xp.asarray(_data((0,), dtype)), k)


@testing.numpy_gpupy_allclose(accept_error=True)
def test_diag_error(xp):
    return xp.diag(xp.asarray(_data((2, 2, 2))))


@pytest.mark.parametrize("equal_nan", [False, True])
@testing.numpy_gpupy_allclose()
def test_isclose(equal_nan, xp):
    a = xp.asarray(np.array([1.0, 1.00001, np.nan, np.inf, -np.inf, 0.0, 1e-9]))
    b = xp.asarray(np.array([1.0, 1.0, np.nan, np.inf, np.inf, 1e-8, 0.0]))
    return (
        xp.isclose(a, b, equal_nan=equal_nan),
        xp.isclose(b, a, rtol=0, atol=1e-9, equal_nan=equal_nan),
        xp.isclose(a, 1),
        xp.isclose(xp.asarray(np.arange(3, dtype="int8")), xp.asarray(np.arange(3, dtype="int8"))),
        xp.isclose(xp.asarray(np.ones((2, 1), "float32")), xp.asarray(np.ones(3))),
    )


@testing.numpy_gpupy_allclose()
def test_allclose_and_array_equal(xp):
    a = xp.asarray(np.array([1.0, np.nan, 3.0]))
    b = xp.asarray(np.array([1.0, np.nan, 3.0000001]))
    i = xp.asarray(np.arange(3))
    return (
        xp.allclose(a, b),
        xp.allclose(a, b, equal_nan=True),
        xp.allclose(i, i + 0.0),
        xp.array_equal(a, b),
        xp.array_equal(a, a, equal_nan=True),
        xp.array_equal(i, i),
        xp.array_equal(i, i[:2]),
        xp.array_equal(i, xp.asarray(np.arange(3.0))),
    )


@pytest.mark.parametrize("dtype", ["float16", "float32", "complex64", "int8", "bool"])
@pytest.mark.parametrize(
    "kw",
    [{"copy": False}, {"nan": np.inf, "posinf": -0.0, "neginf": 5}, {"posinf": np.float32(3)},
     {"nan": np.int64(5), "copy": False}, {"neginf": np.complex128(1 + 1j)}, {"neginf": 1j},
     {"nan": -129, "posinf": False, "copy": False}],
)  # fmt: skip
@testing.numpy_gpupy_allclose(accept_error=True)
def test_nan_to_num_in_place_and_replacement_values(dtype, kw, xp):
    # copy=False writes through x (a view here); the masks are x's own (a NaN made inf stays);
    # a complex replacement for real data is a same_kind casting error (found by the fuzzer)
    import warnings

    base = np.array([np.nan, np.inf, -np.inf, 1.5, -2.0, 0.0])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        x = xp.asarray(base.astype(dtype))
    view = x[::-2]
    r = xp.nan_to_num(view, **kw)
    return r, x
