"""gpupy.cunumpy.MetalKernel on a machine without Metal: argument validation, then a clear error
at construction."""

import sys

import pytest
from gpupy import cunumpy as xp

BODY = "uint i = thread_position_in_grid.x; out[i] = 2 * x[i];"


@pytest.mark.parametrize(
    ("kw", "message"),
    [
        ({"float64": "maybe"}, "float64 must be"),
        ({"outputs": ()}, "at least one output"),
        ({"inputs": ("x", "x")}, "duplicate"),
        ({"threadgroup": 0}, "positive"),
        ({"threadgroup": (1, 2, 3, 4)}, "1 to 3"),
    ],
)
def test_argument_errors(kw, message):
    args = {"inputs": ("x",), "outputs": ("out",), **kw}
    with pytest.raises(ValueError, match=message):
        xp.MetalKernel(BODY, args.pop("inputs"), args.pop("outputs"), **args)


@pytest.mark.skipif(xp.metal_available(), reason="this machine has Metal")
def test_no_metal_raises():
    assert xp.metal_available() is False
    with pytest.raises((ImportError, RuntimeError), match="MLX|Metal"):
        xp.MetalKernel(BODY, ["x"], ["out"])


@pytest.mark.skipif(sys.platform == "darwin", reason="Metal may exist on macOS")
def test_not_apple_is_runtime_error():
    with pytest.raises(RuntimeError, match="MetalKernel needs Apple's Metal"):
        xp.MetalKernel(BODY, ["x"], ["out"])
