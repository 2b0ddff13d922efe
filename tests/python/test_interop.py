"""NumPy dispatch (NEP 13 __array_ufunc__, NEP 18 __array_function__), the Array API namespace,
pickling and Dask chunks."""

import copy
import pickle

import gpupy
import numpy as np
import pytest
from gpupy import testing


def _data(dtype, shape=(3, 4)):
    return (np.arange(int(np.prod(shape))).reshape(shape) % 5 + 1).astype(dtype)


# ---- NEP 13 --------------------------------------------------------------------------------------


@pytest.mark.parametrize("ufunc", ["add", "multiply", "maximum", "subtract", "less"])
@testing.for_dtypes(("int32", "float32", "float64", "complex128"))
@testing.numpy_gpupy_allclose()
def test_ufunc_call(ufunc, dtype, xp):
    a = xp.asarray(_data(dtype))
    result = getattr(np, ufunc)(a, 2)
    assert isinstance(result, np.ndarray if xp is np else gpupy.ndarray)
    return result


@testing.numpy_gpupy_allclose()
def test_ufunc_out_and_dtype(xp):
    a = xp.asarray(_data("float32"))
    out = xp.zeros((3, 4), dtype="float32")
    r = np.multiply(a, a, out=out)
    assert r is out
    np.add(a, 1, out=(out,))
    return out, np.add(a, a, dtype="float64")


@pytest.mark.parametrize(
    "ufunc", ["add", "multiply", "maximum", "minimum", "logical_and", "logical_or"]
)
@pytest.mark.parametrize("axis", [0, 1, None, (0, 1)])
@pytest.mark.parametrize("keepdims", [False, True])
@testing.for_dtypes(("bool", "int64", "uint8", "float64"))
@testing.numpy_gpupy_allclose()
def test_ufunc_reduce(ufunc, axis, keepdims, dtype, xp):
    a = xp.asarray(_data(dtype))
    return getattr(np, ufunc).reduce(a, axis=axis, keepdims=keepdims)


@testing.numpy_gpupy_allclose()
def test_ufunc_reduce_defaults_and_dtype(xp):
    a = xp.asarray(_data("int32"))
    return np.add.reduce(a), np.multiply.reduce(a, axis=1, dtype="float64")


def test_ufunc_unsupported_raise():
    g = gpupy.asarray(_data("float64"))
    for call in (
        lambda: np.add(g, 1, casting="unsafe"),
        lambda: np.add(g, [object()]),
    ):
        assert_type_error(call)
    # Called directly: NumPy 2.4 leaks the operand when reduce-like methods get NotImplemented.
    assert g.__array_ufunc__(np.maximum, "reduce", g, dtype="float32") is NotImplemented
    assert g.__array_ufunc__(np.add, "reduce", g, initial=1.0) is NotImplemented
    assert g.__array_ufunc__(np.add, "__call__", g, "text") is NotImplemented
    assert g.__array_ufunc__(np.divmod, "__call__", g, g, out=(g, g)) is NotImplemented


def assert_type_error(call):
    with pytest.raises(TypeError):
        call()


# ---- NEP 18 --------------------------------------------------------------------------------------


@testing.numpy_gpupy_allclose()
def test_array_function_maps_to_gpupy(xp):
    a = xp.asarray(_data("float64", (2, 3, 4)))
    results = (
        np.sum(a),
        np.mean(a, axis=0),
        np.reshape(a, (6, 4)),
        np.transpose(a),
        np.transpose(a, (1, 0, 2)),
        np.max(a, axis=-1, keepdims=True),
        np.concatenate([a, a], axis=1),
        np.concatenate([a, a], axis=None),
        np.stack([a, a], axis=-1),
        np.matmul(a, np.ones((4, 2))),
        np.moveaxis(a, 0, -1),
        np.full_like(a, 7.0, shape=(2, 2)),
        np.zeros_like(a),
    )
    for r in results:
        assert isinstance(r, (np.ndarray, np.generic) if xp is np else gpupy.ndarray)
    return results


def test_array_function_like_and_layout():
    g = gpupy.asarray(_data("float64"))
    a = np.array([1, 2], like=g)
    assert isinstance(a, gpupy.ndarray) and a.device == g.device
    assert np.array([1.0], like=g, ndmin=3).shape == (1, 1, 1)
    assert np.shape(g) == (3, 4) and np.ndim(g) == 2 and np.size(g, 1) == 4
    c = np.copy(g)
    assert isinstance(c, gpupy.ndarray) and not c._same_buffer(g)


def test_array_function_missing_is_type_error():
    g = gpupy.asarray(_data("float64"))
    candidates = ("sinc", "i0", "datetime_as_string", "is_busday")
    missing = [n for n in candidates if n not in dir(gpupy)]
    assert missing
    with pytest.raises(TypeError, match="no implementation found"):
        getattr(np, missing[0])(g)
    with pytest.raises(ValueError):
        np.concatenate([gpupy.asarray(1.0), gpupy.asarray(2.0)])
    with pytest.raises(ValueError):
        np.concatenate([g, g], axis=2)
    assert g.__array_function__(np.sum, (gpupy.ndarray, list), (g,), {}) is NotImplemented


# ---- Array API -----------------------------------------------------------------------------------


def test_array_namespace():
    g = gpupy.asarray(_data("int64"))
    for version in (None, "2023.12", "2024.12"):
        assert g.__array_namespace__(api_version=version) is gpupy
    with pytest.raises(ValueError):
        g.__array_namespace__(api_version="2021.12")
    assert gpupy.__array_api_version__ == "2024.12"
    assert isinstance(g.device, gpupy.Device)
    assert g.to_device("cpu").device == gpupy.Device("cpu")


def test_namespace_info(device_name):
    info = gpupy.__array_namespace_info__()
    caps = info.capabilities()
    assert set(caps) == {"boolean indexing", "data-dependent shapes", "max dimensions"}
    assert info.default_device() == gpupy.Device(device_name)
    assert gpupy.Device("cpu") in info.devices() and gpupy.Device(device_name) in info.devices()
    assert info.default_dtypes() == {
        "real floating": np.dtype("float64"),
        "complex floating": np.dtype("complex128"),
        "integral": np.dtype("int64"),
        "indexing": np.dtype("int64"),
    }
    assert len(info.dtypes()) == 13
    assert list(info.dtypes(kind="bool")) == ["bool"]
    assert list(info.dtypes(kind="signed integer")) == ["int8", "int16", "int32", "int64"]
    assert len(info.dtypes(kind="unsigned integer")) == 4
    assert len(info.dtypes(kind="integral")) == 8
    assert list(info.dtypes(kind="real floating")) == ["float32", "float64"]
    assert list(info.dtypes(kind="complex floating")) == ["complex64", "complex128"]
    assert len(info.dtypes(kind="numeric")) == 12
    assert len(info.dtypes(kind=("bool", "real floating"))) == 3
    assert info.dtypes(device=gpupy.Device(device_name)) == info.dtypes()


_NUMERIC = set(testing.ALL_DTYPES) - {"bool"}


@pytest.mark.parametrize(
    "kind, expected",
    [
        ("bool", {"bool"}),
        ("signed integer", set(testing.INT_DTYPES)),
        ("unsigned integer", set(testing.UINT_DTYPES)),
        ("integral", set(testing.INT_DTYPES + testing.UINT_DTYPES)),
        ("real floating", set(testing.FLOAT_DTYPES)),
        ("complex floating", {"complex64", "complex128"}),
        (("complex floating", "bool"), {"complex64", "complex128", "bool"}),
        ("numeric", _NUMERIC),
        (gpupy.float32, {"float32"}),
    ],
)
def test_isdtype(kind, expected):
    for name in testing.ALL_DTYPES:
        assert gpupy.isdtype(np.dtype(name), kind) == (name in expected), name
    with pytest.raises(ValueError):
        gpupy.isdtype(gpupy.float32, "floating-point")


# ---- Pickle and copies ---------------------------------------------------------------------------


@testing.for_dtypes(testing.ALL_DTYPES)
def test_pickle_round_trip(device_name, dtype):
    g = gpupy.asarray(_data(dtype, (2, 3)))[:, ::2]
    h = pickle.loads(pickle.dumps(g))
    assert isinstance(h, gpupy.ndarray) and h.device == gpupy.Device(device_name)
    testing.assert_same(g.get(), h)
    assert not h._same_buffer(g)


def test_pickle_to_unavailable_device():
    from gpupy import _interop

    if gpupy._core.cuda_is_available()[0]:
        pytest.skip("cuda is available here")
    with pytest.raises(RuntimeError, match="not available"):
        _interop._rebuild(np.zeros(3), "cuda:0")


def test_copy_and_deepcopy(device_name):
    g = gpupy.asarray(_data("float32"))
    for c in (copy.copy(g), copy.deepcopy(g), copy.deepcopy([g, g])[0]):
        assert c.device == g.device and not c._same_buffer(g)
        testing.assert_same(g.get(), c)


# ---- Dask ----------------------------------------------------------------------------------------


@pytest.fixture
def da(device_name):
    dask_array = pytest.importorskip("dask.array")
    import gpupy.dask

    gpupy.dask.register()
    gpupy.dask.register()  # idempotent
    return dask_array


def test_dask_chunks_stay_gpupy(da, device_name):
    n = np.arange(24.0).reshape(4, 6)
    x = da.from_array(gpupy.asarray(n), chunks=(2, 3), asarray=False)
    block = x.blocks[0, 0].compute()
    assert type(block) is gpupy.ndarray and block.device == gpupy.Device(device_name)
    total = (x + 1).sum().compute()
    assert isinstance(total, gpupy.ndarray)
    testing.assert_same((n + 1).sum(), total)
    testing.assert_same(n.mean(axis=0), x.mean(axis=0).compute())
    testing.assert_same(n.mean(), x.mean().compute())
    testing.assert_same(
        n.mean(axis=(0, 1), keepdims=True), x.mean(axis=(0, 1), keepdims=True).compute()
    )
    testing.assert_same(n.max(axis=1), x.max(axis=1).compute())
    testing.assert_same(n @ n.T, (x @ x.T).compute())
    testing.assert_same(np.concatenate([n, n]), da.concatenate([x, x]).compute())


def test_import_does_not_load_dask():
    import subprocess
    import sys

    code = "import sys, gpupy; print('dask' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
