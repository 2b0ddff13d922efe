"""Regressions found by running the Array API conformance suite (docs/array_api_conformance.md),
each checked against NumPy and the 2024.12 standard's wording."""

import gpupy
import numpy as np
import pytest


@pytest.mark.parametrize("name", ["float32", "float64", "complex64", "complex128"])
def test_finfo_attribute_types_follow_the_standard(name):
    got = gpupy.finfo(getattr(gpupy, name))
    ref = np.finfo(getattr(np, name))
    assert type(got.bits) is int and got.bits == int(ref.bits)
    for attr in ("eps", "max", "min", "smallest_normal"):
        value = getattr(got, attr)
        assert type(value) is float, attr
        assert value == float(getattr(ref, attr)), attr
    assert got.dtype == ref.dtype


def test_finfo_keeps_numpy_compatibility():
    got = gpupy.finfo(gpupy.float32)
    ref = np.finfo(np.float32)
    assert got == ref and ref == got
    assert got.resolution == ref.resolution and got.precision == ref.precision
    assert got.tiny == ref.tiny and repr(got) == repr(ref)
    assert gpupy.finfo(gpupy.float64) != ref
    with pytest.raises(ValueError):
        gpupy.finfo(gpupy.int32)
