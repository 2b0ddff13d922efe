"""gpupy.ReductionKernel's two-pass layout (several blocks per output when the outputs are few
and the reductions long) on emu and cuda: results against NumPy, and which sizes split."""

import gpupy
import numpy
import pytest
from gpupy import _core
from gpupy._user_kernels import _common, reduction

RNG = numpy.random.default_rng(11)
MIN_SHARE = reduction._MIN_SHARE

SUM = gpupy.ReductionKernel("T x", "T y", "x", "a + b", "y = a", "0", "split_sum")
L2 = gpupy.ReductionKernel("T x", "T y", "x * x", "a + b", "y = sqrt(a)", "0", "split_l2")
MAX_ABS = gpupy.ReductionKernel("T x", "T y", "abs(x)", "max(a, b)", "y = a", None, "split_mabs")
MAX = gpupy.ReductionKernel("T x", "T y", "x", "max(a, b)", "y = a", None, "split_max")


def _dev(h):
    return gpupy.asarray(h)


@pytest.fixture
def launches(monkeypatch):
    """The number of kernel launches each reduction makes (2 when it splits, else 1)."""
    calls = []
    real = _common.launch

    def counting(*args, **kwargs):
        calls.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(_common, "launch", counting)
    return calls


@pytest.mark.parametrize("n", [1_000_000, 1_000_003, 2 * MIN_SHARE, 12_345])
def test_axis_none_sum_l2_max_abs(kernel_device, n, launches):
    h = RNG.standard_normal(n)
    g = _dev(h)
    numpy.testing.assert_allclose(SUM(g).get(), h.sum(), rtol=1e-10)
    numpy.testing.assert_allclose(L2(g).get(), numpy.sqrt((h * h).sum()), rtol=1e-12)
    assert MAX_ABS(g).get() == numpy.abs(h).max()  # max is order independent: exact
    assert len(launches) == 6  # every one of them split in two passes


def test_integer_sums_are_exact_around_the_split_threshold(kernel_device, launches):
    for n in [2 * MIN_SHARE - 1, 2 * MIN_SHARE, 2 * MIN_SHARE + 1, 8 * MIN_SHARE + 257]:
        h = RNG.integers(-(10**9), 10**9, n)
        launches.clear()
        assert SUM(_dev(h)).get() == h.sum()
        assert MAX(_dev(h)).get() == h.max()
        assert len(launches) == (2 if n < 2 * MIN_SHARE else 4), n


def test_split_count_from_the_device_limits(kernel_device):
    assert reduction._splits(1, 2 * MIN_SHARE - 1, kernel_device) == 1
    assert reduction._splits(1, 2 * MIN_SHARE, kernel_device) == 2
    if kernel_device == "emu":
        assert reduction._splits(1, 1 << 30, "emu") == reduction._EMU_BLOCKS
        assert reduction._splits(reduction._EMU_BLOCKS // 2 + 1, 1 << 30, "emu") == 1
    else:
        sms = gpupy.cuda.get_device_properties(0)["multiprocessor_count"]
        assert reduction._splits(1, 1 << 30, kernel_device) == 4 * sms * 8
        assert reduction._splits(4 * sms * 4 + 1, 1 << 30, kernel_device) == 1


def test_identity_none_folds_only_real_elements(kernel_device):
    # all negative: a fold that started from a zero (or a default value) would return 0
    h = -numpy.abs(RNG.standard_normal(300_001)) - 1.0
    assert MAX(_dev(h)).get() == h.max()
    rows = -numpy.abs(RNG.standard_normal((3, 70_001))) - 5.0
    numpy.testing.assert_array_equal(MAX(_dev(rows), axis=1).get(), rows.max(axis=1))


def test_post_map_expr_is_applied_once(kernel_device, launches):
    k = gpupy.ReductionKernel("T x", "T y", "x", "a + b", "y = a * 2 + 1", "0", "split_post")
    h = RNG.integers(-1000, 1000, 100_000)
    assert k(_dev(h)).get() == 2 * h.sum() + 1
    rows = h.reshape(4, 25_000)
    numpy.testing.assert_array_equal(k(_dev(rows), axis=1).get(), 2 * rows.sum(axis=1) + 1)
    assert len(launches) == 4


def test_reduce_type_differs_from_the_output_type(kernel_device, launches):
    wide = gpupy.ReductionKernel(
        "int8 x", "int64 y", "x", "a + b", "y = a", "0", "split_wide", reduce_type="long long"
    )
    h = numpy.full(1_000_001, 100, dtype=numpy.int8)
    assert wide(_dev(h)).get() == 100 * 1_000_001
    # float32 data accumulated in double: the result is the float64 sum rounded once
    acc = gpupy.ReductionKernel(
        "float32 x", "float32 y", "x", "a + b", "y = a", "0", "split_acc", reduce_type="double"
    )
    f = RNG.standard_normal(500_000).astype(numpy.float32)
    ref = numpy.float32(f.astype(numpy.float64).sum())
    numpy.testing.assert_allclose(acc(_dev(f)).get(), ref, rtol=1e-6)
    half = gpupy.ReductionKernel(
        "T x", "T y", "x", "a + b", "y = a", "0", "split_half", reduce_type="float"
    )
    hh = RNG.integers(0, 2, 30_000).astype(numpy.float16)
    assert float(half(_dev(hh)).get()) == float(numpy.float16(hh.astype(numpy.float64).sum()))
    assert len(launches) == 6


def test_complex_and_strided_inputs(kernel_device, launches):
    h = RNG.standard_normal(200_001) + 1j * RNG.standard_normal(200_001)
    numpy.testing.assert_allclose(SUM(_dev(h)).get(), h.sum(), rtol=1e-10)
    base = RNG.standard_normal((60_000, 6))
    view = _dev(base).T[::2]  # (3, 60000), non-contiguous
    numpy.testing.assert_allclose(
        L2(view, axis=1).get(), numpy.sqrt((base.T[::2] ** 2).sum(axis=1)), rtol=1e-12
    )
    assert len(launches) == 4


@pytest.mark.parametrize("axis", [None, 1, (1, 2)])
def test_keepdims_and_several_reduced_axes(kernel_device, axis, launches):
    h = RNG.standard_normal((2, 300, 41))
    r = L2(_dev(h), axis=axis, keepdims=True)
    ref = numpy.sqrt((h * h).sum(axis=axis, keepdims=True))
    assert r.shape == ref.shape
    numpy.testing.assert_allclose(r.get(), ref, rtol=1e-12)
    m = MAX_ABS(_dev(h), axis=axis, keepdims=True)
    numpy.testing.assert_array_equal(m.get(), numpy.abs(h).max(axis=axis, keepdims=True))
    assert len(launches) == (4 if axis != 1 else 2)  # axis=1 leaves 82 outputs: one pass


def test_multiple_outputs_and_a_scalar_input_in_post_map(kernel_device, launches):
    stats = gpupy.ReductionKernel(
        "T x, float64 n",
        "T total, float64 mean, int32 flag",
        "x",
        "a + b",
        "total = a, mean = a / n, flag = 7",
        "0",
        "split_stats",
    )
    h = RNG.standard_normal((4, 30_000))
    total, mean, flag = stats(_dev(h), 30_000.0, axis=1)
    numpy.testing.assert_allclose(total.get(), h.sum(axis=1), rtol=1e-10)
    numpy.testing.assert_allclose(mean.get(), h.mean(axis=1), rtol=1e-10)
    numpy.testing.assert_array_equal(flag.get(), numpy.full(4, 7, numpy.int32))
    outs = (gpupy.empty(()), gpupy.empty(()), gpupy.empty((), dtype=numpy.int32))
    stats(_dev(h), float(h.size), *outs)
    numpy.testing.assert_allclose(outs[1].get(), h.mean(), rtol=1e-10)
    assert len(launches) == 4


def test_a_reduce_type_gpupy_cannot_size_keeps_one_pass(kernel_device, launches):
    k = gpupy.ReductionKernel(
        "T x", "int64 y", "x", "a + b", "y = a", "0", "split_unsized", reduce_type="long long int"
    )
    h = RNG.integers(-(10**6), 10**6, 100_000)
    assert k(_dev(h)).get() == h.sum()
    assert len(launches) == 1  # "long long int" is not in gpupy's table: no partials buffer


def test_empty_inputs(kernel_device):
    assert L2(_dev(numpy.zeros(0))).get() == 0.0
    with pytest.raises(ValueError, match=r"\[ReductionKernel\] zero-size array .* no identity"):
        MAX(_dev(numpy.zeros((0, 100_000))))
    assert MAX(_dev(numpy.zeros((0, 100_000))), axis=1).shape == (0,)
    numpy.testing.assert_array_equal(
        L2(_dev(numpy.zeros((3, 0))), axis=1, keepdims=True).get(), numpy.zeros((3, 1))
    )


def test_split_sources_compile_with_nvrtc(kernel_device):
    ok, reason = _core._nvrtc_available()
    if not ok:
        pytest.skip(f"NVRTC unavailable: {reason}")
    h = RNG.standard_normal(50_000)
    SUM(_dev(h))
    SUM(_dev(h + 1j))
    MAX(_dev(h.astype(numpy.float32)))
    L2(_dev(h.reshape(2, 25_000)), axis=1, keepdims=True)
    kernels = [*SUM.cached_codes.values(), *MAX.cached_codes.values(), *L2.cached_codes.values()]
    assert len(kernels) >= 4
    for k in kernels:
        assert len(k.cubin()) > 0
