"""File I/O against NumPy: .npy/.npz written by gpupy read by NumPy and back, text formats, raw
binary files, the ndarray methods tofile/dump/dumps, devices of the results and error paths."""

import io
import pickle

import gpupy
import numpy as np
import pytest

DTYPES = ("bool", "int8", "uint16", "int32", "uint64", "float32", "float64", "complex128")


def _sample(dtype, shape=(3, 4)):
    h = (np.arange(np.prod(shape)).reshape(shape) * 5 % 7 - 2).astype(dtype)
    return h, gpupy.asarray(h)


def _same(expected, actual, device=None):
    assert isinstance(actual, gpupy.ndarray)
    assert device is None or actual.device == gpupy.Device(device)
    got = actual.get()
    assert got.dtype == expected.dtype and got.shape == expected.shape
    np.testing.assert_array_equal(got, expected)


# ---- .npy and .npz -------------------------------------------------------------------------------


@pytest.mark.parametrize("dtype", DTYPES)
def test_save_load_roundtrip(tmp_path, dtype, device_name):
    h, g = _sample(dtype)
    gpupy.save(tmp_path / "a.npy", g[:, ::2])
    np.testing.assert_array_equal(np.load(tmp_path / "a.npy"), h[:, ::2])
    _same(h[:, ::2], gpupy.load(tmp_path / "a.npy"), device_name)
    np.save(tmp_path / "b.npy", g)  # through __array_function__
    _same(h, gpupy.load(str(tmp_path / "b.npy")))


def test_save_load_file_objects_0d_and_empty(device_name):
    for h in (np.array(3.5), np.zeros((0, 2), "int16"), np.array([1 + 2j], "complex64")):
        buf = io.BytesIO()
        gpupy.save(buf, gpupy.asarray(h))
        buf.seek(0)
        _same(h, gpupy.load(buf), device_name)


def test_load_device_and_mmap(tmp_path):
    h = np.arange(6.0)
    np.save(tmp_path / "a.npy", h)
    _same(h, gpupy.load(tmp_path / "a.npy", device="cpu"), "cpu")
    _same(h, gpupy.load(tmp_path / "a.npy", mmap_mode="r"))
    with pytest.raises(ValueError, match=r"^\[load\] mmap_mode='r\+'"):
        gpupy.load(tmp_path / "a.npy", mmap_mode="r+")


def test_load_errors(tmp_path):
    with pytest.raises(FileNotFoundError):
        gpupy.load(tmp_path / "missing.npy")
    (tmp_path / "junk.npy").write_bytes(b"not a numpy file")
    with pytest.raises(ValueError, match=r"^\[load\]"):
        gpupy.load(tmp_path / "junk.npy")
    np.save(tmp_path / "obj.npy", np.array([{"a": 1}], dtype=object), allow_pickle=True)
    with pytest.raises(ValueError, match=r"^\[load\].*allow_pickle"):
        gpupy.load(tmp_path / "obj.npy")
    np.save(tmp_path / "s.npy", np.array(["ab", "c"]))
    with pytest.raises(TypeError, match=r"^\[load\] .*<U2"):
        gpupy.load(tmp_path / "s.npy")
    with pytest.raises(ValueError, match=r"^\[save\]"):
        gpupy.save(tmp_path / "o.npy", np.array([None], dtype=object), allow_pickle=False)


@pytest.mark.parametrize("compressed", (False, True))
def test_savez_and_npzfile(tmp_path, compressed, device_name):
    (ha, ga), (hb, gb) = _sample("float32"), _sample("int64", (5,))
    save = gpupy.savez_compressed if compressed else gpupy.savez
    save(tmp_path / "z.npz", ga, named=gb)
    with np.load(tmp_path / "z.npz") as ref:
        np.testing.assert_array_equal(ref["arr_0"], ha)
        np.testing.assert_array_equal(ref["named"], hb)
    with gpupy.load(tmp_path / "z.npz") as z:
        assert sorted(z.files) == ["arr_0", "named"] and len(z) == 2 and "named" in z
        _same(ha, z["arr_0"], device_name)
        _same(hb, z["named"], device_name)
        assert set(z.keys()) == set(z) == {"arr_0", "named"}
        assert {k: v.shape for k, v in z.items()} == {"arr_0": (3, 4), "named": (5,)}
        assert z.get("missing") is None
        with pytest.raises(KeyError):
            z["missing"]
    np_save = np.savez_compressed if compressed else np.savez
    np_save(tmp_path / "y.npz", ga, x=gb)  # through __array_function__
    z = gpupy.load(tmp_path / "y.npz", device="cpu")
    _same(ha, z["arr_0"], "cpu")
    z.close()


# ---- text ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("dtype", ("int32", "float64", "complex128"))
def test_savetxt_matches_numpy(tmp_path, dtype):
    h, g = _sample(dtype)
    kw = {"fmt": "%.4g", "delimiter": ",", "header": "a b", "footer": "end"}
    if dtype == "complex128":
        kw["fmt"] = "%.3e"
    gpupy.savetxt(tmp_path / "g.txt", g, **kw)
    np.savetxt(tmp_path / "n.txt", h, **kw)
    assert (tmp_path / "g.txt").read_text() == (tmp_path / "n.txt").read_text()
    np.savetxt(tmp_path / "d.txt", g[0])  # through __array_function__
    np.savetxt(tmp_path / "e.txt", h[0])
    assert (tmp_path / "d.txt").read_text() == (tmp_path / "e.txt").read_text()


def test_loadtxt(tmp_path, device_name):
    text = "# c\n1 2 3\n4 5 6\n7 8 9\n"
    (tmp_path / "t.txt").write_text(text)
    _same(np.loadtxt(io.StringIO(text)), gpupy.loadtxt(tmp_path / "t.txt"), device_name)
    kw = {"dtype": "int16", "usecols": (0, 2), "skiprows": 2, "ndmin": 2}
    _same(np.loadtxt(io.StringIO(text), **kw), gpupy.loadtxt(io.StringIO(text), **kw))
    _same(np.loadtxt(io.StringIO(text), unpack=True), gpupy.loadtxt(io.StringIO(text), unpack=True))
    with pytest.warns(UserWarning, match="no data"):
        _same(np.zeros((0,)), gpupy.loadtxt(io.StringIO("")))
    rows = "1 2\n3 4\n"
    _same(np.loadtxt(io.StringIO(rows), max_rows=1), gpupy.loadtxt(io.StringIO(rows), max_rows=1))
    like = gpupy.zeros(1)
    _same(np.loadtxt(io.StringIO(text)), np.loadtxt(io.StringIO(text), like=like), device_name)
    cols = gpupy.loadtxt(io.StringIO("1 2.5\n3 4.5"), dtype=[("a", "i4"), ("b", "f8")], unpack=True)
    _same(np.array([1, 3], "i4"), cols[0])
    _same(np.array([2.5, 4.5]), cols[1])
    assert gpupy.loadtxt(io.StringIO(text), device="cpu").device == gpupy.Device("cpu")


def test_loadtxt_errors():
    with pytest.raises(ValueError, match=r"^\[loadtxt\]"):
        gpupy.loadtxt(io.StringIO("1 2\n3 x\n"))
    with pytest.raises(TypeError, match=r"^\[loadtxt\] .*dtype"):
        gpupy.loadtxt(io.StringIO("1 2\n"), dtype=[("a", "i4"), ("b", "f8")])
    with pytest.raises(TypeError, match=r"^\[loadtxt\]"):
        gpupy.loadtxt(io.StringIO("a b\n"), dtype=str)


def test_genfromtxt(device_name):
    text = "1,2,\n4,,6\n7,8,9\n"
    kw = {"delimiter": ","}
    _same(np.genfromtxt(io.StringIO(text), **kw), gpupy.genfromtxt(io.StringIO(text), **kw))
    kw = {"delimiter": ",", "filling_values": -1, "dtype": "int32", "skip_footer": 1}
    _same(np.genfromtxt(io.StringIO(text), **kw), gpupy.genfromtxt(io.StringIO(text), **kw))
    like = gpupy.zeros(1)
    got = np.genfromtxt(io.StringIO(text), delimiter=",", like=like)
    _same(np.genfromtxt(io.StringIO(text), delimiter=","), got, device_name)
    with pytest.raises(TypeError, match=r"^\[genfromtxt\] .*dtype"):
        gpupy.genfromtxt(io.StringIO("a,1\nb,2\n"), delimiter=",", dtype=None)
    with pytest.raises(NotImplementedError, match=r"^\[genfromtxt\]"):
        gpupy.genfromtxt(io.StringIO(text), delimiter=",", usemask=True)


def test_fromregex(device_name):
    text = "x=1 y=2.5\nx=3 y=4.5\n"
    got = gpupy.fromregex(io.StringIO(text), r"x=(\d+)", [("x", "i8")])
    _same(np.array([1, 3]), got, device_name)
    two = gpupy.fromregex(io.StringIO(text), r"x=(\d+) y=(\S+)", [("x", "f8"), ("y", "f8")])
    _same(np.array([[1.0, 2.5], [3.0, 4.5]]), two)
    with pytest.raises(TypeError, match=r"^\[fromregex\] fields of different dtypes"):
        gpupy.fromregex(io.StringIO(text), r"x=(\d+) y=(\S+)", [("x", "i8"), ("y", "f8")])
    with pytest.raises(TypeError, match=r"^\[fromregex\] dtype must be a structured"):
        gpupy.fromregex(io.StringIO(text), r"x=(\d+)", "i8")


# ---- raw binary, tofile, pickling ----------------------------------------------------------------


@pytest.mark.parametrize("dtype", ("uint8", "int64", "float32", "complex64"))
def test_tofile_fromfile(tmp_path, dtype, device_name):
    h, g = _sample(dtype)
    g[1].tofile(tmp_path / "a.bin")
    assert (tmp_path / "a.bin").read_bytes() == h[1].tobytes()
    _same(h[1], gpupy.fromfile(tmp_path / "a.bin", dtype=dtype), device_name)
    _same(h[1][1:3], gpupy.fromfile(tmp_path / "a.bin", dtype, count=2, offset=h.itemsize))
    got = np.fromfile(tmp_path / "a.bin", dtype=dtype, like=g)
    _same(h[1], got, device_name)


def test_tofile_text_and_fromfile_sep(tmp_path):
    g = gpupy.asarray([1.5, -2.0, 3.25])
    g.tofile(tmp_path / "a.txt", sep=",", format="%.2f")
    assert (tmp_path / "a.txt").read_text() == "1.50,-2.00,3.25"
    _same(np.array([1.5, -2.0, 3.25]), gpupy.fromfile(tmp_path / "a.txt", sep=","))
    with pytest.raises(FileNotFoundError):
        gpupy.fromfile(tmp_path / "missing.bin")
    with pytest.raises(TypeError, match=r"^\[tofile\]"):
        g.tofile(tmp_path / "b.txt", sep=",", format=3)
    with pytest.raises(TypeError, match=r"^\[fromfile\]"):
        gpupy.fromfile(tmp_path / "a.txt", dtype="U3")


def test_dump_and_dumps(tmp_path, device_name):
    h, g = _sample("float64")
    back = pickle.loads(g.dumps())
    _same(h, back, device_name)
    g.dump(tmp_path / "p.pkl")
    _same(h, np.load(tmp_path / "p.pkl", allow_pickle=True), device_name)
    with open(tmp_path / "q.pkl", "wb") as f:
        g.dump(f)
    with open(tmp_path / "q.pkl", "rb") as f:
        _same(h, pickle.load(f), device_name)
