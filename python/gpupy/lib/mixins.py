"""gpupy.lib.mixins: NumPy's NDArrayOperatorsMixin, which works with gpupy arrays as they are. A
class whose ``__array_ufunc__`` unwraps gpupy arrays gets every operator on their device (the
mixin calls NumPy's ufuncs, and those dispatch to gpupy's for gpupy operands; `gpupy_array + x`
defers to such a class). tests/python/test_lib_names.py."""

from numpy.lib.mixins import NDArrayOperatorsMixin

__all__ = ["NDArrayOperatorsMixin"]
