"""Joining, splitting, tiling and rearranging against NumPy: values, dtypes, views and errors."""

import gpupy
import numpy as np
import pytest
from gpupy import testing


def _data(shape, dtype="int64", start=0):
    a = np.arange(start, start + int(np.prod(shape))).reshape(shape)
    return (a % 11).astype(dtype) if dtype != "bool" else (a % 3 == 0)


@testing.for_dtypes(testing.ALL_DTYPES)
@testing.numpy_gpupy_allclose()
def test_concatenate_all_dtypes(dtype, xp):
    a = xp.asarray(_data((2, 3), dtype))
    b = xp.asarray(_data((1, 3), dtype, 4))
    return xp.concatenate([a, b]), xp.concatenate((a, a), axis=1), xp.concatenate([a, b], axis=None)


@pytest.mark.parametrize("d1", ["bool", "int8", "uint16", "int64", "uint64", "float32"])
@pytest.mark.parametrize("d2", ["int32", "uint8", "float64", "complex64"])
@testing.numpy_gpupy_allclose()
def test_concatenate_promotion(d1, d2, xp):
    return xp.concatenate([xp.asarray(_data((2,), d1)), xp.asarray(_data((3,), d2))])


@pytest.mark.parametrize(
    "shapes,axis",
    [
        ([(0, 3), (2, 3)], 0),
        ([(2, 0), (2, 0)], 1),
        ([(2, 3, 4), (2, 1, 4), (2, 2, 4)], -2),
        ([(3,)], 0),
        ([(), ()], None),
        ([(2, 2), (2,)], 0),  # ndim mismatch
        ([(2, 2), (3, 3)], 0),  # shape mismatch
        ([(), ()], 0),  # 0-d
        ([(2,), (2,)], 1),  # axis out of range
    ],
)
@testing.numpy_gpupy_allclose(accept_error=True)
def test_concatenate_shapes_and_errors(shapes, axis, xp):
    return xp.concatenate(
        [xp.asarray(_data(s, "float32", i)) for i, s in enumerate(shapes)], axis=axis
    )


@testing.numpy_gpupy_allclose()
def test_concatenate_non_contiguous_and_dtype(xp):
    a = xp.asarray(_data((4, 6), "int32"))
    r = xp.concatenate([a[::2], a[1::2, ::-1], a[::-3]])
    return r, xp.concatenate([a, a], dtype="float32"), xp.concat([a, a], axis=1)


@testing.numpy_gpupy_allclose(accept_error=True)
def test_concatenate_casting_error(xp):
    return xp.concatenate([xp.asarray(np.ones(2, "float32"))], dtype="int32")


@pytest.mark.parametrize("name", ["concatenate", "stack", "hstack", "vstack"])
@pytest.mark.parametrize("casting", ["no", "equiv", "safe", "same_kind", "unsafe"])
@pytest.mark.parametrize(
    "dtypes",
    [("int8", "int8"), ("int8", "int16"), ("float64", "uint8")]
    # promotions to a wider kind: the default casting leaves them to the C++ join's promotion
    + [("int64", "uint64"), ("float16", "int16"), ("complex64", "float64"), ("bool", "uint8")],
)
@pytest.mark.parametrize("dtype", [None, "int16", "float32"])
@testing.numpy_gpupy_allclose(accept_error=True)
def test_join_casting(name, casting, dtypes, dtype, xp):
    # every casting rule, with and without dtype= (gpupy once took only 'same_kind')
    arrays = [xp.asarray(np.array([[1, 2], [3, 250]]).astype(d)) for d in dtypes]
    return getattr(xp, name)(arrays, dtype=dtype, casting=casting)


@pytest.mark.parametrize("name", ["concatenate", "stack"])
@pytest.mark.parametrize("casting", ["no", "equiv", "safe", "same_kind", "unsafe"])
@pytest.mark.parametrize("dtypes", [("int64", "uint64"), ("float64", "int8"), ("int8", "int8")])
@pytest.mark.parametrize("out_dtype", ["int64", "float32", "bool", "int8"])
@testing.numpy_gpupy_allclose(accept_error=True)
def test_join_casting_into_out(name, casting, dtypes, out_dtype, xp):
    # out= is checked under the casting rule and each input is cast into out's dtype (int64 and
    # uint64 are not joined through float64 first: 2**62 + 1 stays exact); both were skipped
    arrays = [xp.asarray(np.array([2**62 + 1, 1, 120]).astype(d)) for d in dtypes]
    out = xp.zeros((6,) if name == "concatenate" else (2, 3), dtype=out_dtype)
    r = getattr(xp, name)(arrays, out=out, casting=casting)
    assert r is out
    return out


@pytest.mark.parametrize("name", ["concatenate", "stack"])
def test_join_refuses_out_and_dtype_together(name):
    a = gpupy.ones(2)
    out = gpupy.zeros(4 if name == "concatenate" else (2, 2))
    with pytest.raises(TypeError, match=rf"\[{name}\] only takes `out` or `dtype`"):
        getattr(gpupy, name)([a, a], out=out, dtype="float64")


@testing.numpy_gpupy_allclose(accept_error=True)
def test_concatenate_empty_list(xp):
    return xp.concatenate([])


@pytest.mark.parametrize("axis", [0, 1, 2, -1, -3])
@testing.numpy_gpupy_allclose()
def test_stack(axis, xp):
    a, b = xp.asarray(_data((2, 3), "float64")), xp.asarray(_data((2, 3), "int8", 3))
    return xp.stack([a, b], axis=axis), xp.stack([a[:, ::-1]], axis=axis)


@pytest.mark.parametrize(
    "arrays", [lambda xp: [], lambda xp: [xp.asarray(np.ones(2)), xp.asarray(np.ones(3))]]
)
@testing.numpy_gpupy_allclose(accept_error=True)
def test_stack_errors(arrays, xp):
    return xp.stack(arrays(xp))


@testing.numpy_gpupy_allclose(accept_error=True)
def test_stack_axis_error(xp):
    return xp.stack([xp.asarray(np.ones(2))], axis=3)


@pytest.mark.parametrize("shapes", [[(2,), (3,)], [(2,), (2,)]])
@pytest.mark.parametrize("axis", [0, 2])
@pytest.mark.parametrize("casting", ["no", "safe"])
@testing.numpy_gpupy_raises()
def test_stack_checks_shapes_and_axis_before_casting(shapes, axis, casting, xp):
    # int16 to int8 breaks both rules, so only the shapes or the axis decide the error class
    arrays = [xp.zeros(s, dtype="int16") for s in shapes]
    return xp.stack(arrays, axis=axis, dtype="int8", casting=casting)


@pytest.mark.parametrize(
    "shapes", [[(), ()], [(3,), (3,)], [(2, 3), (2, 3)], [(2, 3, 2), (2, 3, 2)], [(0,), (0,)]]
)
@pytest.mark.parametrize("fn", ["hstack", "vstack", "dstack", "column_stack"])
@testing.numpy_gpupy_allclose()
def test_stack_family(shapes, fn, xp):
    arrays = [xp.asarray(_data(s, "int16", i)) for i, s in enumerate(shapes)]
    return getattr(xp, fn)(arrays)


def test_row_stack_is_vstack():
    a = gpupy.asarray(_data((2, 3)))
    testing.assert_same(np.vstack([_data((2, 3)), _data((2, 3))]), gpupy.row_stack([a, a]))


@pytest.mark.parametrize("shape", [(), (3,), (2, 3), (2, 3, 4)])
@testing.numpy_gpupy_allclose()
def test_atleast(shape, xp):
    a = xp.asarray(_data(shape, "float32"))
    return xp.atleast_1d(a), xp.atleast_2d(a), xp.atleast_3d(a), xp.atleast_2d(a, a)


@pytest.mark.parametrize("axis", [0, 1, -1])
@testing.numpy_gpupy_allclose()
def test_unstack(axis, xp):
    return xp.unstack(xp.asarray(_data((2, 3), "complex64")), axis=axis)


@pytest.mark.parametrize(
    "spec,axis",
    [
        (3, 0),
        (2, 1),
        ([1, 3], 0),
        ([-1], 1),
        ([2, 1], 0),
        ([0, 10], 0),
        ((), 1),
        (np.array([1, 2]), 0),
    ],
)
@testing.numpy_gpupy_allclose()
def test_array_split_and_split(spec, axis, xp):
    a = xp.asarray(_data((6, 4), "float64"))
    parts = xp.array_split(a, spec, axis=axis)
    ok = not isinstance(spec, int) or a.shape[axis] % spec == 0
    return parts, (xp.split(a, spec, axis=axis) if ok else [])


@testing.numpy_gpupy_allclose()
def test_array_split_uneven_and_views(xp):
    a = xp.asarray(_data((7,), "int32"))
    parts = xp.array_split(a, 3)
    parts[1][0] = 100  # views: the write reaches the base
    return parts, a


@pytest.mark.parametrize(
    "call",
    [
        lambda xp, a: xp.split(a, 4),
        lambda xp, a: xp.array_split(a, 0),
        lambda xp, a: xp.split(a, 2, axis=3),
        lambda xp, a: xp.vsplit(a[0], 2),
        lambda xp, a: xp.dsplit(a, 2),
        lambda xp, a: xp.hsplit(a[0, 0], 2),
    ],
)
@testing.numpy_gpupy_allclose(accept_error=True)
def test_split_errors(call, xp):
    return call(xp, xp.asarray(_data((6, 3))))


@testing.numpy_gpupy_allclose()
def test_hsplit_vsplit_dsplit(xp):
    a = xp.asarray(_data((4, 6, 2), "uint8"))
    return xp.hsplit(a, 3), xp.vsplit(a, [1]), xp.dsplit(a, 2), xp.hsplit(a[0, :, 0], 2)


@pytest.mark.parametrize(
    "shape,reps",
    [
        ((3,), 2),
        ((2, 3), (2, 1)),
        ((2, 3), (2, 1, 2)),
        ((), 3),
        ((2, 3, 2), (2,)),
        ((0, 2), 3),
        ((3,), 0),
    ],
)
@testing.numpy_gpupy_allclose()
def test_tile(shape, reps, xp):
    return xp.tile(xp.asarray(_data(shape, "complex128")), reps)


@testing.numpy_gpupy_allclose(accept_error=True)
def test_tile_non_contiguous_and_error(xp):
    a = xp.asarray(_data((3, 4), "int8"))
    return xp.tile(a[::2, ::-1], (2, 2)), xp.tile(a, -1)


@pytest.mark.parametrize(
    "shape,repeats,axis",
    [
        ((3,), 2, None),
        ((2, 3), 2, None),
        ((2, 3), 3, 1),
        ((2, 3), [1, 0], 0),
        ((2, 3), [1, 0, 2], -1),
        ((2, 3), [2], 0),
        ((), 3, None),
        ((0, 2), 2, 0),
        ((2, 3), 0, 1),
        ((5, 2), [2, 2, 0, 3, 3], 0),
    ],
)
@testing.for_dtypes(("bool", "int64", "float32"))
@testing.numpy_gpupy_allclose()
def test_repeat(shape, repeats, axis, dtype, xp):
    a = xp.asarray(_data(shape, dtype))
    r = xp.asarray(np.array(repeats)) if isinstance(repeats, list) else repeats
    return xp.repeat(a, repeats, axis=axis), xp.repeat(a, r, axis=axis), a.repeat(repeats, axis)


@pytest.mark.parametrize("repeats,axis", [([1, 2], 0), (-1, 0), ([1, -1, 1], 1), (2, 2)])
@testing.numpy_gpupy_allclose(accept_error=True)
def test_repeat_errors(repeats, axis, xp):
    return xp.repeat(xp.asarray(_data((3, 3))), repeats, axis=axis)


@pytest.mark.parametrize(
    "shift,axis",
    [
        (1, None),
        (-7, None),
        (2, 0),
        (1, 1),
        ((1, 2), (0, 1)),
        ((1, 2), 0),
        (1, (0, 1)),
        (0, 1),
        (5, -1),
    ],
)
@testing.numpy_gpupy_allclose()
def test_roll(shift, axis, xp):
    a = xp.asarray(_data((3, 4), "float32"))
    return xp.roll(a, shift, axis), xp.roll(a[:, ::-1], shift, axis)


@testing.numpy_gpupy_allclose(accept_error=True)
def test_roll_empty_0d_and_errors(xp):
    e = xp.asarray(_data((0, 3)))
    s = xp.asarray(_data(()))
    out = xp.roll(e, 2, 1), xp.roll(s, 1)
    xp.roll(xp.asarray(_data((3, 3))), (1, 2, 3), (0, 1))
    return out


@testing.numpy_gpupy_allclose(accept_error=True)
def test_roll_axis_error(xp):
    return xp.roll(xp.asarray(_data((3,))), 1, 1)


@pytest.mark.parametrize("indexing", ["xy", "ij"])
@pytest.mark.parametrize("sparse", [False, True])
@testing.numpy_gpupy_allclose()
def test_meshgrid(indexing, sparse, xp):
    x = xp.asarray(_data((3,), "float32"))
    y = xp.asarray(_data((2,), "int64"))
    z = xp.asarray(_data((4,), "int8"))
    return (
        xp.meshgrid(x, y, indexing=indexing, sparse=sparse),
        xp.meshgrid(x, y, z, indexing=indexing, sparse=sparse, copy=False),
        xp.meshgrid(x, indexing=indexing),
        xp.meshgrid(),
    )


@testing.numpy_gpupy_allclose(accept_error=True)
def test_meshgrid_bad_indexing(xp):
    return xp.meshgrid(xp.asarray(np.ones(2)), indexing="yx")


@testing.numpy_gpupy_allclose()
def test_array_likes(xp):
    return (
        xp.where([True, False], [1, 2], 0),
        xp.clip([1.0, 5.0], 2, 3),
        xp.repeat([1, 2], 2),
        xp.roll([1, 2, 3], 1),
        xp.tile([1, 2], 2),
        xp.diag([1, 2]),
        xp.concatenate(([1, 2], [3])),
        xp.stack(xp.asarray(np.ones((2, 3))), axis=1),
        xp.split(xp.asarray(np.arange(6)), [2, 4]),
    )


# ---- found by NumPy's own _core/tests/test_shape_base.py (tools/numpy_suite.py) ---------------


@pytest.mark.parametrize("casting", ["no", "equiv", "safe", "same_kind", "unsafe"])
@pytest.mark.parametrize("out_dtype", ["complex64", "float32", "float64", "int64"])
@pytest.mark.parametrize("name", ["concatenate", "stack"])
@testing.numpy_gpupy_allclose(accept_error=True)
def test_join_out_casting(xp, name, out_dtype, casting):
    arrays = (xp.asarray([1.1, 2.2]), xp.asarray([3.3, 4.4]))
    out = xp.zeros(4 if name == "concatenate" else (2, 2), dtype=out_dtype)
    result = getattr(xp, name)(arrays, out=out, casting=casting)
    assert result is out
    return out


@pytest.mark.parametrize("name", ["concatenate", "stack"])
@testing.numpy_gpupy_allclose(accept_error=True)
def test_join_refuses_out_with_dtype(xp, name):
    arrays = (xp.asarray([1.0, 2.0]), xp.asarray([3.0, 4.0]))
    out = xp.zeros(4 if name == "concatenate" else (2, 2))
    return getattr(xp, name)(arrays, out=out, dtype="float64")


@pytest.mark.parametrize("shape", [(5,), (4, 1), (1, 4)])
@testing.numpy_gpupy_allclose(accept_error=True)
def test_concatenate_out_of_another_shape(xp, shape):
    out = xp.zeros(shape)
    return xp.concatenate((xp.asarray([1, 2]), xp.asarray([3, 4])), out=out)


@pytest.mark.parametrize("name", ["concatenate", "stack", "hstack", "vstack", "dstack"])
@testing.numpy_gpupy_allclose(accept_error=True)
def test_join_refuses_generators(xp, name):
    return getattr(xp, name)(xp.arange(3) for _ in range(2))


def test_concatenate_too_many_arrays():
    class Many:  # claims 2**31 elements: the count is refused before any is read
        def __len__(self):
            return 2**31

        def __iter__(self):
            raise AssertionError("read an element")

    with pytest.raises(ValueError, match=r"\[concatenate\] .* up to 2147483647 arrays"):
        gpupy.concatenate(Many())


# ---- clip's ufunc keywords (found by NumPy's test_numeric.py TestClip) --------------------------


@pytest.mark.parametrize("casting", [None, "same_kind", "unsafe"])
@pytest.mark.parametrize("out_dtype", ["int32", "float32", "float64"])
@testing.numpy_gpupy_allclose(accept_error=True)
def test_clip_out_casting(xp, out_dtype, casting):
    a = xp.asarray(np.linspace(-3.0, 3.0, 7))
    out = xp.zeros(7, dtype=out_dtype)
    kwargs = {} if casting is None else {"casting": casting}
    result = xp.clip(a, -1.0, 2.0, out=out, **kwargs)
    assert result is out
    return out


@pytest.mark.parametrize("casting", ["same_kind", "unsafe"])
@pytest.mark.parametrize("dtype", ["int16", "float32", "float64"])
@pytest.mark.parametrize("data", [[1, 5, 9], [1.5, 5.0, 9.25]])
@testing.numpy_gpupy_allclose(accept_error=True)
def test_clip_dtype(xp, data, dtype, casting):
    return xp.clip(xp.asarray(data), 2, 6, dtype=dtype, casting=casting)


@pytest.mark.parametrize(
    "shift, axis",
    [(np.uint64(2**63 + 2), None), (2**100, None), (2**100, 1), ([2**70, -(2**65)], (0, 1))],
)
@testing.numpy_gpupy_allclose()
def test_roll_by_shifts_beyond_int64(xp, shift, axis):
    # found by NumPy's test_numeric.py TestRoll
    return xp.roll(xp.arange(12).reshape(3, 4), shift, axis)


@pytest.mark.parametrize(
    "b, rtol, atol", [(2, 0.5 - 2**-54, 0), (0.0, 0, 1 - 2**-53), (1 - 2**-53, 0, 0)]
)
@testing.numpy_gpupy_allclose()
def test_isclose_python_scalar_tolerances_stay_weak(xp, b, rtol, atol):
    # found by NumPy's test_numeric.py (NEP 50): float32 data compares with its own precision
    return xp.isclose(xp.asarray(1.0, dtype="float32"), b, rtol=rtol, atol=atol)


@pytest.mark.parametrize(
    "data,value",
    [("complex64", 5), ("float32", 2**62), ("float32", 2.5), ("float16", 1e10),
     ("complex64", 1.5 + 2j), ("float64", 7)],
)  # fmt: skip
@testing.numpy_gpupy_allclose()
def test_concatenate_joins_python_scalars_as_weak(data, value, xp):
    # NumPy 2.4: a Python number joins float32 data as float32 (gpupy's int64 join made float64)
    return xp.concatenate([xp.asarray(np.array([1.5, -2.0]).astype(data)), value], axis=None)
