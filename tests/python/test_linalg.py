"""matmul, dot and the @ operator against NumPy on the selected device."""

import contextlib
import warnings

import gpupy
import numpy as np
import pytest
from gpupy import testing

# BLAS and our kernel sum in other orders than NumPy does.
RTOL = 1e-5


def _data(shape, dtype, seed=0):
    rng = np.random.default_rng(seed)
    x = rng.integers(0, 5, size=shape)
    if np.dtype(dtype).kind == "b":
        return (x > 2).astype(dtype)
    if np.dtype(dtype).kind == "c":
        return (x + 1j * rng.integers(-3, 3, size=shape)).astype(dtype)
    return x.astype(dtype)


@testing.for_dtypes(testing.ALL_DTYPES)
@testing.numpy_gpupy_allclose(rtol=RTOL)
def test_matmul_2d(dtype, xp):
    a = xp.asarray(_data((5, 7), dtype, 1))
    b = xp.asarray(_data((7, 3), dtype, 2))
    return xp.matmul(a, b)


@testing.for_dtypes(testing.ALL_DTYPES)
@testing.numpy_gpupy_allclose(rtol=RTOL)
def test_matmul_larger_than_tiles(dtype, xp):
    # Spans several row, column and k tiles of the C++ kernel, and BLAS's threading.
    a = xp.asarray(_data((70, 300), dtype, 3))
    b = xp.asarray(_data((300, 260), dtype, 4))
    return a @ b


@pytest.mark.parametrize(
    "shape_a, shape_b",
    [
        ((3,), (3,)),
        ((3,), (3, 4)),
        ((2, 3), (3,)),
        ((4, 2, 3), (3, 5)),
        ((2, 3), (4, 3, 5)),
        ((2, 1, 2, 3), (3, 3, 4)),
        ((3,), (2, 3, 4)),
        ((2, 3, 4), (4,)),
        ((1, 1), (1, 1)),
        ((6, 1), (1, 5)),
    ],
)
@testing.for_dtypes(("bool", "int32", "uint8", "float32", "float64", "complex128"))
@testing.numpy_gpupy_allclose(rtol=RTOL)
def test_matmul_shapes(dtype, shape_a, shape_b, xp):
    a = xp.asarray(_data(shape_a, dtype, 5))
    b = xp.asarray(_data(shape_b, dtype, 6))
    return xp.matmul(a, b)


@testing.for_dtypes(testing.ALL_DTYPES, name="dtype1")
@testing.for_dtypes(testing.ALL_DTYPES, name="dtype2")
@testing.numpy_gpupy_allclose(rtol=RTOL)
def test_matmul_promotes(dtype1, dtype2, xp):
    a = xp.asarray(_data((2, 3), dtype1, 7))
    b = xp.asarray(_data((3, 2), dtype2, 8))
    return a @ b


def _views(kind, dtype):
    base_a = _data((12, 15), dtype, 9)
    base_b = _data((15, 12), dtype, 10)
    if kind == "transposed":
        return base_b.T, base_a.T
    if kind == "fortran":
        return np.asfortranarray(base_a), np.asfortranarray(base_b)
    if kind == "sliced":
        return base_a[::2, 1::3], base_b[2::3, ::-2]
    if kind == "mixed":
        return base_a[1:9, :], base_a.T[:, 2:10]
    raise AssertionError(kind)


@pytest.mark.parametrize("kind", ["transposed", "fortran", "sliced", "mixed"])
@testing.for_dtypes(testing.ALL_DTYPES)
@testing.numpy_gpupy_allclose(rtol=RTOL)
def test_matmul_non_contiguous(dtype, kind, xp):
    a, b = _views(kind, dtype)
    return xp.asarray(a) @ xp.asarray(b)


@testing.for_dtypes(("float32", "complex64", "int64"))
@testing.numpy_gpupy_allclose(rtol=RTOL)
def test_matmul_batched_transposed_views(dtype, xp):
    # Both read column-major with a batch stride (cuBLAS's strided-batched GEMM on cuda).
    a = np.moveaxis(_data((4, 3, 6), dtype, 11), 0, -1)  # (3, 6, 4), strides (6, 1, 18) items
    b = _data((3, 5, 4), dtype, 12).transpose(0, 2, 1)  # (3, 4, 5), strides (20, 1, 4) items
    return xp.matmul(xp.asarray(a), xp.asarray(b))


@pytest.mark.parametrize(
    "shape_a, shape_b",
    [((0, 3), (3, 4)), ((3, 0), (0, 4)), ((3, 4), (4, 0)), ((0,), (0,)), ((2, 0, 3), (3, 2))],
)
@testing.for_dtypes(("bool", "int16", "float32", "complex128"))
@testing.numpy_gpupy_allclose()
def test_matmul_empty(dtype, shape_a, shape_b, xp):
    a = xp.asarray(np.ones(shape_a, dtype))
    b = xp.asarray(np.ones(shape_b, dtype))
    return xp.matmul(a, b)


@pytest.mark.parametrize(
    "shape_a, shape_b",
    [((3, 4), (5, 6)), ((3,), (4,)), ((2, 3, 4), (3, 4, 5)), ((), (3,)), ((3,), ())],
)
@testing.numpy_gpupy_allclose(accept_error=True)
def test_matmul_errors(shape_a, shape_b, xp):
    a = xp.asarray(np.ones(shape_a))
    b = xp.asarray(np.ones(shape_b))
    return xp.matmul(a, b)


@testing.numpy_gpupy_allclose()
def test_products_into_out(xp):
    a = xp.asarray(np.arange(6.0).reshape(2, 3))
    b = xp.asarray(np.arange(12.0).reshape(3, 4))
    d, m, o, f = xp.empty((2, 4)), xp.empty((2, 4)), xp.empty((3, 3)), xp.empty((2, 4), "float32")
    r_d = xp.dot(a, b, out=d)
    r_m = xp.matmul(a, b, out=m)
    r_o = xp.outer(a[0], b[:, 0], out=o)
    a.dot(b, out=d)
    xp.matmul(a, b, out=f)  # same_kind: float64 into float32
    return r_d, r_m, r_o, d, m, o, f


@pytest.mark.parametrize(
    ("fn", "out_dtype", "error"),
    [("dot", "float32", ValueError), ("matmul", "int64", TypeError)],
)
def test_products_refuse_bad_out_dtype(fn, out_dtype, error):
    for xp in (np, gpupy):  # the same error type as NumPy's
        a = xp.ones((2, 2))
        with pytest.raises(error):
            getattr(xp, fn)(a, a, out=xp.empty((2, 2), dtype=out_dtype))


def test_matmul_operator_errors():
    a = gpupy.asarray(np.ones((3, 4)))
    with pytest.raises(ValueError, match=r"\[matmul\]"):
        a @ gpupy.asarray(np.ones((5, 6)))
    with pytest.raises(TypeError):
        a @ object()


@testing.numpy_gpupy_allclose(rtol=RTOL)
def test_rmatmul_with_list(xp):
    return [[1.0, 2.0], [3.0, 4.0]] @ xp.asarray(np.arange(6.0).reshape(2, 3))


@pytest.mark.parametrize(
    "shape_a, shape_b",
    [
        ((), ()),
        ((), (3, 2)),
        ((4,), ()),
        ((4,), (4,)),
        ((3, 4), (4, 2)),
        ((3, 4), (4,)),
        ((4,), (4, 2)),
        ((2, 3, 4), (4,)),
        ((2, 3, 4), (4, 5)),
        ((2, 3, 4), (5, 4, 6)),
        ((4,), (2, 4, 3)),
        ((3, 4), (2, 0, 4, 3)),
    ],
)
@testing.for_dtypes(("bool", "int8", "uint32", "float32", "float64", "complex64"))
@testing.numpy_gpupy_allclose(rtol=RTOL)
def test_dot(dtype, shape_a, shape_b, xp):
    a = xp.asarray(_data(shape_a, dtype, 13))
    b = xp.asarray(_data(shape_b, dtype, 14))
    return xp.dot(a, b)


@pytest.mark.parametrize("shape_a, shape_b", [((3, 4), (5, 6)), ((3,), (4,)), ((2, 3), (2, 4, 3))])
@testing.numpy_gpupy_allclose(accept_error=True)
def test_dot_errors(shape_a, shape_b, xp):
    return xp.dot(xp.asarray(np.ones(shape_a)), xp.asarray(np.ones(shape_b)))


@pytest.mark.parametrize("shape_b", [(), (3,), (3, 2), (2, 3, 2)])
def test_dot_device_error_names_dot(device_name, shape_b):
    if device_name == "cpu":
        pytest.skip("needs a device other than cpu")
    a = gpupy.ones(3)
    b = gpupy.ones(shape_b, device="cpu")
    with pytest.raises(ValueError, match=r"^\[dot\] operands are on different devices"):
        gpupy.dot(a, b)
    with pytest.raises(ValueError, match=r"^\[dot\] operands are on different devices"):
        a.dot(b)


@testing.numpy_gpupy_allclose(rtol=RTOL)
def test_dot_method_non_contiguous(xp):
    a = xp.asarray(_data((4, 6, 5), "float64", 15)[:, ::2, :])
    b = xp.asarray(_data((3, 5, 7), "float64", 16).transpose(2, 1, 0))
    return a.dot(b)


def test_seed_example():
    a = np.arange(12, dtype=np.float32).reshape(3, 4)
    b = np.ones((3, 4), dtype=np.float32)
    c = np.linspace(0, 1, 8, dtype=np.float32).reshape(4, 2)
    ga, gb, gc = gpupy.asarray(a), gpupy.asarray(b), gpupy.asarray(c)
    testing.assert_same(a + b, gpupy.asnumpy(ga.add(gb)))
    testing.assert_same(a * b, gpupy.asnumpy(ga.mul(gb)))
    testing.assert_same(a * 2, gpupy.asnumpy(ga.mul(2)))
    testing.assert_same(a.dot(c), gpupy.asnumpy(ga.dot(gc)), rtol=RTOL)
    testing.assert_same(a.dot(c), gpupy.asnumpy(gpupy.ndarray.dot(ga, gc)), rtol=RTOL)


def test_blas_info_names_the_library():
    info = gpupy._core._blas_info()
    assert isinstance(info, str)
    try:
        import scipy_openblas32  # noqa: F401
    except ImportError:
        return
    assert "openblas" in info


def test_bad_blas_library_keeps_the_current_one():
    before = gpupy._core._blas_info()
    with pytest.raises(ValueError, match=r"\[set_blas_library\]"):
        gpupy._core._set_blas_library("/nonexistent/libblas.so")
    assert gpupy._core._blas_info() == before


@pytest.fixture
def without_blas():
    gpupy._core._set_blas_library("")
    yield
    gpupy._linalg._load_blas()


@pytest.mark.usefixtures("without_blas")
@testing.for_dtypes(("float32", "float64", "complex64", "complex128"))
@testing.numpy_gpupy_allclose(rtol=RTOL)
def test_matmul_without_blas(dtype, xp):
    assert gpupy._core._blas_info().startswith("none")
    a = xp.asarray(_data((2, 40, 33), dtype, 17).transpose(0, 2, 1))
    b = xp.asarray(_data((40, 270), dtype, 18)[:, ::-1])
    return a @ b


@pytest.mark.parametrize(
    "shape_a, shape_b",
    [((), (3,)), ((4,), (4,)), ((2, 4), (4,)), ((2, 4), (3, 4)), ((2, 3, 4), (5, 4)), ((3,), (4,))],
)
@testing.for_dtypes(("bool", "int16", "uint64", "float32", "complex128"))
@testing.numpy_gpupy_allclose(rtol=RTOL, accept_error=True)
def test_inner(dtype, shape_a, shape_b, xp):
    a = xp.asarray(_data(shape_a, dtype, 19))
    b = xp.asarray(_data(shape_b, dtype, 20))
    return xp.inner(a, b)


@pytest.mark.parametrize(
    "shape_a, shape_b", [((3,), (4,)), ((2, 3), (4,)), ((0,), (3, 2)), ((), ())]
)
@testing.for_dtypes(testing.ALL_DTYPES)
@testing.numpy_gpupy_allclose()
def test_outer(dtype, shape_a, shape_b, xp):
    a = xp.asarray(_data(shape_a, dtype, 21))
    b = xp.asarray(_data(shape_b, dtype, 22))
    return xp.outer(a, b)


@pytest.mark.parametrize("shape_a, shape_b", [((4,), (4,)), ((2, 2), (4,)), ((3,), (4,))])
@testing.for_dtypes(testing.ALL_DTYPES)
@testing.numpy_gpupy_allclose(rtol=RTOL, accept_error=True)
def test_vdot(dtype, shape_a, shape_b, xp):
    a = xp.asarray(_data(shape_a, dtype, 23))
    b = xp.asarray(_data(shape_b, dtype, 24))
    return xp.vdot(a, b)


@pytest.mark.parametrize(
    "shape_a, shape_b, axes",
    [
        ((3, 4, 5), (4, 5, 2), 2),
        ((3, 4), (4, 5), 1),
        ((2, 3), (3, 2), 0),
        ((3, 4, 5), (5, 3, 2), ([0, 2], [1, 0])),
        ((3, 4), (2, 4), (1, 1)),
        ((2, 3), (4, 2), 1),
        ((2, 3), (3, 2), ([5], [0])),
    ],
)
@testing.for_dtypes(("bool", "int32", "float64", "complex64"))
@testing.numpy_gpupy_allclose(rtol=RTOL, accept_error=True)
def test_tensordot(dtype, shape_a, shape_b, axes, xp):
    a = xp.asarray(_data(shape_a, dtype, 25))
    b = xp.asarray(_data(shape_b, dtype, 26))
    return xp.tensordot(a, b, axes)


@pytest.mark.parametrize(
    "shape_a, shape_b, axis",
    [
        ((4,), (4,), -1),
        ((2, 3), (3,), -1),
        ((2, 3), (4, 1, 3), -1),
        ((3, 2), (3, 2), 0),
        ((3,), (4,), -1),
        ((), (), -1),
    ],
)
@testing.for_dtypes(("bool", "int8", "uint16", "float32", "complex64", "complex128"))
@testing.numpy_gpupy_allclose(rtol=RTOL, accept_error=True)
def test_vecdot(dtype, shape_a, shape_b, axis, xp):
    a = xp.asarray(_data(shape_a, dtype, 27))
    b = xp.asarray(_data(shape_b, dtype, 28))
    return xp.vecdot(a, b, axis=axis)


@pytest.mark.parametrize(
    "setting, expected",
    [("none", "none"), ("/nonexistent/libblas.so", "openblas")],
)
def test_gpupy_blas_environment_variable(setting, expected):
    import os
    import subprocess
    import sys

    code = "import gpupy; print(gpupy._core._blas_info())"
    package_root = os.path.dirname(os.path.dirname(gpupy.__file__))
    path = os.pathsep.join(filter(None, [package_root, os.environ.get("PYTHONPATH")]))
    env = dict(os.environ, GPUPY_BLAS=setting, PYTHONPATH=path)
    done = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    )
    if expected == "openblas":
        pytest.importorskip("scipy_openblas32")
        assert "GPUPY_BLAS ignored" in done.stderr
    assert expected in done.stdout


@pytest.mark.parametrize("n", [0, 1, 3, -1])
@testing.numpy_gpupy_allclose(rtol=1e-10)
def test_matrix_power_takes_n_by_keyword(n, xp):
    a = xp.asarray(np.array([[2.0, 1.0], [0.5, 3.0]]))
    return xp.linalg.matrix_power(a, n=n), xp.linalg.matrix_power(a=a, n=n)


def test_matmul_on_many_streams_gives_the_same_bits(device_name):
    # On cuda each stream gets its own cuBLAS handle (cuBLAS gives the same bits from run to run
    # only with one stream per handle), and 10 streams are more than the 8 handles kept, so
    # handles are also evicted and made again. Every device: values against float64 NumPy.
    rng = np.random.default_rng(5)
    a = rng.standard_normal((512, 384)).astype(np.float32)
    b = rng.standard_normal((384, 256)).astype(np.float32)
    ga, gb = gpupy.asarray(a, device=device_name), gpupy.asarray(b, device=device_name)
    first = (ga @ gb).get()  # also waits for the copies the other streams read
    np.testing.assert_allclose(first, a.astype(np.float64) @ b, rtol=1e-4, atol=1e-3)
    count = 10
    streams = [gpupy.cuda.Stream() for _ in range(count)] if device_name == "cuda" else []
    results = []
    for k in range(2 * count):
        with streams[k % count] if streams else contextlib.nullcontext():
            results.append(ga @ gb)
    gpupy.synchronize(device_name)
    for r in results:
        np.testing.assert_array_equal(r.get(), first)


@pytest.mark.parametrize("name", ["matmul", "vecdot"])
@pytest.mark.parametrize(
    "dtypes", [("int8", "float32"), ("complex64", "float64"), ("bool", "int16")]
)
@pytest.mark.parametrize(
    "kw",
    [
        {"casting": "no"},
        {"casting": "equiv"},
        {"casting": "safe"},
        {"dtype": "float16"},
        {"dtype": "int8"},
        {"dtype": "int8", "casting": "unsafe"},
        {"out": "int16"},
        {"out": "int16", "casting": "unsafe"},
        {"out": "float64", "casting": "no"},
        {"casting": "bad"},
    ],
)
@testing.numpy_gpupy_allclose(accept_error=True)
def test_matmul_and_vecdot_take_the_ufunc_casting_and_dtype(name, dtypes, kw, xp):
    # the loop is dtype= (else the common dtype); inputs and out= are checked under casting=
    kw = dict(kw)
    x = xp.asarray(np.arange(6).reshape(2, 3).astype(dtypes[0]))
    y = xp.asarray(np.arange(6).reshape(3, 2).astype(dtypes[1]))
    if name == "vecdot":
        y = y.T
    if "out" in kw:
        kw["out"] = xp.zeros((2, 2) if name == "matmul" else (2,), dtype=kw["out"])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", np.exceptions.ComplexWarning)
        return getattr(xp, name)(x, y, **kw)
