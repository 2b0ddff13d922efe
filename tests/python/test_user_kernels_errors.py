"""gpupy.ElementwiseKernel, ReductionKernel and RawKernel: every bad input's error (the results
are compared with NumPy in test_user_kernels.py, whose kernels these tests reuse)."""

import gpupy
import numpy
import pytest
from numpy.exceptions import AxisError
from test_user_kernels import L2, MUL_ADD, REVERSE, SAXPY, SAXPY_SRC, SQ_DIFF, _dev


@pytest.mark.parametrize(
    ("ins", "outs", "message"),
    [
        ("float32", "float32 z", "syntax error"),
        ("float32 x y", "float32 z", "unknown keyword 'float32'"),
        ("foo x", "float32 z", "unknown type 'foo'"),
        ("float32 2x", "float32 z", "invalid parameter name"),
        ("float32 i", "float32 z", "'i' is reserved"),
        ("float32 _x", "float32 z", "reserved"),
        ("float32 x, T x", "float32 z", "declared twice"),
        ("object x", "float32 z", "not supported"),
        ("$ x", "float32 z", "invalid type placeholder"),
    ],
)
def test_parameter_errors(ins, outs, message):
    with pytest.raises(ValueError, match=r"\[ElementwiseKernel\] .*" + message):
        gpupy.ElementwiseKernel(ins, outs, "z = x", "k")
    with pytest.raises(ValueError, match=r"\[ReductionKernel\] .*" + message):
        gpupy.ReductionKernel(ins, outs, "x", "a + b", "z = a", "0")


def test_type_errors(kernel_device):
    f64, f32, i32 = (
        _dev(numpy.ones(3)),
        _dev(numpy.ones(3, numpy.float32)),
        _dev(numpy.ones(3, numpy.int32)),
    )
    with pytest.raises(
        TypeError,
        match=r"\[ElementwiseKernel\] type mismatch: parameter 'x' is float32, got an array of "
        "float64",
    ):
        SQ_DIFF(f64, f32)
    with pytest.raises(
        TypeError, match=r"placeholder 'T' is int32 .* parameter 'y' got an array of float32"
    ):
        MUL_ADD(i32, f32)
    with pytest.raises(TypeError, match=r"cannot determine the type placeholder 'U'"):
        gpupy.ElementwiseKernel("T x, U y", "T z", "z = x + y", "k2")(f64, 3)
    with pytest.raises(
        TypeError, match=r"placeholder 'T' is float32 .* 'x' got an array of float64"
    ):
        MUL_ADD(f64, f64, gpupy.empty(3, dtype=numpy.float32))
    with pytest.raises(TypeError, match=r"parameter 'y' \(int32\)"):
        MUL_ADD(i32, 1j)
    with pytest.raises(OverflowError, match=r"parameter 'y' \(int32\)"):
        MUL_ADD(i32, 2**40)
    with pytest.raises(TypeError, match=r"parameter 'y' takes a gpupy array or a scalar, got str"):
        MUL_ADD(i32, "2")
    with pytest.raises(
        TypeError,
        match=r"argument 1 must be a gpupy array .* numpy.ndarray; arrays are never copied",
    ):
        MUL_ADD(f64, numpy.ones(3))
    with pytest.raises(TypeError, match=r"output 'z' must be a gpupy array"):
        MUL_ADD(f64, f64, 3.0)
    with pytest.raises(TypeError, match=r"\[ReductionKernel\] type mismatch"):
        gpupy.ReductionKernel("float32 x", "float32 y", "x", "a + b", "y = a", "0")(f64)


def test_call_and_shape_errors(kernel_device):
    a, b = _dev(numpy.ones((3, 4))), _dev(numpy.ones(5))
    with pytest.raises(
        TypeError,
        match=r"\[ElementwiseKernel\] 'mul_add' takes 2 arguments, or 3 with the outputs, got 1",
    ):
        MUL_ADD(a)
    with pytest.raises(ValueError, match=r"shapes \(3, 4\), \(5,\) do not broadcast"):
        MUL_ADD(a, b)
    with pytest.raises(
        ValueError, match=r"output 'z' has shape \(4,\), the arguments broadcast to \(3, 4\)"
    ):
        MUL_ADD(a, a, gpupy.empty(4))
    with pytest.raises(
        ValueError, match=r"size= can only be given when every array parameter is raw"
    ):
        MUL_ADD(a, a, size=3)
    with pytest.raises(ValueError, match=r"loop size is undecided"):
        REVERSE(b)
    with pytest.raises(ValueError, match=r"the size of raw output 'y' is undecided"):
        gpupy.ElementwiseKernel("T x", "raw T y", "y[i] = x", "k3")(b)
    with pytest.raises(ValueError, match=r"\[ElementwiseKernel\] output 'z' is read-only"):
        MUL_ADD(a, a, gpupy.broadcast_to(b[:4], (3, 4)))
    with pytest.raises(ValueError, match=r"block_size must be in 1..1024"):
        MUL_ADD(a, a, block_size=0)
    with pytest.raises(TypeError, match=r"\[ReductionKernel\] 'l2norm' takes 1 arguments, or 2"):
        L2(a, a, a)
    with pytest.raises(AxisError, match=r"\[ReductionKernel\] axis 2 is out of bounds"):
        L2(a, axis=2)
    with pytest.raises(ValueError, match=r"duplicate value in 'axis'"):
        L2(a, axis=(0, -2))
    with pytest.raises(
        ValueError, match=r"output 'y' has shape \(4,\), the reduction gives \(3,\)"
    ):
        L2(a, axis=1, out=gpupy.empty(4))
    with pytest.raises(ValueError, match=r"given both positionally and as out="):
        L2(a, gpupy.empty(3), axis=1, out=gpupy.empty(3))
    with pytest.raises(ValueError, match=r"no array input"):
        gpupy.ReductionKernel("T x", "T y", "x", "a + b", "y = a", "0")(1.0)
    with pytest.raises(NotImplementedError, match=r"\[ReductionKernel\] raw parameters"):
        gpupy.ReductionKernel("raw T x", "T y", "x", "a + b", "y = a", "0")


def test_compile_errors_carry_the_log(kernel_device):
    bad = gpupy.ElementwiseKernel("T x", "T y", "y = no_such_function(x)", "bad_op")
    with pytest.raises(RuntimeError, match=r"(?s)\[ElementwiseKernel\] .*no_such_function"):
        bad(_dev(numpy.ones(3)))
    bad_red = gpupy.ReductionKernel("T x", "T y", "x", "a +* b", "y = a", "0", "bad_red")
    with pytest.raises(RuntimeError, match=r"(?s)\[ReductionKernel\] .*bad_red"):
        bad_red(_dev(numpy.ones(3)))
    raw = gpupy.RawKernel('extern "C" __global__ void k(int n) { undeclared_name = n; }', "k")
    with pytest.raises(RuntimeError, match=r"(?s)\[RawKernel\] .*undeclared_name"):
        raw(1, 1, (3,))


def test_raw_kernel_errors(kernel_device):
    y = _dev(numpy.ones(4, numpy.float32))
    with pytest.raises(ValueError, match=r"\[RawKernel\] no __global__ function 'nope'"):
        gpupy.RawKernel(SAXPY_SRC, "nope")
    with pytest.raises(NotImplementedError, match=r"\[RawKernel\] .*nvrtc"):
        gpupy.RawKernel(SAXPY_SRC, "saxpy", backend="nvcc")
    for option in ("translate_cucomplex", "jitify", "enable_cooperative_groups"):
        with pytest.raises(NotImplementedError, match=r"\[RawKernel\] "):
            gpupy.RawKernel(SAXPY_SRC, "saxpy", **{option: True})
    with pytest.raises(ValueError, match=r"backend must be"):
        gpupy.RawKernel(SAXPY_SRC, "saxpy", backend="hip")
    with pytest.raises(TypeError, match=r"\[RawKernel\] args must be a tuple"):
        SAXPY(1, 4, y)
    with pytest.raises(
        TypeError, match=r"\[RawKernel\] 'saxpy': .*stream must be a gpupy.cuda.Stream"
    ):
        SAXPY(1, 4, (1.0, y, y, 4), stream="default")
    with pytest.raises(TypeError, match=r"\[RawKernel\] 'saxpy': saxpy\(\) takes 4 arguments"):
        SAXPY(1, 4, (1.0, y, y))
    with pytest.raises(TypeError, match=r"argument 0 \(float a\) cannot take a float64 scalar"):
        SAXPY(1, 4, (numpy.float64(1.0), y, y, 4))
    with pytest.raises(TypeError, match=r"must have dtype float32, got float64"):
        SAXPY(1, 4, (1.0, _dev(numpy.ones(4)), y, 4))
    with pytest.raises(OverflowError, match=r"out of range"):
        SAXPY(1, 4, (1.0, y, y, 2**40))
    with pytest.raises(
        ValueError, match=r"\[RawKernel\] 'saxpy': a block has at most 1024 threads"
    ):
        SAXPY(1, 2048, (1.0, y, y, 4))
    with pytest.raises(ValueError, match=r"grid must be an int or a tuple of 1 to 3 ints"):
        SAXPY((1, 1, 1, 1), 4, (1.0, y, y, 4))
    with pytest.raises(TypeError, match=r"arrays are never copied"):
        SAXPY(1, 4, (1.0, numpy.ones(4, numpy.float32), y, 4))


def test_arrays_on_different_devices(kernel_device):
    dev = _dev(numpy.ones(3))
    host = gpupy.ones(3, device="cpu")
    with pytest.raises(ValueError, match=r"\[ElementwiseKernel\] arrays on different devices"):
        MUL_ADD(dev, host)
    with pytest.raises(ValueError, match=r"\[ReductionKernel\] arrays on different devices"):
        L2(dev, out=gpupy.empty((), device="cpu"))
    with pytest.raises(ValueError, match=r"\[RawKernel\] arrays on different devices"):
        SAXPY(1, 4, (1.0, dev, host, 3))


def test_cpu_arrays_are_refused_with_a_pointer_to_emu():
    a = gpupy.ones(3, device="cpu")
    with pytest.raises(
        NotImplementedError, match=r"\[ElementwiseKernel\] .*not on cpu.*device='emu'"
    ):
        MUL_ADD(a, a)
    with pytest.raises(NotImplementedError, match=r"\[ReductionKernel\] .*not on cpu"):
        L2(a)
    with pytest.raises(NotImplementedError, match=r"\[RawKernel\] .*not on cpu"):
        SAXPY(1, 4, (1.0, a, a, 3))
    with (
        gpupy.Device("cpu"),
        pytest.raises(NotImplementedError, match=r"\[RawKernel\] the current device is cpu"),
    ):
        SAXPY.compile()
