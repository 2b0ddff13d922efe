"""einsum and einsum_path: Einstein summation reduced to gpupy's own diagonal, sum and (batched)
matmul, so every contraction runs on the operands' device and large ones reach BLAS/cuBLAS.

See numpy.einsum. Operands are contracted pairwise: left to right with ``optimize=False``,
otherwise in a greedy order (the pair whose result is smallest first), or along a path from
einsum_path. The result is always a new array (NumPy returns views for some one-operand forms).
"""

import functools
import math
import operator
import string

import numpy

from gpupy import _core
from gpupy._manipulation import _array_operands
from gpupy._utilities import _into_out, check_casting

__all__ = ["einsum", "einsum_path"]

_LETTERS = string.ascii_letters


def _sublist_letters(sub):
    out = []
    for s in sub:
        if s is Ellipsis:
            out.append("...")
        else:
            s = operator.index(s)
            if not 0 <= s < 52:
                raise ValueError(f"[einsum] subscript {s} is not within the valid range [0, 52)")
            out.append(_LETTERS[s])
    return "".join(out)


def _parse_args(args):
    """(subscripts string, operands) from either the string or the interleaved sublist form."""
    if args and isinstance(args[0], str):
        return args[0].replace(" ", ""), list(args[1:])
    ops, subs, out = list(args[0::2]), list(args[1::2]), None
    if len(args) % 2 == 1:  # the trailing item is the output sublist
        out, ops = ops[-1], ops[:-1]
    spec = ",".join(_sublist_letters(s) for s in subs[: len(ops)])
    if out is not None:
        spec += "->" + _sublist_letters(out)
    return spec, ops


def _split(spec, ndims, sum_ellipsis=True):
    """Input label lists and the output labels, with '...' replaced by letters of its own;
    without `sum_ellipsis` an explicit output must keep the axes an ellipsis stands for."""
    if spec.count("-") != spec.count("->") or spec.count(">") != spec.count("->"):
        raise ValueError("[einsum] subscripts string has a '-' or '>' outside an '->'")
    if "->" in spec:
        ins, out = spec.split("->", 1)
        if "-" in out or ">" in out:
            raise ValueError("[einsum] subscripts string includes an output specifier '->' twice")
    else:
        ins, out = spec, None
    ins = ins.split(",")
    if len(ins) != len(ndims):
        raise ValueError(f"[einsum] {len(ins)} operand subscripts given for {len(ndims)} operands")
    used = set(spec) - set(".,->")
    for ch in used:
        if ch not in _LETTERS:
            raise ValueError(f"[einsum] invalid subscript '{ch}' in einstein sum subscripts string")
    spare = [c for c in _LETTERS if c not in used]
    n_ell = 0
    for term, nd in zip(ins, ndims, strict=True):
        if "." in term.replace("...", "", 1):  # a lone '.' or a second ellipsis ('....')
            raise ValueError(
                "[einsum] subscripts string contains a '.' that is not part of an ellipsis"
            )
        if "..." in term:
            n_ell = max(n_ell, nd - len(term.replace("...", "")))
    ell = "".join(spare[:n_ell])
    labels = []
    for term, nd in zip(ins, ndims, strict=True):
        k = nd - len(term.replace("...", ""))
        if "..." in term:
            if k < 0:
                raise ValueError("[einsum] operand has more subscripts than dimensions")
            term = term.replace("...", ell[n_ell - k :] if k else "")
        if len(term) != nd:
            raise ValueError(f"[einsum] operand has {nd} dimensions but {len(term)} subscripts")
        labels.append(term)
    if out is None:
        counts = {}
        for term in labels:
            for c in term:
                counts[c] = counts.get(c, 0) + 1
        out = ell + "".join(sorted(c for c, n in counts.items() if n == 1 and c not in ell))
    else:
        if out.count("...") > 1 or ("." in out.replace("...", "")):
            raise ValueError("[einsum] invalid output subscripts")
        if n_ell and "..." not in out and not sum_ellipsis:  # NumPy's unoptimised einsum
            raise ValueError(
                "[einsum] output has more dimensions than subscripts given in einstein sum, but "
                "no '...' ellipsis provided to broadcast the extra dimensions."
            )
        out = out.replace("...", ell)
        for c in out:
            if out.count(c) > 1:
                raise ValueError(f"[einsum] output subscript '{c}' appears more than once")
            if not any(c in t for t in labels):
                raise ValueError(
                    f"[einsum] output subscript '{c}' never appeared in an input subscript"
                )
    return labels, out


def _sizes(labels, shapes):
    sizes = {}
    for term, shape in zip(labels, shapes, strict=True):
        for c in set(term):
            dims = {n for t, n in zip(term, shape, strict=True) if t == c}
            if len(dims) > 1:
                raise ValueError(
                    f"[einsum] dimensions for repeated subscript '{c}' of one operand differ: "
                    f"{sorted(dims)}"
                )
        for c, n in zip(term, shape, strict=True):
            if sizes.get(c, 1) != 1 and n != 1 and sizes[c] != n:
                raise ValueError(
                    f"[einsum] operands could not be broadcast: subscript '{c}' has sizes "
                    f"{sizes[c]} and {n}"
                )
            if sizes.get(c, 1) == 1:
                sizes[c] = n
    return sizes


def _diagonals(a, term):
    """a with the diagonal taken for each repeated label (a view), and its labels."""
    while len(set(term)) < len(term):
        c = next(c for c in term if term.count(c) > 1)
        i = term.index(c)
        j = term.index(c, i + 1)
        a = _core._diagonal(a, 0, i, j)
        term = term[:i] + term[i + 1 : j] + term[j + 1 :] + c
    return a, term


def _prepare(a, term, sizes, keep):
    """Takes repeated-label diagonals, drops broadcast size-1 axes and sums labels not in keep."""
    a, term = _diagonals(a, term)
    drop = [i for i, c in enumerate(term) if a.shape[i] == 1 and sizes[c] != 1]
    if drop:
        a = _core.squeeze(a, tuple(drop))
        term = "".join(c for i, c in enumerate(term) if i not in drop)
    summed = [i for i, c in enumerate(term) if c not in keep]
    if summed:
        a = _sum_keeping_dtype(a, tuple(summed))
        term = "".join(c for i, c in enumerate(term) if i not in summed)
    return a, term


def _contract(a, ta, b, tb, keep, sizes):
    """One pairwise contraction: a batched matmul (batch, a_only, k) @ (batch, k, b_only), or a
    broadcast multiply (and sum) when there is nothing to sum, or when the matmul would be a batch
    of 1x1 products that _blas_dots does not send to BLAS."""
    batch = [c for c in ta if c in tb and c in keep]
    inner = [c for c in ta if c in tb and c not in keep]
    a_only = [c for c in ta if c not in tb]
    b_only = [c for c in tb if c not in ta]
    labels = "".join(batch + a_only + b_only)
    dots = bool(batch) and not a_only and not b_only  # one dot product per batch element
    if not inner or (dots and not _blas_dots(a, b)):
        return _multiply_sum(a, ta, b, tb, batch, a_only, b_only, inner), labels
    a = _core.permute_dims(a, tuple(ta.index(c) for c in batch + a_only + inner))
    b = _core.permute_dims(b, tuple(tb.index(c) for c in batch + inner + b_only))
    nb_ = tuple(sizes[c] for c in batch)
    m = math.prod(sizes[c] for c in a_only)
    k = math.prod(sizes[c] for c in inner)
    n = math.prod(sizes[c] for c in b_only)
    r = _core.matmul(_core.reshape(a, nb_ + (m, k)), _core.reshape(b, nb_ + (k, n)))
    return _core.reshape(r, nb_ + tuple(sizes[c] for c in a_only + b_only)), labels


def _blas_dots(a, b):
    """Whether a batch of dot products runs faster as a batched matmul than as a broadcast
    multiply and sum: on the cpu device with a BLAS for float32/float64 (one BLAS dot per batch
    element, no product temporary). Elsewhere the batched kernel with 1x1 results is slower."""
    if a.device.type != "cpu" or b.device.type != "cpu":
        return False
    if numpy.promote_types(a.dtype, b.dtype) not in (numpy.float32, numpy.float64):
        return False
    return not _core._blas_info().startswith("none")


def _multiply_sum(a, ta, b, tb, batch, a_only, b_only, inner):
    """a * b broadcast over (batch, a_only, b_only, inner), summed over inner."""
    a = _core.permute_dims(a, tuple(ta.index(c) for c in batch + a_only + inner))
    b = _core.permute_dims(b, tuple(tb.index(c) for c in batch + b_only + inner))
    nb_, na, nn = len(batch), len(a_only), len(b_only)
    if nn:
        a = _core.expand_dims(a, tuple(range(nb_ + na, nb_ + na + nn)))
    if na:
        b = _core.expand_dims(b, tuple(range(nb_, nb_ + na)))
    r = a * b
    if not inner:
        return r
    return _sum_keeping_dtype(r, tuple(range(r.ndim - len(inner), r.ndim)))


def _sum_keeping_dtype(a, axes):
    """einsum's sums keep the operand dtype (int32 stays int32, bool is a logical or)."""
    if a.dtype == numpy.bool_:
        return _core.any(a, axis=axes)
    return _core.sum(a, axis=axes, dtype=a.dtype)


def _output_axes(ops, terms, out_labels, sizes, order):
    """The axes of the result, outermost first, as NumPy's einsum lays it out: its iterator runs
    over the output labels and then the summed ones (in label order) and sorts them by the
    operands' strides (order='K'); the output takes the order of its own labels."""
    labels = out_labels + "".join(sorted(set("".join(terms)) - set(out_labels)))
    if order == "A":
        order = "F" if all(o.flags.f_contiguous for o in ops) else "C"
    views = []
    for a, term in zip(ops, terms, strict=True):
        a, term = _diagonals(a, term)
        a = _core.permute_dims(a, tuple(term.index(c) for c in labels if c in term))
        views.append(_core.expand_dims(a, tuple(i for i, c in enumerate(labels) if c not in term)))
    shape = tuple(sizes[c] for c in labels)
    axes = _core._iteration_axes(shape, views, order, "einsum")
    return tuple(ax for ax in axes if ax < len(out_labels))


def _in_layout(r, axes, copy):
    """r itself when it is laid out in `axes` (outermost first, strides of a dense array) and no
    copy is asked for, else a copy laid out so."""
    t = _core.permute_dims(r, axes)
    step, dense = r.itemsize, []
    for n in reversed(t.shape):
        dense.append(step)
        step *= n
    if copy or t.strides != tuple(reversed(dense)):
        t = t.copy()
    return _core.permute_dims(t, tuple(axes.index(d) for d in range(len(axes))))


def _result_labels(ta, tb, keep):
    return "".join(dict.fromkeys(c for c in ta + tb if c in keep))


def _greedy_path(terms, out, sizes):
    """Pairs (i, j) to contract in turn: the pair with the smallest result first."""
    terms = list(terms)
    path = []
    while len(terms) > 1:
        best = None
        for i in range(len(terms)):
            for j in range(i + 1, len(terms)):
                keep = set(out).union(*(t for k, t in enumerate(terms) if k not in (i, j)))
                r = _result_labels(terms[i], terms[j], keep)
                cost = (math.prod(sizes[c] for c in r), i, j)
                if best is None or cost < best[0]:
                    best = (cost, i, j, r)
        _, i, j, r = best
        path.append((i, j))
        terms = [t for k, t in enumerate(terms) if k not in (i, j)] + [r]
    return path


def _plan(args, optimize):
    spec, ops = _parse_args(args)
    if not ops:
        raise ValueError("[einsum] at least one operand is required")
    ops = _array_operands(ops)
    if isinstance(optimize, (list, tuple)) and optimize and optimize[0] == "einsum_path":
        optimize = ("einsum_path", *(tuple(p) for p in optimize[1:]))  # hashable for the cache
    elif not (optimize is False or optimize is None or optimize in (True, "greedy", "optimal")):
        raise TypeError(f"[einsum] did not understand the optimize argument {optimize!r}")
    labels, out, sizes, path = _shape_plan(spec, tuple(o.shape for o in ops), optimize)
    return ops, labels, out, dict(sizes), list(path)


@functools.lru_cache(maxsize=256)
def _shape_plan(spec, shapes, optimize):
    """Labels, output labels, label sizes and contraction path of one (spec, shapes, optimize):
    the parsing and path search, cached, as a loop calls einsum with the same arguments."""
    labels, out = _split(spec, [len(s) for s in shapes], optimize not in (False, None))
    sizes = _sizes(labels, shapes)
    if isinstance(optimize, tuple):
        path = list(optimize[1:])
    elif optimize is False or optimize is None or len(shapes) < 3:
        path = [(0, 1)] * (len(shapes) - 1)
    else:
        path = _greedy_path(labels, out, sizes)
    return tuple(labels), out, tuple(sizes.items()), tuple(path)


def einsum(*operands, out=None, dtype=None, order="K", casting="safe", optimize=False):
    """See numpy.einsum; ``casting`` applies to ``dtype=``. The result is laid out as NumPy's
    unoptimised einsum lays it out (``order``, 'K' by default: the operands' memory order), also
    with ``optimize`` (NumPy's then follows its contraction steps)."""
    order = _core._check_order(order, "einsum", "K", "CFAK")
    check_casting("einsum", casting)
    ops, terms, out_labels, sizes, path = _plan(operands, optimize)
    axes = None if out is not None else _output_axes(ops, terms, out_labels, sizes, order)
    if dtype is not None:
        from gpupy import can_cast

        for o in ops:
            if not can_cast(o.dtype, dtype, casting=casting):
                raise TypeError(
                    f"[einsum] cannot cast operand from {o.dtype} to {numpy.dtype(dtype)} "
                    f"according to the rule '{casting}'"
                )
        ops = [o.astype(dtype) for o in ops]
    elif len(ops) > 1:
        # NumPy's einsum sums every product in the operands' common dtype: no pair is rounded
        # (or, for two bools, OR-ed) in its own, narrower dtype first, and a bool operand's
        # axis that the others broadcast is counted, not OR-ed
        common = numpy.result_type(*(o.dtype for o in ops))
        ops = [o.astype(common, copy=False) for o in ops]
    ops, terms = list(ops), list(terms)
    for i in range(len(ops)):
        keep = set(out_labels).union(*(t for k, t in enumerate(terms) if k != i))
        ops[i], terms[i] = _prepare(ops[i], terms[i], sizes, keep)
    for i, j in path:
        if not (0 <= i < len(ops) and 0 <= j < len(ops) and i != j):
            raise ValueError(f"[einsum] invalid contraction {(i, j)} in the path")
        rest = [k for k in range(len(ops)) if k not in (i, j)]
        keep = set(out_labels).union(*(terms[k] for k in rest))
        r, t = _contract(ops[i], terms[i], ops[j], terms[j], keep, sizes)
        ops, terms = [ops[k] for k in rest] + [r], [terms[k] for k in rest] + [t]
    if len(ops) != 1:
        raise ValueError("[einsum] the contraction path does not reduce to one operand")
    (r,), (t,) = ops, terms
    r, t = _prepare(r, t, sizes, set(out_labels))
    r = _core.permute_dims(r, tuple(t.index(c) for c in out_labels))
    if out is not None:
        return _into_out("einsum", r, out, casting)
    return _in_layout(r, axes, copy=len(path) == 0)  # one operand: r may be a view of it


def einsum_path(*operands, optimize="greedy", einsum_call=False):
    """See numpy.einsum_path: the greedy pairwise order as ['einsum_path', (i, j), ...] and a
    short report (gpupy counts the sizes of intermediates, not NumPy's flop model)."""
    ops, terms, out_labels, sizes, path = _plan(operands, optimize if optimize else False)
    if len(ops) == 1:
        path = [(0,)]
    lines = [f"  Complete contraction:  {','.join(terms)}->{out_labels}"]
    t = list(terms)
    for p in path:
        if len(p) == 2:
            i, j = p
            rest = [k for k in range(len(t)) if k not in (i, j)]
            keep = set(out_labels).union(*(t[k] for k in rest))
            r = _result_labels(t[i], t[j], keep)
            lines.append(f"  {t[i]},{t[j]}->{r}  ({math.prod(sizes[c] for c in r)} elements)")
            t = [t[k] for k in rest] + [r]
    return ["einsum_path", *path], "\n".join(lines)
