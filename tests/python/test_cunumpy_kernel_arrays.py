"""as_kernel_array and kernel_output: arguments of dispatch="arrays" kernels."""

import gpupy
import numpy
import pytest
from gpupy import cunumpy as xp


def test_host_side():
    like = numpy.zeros(2)
    a = numpy.arange(4.0)
    assert xp.as_kernel_array(a, like) is a
    assert xp.as_kernel_array(a, like, numpy.float32).dtype == numpy.float32
    storage = numpy.zeros((3, 8))
    view = storage[:, :4]
    assert xp.as_kernel_array(view, like, strided=True) is view
    dense = xp.as_kernel_array(view, like)
    assert dense is not view and dense.flags.c_contiguous
    assert xp.as_kernel_array([1, 2], like, numpy.float64).tolist() == [1.0, 2.0]


def test_kernel_output_writes_back_on_success_only():
    like = numpy.zeros(1)
    out = numpy.zeros(4, dtype=numpy.float32)
    with xp.kernel_output(out, like, numpy.float64) as buf:
        assert buf is not out and buf.dtype == numpy.float64
        buf[:] = 2.0
    assert (out == 2.0).all()
    with pytest.raises(KeyError), xp.kernel_output(out, like, numpy.float64) as buf:
        buf[:] = 5.0
        raise KeyError
    assert (out == 2.0).all()
    with xp.kernel_output(out, like) as buf:
        assert buf is out


def test_device_side(device_name):
    if device_name == "cpu":
        pytest.skip("device arrays need --device=emu or cuda")
    like = gpupy.zeros(1)
    d = gpupy.arange(4.0)
    assert xp.as_kernel_array(d, like) is d
    with xp.count_transfers() as c:
        up = xp.as_kernel_array(numpy.arange(3.0), like)
    assert xp.is_gpu(up) and c.to_device == 1
    host_out = numpy.zeros(3)
    with xp.kernel_output(host_out, like) as buf:
        assert xp.is_gpu(buf)
        buf[...] = 7.0
    assert (host_out == 7.0).all()
