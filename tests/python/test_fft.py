"""gpupy.fft (the Array API extension) against numpy.fft on the selected device."""

import contextlib

import gpupy
import numpy as np
import pytest
from gpupy import testing

FLOATS = testing.FLOAT_DTYPES + testing.COMPLEX_DTYPES
NORMS = ["backward", "ortho", "forward"]
# pocketfft in single precision accumulates a few ULPs per stage.
RTOL = {"float32": 1e-5, "complex64": 1e-5}
ATOL = {"float32": 1e-5, "complex64": 1e-5, "float64": 1e-12, "complex128": 1e-12}


def _data(shape, dtype, seed=0):
    rng = np.random.default_rng(seed)
    if np.dtype(dtype).kind in "iub":
        return rng.integers(0, 5, size=shape).astype(dtype)
    x = rng.standard_normal(shape)
    if np.dtype(dtype).kind == "c":
        x = x + 1j * rng.standard_normal(shape)
    return x.astype(dtype)


def _check(dtype):
    # The dtype sweeps include types NumPy refuses (rfft of complex): errors are compared too.
    return testing.numpy_gpupy_allclose(rtol=RTOL.get(dtype, 1e-12), atol=ATOL, accept_error=True)


@pytest.mark.parametrize("name", ["fft", "ifft", "rfft", "irfft", "hfft", "ihfft"])
@pytest.mark.parametrize("n", [None, 5, 12])
@pytest.mark.parametrize("axis", [-1, 0])
@pytest.mark.parametrize("norm", NORMS)
# Complex input to the real transforms checks that gpupy raises as NumPy does.
@testing.for_dtypes(FLOATS + ("int32",))
def test_one_axis(dtype, name, n, axis, norm):

    @_check(dtype)
    def body(xp):
        x = xp.asarray(_data((6, 8), dtype, 1))
        return getattr(xp.fft, name)(x, n=n, axis=axis, norm=norm)

    body()


@pytest.mark.parametrize("name", ["fftn", "ifftn", "rfftn", "irfftn"])
@pytest.mark.parametrize(
    "s, axes", [(None, None), ((4, 6), None), (None, (0, 2)), ((3, 5), (2, 0))]
)
@pytest.mark.parametrize("norm", NORMS)
@testing.for_dtypes(FLOATS)
def test_n_axes(dtype, name, s, axes, norm):
    if s is not None and axes is None:
        axes = (-2, -1)

    @_check(dtype)
    def body(xp):
        x = xp.asarray(_data((3, 4, 6), dtype, 2))
        return getattr(xp.fft, name)(x, s=s, axes=axes, norm=norm)

    body()


@pytest.mark.parametrize(
    "dtype, name, expected",
    [
        ("float32", "fft", "complex64"),
        ("float32", "rfft", "complex64"),
        ("complex64", "ifft", "complex64"),
        ("complex64", "irfft", "float32"),
        ("float64", "rfft", "complex128"),
        ("int64", "fft", "complex128"),
    ],
)
def test_single_precision_is_kept(dtype, name, expected, device_name):
    x = gpupy.asarray(_data((8,), dtype, 3), device=device_name)
    out = getattr(gpupy.fft, name)(x)
    assert out.dtype == np.dtype(expected)
    assert out.device == x.device


def test_round_trip(device_name):
    x = gpupy.asarray(_data((4, 16), "complex128", 4), device=device_name)
    back = gpupy.fft.ifftn(gpupy.fft.fftn(x))
    np.testing.assert_allclose(back.get(), x.get(), atol=1e-12)
    r = gpupy.asarray(_data((4, 16), "float64", 5), device=device_name)
    np.testing.assert_allclose(gpupy.fft.irfft(gpupy.fft.rfft(r), n=16).get(), r.get(), atol=1e-12)


@pytest.mark.parametrize("n", [1, 4, 5, 10])
@pytest.mark.parametrize("d", [1.0, 0.25, 3])
@testing.numpy_gpupy_allclose(rtol=1e-15)
def test_fftfreq(n, d, xp):
    return xp.fft.fftfreq(n, d=d), xp.fft.rfftfreq(n, d=d)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_fftfreq_dtype_and_device(dtype, device_name):
    for fn, ref in ((gpupy.fft.fftfreq, np.fft.fftfreq), (gpupy.fft.rfftfreq, np.fft.rfftfreq)):
        out = fn(7, d=0.5, dtype=dtype, device=device_name)
        assert out.dtype == np.dtype(dtype)
        assert out.device.type == device_name
        np.testing.assert_allclose(out.get(), ref(7, d=0.5).astype(dtype), rtol=1e-7)


@testing.numpy_gpupy_allclose(rtol=1e-12, atol=1e-12)
def test_positional_arguments_and_out(xp):
    # NumPy programs write rfft(x, nfft), irfft(X, n, -1), fftn(x, s, axes), fftshift(f, 0)
    x = xp.asarray(_data((3, 10), "float64", 8))
    spec = xp.fft.rfft(x, 16)
    out = xp.empty((3, 10), dtype="complex128")
    return (
        spec,
        xp.fft.irfft(spec, 16, -1, "ortho"),
        xp.fft.fft(x, None, 0),
        xp.fft.fftn(x, (4, 8), (0, 1)),
        xp.fft.fftshift(x, 0),
        xp.fft.ifft(x, out=out),
        out,
    )


@testing.numpy_gpupy_allclose(rtol=1e-15)
def test_fftfreq_positional_spacing(xp):
    # NumPy programs pass the sample spacing positionally: fftfreq(n, 1 / fs)
    return xp.fft.fftfreq(8, 1 / 256.0), xp.fft.rfftfreq(9, 0.5)


def test_fftfreq_bad_arguments():
    with pytest.raises(ValueError, match=r"^\[fft.fftfreq\]"):
        gpupy.fft.fftfreq(-2)
    with pytest.raises(ValueError, match=r"^\[fft.rfftfreq\]"):
        gpupy.fft.rfftfreq(4, dtype="int32")


@pytest.mark.parametrize("axes", [None, 0, (0, 1), -1])
@testing.for_dtypes(FLOATS + ("int32", "bool"))
@testing.numpy_gpupy_allclose()
def test_shifts(dtype, axes, xp):
    x = xp.asarray(_data((5, 6), dtype, 6))
    return xp.fft.fftshift(x, axes=axes), xp.fft.ifftshift(x, axes=axes)


@testing.numpy_gpupy_raises()
def test_bad_norm_raises(xp):
    xp.fft.fft(xp.ones(4), norm="backwards")


@testing.numpy_gpupy_raises()
def test_bad_n_raises(xp):
    xp.fft.fft(xp.ones(4), n=0)


@testing.numpy_gpupy_raises()
def test_bad_axis_raises(xp):
    xp.fft.rfftn(xp.ones((2, 2)), axes=(0, 3))


def test_emu_inputs_are_not_converted_implicitly(device_name):
    x = gpupy.asarray(_data((4, 8), "float32", 7), device=device_name)
    y = gpupy.fft.fft(x)
    assert isinstance(y, gpupy.ndarray)
    assert y.device == x.device
    assert gpupy.fft.fftshift(y).device == x.device
    if device_name == "emu":
        with pytest.raises(TypeError):
            np.asarray(x)
        with pytest.raises(TypeError):
            np.asarray(y)


def test_non_contiguous_input(device_name):
    host = _data((6, 8), "complex128", 8)
    x = gpupy.asarray(host, device=device_name)
    t = gpupy.matrix_transpose(x)
    np.testing.assert_allclose(gpupy.fft.fft(t).get(), np.fft.fft(host.T), rtol=1e-12)


@pytest.mark.parametrize("name", ["fft", "ifft", "rfft", "irfft", "hfft", "ihfft"])
@pytest.mark.parametrize("n, axis", [(None, 1), (4, 1), (9, 0), (7, -1)])
@pytest.mark.parametrize("norm", NORMS)
@testing.for_dtypes(("float32", "complex128"))
def test_inner_axis_of_3d(dtype, name, n, axis, norm):
    # A transform along an axis that is neither first nor last, batched over both sides of it.
    @_check(dtype)
    def body(xp):
        x = xp.asarray(_data((3, 6, 5), dtype, 9))
        return getattr(xp.fft, name)(x, n=n, axis=axis, norm=norm)

    body()


@testing.for_dtypes(("float32", "float64", "complex64", "complex128"))
def test_many_lengths(dtype):
    # More lengths than the cuda plan cache holds, so plans are evicted and rebuilt.
    @_check(dtype)
    def body(xp):
        out = []
        for n in list(range(1, 24)) + [64, 100, 127, 1000]:
            x = xp.asarray(_data((2, n), dtype, n))
            out += [xp.fft.fft(x), xp.fft.ifft(x, n=n + 1)]
            if dtype.startswith("float"):
                out.append(xp.fft.irfft(xp.fft.rfft(x), n=n))
        return out

    body()


def test_on_a_side_stream(device_name):
    if device_name != "cuda":
        pytest.skip("cuda only")
    host = _data((4, 32), "complex64", 10)
    with gpupy.cuda.Stream():
        x = gpupy.asarray(host)
        y = gpupy.fft.ifft(gpupy.fft.fft(x))
        f = gpupy.fft.rfftn(gpupy.asarray(host.real))
        # Read on the stream that computed them: gpupy's streams are non-blocking, so a read
        # after the block would not wait for them.
        y_host, f_host = y.get(), f.get()
    np.testing.assert_allclose(y_host, host, atol=1e-5)
    np.testing.assert_allclose(f_host, np.fft.rfftn(host.real), rtol=1e-4, atol=1e-4)


def test_one_length_on_two_streams_at_once(device_name):
    # On cuda each stream has its own plans: one plan's work area, shared by transforms queued on
    # two streams, would let them overwrite each other's intermediate results. 4099 is prime, so
    # cuFFT needs a work area (Bluestein); every device compares the values.
    streams = [gpupy.cuda.Stream(), gpupy.cuda.Stream()] if device_name == "cuda" else [None] * 2
    hosts = [_data((64, 4099), "complex128", 20 + k) for k in range(8)]
    results = []
    for k, host in enumerate(hosts):
        with streams[k % 2] or contextlib.nullcontext():
            results.append(gpupy.fft.fft(gpupy.asarray(host, device=device_name)))
    gpupy.synchronize(device_name)
    for host, result in zip(hosts, results, strict=True):
        np.testing.assert_allclose(result.get(), np.fft.fft(host), rtol=1e-10, atol=1e-9)


@pytest.mark.parametrize("name", ["fft2", "ifft2", "rfft2"])
@pytest.mark.parametrize(
    "kwargs", [{}, {"axes": (0, 2), "norm": "ortho"}, {"s": (3, 5)}, {"norm": "forward"}]
)
@testing.for_dtypes(("int32", "float32", "float64"))
def test_two_axis_transforms(dtype, name, kwargs):
    @testing.numpy_gpupy_allclose(rtol=1e-4 if dtype == "float32" else 1e-10, atol=1e-9)
    def body(xp):
        x = xp.asarray((np.arange(48).reshape(2, 4, 6) % 7).astype(dtype))
        return getattr(xp.fft, name)(x, **kwargs)

    body()


@pytest.mark.parametrize("s", [None, (4, 6), (4, 5)])
def test_irfft2_round_trip_and_out(s):
    x = np.random.default_rng(3).standard_normal((3, 4, 6))
    spectrum = np.fft.rfft2(x)

    @testing.numpy_gpupy_allclose(rtol=1e-10, atol=1e-12)
    def body(xp):
        return xp.fft.irfft2(xp.asarray(spectrum), s=s), xp.fft.fft2(xp.asarray(x + 1j * x))

    body()
    out = gpupy.empty((3, 4, 6), dtype="complex128")
    assert gpupy.fft.fft2(gpupy.asarray(x), out=out) is out
    np.testing.assert_allclose(out.get(), np.fft.fft2(x), rtol=1e-10, atol=1e-12)
    assert isinstance(np.fft.ifft2(gpupy.asarray(x)), gpupy.ndarray)
    with pytest.raises(IndexError, match=r"\[fft.fft2\] axis -2 is out of bounds"):
        gpupy.fft.fft2(gpupy.asarray([1.0, 2.0]))
    with pytest.raises(ValueError, match=r"\[fft.fft2\] out has shape"):
        gpupy.fft.fft2(gpupy.asarray(x), out=gpupy.empty((3, 4, 5), dtype="complex128"))


@pytest.mark.parametrize(
    "name,x,kwargs,error,message",
    [
        ("fft2", np.zeros((0, 3)), {}, ValueError, "Invalid number of FFT data points"),
        ("irfft2", np.zeros((3, 1)), {}, ValueError, "Invalid number of FFT data points"),
        ("rfft2", np.zeros((2, 3), complex), {}, TypeError, "not supported"),
        ("ifft2", np.zeros((2, 2)), {"norm": "x"}, ValueError, "Invalid norm value"),
        ("rfft2", np.zeros(3), {}, IndexError, "axis -2 is out of bounds"),
        # with s= the last axis is transformed first: its errors come before the bad axis
        ("rfft2", np.zeros(4, complex), {"s": (4, 4)}, TypeError, "not supported"),
        ("ifft2", np.zeros(4), {"s": (4, 2.5)}, TypeError, "cannot be interpreted"),
        ("fft2", np.zeros(4), {"s": (4, 4)}, IndexError, "out of bounds"),
    ],
)
def test_fft2_family_errors_name_the_call(name, x, kwargs, error, message):
    """NumPy's exception type (an out-of-range axis is an AxisError: ValueError and IndexError),
    with the message naming the two-axis transform that was called."""
    with pytest.raises(error, match=rf"^\[fft.{name}\] .*{message}"):
        getattr(gpupy.fft, name)(gpupy.asarray(x), **kwargs)
    with pytest.raises(error):
        getattr(np.fft, name)(x, **kwargs)


@pytest.mark.parametrize(
    "call",
    [
        lambda xp: xp.fft.fft2(xp.ones(4), norm="bad"),  # the axes fail first (IndexError)
        lambda xp: xp.fft.ifft(xp.ones(4), axis=3, norm="bad"),
        lambda xp: xp.fft.rfftn(xp.ones((2, 2)), s=(2,), axes=(0, 1), norm="bad"),
        lambda xp: xp.fft.fftfreq(0),  # NumPy's division by n * d
        lambda xp: xp.fft.rfftfreq(0, 0.5),
    ],
)
@testing.numpy_gpupy_raises()
def test_fft_checks_axes_and_sizes_before_norm(call, xp):
    return call(xp)


@testing.numpy_gpupy_allclose()
def test_fft2_over_no_axes_ignores_norm(xp):
    # NumPy returns the input's copy untouched, without reading norm
    return xp.fft.ifft2(xp.asarray(np.array([1.0 + 2j, 3.0])), s=(), axes=(), norm="bad")
