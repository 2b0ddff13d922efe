"""gpupy.cunumpy.kernel_testing: parity checks that run the host kernel and the CUDA kernel (on
emu without a GPU) and compare, including a deliberately wrong CUDA port that must fail."""

import numpy
import pytest
from gpupy import cunumpy as xp
from gpupy.cunumpy import kernel_testing as kt
from kernel_packages import SCALE_CUDA, SCALE_WRONG_CUDA, standard

backend = kt.backend  # the parametrised fixture: numpy, then the device backend


def _scale(x, f, n):
    for i in range(n):
        x[i] = f * x[i]


def _make_args(backend, seed):
    x = numpy.random.default_rng(seed).random(500)
    return xp.to_cunumpy(x), 1.5, 500


def test_kernels_agree_and_wrong_port_fails():
    k = xp.Kernel(_scale, xp.CudaKernel(SCALE_CUDA, "scale"))
    got = kt.assert_kernels_agree(k, _make_args, n_threads=500, n_calls=2)
    assert list(got) == ["argument 0"]
    numpy.testing.assert_allclose(got["argument 0"], 2.25 * _make_args("numpy", 0)[0])
    wrong = xp.Kernel(_scale, xp.CudaKernel(SCALE_WRONG_CUDA, "scale"))
    with pytest.raises(AssertionError, match="scale: argument 0 differs between the host and CUDA"):
        kt.assert_kernels_agree(wrong, _make_args, n_threads=500)
    kt.assert_kernels_agree(wrong, _make_args, n_threads=500, atol=1e-2)


def test_outputs_selection():
    k = xp.Kernel(_scale, xp.CudaKernel(SCALE_CUDA, "scale"))
    assert list(kt.assert_kernels_agree(k, _make_args, n_threads=lambda a: a[2], outputs=("x",)))
    with pytest.raises(KeyError, match="no parameter named 'y'"):
        kt.assert_kernels_agree(k, _make_args, n_threads=500, outputs=("y",))
    with pytest.raises(IndexError):
        kt.assert_kernels_agree(k, _make_args, n_threads=500, outputs=(5,))


def test_argument_errors():
    with pytest.raises(TypeError, match="needs a Kernel"):
        kt.assert_kernels_agree(_scale, _make_args)
    with pytest.raises(ValueError, match="kernel '_scale' has no CUDA version"):
        kt.assert_kernels_agree(xp.Kernel(_scale), _make_args)
    k = xp.Kernel(_scale, xp.CudaKernel(SCALE_CUDA, "scale"))
    with pytest.raises(ValueError, match="n_calls"):
        kt.assert_kernels_agree(k, _make_args, n_threads=1, n_calls=0)
    k.cuda_kernel.n_threads_from = None
    with pytest.raises(TypeError, match="pass n_threads or grid"):
        kt.assert_kernels_agree(k, _make_args)


def test_parity_cases_and_check_parity(tmp_path):
    catalog = xp.KernelCatalog.from_package(standard(tmp_path))
    cases = kt.parity_cases(catalog)
    assert [c.id for c in cases] == ["scale"] and not cases[0].marks
    kt.check_parity(catalog["scale"])
    bad = xp.KernelCatalog.from_package(standard(tmp_path, SCALE_WRONG_CUDA))
    with pytest.raises(AssertionError, match="differs between the host and CUDA kernels"):
        kt.check_parity(bad["scale"])
    kt.check_parity(bad["scale"], atol=1e-2)
    no_args = xp.Kernel(_scale, xp.CudaKernel(SCALE_CUDA, "scale"))
    with pytest.raises(ValueError, match="no test-arguments module"):
        kt.check_parity(no_args)
    unmarked = kt.parity_cases(xp.KernelCatalog([no_args]))
    assert "no test arguments for '_scale'" in unmarked[0].marks[0].kwargs["reason"]


def test_require_cuda_flag(monkeypatch):
    monkeypatch.setenv("CUNUMPY_REQUIRE_CUDA", "yes")
    assert kt.cuda_required() and not kt._skip_device()
    monkeypatch.setenv("CUNUMPY_REQUIRE_CUDA", "0")
    assert not kt.cuda_required()
    assert kt._skip_device() == (not kt.device_backend_available())


@kt.requires_device_backend
def test_marker_runs_with_a_device():
    assert kt.device_backend_available()


def test_backend_fixture(backend):
    x = xp.to_cunumpy(numpy.arange(3.0))
    assert xp.get_backend() == backend and xp.get_array_backend(x) == backend
