"""CudaKernel.included_headers, xp.cuda.resolve_includes / include_hash and the include-hash define
(spec §2.4): editing an included header changes the compile options, so caches recompile."""

import hashlib
import os

import gpupy
import numpy
import pytest
from gpupy import cunumpy as xp

KERNEL = """
#include "params.h"
#include <cunumpy/atomic.cuh>
#include <cstdint>
extern "C" __global__ void scale(double* x, long long n) {
  long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  if (i < n) x[i] *= FACTOR;
}
"""


# more.h includes params.h back (a cycle, listed once); the guard keeps the compiler out of it.
MORE_H = '#pragma once\n#include "../params.h"\n#define FACTOR {factor}\n'


def _write(path, text):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return str(path)


def _expected_hash(paths):
    digest = hashlib.sha256()
    for p in paths:
        data = open(p, "rb").read()
        digest.update(len(data).to_bytes(8, "little") + data)
    return digest.hexdigest()[:16]


@pytest.fixture
def tree(tmp_path):
    """src/params.h includes "sub/more.h" (relative to itself) and "shared.h" (an include dir)."""
    _write(
        tmp_path / "src" / "params.h", '#pragma once\n#include "sub/more.h"\n#include "shared.h"\n'
    )
    _write(tmp_path / "src" / "sub" / "more.h", MORE_H.format(factor=3.0))
    _write(tmp_path / "inc" / "shared.h", '#pragma once\n#if 0\n#include "missing.h"\n#endif\n')
    return tmp_path


def test_resolve_includes_depth_first_each_once(tree):
    found = xp.cuda.resolve_includes(KERNEL, [str(tree / "inc")], base_dir=str(tree / "src"))
    assert found == [
        str(tree / "src" / "params.h"),
        str(tree / "src" / "sub" / "more.h"),
        str(tree / "inc" / "shared.h"),
    ]


def test_angle_includes_only_from_the_given_dirs(tree):
    shipped = tree / "shipped"
    _write(shipped / "cunumpy" / "atomic.cuh", "// shipped\n")
    found = xp.cuda.resolve_includes(KERNEL, base_dir=str(tree / "src"), angle_dirs=[str(shipped)])
    assert str(shipped / "cunumpy" / "atomic.cuh") in found
    assert not any(p.endswith("cstdint") for p in found)


def test_include_hash_is_sha256_of_lengths_and_contents(tree):
    paths = [str(tree / "src" / "params.h"), str(tree / "inc" / "shared.h")]
    assert xp.cuda.include_hash(paths) == _expected_hash(paths)
    assert xp.cuda.include_hash([]) == hashlib.sha256().hexdigest()[:16]


def test_source_without_includes_has_no_headers_and_no_define():
    k = xp.CudaKernel('extern "C" __global__ void f(double* x) { x[0] = 1; }', "f")
    assert k.included_headers == []
    assert not any(o.startswith("-DCUNUMPY_INCLUDE_HASH") for o in k.compile_options())


def test_kernel_headers_and_define_follow_the_files(tree):
    k = xp.CudaKernel(
        KERNEL, "scale", include_dirs=[str(tree / "inc")], source_dir=str(tree / "src")
    )
    headers = k.included_headers
    assert headers[0] == str(tree / "src" / "params.h")
    assert any(h.endswith(os.path.join("cunumpy", "atomic.cuh")) for h in headers)
    define = [o for o in k.compile_options() if o.startswith("-DCUNUMPY_INCLUDE_HASH=0x")]
    assert define == [f"-DCUNUMPY_INCLUDE_HASH=0x{_expected_hash(headers)}"]
    _write(tree / "src" / "sub" / "more.h", "#define FACTOR 5.0\n")
    assert [o for o in k.compile_options() if o.startswith("-DCUNUMPY")] != define


def test_editing_a_header_recompiles_on_emu(tree, device_name):
    if device_name != "emu":
        pytest.skip("kernels run on emu here")
    src = str(tree / "src")
    x = gpupy.ones(4)
    xp.CudaKernel(KERNEL, "scale", source_dir=src, include_dirs=[str(tree / "inc")])(
        x, 4, n_threads=4
    )
    numpy.testing.assert_array_equal(x.get(), numpy.full(4, 3.0))
    _write(tree / "src" / "sub" / "more.h", "#define FACTOR 5.0\n")
    y = gpupy.ones(4)
    xp.CudaKernel(KERNEL, "scale", source_dir=src, include_dirs=[str(tree / "inc")])(
        y, 4, n_threads=4
    )
    numpy.testing.assert_array_equal(y.get(), numpy.full(4, 5.0))
