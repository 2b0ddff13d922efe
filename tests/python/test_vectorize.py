"""gpupy.vectorize and gpupy.frompyfunc against NumPy's on the selected device. gpupy calls the
function once on whole arrays, so the functions here are written with array operations; NumPy
calls them per element and is the reference for values, shapes and dtypes."""

import math

import gpupy
import numpy
import pytest
from gpupy import testing

# Random data of a shape and dtype.
from test_statistics import _data


def _affine(x, y=3):
    return x * y + 1


@pytest.mark.parametrize(
    "dtype", ["bool", "int8", "int64", "uint16", "float32", "float64", "complex64"]
)
def test_elementwise_function(dtype):
    a, b = _data((2, 3), dtype), _data((3,), dtype)

    @testing.numpy_gpupy_allclose(rtol=1e-6)
    def body(xp):
        add = xp.vectorize(lambda x, y: x + y)
        return (
            add(xp.asarray(a), xp.asarray(b)),
            add(xp.asarray(a[0, 0]), xp.asarray(b[1])),
            xp.vectorize(lambda x: x == x)(xp.asarray(a)),
            xp.vectorize(lambda x: (x, x * 2))(xp.asarray(b)),
        )

    body()


def test_inputs_broadcasting_and_ufuncs():
    @testing.numpy_gpupy_allclose(rtol=1e-12)
    def body(xp):
        f = xp.vectorize(_affine)
        g = xp.vectorize(lambda x, y: numpy.hypot(x, y) + xp.exp(-x))
        x = xp.asarray([[0.5], [1.5]])
        return (
            f([1, 2, 3]),
            f(2),
            f(2.5, y=[1, 2]),
            f(x, [1.0, 2.0, 3.0]),
            g(x, numpy.array([1.0, 2.0])),
            xp.vectorize(lambda x: 1.5)(x),
            xp.vectorize(lambda x: x)(x),
        )

    body()


def test_otypes_excluded_and_decorator():
    @testing.numpy_gpupy_allclose(rtol=1e-12)
    def body(xp):
        x = xp.asarray([0.25, 1.5, 2.75])
        two = xp.vectorize(lambda v: (v * 2, v > 1), otypes=[numpy.float32, "i"])
        poly = xp.vectorize(lambda v, c: xp.polyval(c, v), excluded={1, "c"})

        @xp.vectorize(otypes="l")
        def floor_div(v, d=2):
            return v // d

        return (
            xp.vectorize(_affine, otypes="f")(x),
            *two(x),
            poly(x, [1.0, -2.0, 3.0]),
            poly(x, c=[2.0, 1.0]),
            floor_div(xp.asarray([3, 8, -5]), d=xp.asarray([2, 3, 2])),
            xp.vectorize(_affine, otypes=[numpy.float64, numpy.int8])(
                xp.zeros((0, 3)), xp.zeros(3)
            ),
            xp.vectorize(lambda v: v + 1, otypes="d")(xp.zeros((2, 0), dtype="int32")),
        )

    body()


def test_attributes():
    def f(x):
        """Doubles."""
        return 2 * x

    for xp in (numpy, gpupy):
        v = xp.vectorize(f, otypes=[numpy.float32], excluded=[1])
        assert v.__name__ == "f" and v.__doc__ == "Doubles." and v.pyfunc is f
        assert v.otypes == ["f"] and v.excluded == {1} and v.cache is False
        assert xp.vectorize(f, doc="other").__doc__ == "other"
        # Every argument excluded: the function's own result, untouched.
        assert xp.vectorize(lambda x: [x], excluded={0})(3) == [3]


def test_results_are_new_arrays_on_the_device():
    a = gpupy.arange(4.0)
    r = gpupy.vectorize(lambda x: x)(a)
    r[0] = 7.0
    assert float(a[0]) == 0.0 and r.device == a.device and r.flags.writeable
    b = gpupy.vectorize(lambda x, y: y)(gpupy.zeros((2, 3)), a[:3])
    b[0, 0] = 5.0
    assert float(a[0]) == 0.0 and b.shape == (2, 3)


def test_branching_function_is_refused():
    def sign(x):
        return x if x > 0 else -x

    with pytest.raises(TypeError, match=r"^\[vectorize\] the function branched.*gpupy\.where"):
        gpupy.vectorize(sign)(gpupy.asarray([-1.0, 2.0]))
    with pytest.raises(TypeError, match=r"^\[vectorize\] the function converted an array"):
        gpupy.vectorize(math.sin)(gpupy.asarray([1.0, 2.0]))
    with pytest.raises(TypeError, match=r"^\[frompyfunc\] the function branched"):
        gpupy.frompyfunc(sign, 1, 1)(gpupy.asarray([-1.0, 2.0]))
    with pytest.raises(
        TypeError, match=r"^\[vectorize\] the function returned shape \(\) for inputs"
    ):
        gpupy.vectorize(lambda x: x.sum())(gpupy.arange(3.0))
    # One element has one truth value: NumPy's per-element answer.
    assert float(gpupy.vectorize(sign)(-3.0)) == 3.0
    # The where form of the same function.
    testing.assert_same(
        numpy.vectorize(sign)([-1.0, 2.0]),
        gpupy.vectorize(lambda x: gpupy.where(x > 0, x, -x))([-1.0, 2.0]),
    )


def test_errors():
    @testing.numpy_gpupy_allclose(accept_error=True)
    def empty_without_otypes(xp):
        return xp.vectorize(_affine)(xp.zeros(0))

    empty_without_otypes()
    with pytest.raises(ValueError, match=r"^\[vectorize\] cannot call `vectorize` on size 0"):
        gpupy.vectorize(_affine)(gpupy.zeros((3, 0)))
    with pytest.raises(ValueError, match=r"^\[vectorize\] Invalid otype specified: !"):
        gpupy.vectorize(_affine, otypes="d!")
    with pytest.raises(ValueError, match=r"^\[vectorize\] Invalid otype specification"):
        gpupy.vectorize(_affine, otypes=3)
    with pytest.raises(TypeError, match=r"^\[vectorize\] When used as a decorator"):
        gpupy.vectorize(3)
    with pytest.raises(NotImplementedError, match=r"^\[vectorize\] signature="):
        gpupy.vectorize(_affine, signature="(n)->()")
    with pytest.raises(ValueError, match=r"^\[vectorize\] the function returned 2 outputs"):
        gpupy.vectorize(lambda x: (x, x), otypes="d")(gpupy.arange(3.0))
    with pytest.raises(ValueError, match=r"^\[vectorize\] operands could not be broadcast"):
        gpupy.vectorize(_affine)(gpupy.arange(3), gpupy.arange(4))


def test_frompyfunc():
    a, b = _data((2, 1), "float64"), _data((4,), "float64")

    @testing.numpy_gpupy_allclose(rtol=1e-12, type_check=False)
    def body(xp):
        add = xp.frompyfunc(lambda x, y: x + y, 2, 1)
        divmod_ = xp.frompyfunc(lambda x, y: (x // y, x % y), 2, 2)
        assert add.nin == 2 and add.nout == 1 and add.nargs == 3
        assert add.__name__ == "<lambda> (vectorized)"
        q, r = divmod_(xp.asarray([7, 9, -4]), 2)
        res = add(xp.asarray(a), xp.asarray(b))
        return res.astype("float64"), q.astype("int64"), r.astype("int64")

    body()
    # gpupy's results are typed arrays (NumPy's are object arrays).
    res = gpupy.frompyfunc(lambda x: x * 2, 1, 1)(gpupy.asarray([1, 2], dtype="int16"))
    assert res.dtype == numpy.int16 and isinstance(res, gpupy.ndarray)


def test_frompyfunc_errors():
    f = gpupy.frompyfunc(lambda x, y: x + y, 2, 1)
    with pytest.raises(TypeError, match=r"^\[frompyfunc\] <lambda> \(vectorized\) takes 2"):
        f(gpupy.arange(3))
    with pytest.raises(NotImplementedError, match=r"^\[frompyfunc\] keyword arguments \(out\)"):
        f(gpupy.arange(3), 1, out=gpupy.arange(3))
    with pytest.raises(ValueError, match=r"^\[frompyfunc\] the function returned 1 outputs"):
        gpupy.frompyfunc(lambda x: x, 1, 2)(gpupy.arange(3))
    with pytest.raises(TypeError, match=r"^\[frompyfunc\] function must be callable"):
        gpupy.frompyfunc(3, 1, 1)
    with pytest.raises(TypeError, match=r"^\[frompyfunc\] nin must be an integer"):
        gpupy.frompyfunc(abs, 1.5, 1)
    with pytest.raises(ValueError, match=r"^\[frompyfunc\] nout must be at least 1"):
        gpupy.frompyfunc(abs, 1, 0)
    with pytest.raises(ValueError, match=r"^\[frompyfunc\] operands could not be broadcast"):
        f(gpupy.zeros((2, 3)), gpupy.zeros(2))
