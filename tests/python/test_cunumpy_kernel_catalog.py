"""gpupy.cunumpy.Kernel and KernelCatalog: host/CUDA pairs, dispatch, fallback and the folder
convention."""

import inspect

import gpupy
import numpy
import pytest
from gpupy import cunumpy as xp
from kernel_packages import SCALE_CUDA, SCALE_HOST, SWAP_CUDA, SWAP_HOST, standard, write_package


@pytest.fixture
def emu(device_name):
    if device_name != "emu":
        pytest.skip("CUDA kernel launches need --device=emu here")


def _host_scale(x, f, n):
    for i in range(n):
        x[i] = f * x[i]


def test_constructor_checks():
    with pytest.raises(ValueError, match="dispatch must be one of"):
        xp.Kernel(_host_scale, dispatch="auto")
    with pytest.raises(ValueError, match="missing_cuda"):
        xp.Kernel(_host_scale, missing_cuda="ignore")
    with pytest.raises(TypeError, match="cuda_kernel must be a CudaKernel or None, got function"):
        xp.Kernel(_host_scale, _host_scale)
    with pytest.raises(ValueError, match="host_options are for wrapping a plain callable"):
        xp.Kernel(xp.PyccelKernel(_host_scale), host_options={"outputs": (0,)})
    k = xp.Kernel(_host_scale, host_options={"outputs": (0,)})
    assert k.name == "_host_scale" and k.host_kernel.outputs == (0,) and not k.has_cuda
    assert k.host_kernel.parameters == ["x", "f", "n"]


def test_numpy_backend_calls_the_host_kernel():
    k = xp.Kernel(_host_scale, xp.CudaKernel(SCALE_CUDA, "scale"))
    x = numpy.ones(3)
    with xp.assert_no_transfers():
        k(x, 2.0, 3, n_threads=99)
    numpy.testing.assert_array_equal(x, 2.0)
    assert k.get_kernel() is k.host_kernel and k.selected() == "host"


def test_gpu_backend_launches_cuda(emu):
    k = xp.Kernel(_host_scale, xp.CudaKernel(SCALE_CUDA, "scale"))
    with xp.use_backend("gpupy"):
        x = gpupy.ones(300)
        with xp.assert_no_transfers():
            k(x, 2.0, 300, n_threads=300)
        numpy.testing.assert_array_equal(gpupy.asnumpy(x), 2.0)
        assert k.selected(device=True) == "cuda" and k.compile() is True


def test_missing_cuda_raise_and_fallback(emu):
    with xp.use_backend("gpupy"):
        x = gpupy.ones(4)
        strict = xp.Kernel(_host_scale, cuda_path="k/scale_cuda.cu")
        with pytest.raises(NotImplementedError, match=r"expected k/scale_cuda.cu\)\.$"):
            strict(x, 2.0, 4)
        k = xp.Kernel(_host_scale, missing_cuda="fallback")
        with pytest.warns(RuntimeWarning, match="copies its arrays to the host and back"):
            k(x, 2.0, 4)
        with xp.count_transfers() as c:
            k(x, 2.0, 4)  # warned once per Kernel
        numpy.testing.assert_array_equal(gpupy.asnumpy(x), 4.0)
        assert (c.fallbacks, c.kernel_conversions, c.to_host, c.to_device) == (1, 1, 1, 1)
        assert "Kernel '_host_scale' has no CUDA kernel: host kernel called on the" in str(
            c.events[0]
        )
        assert k.selected(device=True) == "host" and k.compile() is False


def test_dispatch_by_arrays(emu):
    k = xp.Kernel(_host_scale, xp.CudaKernel(SCALE_CUDA, "scale"), dispatch="arrays")
    h = numpy.ones(4)
    k(h, 3.0, 4)  # NumPy data: the host kernel, whatever the backend
    d = gpupy.ones(4, device="emu")
    k(d, 3.0, 4, n_threads=4)
    numpy.testing.assert_array_equal(h, 3.0)
    numpy.testing.assert_array_equal(gpupy.asnumpy(d), 3.0)
    k.cuda_kernel.n_threads_from = None
    with pytest.raises(ValueError, match="scale: n_threads is required"):
        xp.Kernel(_host_scale, k.cuda_kernel, dispatch="arrays", name="scale")(d, 3.0, 4)


def test_check_signature():
    k = xp.Kernel(_host_scale, xp.CudaKernel(SCALE_CUDA, "scale"))
    k.check_signature()
    bad = xp.Kernel(lambda x, n, dt: None, xp.CudaKernel(SWAP_CUDA, "swap"), name="swap")
    with pytest.raises(ValueError, match=r"the host kernel takes \(x, n, dt\), the CUDA kernel"):
        bad.check_signature()


def test_catalog_from_package(tmp_path):
    catalog = xp.KernelCatalog.from_package(standard(tmp_path), missing_cuda="fallback")
    assert list(catalog) == ["scale", "shift"] and len(catalog) == 2 and "scale" in catalog
    assert catalog.summary() == "CUDA kernels: 1 of 2 (missing: shift)" == str(catalog)
    assert repr(catalog) == "KernelCatalog(2 kernels, 1 without CUDA)"
    assert catalog.with_cuda == ["scale"] and catalog.without_cuda == ["shift"]
    assert [n for n, _ in catalog.parity_cases()] == ["scale"]
    assert catalog["scale"].test_args.N_THREADS == 1000 and catalog["shift"].test_args is None
    assert catalog["shift"].cuda_path.endswith("shift/shift_cuda.cu")
    catalog.check_signatures()
    with pytest.raises(TypeError, match="expected a Kernel, got int"):
        catalog.register(3)
    with pytest.raises(KeyError, match="a kernel named 'scale' is already registered"):
        catalog.register(catalog["scale"])


def test_catalog_summary_format():
    names = [f"k{i:02d}" for i in range(12)]
    catalog = xp.KernelCatalog([xp.Kernel(lambda: None, name=n) for n in names])
    assert catalog.summary(max_missing=1) == "CUDA kernels: 0 of 12 (missing: k00, ...)"
    assert xp.KernelCatalog().summary() == "CUDA kernels: 0 of 0"


def test_catalog_signature_mismatch_and_folder_errors(tmp_path):
    pkg = write_package(tmp_path, {"swap": {"_kernels.py": SWAP_HOST, "_cuda.cu": SWAP_CUDA}})
    catalog = xp.KernelCatalog.from_package(pkg)
    with pytest.raises(ValueError, match="host and CUDA kernels take different parameters:\n"):
        catalog.check_signatures()
    with pytest.raises(ModuleNotFoundError, match="is not a package"):
        xp.Kernel.from_folder("gpupy.cunumpy.kernel")
    empty = write_package(tmp_path, {"lost": {"_cuda.cu": SWAP_CUDA}})
    with pytest.raises(FileNotFoundError, match="has no host kernel lost_kernels.py"):
        xp.Kernel.from_folder(f"{empty}.lost")
    misnamed = write_package(tmp_path, {"gone": {"_kernels.py": "def other():\n    pass\n"}})
    with pytest.raises(
        AttributeError, match=r"\[Kernel.from_folder\] .*gone_kernels has no function 'gone'"
    ):
        xp.Kernel.from_folder(f"{misnamed}.gone")
    long = "a" * 49
    pkg = write_package(tmp_path, {long: {"_kernels.py": f"def {long}():\n    pass\n"}})
    with pytest.warns(UserWarning, match="too long"):
        xp.Kernel.from_folder(f"{pkg}.{long}")


def test_catalog_compile_all(tmp_path, device_name):
    catalog = xp.KernelCatalog.from_package(standard(tmp_path))
    if device_name == "cpu":
        with pytest.raises(RuntimeError, match="default device is cpu"):
            catalog.compile_all()
    elif device_name == "emu":
        assert catalog.compile_all(jobs=2) == ["scale"]
        assert catalog["scale"].cuda_kernel.is_compiled


def test_catalog_with_pyccel_host(tmp_path):
    from host_compilers import compile_host_with_pyccel

    pytest.importorskip("pyccel")
    pkg = write_package(tmp_path, {"scale": {"_kernels.py": SCALE_HOST}})
    catalog = xp.KernelCatalog.from_package(pkg, compile_host=compile_host_with_pyccel)
    k = catalog["scale"]
    x = numpy.ones(3)
    k(x, 4.0, 3)
    numpy.testing.assert_array_equal(x, 4.0)
    assert k.selected() == "pyccel" and not inspect.isfunction(k.host_kernel.kernel.get("pyccel"))
    assert k.host_parameters() == ["x", "f", "n"]
