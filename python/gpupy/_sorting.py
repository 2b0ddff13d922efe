"""Sorting, searching, counting and cumulative ops, re-exported under NumPy's names.

See the NumPy functions of the same names. Every sort is stable whatever ``kind=``; the Array API's
``descending=`` is accepted too (NaNs then come first, ties keep their order).
"""

from gpupy._core import (  # noqa: F401
    argsort,
    count_nonzero,
    cumprod,
    cumsum,
    cumulative_prod,
    cumulative_sum,
    diff,
    searchsorted,
    sort,
)

__all__ = [
    "argsort",
    "count_nonzero",
    "cumprod",
    "cumsum",
    "cumulative_prod",
    "cumulative_sum",
    "diff",
    "searchsorted",
    "sort",
]
