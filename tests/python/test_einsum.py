"""einsum and einsum_path against NumPy, on the device under test."""

import gpupy
import numpy
import pytest
from gpupy import testing

rs = numpy.random.RandomState(7)
A, B, C = rs.rand(3, 4), rs.rand(4, 5), rs.rand(5, 2)
SQ, T3, T3B = rs.rand(3, 3), rs.rand(2, 3, 4), rs.rand(2, 4, 3)
V, W = rs.rand(4), rs.rand(4)

CASES = [
    ("ij,jk->ik", (A, B)),
    ("ij,jk", (A, B)),
    ("ij,jk,kl->il", (A, B, C)),
    ("ij,jk,kl", (A, B, C)),
    ("ii", (SQ,)),
    ("ii->i", (SQ,)),
    ("ij->ji", (A,)),
    ("ij->", (A,)),
    ("ij->j", (A,)),
    ("i,i", (V, W)),
    ("i,j->ij", (V, W)),
    ("i,i->i", (V, W)),
    ("bij,bjk->bik", (T3, T3B)),
    ("...ij,...jk->...ik", (T3, T3B)),
    ("...jk,kl->...jl", (T3, B)),
    ("i...->...", (T3,)),
    ("ijk,ijk->", (T3, T3)),
    ("iij->ij", (rs.rand(3, 3, 2),)),
    ("jii->j", (rs.rand(2, 3, 3),)),
    ("ij,ij,ij->i", (A, A, A)),
    ("ba,ab->", (A.T.copy(), A)),
    ("ik,...k->...i", (A, rs.rand(2, 1, 4))),
    ("ij,j->i", (A, V)),
    (",ij->ij", (numpy.float64(2.0), A)),
    ("ij,ij->ij", (A, A)),
    ("ij,ik->ijk", (A, rs.rand(3, 2))),
    ("bij,bi->bj", (T3, rs.rand(2, 3))),
]


@pytest.mark.parametrize("optimize", [False, True, "greedy"])
@pytest.mark.parametrize("spec,ops", CASES, ids=[c[0] for c in CASES])
def test_einsum_matches_numpy(spec, ops, optimize):
    expected = numpy.einsum(spec, *ops)
    got = gpupy.einsum(spec, *[gpupy.asarray(o) for o in ops], optimize=optimize)
    assert got.shape == expected.shape
    numpy.testing.assert_allclose(got.get(), expected, rtol=1e-12, atol=1e-12)


def test_einsum_broadcasts_ellipsis_dims():
    x, y = rs.rand(2, 1, 3, 4), rs.rand(5, 4, 2)
    expected = numpy.einsum("...ij,...jk->...ik", x, y)
    got = gpupy.einsum("...ij,...jk->...ik", gpupy.asarray(x), gpupy.asarray(y))
    numpy.testing.assert_allclose(got.get(), expected, rtol=1e-12)


def test_einsum_sublist_form():
    expected = numpy.einsum(A, [0, 1], B, [1, 2], [0, 2])
    got = gpupy.einsum(gpupy.asarray(A), [0, 1], gpupy.asarray(B), [1, 2], [0, 2])
    numpy.testing.assert_allclose(got.get(), expected, rtol=1e-12)
    got = gpupy.einsum(gpupy.asarray(SQ), [Ellipsis, 0, 0])
    numpy.testing.assert_allclose(got.get(), numpy.einsum(SQ, [Ellipsis, 0, 0]))


@pytest.mark.parametrize("spec", ["ij,jk->ik", "ij,ij->i", "ij,ij->", "ij,ik->ijk"])
@pytest.mark.parametrize("dtype", ["bool", "int32", "int64", "float32", "complex128"])
def test_einsum_dtypes(dtype, spec):
    x = (rs.rand(3, 4) * (2 if dtype == "bool" else 10)).astype(dtype)
    y = (rs.rand(4, 4) * (2 if dtype == "bool" else 10)).astype(dtype)[: 3 if "ij,i" in spec else 4]
    expected = numpy.einsum(spec, x, y)
    got = gpupy.einsum(spec, gpupy.asarray(x), gpupy.asarray(y))
    assert got.dtype == expected.dtype
    numpy.testing.assert_allclose(got.get(), expected, rtol=1e-5)


def test_einsum_dtype_and_out():
    x = numpy.arange(6, dtype=numpy.int64).reshape(2, 3)
    got = gpupy.einsum("ij->i", gpupy.asarray(x), dtype="float64")
    assert got.dtype == numpy.float64
    numpy.testing.assert_array_equal(got.get(), x.sum(1))
    out = gpupy.zeros((3, 5))
    r = gpupy.einsum("ij,jk->ik", gpupy.asarray(A), gpupy.asarray(B), out=out)
    assert r is out
    numpy.testing.assert_allclose(out.get(), A @ B, rtol=1e-12)
    with pytest.raises(TypeError, match=r"\[einsum\]"):
        gpupy.einsum("i->i", gpupy.asarray([1.5]), dtype="int64")


def test_einsum_stays_on_device():
    x = gpupy.asarray(A)
    assert gpupy.einsum("ij,jk->ik", x, gpupy.asarray(B)).device == x.device


def test_einsum_dispatch_from_numpy():
    got = numpy.einsum("ij,jk->ik", gpupy.asarray(A), gpupy.asarray(B))
    assert isinstance(got, gpupy.ndarray)
    numpy.testing.assert_allclose(got.get(), A @ B, rtol=1e-12)


@pytest.mark.parametrize(
    "spec,shapes",
    [
        ("ij,jk->ik", [(3, 4), (5, 2)]),
        ("ij->k", [(3, 4)]),
        ("ij,jk", [(3, 4)]),
        ("ijk->i", [(3, 4)]),
        ("ii->ii", [(3, 3)]),
        ("i$->i", [(3, 3)]),
    ],
)
def test_einsum_errors(spec, shapes):
    ops = [gpupy.zeros(s) for s in shapes]
    with pytest.raises(ValueError, match=r"\[einsum\]"):
        gpupy.einsum(spec, *ops)


def test_einsum_path_and_using_it():
    ops = [gpupy.asarray(o) for o in (A, B, C)]
    path, report = gpupy.einsum_path("ij,jk,kl->il", *ops)
    assert path[0] == "einsum_path" and len(path) == 3
    assert "ij,jk,kl->il" in report
    # Greedy: B @ C (4x2 result) is smaller than A @ B (3x5).
    assert path[1] == (1, 2)
    got = gpupy.einsum("ij,jk,kl->il", *ops, optimize=path)
    numpy.testing.assert_allclose(got.get(), A @ B @ C, rtol=1e-12)
    numpy_path = numpy.einsum_path("ij,jk,kl->il", A, B, C, optimize="greedy")[0]
    got = gpupy.einsum("ij,jk,kl->il", *ops, optimize=numpy_path)
    numpy.testing.assert_allclose(got.get(), A @ B @ C, rtol=1e-12)


def test_einsum_large_contraction_matches():
    x, y = rs.rand(64, 96), rs.rand(96, 80)
    got = gpupy.einsum("ik,kj->ij", gpupy.asarray(x), gpupy.asarray(y))
    numpy.testing.assert_allclose(got.get(), x @ y, rtol=1e-10)


@pytest.mark.parametrize(
    "spec,shapes",
    [
        ("ij,jk", [(2, 0), (0, 3)]),
        ("i->", [(0,)]),
        ("ij,j->i", [(0, 2), (2,)]),
        ("i,i", [(1,), (0,)]),
        ("ij,kl->", [(2, 0), (3, 4)]),
        ("ij,jk,kl", [(2, 3), (3, 0), (0, 4)]),
    ],
)
def test_einsum_zero_size(spec, shapes):
    ops = [rs.rand(*s) for s in shapes]
    expected = numpy.einsum(spec, *ops)
    got = gpupy.einsum(spec, *[gpupy.asarray(o) for o in ops], optimize=True)
    assert got.shape == expected.shape
    numpy.testing.assert_allclose(got.get(), expected)


def test_einsum_repeated_subscript_sizes_must_match():
    with pytest.raises(ValueError, match=r"\[einsum\] dimensions for repeated subscript"):
        gpupy.einsum("ii", gpupy.zeros((1, 3)))


@pytest.mark.parametrize("dtype", ["bool", "int8", "int32", "uint16", "float32"])
@pytest.mark.parametrize("spec", ["ij->i", "ii->", "ij->"])
def test_einsum_single_operand_sums_keep_dtype(dtype, spec):
    x = (rs.rand(4, 4) * (2 if dtype == "bool" else 50)).astype(dtype)
    expected = numpy.einsum(spec, x)
    got = gpupy.einsum(spec, gpupy.asarray(x))
    assert got.dtype == expected.dtype
    numpy.testing.assert_allclose(got.get(), expected, rtol=1e-5)


@pytest.mark.parametrize(
    "spec", ["....ij->ij", "i.j->ij", "ij..,...->ij", "......->", "ij-k", "ij>k", "i-j->ij"]
)
@testing.numpy_gpupy_raises()
def test_einsum_refuses_stray_dots_and_arrow_parts(spec, xp):
    n = spec.split("->")[0].count(",") + 1
    return xp.einsum(spec, *[xp.ones((2, 2, 2))] * n)


@pytest.mark.parametrize(
    "kwargs",
    [{"order": "W"}, {"order": 3}, {"casting": "blah"}, {"casting": "same_value"}],
    ids=repr,
)
@pytest.mark.parametrize("optimize", [False, True])
@testing.numpy_gpupy_raises()
def test_einsum_checks_order_and_casting(kwargs, optimize, xp):
    # they were ignored (order is, once checked; casting rules dtype= and out=)
    return xp.einsum("ij->j", xp.ones((2, 3)), optimize=optimize, **kwargs)


@pytest.mark.parametrize("order", ["C", "f", "a", "K"])
@testing.numpy_gpupy_allclose()
def test_einsum_takes_every_order(order, xp):
    return xp.einsum("ij,jk->ik", xp.ones((2, 3)), xp.arange(6.0).reshape(3, 2), order=order)


@testing.numpy_gpupy_allclose(rtol=1e-12)
def test_einsum_of_three_mixed_dtypes_sums_in_the_common_dtype(xp):
    # int8 x float16 was rounded to float16 before the float64 operand joined
    a = xp.asarray(numpy.array([[9, 3], [-8, -7], [3, -5]], dtype=numpy.int8))
    b = xp.asarray(numpy.array([[1.4033203125], [-10.9453125]], dtype=numpy.float16))
    c = xp.asarray(numpy.array([[1.0873099589610877, 0.7938920819002526]]))
    return xp.einsum("ij,jk,kl->il", a, b, c)


@pytest.mark.parametrize("spec", ["...i->i", "i...->i", "...i,...i->i", "...,...->"])
@pytest.mark.parametrize("optimize", [False, True])
@testing.numpy_gpupy_allclose(accept_error=True)
def test_einsum_sums_ellipsis_axes_only_when_optimized(spec, optimize, xp):
    # NumPy's unoptimised einsum refuses an explicit output without '...' when the ellipsis
    # stands for axes; its optimised path sums them (gpupy summed them in both)
    n = spec.split("->")[0].count(",") + 1
    return xp.einsum(spec, *[xp.ones((2, 3))] * n, optimize=optimize)


@pytest.mark.parametrize("optimize", [False, True, "greedy"])
@testing.numpy_gpupy_allclose(rtol=1e-12)
def test_einsum_of_two_bools_and_a_complex_counts(optimize, xp):
    # the bool x bool pair is not OR-ed on its own: every product sums in complex128
    a = xp.asarray(numpy.array([[1 + 2j, -1.5, 3j], [2.0, 1j, -1]]))
    b = xp.asarray(numpy.array([[1, 0], [0, 1], [1, 1]], dtype=bool))
    c = xp.asarray(numpy.array([[1], [1]], dtype=bool))
    return xp.einsum("ij,jk,kl->il", a, b, c, optimize=optimize)


@testing.numpy_gpupy_allclose()
def test_einsum_counts_a_bool_axis_the_other_operand_broadcasts(xp):
    # j is 1 in the int64 operand: the bool operand's two True along j count twice
    a = xp.asarray(numpy.array([[9]]))
    b = xp.asarray(numpy.array([[True], [True]]))
    return xp.einsum("ij...,j...->i...", a, b), xp.einsum("ij,jk->ik", a, b[:, :1].T.T)


# Batches of dot products ("ij,ij->i"): on the cpu with a BLAS these run as a batched matmul,
# elsewhere as a multiply and sum; both must give NumPy's values, dtypes and shapes.
def _noncontiguous(shape, dtype):
    big = (rs.rand(*(2 * n for n in shape)) * 10).astype(dtype)
    return big[tuple(slice(None, None, 2) for _ in shape)]


DOT_CASES = [
    ("ij,ij->i", [(7, 5), (7, 5)]),
    ("ij,ij->j", [(7, 5), (7, 5)]),
    ("ij,ji->i", [(7, 5), (5, 7)]),
    ("bij,bij->b", [(3, 4, 5), (3, 4, 5)]),
    ("bij,bij->bi", [(3, 4, 5), (3, 4, 5)]),
    ("bij,ibj->jb", [(3, 4, 5), (4, 3, 5)]),
    ("...i,...i->...", [(2, 3, 6), (3, 6)]),
    ("...i,...i->...", [(2, 1, 6), (4, 6)]),
    ("iij,iij->i", [(4, 4, 3), (4, 4, 3)]),
    ("ij,ij,ij->i", [(6, 5), (6, 5), (6, 5)]),
]


@pytest.mark.parametrize("spec,shapes", DOT_CASES, ids=[c[0] for c in DOT_CASES])
@pytest.mark.parametrize("dtypes", [("float64",) * 2, ("float32",) * 2, ("float32", "float64")])
@pytest.mark.parametrize("layout", ["contiguous", "strided", "transposed"])
def test_einsum_batched_dots(spec, shapes, dtypes, layout):
    def make(i, s):
        dt = dtypes[min(i, 1)]
        if layout == "strided":
            return _noncontiguous(s, dt)
        if layout == "transposed":  # an F-ordered copy, read through a transposed view
            return numpy.asfortranarray((rs.rand(*s) * 10).astype(dt))
        return (rs.rand(*s) * 10).astype(dt)

    ops = [make(i, s) for i, s in enumerate(shapes)]
    expected = numpy.einsum(spec, *ops)
    got = gpupy.einsum(spec, *[gpupy.asarray(o) for o in ops])
    assert got.shape == expected.shape and got.dtype == expected.dtype
    rtol = 1e-5 if expected.dtype == numpy.float32 else 1e-12
    numpy.testing.assert_allclose(got.get(), expected, rtol=rtol)


@pytest.mark.parametrize("dtype", ["int16", "int64", "complex64", "complex128", "bool", "float16"])
def test_einsum_batched_dots_other_dtypes(dtype):
    x = (rs.rand(6, 9) * (2 if dtype == "bool" else 10)).astype(dtype)
    y = (rs.rand(6, 9) * (2 if dtype == "bool" else 10)).astype(dtype)
    if dtype.startswith("complex"):
        x, y = x + 1j * y, y - 2j * x  # no conjugation, unlike vecdot
    expected = numpy.einsum("ij,ij->i", x, y)
    got = gpupy.einsum("ij,ij->i", gpupy.asarray(x), gpupy.asarray(y))
    assert got.dtype == expected.dtype
    rtol = 1e-2 if dtype == "float16" else 1e-5
    numpy.testing.assert_allclose(got.get(), expected, rtol=rtol)


def test_einsum_batched_dots_out_and_dtype():
    x, y = rs.rand(8, 5), rs.rand(8, 5)
    out = gpupy.zeros(8, dtype="float32")
    with pytest.raises(TypeError, match=r"\[einsum\] cannot cast"):  # casting='safe', as NumPy
        gpupy.einsum("ij,ij->i", gpupy.asarray(x), gpupy.asarray(y), out=out)
    r = gpupy.einsum("ij,ij->i", gpupy.asarray(x), gpupy.asarray(y), out=out, casting="same_kind")
    assert r is out
    numpy.testing.assert_allclose(out.get(), numpy.einsum("ij,ij->i", x, y), rtol=1e-6)
    kw = {"dtype": "float32", "casting": "same_kind"}
    expected = numpy.einsum("ij,ij->i", x, y, **kw)
    got = gpupy.einsum("ij,ij->i", gpupy.asarray(x), gpupy.asarray(y), **kw)
    assert got.dtype == expected.dtype
    numpy.testing.assert_allclose(got.get(), expected, rtol=1e-6)


def test_einsum_plan_cache_checks_every_call():
    # The cached parse must not skip the checks that depend on the operands.
    x = gpupy.asarray(A)
    gpupy.einsum("ij,jk->ik", x, gpupy.asarray(B))
    with pytest.raises(ValueError, match=r"\[einsum\]"):
        gpupy.einsum("ij,jk->ik", x, gpupy.asarray(C))
    got = gpupy.einsum("ij,jk->ik", gpupy.asarray(B), gpupy.asarray(C))
    numpy.testing.assert_allclose(got.get(), B @ C, rtol=1e-12)
