#!/usr/bin/env python3
"""Runs NumPy's own test files against gpupy: copies them to a temporary folder, rewrites their
imports so that `np` (and `from numpy... import`) resolve to gpupy on the chosen device, runs
pytest on each file in its own process and writes a per-file table plus the failing test ids.

A name gpupy lacks resolves to NumPy's (dtypes such as longdouble, numpy.ma, private helpers), so
a test file still imports; the table lists which public NumPy names a file fell back to. Not part
of tools/test.sh: NumPy's tests encode NumPy's behaviour, including what gpupy deliberately does
differently (docs/numpy_differences.md), so failures need triage.

  python tools/numpy_suite.py --device cpu                      # the default file list
  python tools/numpy_suite.py lib/tests/test_arraypad.py --ids  # one file, failing ids
  python tools/numpy_suite.py "_core/tests/test_umath.py::TestLog,TestExp"  # selected classes
"""

import argparse
import json
import os
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile
import time

import numpy

NUMPY_DIR = pathlib.Path(numpy.__file__).parent
REPO = pathlib.Path(__file__).resolve().parent.parent

DEFAULT_FILES = [
    "lib/tests/test_function_base.py",
    "lib/tests/test_shape_base.py",
    "lib/tests/test_twodim_base.py",
    "lib/tests/test_nanfunctions.py",
    "lib/tests/test_arraysetops.py",
    "lib/tests/test_index_tricks.py",
    "lib/tests/test_arraypad.py",
    "lib/tests/test_histograms.py",
    "_core/tests/test_numeric.py",
    "_core/tests/test_shape_base.py",
    "_core/tests/test_umath.py",
    "_core/tests/test_multiarray.py",
    "linalg/tests/test_linalg.py",
    "fft/tests/test_pocketfft.py",
    "_core/tests/test_indexing.py",
    "_core/tests/test_einsum.py",
    "_core/tests/test_item_selection.py",
    "_core/tests/test_ufunc.py",
    "lib/tests/test_type_check.py",
    "lib/tests/test_ufunclike.py",
    "lib/tests/test_stride_tricks.py",
    "lib/tests/test_polynomial.py",
    "polynomial/tests/test_polynomial.py",
    "_core/tests/test_numerictypes.py",
]

# NumPy modules whose names resolve to gpupy's (where gpupy has the name); imports from any other
# numpy module (numpy.ma, numpy.exceptions, C test helpers) are left to NumPy.
SHIMMED = re.compile(
    r"^(_core(\.(numeric|shape_base|umath|multiarray|fromnumeric|function_base))?"
    r"|lib(\._\w+_impl|\.stride_tricks|\.scimath)?|linalg(\._linalg)?|fft|random|testing"
    r"|polynomial(\.polynomial)?)$"
)

SHIM_PACKAGE = r'''"""numpy for the rewritten test files: gpupy's names, else NumPy's."""

import atexit
import importlib
import importlib.abc
import importlib.util
import json
import os
import re
import sys
import types

import numpy

import gpupy
import gpupy.fft
import gpupy.lib.scimath
import gpupy.lib.stride_tricks
import gpupy.linalg
import gpupy.polynomial
import gpupy.random
import gpupy.testing

gpupy.set_default_device(os.environ.get("GPUPY_SUITE_DEVICE", "cpu"))
SHIMMED = re.compile(__SHIMMED__)
_GPUPY_FOR = {
    "linalg": gpupy.linalg,
    "linalg._linalg": gpupy.linalg,
    "fft": gpupy.fft,
    "random": gpupy.random,
    "testing": gpupy.testing,
    "lib.stride_tricks": gpupy.lib.stride_tricks,
    "lib.scimath": gpupy.lib.scimath,
    "polynomial": gpupy.polynomial,
    "polynomial.polynomial": gpupy.polynomial.polynomial,
}
FALLBACKS = set()


COLLECTING = [False]  # set by the conftest while pytest imports the test file
_COLLECT_SAFE = ("array", "asarray", "zeros", "ones", "empty", "full", "arange", "finfo", "iinfo",
                 "can_cast", "result_type", "promote_types")


def _collect_safe(name, make):
    # A parametrize list or class body holding an input gpupy refuses (an object array) would stop
    # the whole file from collecting; while collecting, such inputs become NumPy arrays.
    def create(*args, **kwargs):
        try:
            return make(*args, **kwargs)
        except (TypeError, ValueError, OverflowError):
            if not COLLECTING[0]:
                raise
            FALLBACKS.add(f"collected {name}")
            return getattr(numpy, name)(*args, **kwargs)

    return create


class _Shim(types.ModuleType):
    def __getattr__(self, name):
        path = self.__dict__["_path"]
        full = f"{path}.{name}" if path else name
        real = importlib.import_module(f"numpy.{path}") if path else numpy
        if isinstance(getattr(real, name, None), types.ModuleType):
            if SHIMMED.match(full):
                return importlib.import_module(f"{__name__}.{full}")
            return getattr(real, name)
        ns = _GPUPY_FOR.get(path, gpupy)
        if not name.startswith("_") and hasattr(ns, name):
            if ns is gpupy and name in _COLLECT_SAFE:
                return _collect_safe(name, getattr(ns, name))
            return getattr(ns, name)
        value = getattr(real, name)
        if not name.startswith("_") and not path.startswith("testing"):
            FALLBACKS.add(full)
        return value


class _Finder(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    def find_spec(self, fullname, path=None, target=None):
        if fullname.startswith(__name__ + "."):
            return importlib.util.spec_from_loader(fullname, self)
        return None

    def create_module(self, spec):
        sub = spec.name[len(__name__) + 1 :]
        if not SHIMMED.match(sub):
            return importlib.import_module(f"numpy.{sub}")
        module = _Shim(spec.name)
        module._path = sub
        return module

    def exec_module(self, module):
        pass


sys.meta_path.insert(0, _Finder())
_path = ""


def __getattr__(name):
    return _Shim.__getattr__(sys.modules[__name__], name)


def _write_fallbacks():
    out = os.environ.get("GPUPY_SUITE_FALLBACKS")
    if out:
        with open(out, "w") as f:
            json.dump(sorted(FALLBACKS), f)


atexit.register(_write_fallbacks)
'''

# Records each test's outcome as it happens (a crash still leaves the ones before it) and stops a
# test that runs longer than the limit where Python code runs.
CONFTEST = r"""import json
import os
import signal

import pytest

_LOG = open(os.environ["GPUPY_SUITE_LOG"], "a")
_LIMIT = int(os.environ.get("GPUPY_SUITE_TEST_TIMEOUT", "60"))


def pytest_configure(config):
    for marker in ("slow", "leaks_references", "xslow", "thread_unsafe", "iterations",
                   "parallel_threads", "limited_api", "multithreaded"):
        config.addinivalue_line("markers", marker)


def pytest_collectstart(collector):
    import _gpupy_np

    _gpupy_np.COLLECTING[0] = True


def pytest_collection_finish(session):
    import _gpupy_np

    _gpupy_np.COLLECTING[0] = False


def _write(**record):
    _LOG.write(json.dumps(record) + "\n")
    _LOG.flush()


def pytest_runtest_logstart(nodeid, location):
    _write(start=nodeid)


def _message(report):
    crash = getattr(report.longrepr, "reprcrash", None)
    if crash is not None:
        return crash.message.splitlines()[0][:300] if crash.message else ""
    if isinstance(report.longrepr, tuple):
        return str(report.longrepr[2])[:300]
    return str(report.longrepr or "").splitlines()[-1][:300] if report.longrepr else ""


def pytest_runtest_logreport(report):
    if report.when == "call" or report.outcome != "passed":
        outcome = report.outcome
        if report.when != "call" and outcome == "failed":
            outcome = "error"
        if hasattr(report, "wasxfail"):
            outcome = "xfailed" if report.skipped else "xpassed"
        _write(id=report.nodeid, outcome=outcome, when=report.when, message=_message(report))


def pytest_collectreport(report):
    if report.failed:
        _write(id=report.nodeid, outcome="error", when="collect", message=_message(report))


_STATUS = [0]


def pytest_sessionfinish(session, exitstatus):
    _STATUS[0] = int(exitstatus)


def pytest_unconfigure(config):
    # a test's leftover non-daemon thread (test_linalg.py's) must not keep the process alive
    _LOG.flush()
    os._exit(_STATUS[0])


class SuiteTimeout(Exception):
    pass


def _alarm(signum, frame):
    raise SuiteTimeout(f"test ran longer than {_LIMIT}s")


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_call(item):
    signal.signal(signal.SIGALRM, _alarm)
    signal.alarm(_LIMIT)
    try:
        yield
    finally:
        signal.alarm(0)
"""

# Module-level code that gpupy cannot run (object dtype in a class body) would stop a whole file
# from collecting: such inputs are made NumPy arrays, so only the tests that use them fail.
PATCHES = {
    "lib/tests/test_function_base.py": [
        (
            "    d = a.astype(object)\n",
            "    d = __import__('numpy').array(a.tolist(), dtype=object)\n",
        ),
    ],
    "_core/tests/test_numeric.py": [
        (
            '    t1 = b1.astype("timedelta64")\n    t2 = b2.astype("timedelta64")\n',
            '    t1 = __import__("numpy").array(b1.tolist()).astype("timedelta64")\n'
            '    t2 = __import__("numpy").array(b2.tolist()).astype("timedelta64")\n',
        ),
    ],
    # The object-loop ufuncs are read from umath's namespace, which the shim does not have (an empty
    # list: TestUfuncGenericLoops' object tests are skipped); a parametrize generator makes an
    # unaligned view, which gpupy refuses: NumPy's array (its tests fail as 'aligned').
    "_core/tests/test_ufunc.py": [
        ("UNARY_OBJECT_UFUNCS.remove(np.bitwise_count)\n", ""),
        (
            "        a = np.empty((3 * 4 * 5 * 8 + 1,), dtype='i1')\n",
            "        a = __import__('numpy').empty((3 * 4 * 5 * 8 + 1,), dtype='i1')\n",
        ),
    ],
    # The sum checks end with an object array summed as each dtype: an int array instead, so the
    # checks after it (gh-1885, gh-10343, ...) run too.
    "_core/tests/test_einsum.py": [
        ("        a = np.arange(9, dtype=object)\n", "        a = np.arange(9)\n"),
    ],
    # A class body checks NumPy's wording of an error; gpupy raises the same ValueError.
    "linalg/tests/test_linalg.py": [
        ('ValueError, "Input arrays must be one-dimensional"', 'ValueError, "1-dimensional"'),
    ],
}

# Triage of the tests that do not pass: (category, reason, pattern on the failure message or, for
# KNOWN, on the test id). Categories: "b" out of scope by design (docs/numpy_differences.md),
# "c" an artefact of running NumPy's file on gpupy, "a" a gpupy gap left open. The first match
# wins; what matches nothing needs a look.
BY_MESSAGE = [
    (
        "b",
        "dtype",
        r"dtype '?(float128|complex256|object|[<>|][USVfcium]|\[|timedelta|datetime|"
        r"String|rational)|dtype float128|dtype complex256|\[\('|NumPy dtype '>",
    ),
    (
        "b",
        "subclass",
        r"no subclasses|no constructor defined|has no attribute '(data|mask|_mask|"
        r"__array_wrap__)'|got MaskedArray",
    ),
    (
        "b",
        "wording",
        r"Regex pattern did not match|\" does not match \"|"
        r"assert '.*' in '\[\w+\] ",
    ),
    ("b", "vectorize", r"\[(vectorize|frompyfunc)\]"),
    ("b", "stone", r"'stone' bin estimator"),
    (
        "b",
        "fp-errors",
        r"FloatingPointError|did not raise fpe|DID NOT WARN. No warnings of type "
        r"\(<class 'RuntimeWarning'>",
    ),
    ("b", "big-int", r"out of bounds for every gpupy integer dtype"),
    ("b", "aligned", r"data must be \d+-byte aligned"),
    ("b", "dtype", r"no object dtype|Cannot interpret 'Fraction|NumPy dtype '\('"),
    ("b", "no-hidden-copies", r"Implicit conversion to a NumPy array is not allowed"),
    # a Python list operand landing on another device than the arrays beside it (fixed since;
    # kept so that a regression is counted as a gpupy gap)
    (
        "a",
        "list-operand-device",
        r"operands are on different devices \((emu|cuda)\S* and cpu\)"
        r"|operands are on different devices \(cpu and (emu|cuda)",
    ),
    ("c", "timeout", r"test ran longer than"),
    # NumPy's own C test ufuncs (numpy._core._umath_tests: innerwt, matrix_multiply, ...) and
    # pickles that name numpy._core.umath, given gpupy arrays
    ("c", "numpy-test-ufunc", r"returned NotImplemented from __array_ufunc__"),
    # a test object's memoryview of an emu array
    ("b", "no-hidden-copies", r"buffer protocol is only available on cpu arrays"),
    # NumPy's low-level ufunc API (resolve_dtypes, _get_strided_loop)
    ("b", "internals", r"has no attribute '_?resolve_dtypes"),
]
KNOWN = [
    # 0-d arrays where NumPy returns scalars (docs/numpy_differences.md)
    (
        "b",
        "0-d",
        r"test_large_integer_direct_comparison|test_unsigned_signed_direct_comparison|"
        r"TestInterp::test_zero_dimensional_interpolation_point|TestPercentile::test_scalar_q|"
        r"test_quantile_scalar_nan|TestDet::test_zero|test_vector_return_type|"
        r"TestIsclose::test_scalar_return|TestIsclose::test_non_finite_scalar|"
        r"TestNanFunctions_Percentile::test_scalar|test_correct_quantile_value",
    ),
    # NumPy's floating-point warnings, counted or listed
    (
        "b",
        "fp-errors",
        r"TestLog2::test_log2_special|TestMedian::test_empty|TestSeterr|"
        r"TestFloatExceptions|TestIsclose::test_tol_warnings",
    ),
    # masked arrays, subclasses, __array_wrap__/__array_ufunc__ protocols
    (
        "b",
        "subclass",
        r"test_masked|TestMoveaxis::test_array_likes|TestAngle::test_subclass|"
        r"TestCopy::test_subok|TestExpandDims::test_subclasses|test_axis_insertion_ma|"
        r"Test_I0::test_non_array|TestLerp::",
    ),
    # NumPy internals: private helpers, memory layout, dtype metadata, memmap, LAPACK lite
    (
        "b",
        "internals",
        r"test__replace_nan|test_memmap_takes_fast_route|"
        r"test_memory_layout_persistence|test_block_memory_order|test_promote_identical_types_metadata|"
        r"test_blas64_geqrf_lwork_smoketest|TestRollaxis::test_results|test_can_cast_scalars",
    ),
    # signatures: gpupy's functions are Python functions or nanobind functions, not C builtins
    (
        "c",
        "signature",
        r"TestSignatureMatch|TestCreationFuncs::test_signatures|"
        r"TestNorm\w+::|TestQR::test_mode",
    ),
    ("b", "documented", r"TestTrimZeros::test_list_to_list"),  # a list comes back as an array
    # clip(a, 2): the Array API's clip(x, min) is valid, NumPy's clip wants a_max too
    ("b", "array-api", r"TestClip::test_clip_min_max_args"),
    # gaps fixed in session 9 (in an older gpupy these fail; a run that still shows one is news)
    (
        "a",
        "fixed",
        r"test_nanfunc_correction|test_nanstd_with_mean_keyword|"
        r"TestNanFunctions_MeanVarStd::test_out_dtype_error|TestNanFunctions_Median::test_allnans|"
        r"test_nanfunc\[nanmedian-\w+-[FD]\]|test_out_and_dtype|test_stack_out_and_dtype|"
        r"test_bad_out_shape|::test_generator|test_huge_list_error|TestClip::|"
        r"TestInterp::test_non_finite|test_branch_cuts|TestBincount::test_with_minlength|"
        r"TestBincount::test_empty_list|TestInsert::test_index_floats|"
        r"TestSVDHermitian::test_singular|test_UPLO|TestMatrixRank::test_matrix_rank|"
        r"TestRavelUnravelIndex::test_0d|test_empty_array_ravel|test_rightmost_binedge|"
        r"TestConvolve::test_mode|TestCorrelate::test_mode|TestRoll::|TestAsType::test_astype|"
        r"test_bool_conversion|test_nep50_isclose|_on_1d_array|test_stack$",
    ),
    ("b", "vectorize", r"TestVectorize::test_cache"),  # one call on whole arrays
    ("c", "xpass", r"TestDigitize::test_large_integers_decreasing"),  # NumPy's own known failure
    # gaps fixed in session 10 (benchmarks/results/2026-12-01-session10-numpy-suite.md)
    (
        "a",
        "fixed",
        r"TestBroadcast::test_(broadcast|number)|test_operator_concat|TestDiff::test_n$|"
        r"test_ldexp_overflow|TestNanFunctions_ArgminArgmax::test_empty|"
        r"TestArgmaxArgminCommon::test_all|test_array_as_keyword\[create1|test_array_copy_str|"
        r"test_ndmax|TestFancyIndexing::test_tuple|test_conjugate_out|"
        r"TestScalarIndexing::test_invalid_newaxis|TestArange::|"
        r"TestArrayCreationCopyArgument::(test_striding_not_ok|test_compatible_cast)|"
        r"TestFlat::test_(__array__|index_getset)|TestResize::|"
        r"TestPutmask::test_kwargs|TestMethods::test_partition|test_elide_updateifcopy",
    ),
    # gaps left open (see the session 10 results)
    (
        "a",
        "open",
        r"test_round_copies|TestZeroRank::test_real_imag|TestMethods::test_copy$|"
        r"TestPercentile::test_api|TestDevice::test_to_device",
    ),
    # NumPy scalars where gpupy gives 0-d arrays: an element is immutable, its type np.int_
    (
        "b",
        "0-d",
        r"TestScalarIndexing::test_invalid_subscript_ass|TestSubscripting::test_test_zero",
    ),
    # NumPy's iterator limits (32 dimensions, 64 operands), which gpupy does not have
    ("b", "numpy-limits", r"TestChoose::test_dimension_and_args_limit|TestFlat::test_maxdims"),
    # NumPy's dot needs a C-contiguous out of the exact dtype; gpupy writes any layout
    ("b", "dot-out-layout", r"TestDot::test_dot_3args_errors"),
    # base chains, OWNDATA of views, warn-on-write and __array_struct__ (NumPy internals)
    (
        "b",
        "internals",
        r"TestMethods::test_(matmul_out|ravel|swapaxes)$|TestFlags::test_(writeable_from_buffer|"
        r"writeable_pickle|warnonwrite|readonly_flag_protocols)|TestAsCArray::|"
        r"TestArrayCreationCopyArgument::test_(array_interfaces|order_mismatch)",
    ),
    ("b", "subclass", r"TestBinop::test_ufunc_binop_interaction"),
    ("b", "vectorize", r"TestFrompyfunc::"),
    # class attributes `matmul = np.matmul` bind self; NumPy's C test helpers given a gpupy
    # array (incref_elide segfaults on any non-NumPy argument, a list too); np.float32(x) of a
    # gpupy array is a NumPy array; an __array__ that returns a gpupy array
    (
        "c",
        "rewrite",
        r"TestMatmul::test_out_(arg|contiguous)|test_extension_incref_elide$|"
        r"test_sincos_float32|TestArrayCreationCopyArgument::test___array__|"
        r"test_array_as_keyword\[create0\]|TestBroadcast::test_signatures",
    ),
    (
        "b",
        "internals",
        r"TestPower::test_power_float|test_abs_neg_blocked|TestAttributes::|"
        r"TestFPClass::test_fp_noncontiguous|test_noncontiguous",
    ),
    ("b", "subclass", r"TestOut::test_out_subok|TestRationalFunctions::test_decimal"),
    ("b", "0-d", r"TestBool::test_test_interning"),
    ("b", "internals", r"test_malloc_fails|test__deepcopy__|test_conjugate_view"),
    ("c", "signature", r"test_array_signature"),
    ("c", "timing", r"test_sort_degraded"),
    # NumPy's seeded legacy streams compared with hard-coded values, or a NumPy bit generator
    ("c", "random", r"TestDot::test_dot(mat|vec)|TestVdot::test_basic|test_matmul_bool"),
    ("b", "subclass", r"TestLstsq::"),  # __array_wrap__ of the solution
    ("b", "dtype", r"test_matmul_object"),
    # random streams differ (Philox), __array__ of a test object returns a gpupy array
    (
        "c",
        "rewrite",
        r"test_second_order_accurate|test_intersect1d_array_like|"
        r"test_gh_28354_array_like|test_xerbla_override",
    ),
]


# The files added in session 10 (benchmarks/results/2026-12-01-session10-numpy-files.md).
KNOWN += [
    # 0-d arrays where NumPy returns scalars
    (
        "b",
        "0-d",
        r"test_type_check\.py::(TestReal|TestImag)::|test_type_check\.py::TestNanToNum::"
        r"test_(integer|float|complex_good|complex_bad2?)$|test_ufunclike\.py::TestUfunclike::"
        r"test_scalar|test_indexing\.py::TestIndexing::test_scalar_return_type|"
        r"test_ufunc\.py::TestUfunc::test_scalar_reduction",
    ),
    # a view's base is an array over its memory, not the array it was made from (_array_methods)
    (
        "b",
        "internals",
        r"test_indexing\.py::TestIndexing::test_(empty_tuple|ellipsis)_index|"
        r"test_einsum\.py::TestEinsum::test_einsum_all_contig_non_contig_output|"
        r"test_indexing\.py::TestCApiAccess::",
    ),
    # NumPy's limits: 64 dimensions, 63 index arrays (gpupy has neither)
    (
        "b",
        "limits",
        r"test_indexing\.py::TestIndexing::test_too_many_(advanced_indices|fancy_indices_special)",
    ),
    # layout of fancy-indexing and einsum results (docs/numpy_differences.md, "Left:")
    (
        "b",
        "documented",
        r"test_indexing\.py::TestIndexing::test_memory_order|test_einsum\.py::TestEinsum::"
        r"test_output_order|test_einsum\.py::TestEinsum::test_einsum_0d_out",
    ),
    # NumPy's deprecated writeable-with-warning results of broadcast_arrays, and flatiter's
    # deprecated float lists; float16 sums that NumPy warns about (fp-errors)
    (
        "b",
        "deprecation",
        r"test_stride_tricks\.py::test_writeable|"
        r"test_flatiter_indexing_not_supported_newaxis_mutlidimensional_float",
    ),
    ("b", "fp-errors", r"test_ufunc\.py::TestUfunc::test_sum$"),
    ("b", "big-int", r"test_ufunc\.py::TestUfunc::test_cast_safety_scalar_special"),
    # structured, object, rational and timedelta dtypes
    (
        "b",
        "dtype",
        r"test_numerictypes\.py::TestEmptyField|test_ufunc\.py::TestUfunc::"
        r"(test_signature_dtype_instances_allowed|test_reduce_identity_depends_on_loop|"
        r"test_custom_ufunc_forced_sig|"
        r"test_ufunc_at_basic\[a1\])|test_ufunc\.py::test_ufunc_method_signatures|"
        r"test_polynomial\.py::TestFraction::",
    ),
    # a device array's repr names its device (emu: poly1d([1., 2., 3.], device='emu'))
    ("b", "device", r"test_polynomial\.py::TestPolynomial::test_poly1d_str_and_repr"),
    # pickles holding NumPy's module path; inspect.signature of the C++ ufuncs
    (
        "c",
        "signature",
        r"test_ufunc\.py::TestUFuncInspectSignature::|test_ufunc\.py::TestUfunc::"
        r"test_pickle_withstring",
    ),
    # gaps fixed in session 10
    (
        "a",
        "fixed",
        r"test_item_selection\.py::TestPut(Mask)?::test_empty|test_boolean_indexing_weirdness|"
        r"test_einsum\.py::TestEinsum::test_einsum_(specific_)?errors|"
        r"test_ufunc\.py::TestUfunc::(test_reduction_with_where|test_reduction_where_initial|"
        r"test_reduce_arguments|test_forced_sig|test_signature_all_None|test_signature_dtype_type|"
        r"test_partial_signature_mismatch|test_use_output_signature|test_signature_errors)|"
        r"test_type_check\.py::TestIscomplexobj::test_pandas_duck|"
        r"TestFlatiterIndexing::test_flatiter_indexing_boolean$|test_flat_index_on_flatiter",
    ),
    # gaps left open (the session 10 note lists them with reproducers)
    (
        "a",
        "open",
        r"test_indexing\.py::TestIndexing::test_(index_no_floats|tuple_subclass)|"
        r"test_bool_as_int_argument_errors|test_flatiter_indexing_(slice_assign|boolean_assign|"
        r"not_supported_newaxis_mutlid_float_assign)|test_einsum_sorting_behavior|"
        r"TestEinsumPath::|test_einsum\.py::TestEinsum::test_einsum_views|"
        r"test_ufunc\.py::(TestUfunc::test_(axes_argument|keepdims_argument|matvec|out_broadcasts|"
        r"output_ellipsis|broadcast$|get_signature|at_not_none_signature|where_warns|"
        r"ufunc_at_inner_loops)|test_addition_reduce_negative_zero)|"
        r"test_numerictypes\.py::TestIsDType::test_isdtype_invalid_args",
    ),
]


def triage(nodeid, message):
    """'category:reason' for a test that did not pass, or '' when nothing says why."""
    name = nodeid.split("/", 1)[-1]
    for cat, reason, pattern in BY_MESSAGE:
        if re.search(pattern, message):
            return f"{cat}:{reason}"
    for cat, reason, pattern in KNOWN:
        if re.search(pattern, name):
            return f"{cat}:{reason}"
    return ""


# Tests not run: they need more memory than a shared developer machine should give.
SKIP = {
    # a tuple of 2**31 references (16 GiB); gpupy's check was verified by hand
    "_core/tests/test_shape_base.py": ["TestConcatenate::test_huge_list_error"],
    # 2**30 + 100 complex128 ones (16 GiB, 24 GiB with the float64 case's)
    "_core/tests/test_multiarray.py": ["TestDot::test_huge_vectordot"],
}

_IMPORT_AS = re.compile(r"^(\s*)import numpy\.([\w.]+) as (\w+)\s*$")
_FROM = re.compile(r"^(\s*)from numpy\.([\w.]+) import")


def rewrite(source, patches=()):
    """NumPy's test source with its numpy imports pointed at the shim package."""
    for old, new in patches:
        if old not in source:
            raise SystemExit(f"numpy_suite: patch target {old!r} not found (NumPy changed?)")
        source = source.replace(old, new)
    lines = []
    for line in source.splitlines():
        line = re.sub(r"^(\s*)import numpy as np\s*$", r"\1import _gpupy_np as np", line)
        line = re.sub(r"^(\s*)import numpy\s*$", r"\1import _gpupy_np as numpy", line)
        line = re.sub(r"^(\s*)from numpy import", r"\1from _gpupy_np import", line)
        m = _IMPORT_AS.match(line)
        if m and SHIMMED.match(m.group(2)):
            line = f"{m.group(1)}import _gpupy_np.{m.group(2)} as {m.group(3)}"
        m = _FROM.match(line)
        if m and SHIMMED.match(m.group(2)):
            line = _FROM.sub(rf"\1from _gpupy_np.{m.group(2)} import", line, count=1)
        lines.append(line)
    return "\n".join(lines) + "\n"


def prepare(workdir):
    """Writes the shim package and conftest into workdir (shared by every file's folder)."""
    pkg = workdir / "_gpupy_np"
    pkg.mkdir()
    (pkg / "__init__.py").write_text(SHIM_PACKAGE.replace("__SHIMMED__", repr(SHIMMED.pattern)))
    (workdir / "conftest.py").write_text(CONFTEST)
    (workdir / "pytest.ini").write_text("[pytest]\naddopts = -p no:cacheprovider\n")


def stage(workdir, rel):
    """Copies one NumPy test file (and its data folder) under workdir; returns the copy's path."""
    src = NUMPY_DIR / rel
    folder = workdir / rel.replace("/", "_").removesuffix(".py")
    folder.mkdir()
    data = src.parent / "data"
    if data.is_dir():
        (folder / "data").symlink_to(data)
    dst = folder / src.name
    dst.write_text(rewrite(src.read_text(), PATCHES.get(rel, ())))
    return dst


def _read_log(path):
    records = []
    if path.exists():
        for line in path.read_text().splitlines():
            try:
                records.append(json.loads(line))
            except json.JSONDecodeError:
                pass  # a line cut short by a crash
    return records


def run_file(workdir, spec, args):
    """Runs one file (optionally only some classes) to completion, stepping over crashing tests."""
    rel, _, classes = spec.partition("::")
    copy = stage(workdir, rel)
    targets = [f"{copy}::{c}" for c in classes.split(",")] if classes else [str(copy)]
    log = copy.with_suffix(".jsonl")
    env = dict(
        os.environ,
        GPUPY_SUITE_DEVICE=args.device,
        GPUPY_SUITE_LOG=str(log),
        GPUPY_SUITE_TEST_TIMEOUT=str(args.test_timeout),
        GPUPY_SUITE_FALLBACKS=str(copy.with_suffix(".fallbacks.json")),
        PYTHONPATH=os.pathsep.join([str(workdir), str(args.gpupy)]),
    )
    crashed, start = [], time.time()
    while True:
        deselect = [f"--deselect={c}" for c in crashed]
        deselect += [f"--deselect={copy.relative_to(workdir)}::{t}" for t in SKIP.get(rel, ())]
        cmd = [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            "-p",
            "no:randomly",
            "--rootdir",
            str(workdir),
            "-c",
            str(workdir / "pytest.ini"),
            *targets,
            *deselect,
        ]
        if args.k:
            cmd += ["-k", args.k]
        left = args.file_timeout - (time.time() - start)
        try:
            proc = subprocess.run(
                cmd, cwd=workdir, env=env, capture_output=True, text=True, timeout=max(left, 1)
            )
        except subprocess.TimeoutExpired:
            return copy, rel, spec, crashed, "file timeout"
        records = _read_log(log)
        done = {r["id"] for r in records if "id" in r}
        started = [r["start"] for r in records if "start" in r]
        if proc.returncode < 0 and started and started[-1] not in done and len(crashed) < 20:
            crashed.append(started[-1])  # node ids are relative to workdir, pytest's cwd
            continue
        status = "" if proc.returncode in (0, 1) else f"pytest exit {proc.returncode}"
        if proc.returncode not in (0, 1) and args.verbose:
            print(proc.stdout[-3000:], proc.stderr[-3000:], file=sys.stderr)
        return copy, rel, spec, crashed, status


def summarise(copy, spec, crashed, status):
    """One row of counts plus the non-passing tests, from the file's outcome log."""
    outcomes = {}
    for r in _read_log(copy.with_suffix(".jsonl")):
        if "id" in r:
            outcomes[r["id"]] = r  # the last report of a test wins (setup error after call ...)
    for nodeid in crashed:
        outcomes[nodeid] = {"id": nodeid, "outcome": "crashed", "message": "process died"}
    counts = {}
    for r in outcomes.values():
        counts[r["outcome"]] = counts.get(r["outcome"], 0) + 1
    fallbacks_path = copy.with_suffix(".fallbacks.json")
    fallbacks = json.loads(fallbacks_path.read_text()) if fallbacks_path.exists() else []
    bad = [
        r for r in outcomes.values() if r["outcome"] in ("failed", "error", "crashed", "xpassed")
    ]
    return {"file": spec, "counts": counts, "status": status, "fallbacks": fallbacks, "bad": bad}


def write_report(rows, args, out):
    keys = ["passed", "failed", "error", "crashed", "skipped", "xfailed", "xpassed"]
    lines = [
        f"# NumPy {numpy.__version__} test files on gpupy (device {args.device})",
        "",
        "Tests that did not pass (failed, error, crashed, xpassed), triaged: `a` gpupy gaps left "
        "open, `b` out of scope by design, `c` artefacts of running NumPy's file on gpupy, `?` "
        "not triaged (BY_MESSAGE and KNOWN in tools/numpy_suite.py).",
        "",
        "| file | collected | " + " | ".join(keys) + " | a | b | c | ? | note |",
        "| --- | ---: | "
        + " | ".join("---:" for _ in keys)
        + " | ---: | ---: | ---: | ---: | --- |",
    ]
    cats = ["a", "b", "c", "?"]
    total = dict.fromkeys(keys + cats, 0)
    for row in rows:
        c = dict(row["counts"])
        for r in row["bad"]:
            cat = triage(r["id"], r["message"])[:1] or "?"
            c[cat] = c.get(cat, 0) + 1
        for k in total:
            total[k] += c.get(k, 0)
        lines.append(
            f"| {row['file'].split('::')[0]} | {sum(row['counts'].values())} | "
            + " | ".join(str(c.get(k, 0)) for k in keys + cats)
            + f" | {row['status']} |"
        )
    lines.append(
        f"| **total** | {sum(total[k] for k in keys)} | "
        + " | ".join(str(total[k]) for k in keys + cats)
        + " | |"
    )
    for row in rows:
        if row["bad"]:
            lines += ["", f"## {row['file']}", ""]
            if args.ids:
                for r in row["bad"]:
                    why = triage(r["id"], r["message"])
                    lines.append(
                        f"- `{r['id']}` {r['outcome']}{f' ({why})' if why else ''}: {r['message']}"
                    )
            else:  # per test function and reason: how many parametrisations, one message
                groups = {}
                for r in row["bad"]:
                    name = r["id"].split("/", 1)[-1].split("[")[0]
                    groups.setdefault((name, triage(r["id"], r["message"])), []).append(r)
                lines += [
                    f"- `{name}` {len(g)} {g[0]['outcome']}"
                    f"{' (' + why + ')' if why else ''}: {g[0]['message']}"
                    for (name, why), g in groups.items()
                ]
        if row["fallbacks"]:
            lines += ["", f"NumPy names used in {row['file']}: " + ", ".join(row["fallbacks"])]
    text = "\n".join(lines) + "\n"
    print(text)
    if out:
        pathlib.Path(out).write_text(text)
        pathlib.Path(out).with_suffix(".json").write_text(json.dumps(rows, indent=1))


def main():
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0],
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog=__doc__.split("\n\n", 1)[1],
    )
    parser.add_argument(
        "files",
        nargs="*",
        default=DEFAULT_FILES,
        help="NumPy test files relative to the numpy package, optionally "
        "'path::Class1,Class2' (default: the core list)",
    )
    parser.add_argument("--device", default="cpu", choices=["cpu", "emu", "cuda"])
    parser.add_argument("-k", help="pytest -k expression applied to every file")
    parser.add_argument(
        "--gpupy",
        default=REPO / "python",
        type=pathlib.Path,
        help="folder holding the gpupy package to test (default: this checkout's python/)",
    )
    parser.add_argument(
        "--ids",
        action="store_true",
        help="list every failing test id (default: one line per failing test function)",
    )
    parser.add_argument("--out", help="write the table (and a .json of the results) here")
    parser.add_argument("--test-timeout", type=int, default=60, help="seconds per test")
    parser.add_argument("--file-timeout", type=int, default=1800, help="seconds per file")
    parser.add_argument("--keep", action="store_true", help="keep the rewritten files")
    parser.add_argument(
        "-v",
        "--verbose",
        action="store_true",
        help="show pytest's output tail when a file does not run to the end",
    )
    parser.add_argument(
        "--render", help="re-triage and print the results a previous --out saved (its .json)"
    )
    args = parser.parse_args()
    if args.render:
        write_report(json.loads(pathlib.Path(args.render).read_text()), args, args.out)
        return
    workdir = pathlib.Path(tempfile.mkdtemp(prefix="gpupy_numpy_suite_"))
    prepare(workdir)
    rows = []
    try:
        for spec in args.files:
            t0 = time.time()
            copy, rel, spec, crashed, status = run_file(workdir, spec, args)
            rows.append(summarise(copy, spec, crashed, status))
            print(
                f"{spec}: {rows[-1]['counts']} {status} ({time.time() - t0:.0f}s)", file=sys.stderr
            )
    finally:
        write_report(rows, args, args.out)
        if args.keep:
            print(f"rewritten files in {workdir}", file=sys.stderr)
        else:
            shutil.rmtree(workdir)


if __name__ == "__main__":
    main()
