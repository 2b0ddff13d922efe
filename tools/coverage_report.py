#!/usr/bin/env python3
"""Which NumPy functions and ufuncs, and which Array API 2024.12 names, gpupy implements.

NumPy functions count as implemented when ``numpy.f(gpupy_array)`` reaches a gpupy function through
__array_function__; ufuncs when gpupy has a function of the same name; Array API names when the
gpupy namespace (or gpupy.linalg / gpupy.fft) defines them. Prints the counts, then the missing
names. Usage: PYTHONPATH=python python tools/coverage_report.py [--missing]
"""

import argparse
import importlib
import sys

import gpupy
import numpy
from gpupy import _interop
from numpy.testing.overrides import get_overridable_numpy_array_functions

# NumPy lists the dispatchable functions of the modules imported so far: import the lazily loaded
# ones, so that the counts do not depend on what the caller imported before.
_LAZY = ("numpy.char", "numpy.lib.recfunctions", "numpy.polynomial.polynomial", "numpy.strings")
for _module in _LAZY:
    importlib.import_module(_module)

# The Array API standard 2024.12: functions and constants of the main namespace.
ARRAY_API_MAIN = """
e inf nan newaxis pi __array_namespace_info__
arange asarray empty empty_like eye from_dlpack full full_like linspace meshgrid ones ones_like
tril triu zeros zeros_like
astype can_cast finfo iinfo isdtype result_type
bool int8 int16 int32 int64 uint8 uint16 uint32 uint64 float32 float64 complex64 complex128
abs acos acosh add asin asinh atan atan2 atanh bitwise_and bitwise_left_shift bitwise_invert
bitwise_or bitwise_right_shift bitwise_xor ceil clip conj copysign cos cosh divide equal exp expm1
floor floor_divide greater greater_equal hypot imag isfinite isinf isnan less less_equal log log1p
log2 log10 logaddexp logical_and logical_not logical_or logical_xor maximum minimum multiply
negative nextafter not_equal positive pow real reciprocal remainder round sign signbit sin sinh
square sqrt subtract tan tanh trunc
take take_along_axis
matmul matrix_transpose tensordot vecdot
broadcast_arrays broadcast_to concat expand_dims flip moveaxis permute_dims repeat reshape roll
squeeze stack tile unstack
argmax argmin count_nonzero nonzero searchsorted where
unique_all unique_counts unique_inverse unique_values
argsort sort
cumulative_prod cumulative_sum max mean min prod std sum var
all any diff
""".split()
ARRAY_API_LINALG = """
cholesky cross det diagonal eigh eigvalsh inv matmul matrix_norm matrix_power matrix_rank
matrix_transpose outer pinv qr slogdet solve svd svdvals tensordot trace vecdot vector_norm
""".split()
ARRAY_API_FFT = """
fft ifft fftn ifftn rfft irfft rfftn irfftn hfft ihfft fftfreq rfftfreq fftshift ifftshift
""".split()


def _qualified(func):
    module = func.__module__ or ""
    prefix = module[len("numpy.") :] + "." if module.startswith("numpy.") else ""
    return prefix + func.__name__


def numpy_functions():
    funcs = {_qualified(f): f for f in get_overridable_numpy_array_functions()}
    done = {n for n, f in funcs.items() if _interop._gpupy_function(f) is not None}
    return set(funcs), done


def numpy_ufuncs():
    names = {n for n in dir(numpy) if isinstance(getattr(numpy, n), numpy.ufunc)}
    done = {n for n in names if callable(getattr(gpupy, n, None))}
    return names, done


def _defined(namespace, name):
    return namespace is not None and hasattr(namespace, name)


def array_api(names, sub=None):
    namespace = gpupy if sub is None else getattr(gpupy, sub, None)
    prefix = "" if sub is None else sub + "."
    done = {prefix + n for n in names if _defined(namespace, n)}
    return {prefix + n for n in names}, done


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--missing", action="store_true", help="list the missing names")
    args = parser.parse_args(argv)
    rows = [
        ("NumPy functions (__array_function__)", *numpy_functions()),
        ("NumPy ufuncs", *numpy_ufuncs()),
        ("Array API 2024.12, main namespace", *array_api(ARRAY_API_MAIN)),
        ("Array API 2024.12, linalg extension", *array_api(ARRAY_API_LINALG, "linalg")),
        ("Array API 2024.12, fft extension", *array_api(ARRAY_API_FFT, "fft")),
    ]
    print(f"gpupy {gpupy.__version__}, NumPy {numpy.__version__}\n")
    print("| category | implemented | total | missing |")
    print("| --- | ---: | ---: | ---: |")
    for label, names, done in rows:
        print(f"| {label} | {len(done)} | {len(names)} | {len(names - done)} |")
    for label, names, done in rows:
        missing = sorted(names - done)
        print(f"\n{label}: {len(missing)} missing")
        if args.missing or len(missing) <= 40:
            print("  " + " ".join(missing))
    return 0


if __name__ == "__main__":
    sys.exit(main())
