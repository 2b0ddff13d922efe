"""The ndarray methods setflags and byteswap (see numpy.ndarray.setflags and .byteswap).

byteswap reverses each item's bytes on the array's device: a uint8 view of a contiguous copy,
flipped along the bytes of each item (each half of a complex item, as NumPy does).
"""

from gpupy._core import ndarray

__all__ = []


def _setflags(self, write=None, align=None, uic=None):
    """See numpy.ndarray.setflags. gpupy keeps no chain of bases, so write=True on a read-only
    array is allowed only when the array owns its memory (a whole gpupy allocation): a read-only
    view (broadcast_to's included) stays read-only, where NumPy may allow it. gpupy arrays are
    always aligned, so align=False is refused; uic=True is refused as in NumPy."""
    if uic is not None and uic:
        raise ValueError("[setflags] cannot set WRITEBACKIFCOPY flag to True")
    if align is not None and not align:
        raise NotImplementedError("[setflags] gpupy arrays are always aligned; align=False")
    if write is None:
        return
    if not write:
        self._set_readonly(True)
    elif self._readonly:
        if not self._owndata:
            raise ValueError(
                "[setflags] cannot set WRITEABLE flag to True of this array (a read-only view: "
                "gpupy cannot tell whether the memory it views may be written)"
            )
        self._set_readonly(False)


def _byteswap(self, inplace=False):
    """See numpy.ndarray.byteswap: the bytes of each item reversed (for complex items, those of
    the real and imaginary parts separately), computed on the array's device. inplace=True
    writes them into the array and returns it."""
    if inplace and self._readonly:
        raise ValueError("[byteswap] array to be byte-swapped is read-only")
    part = self.itemsize // 2 if self.dtype.kind == "c" else self.itemsize
    if part == 1:
        swapped = self.copy()
    else:
        flat = self.reshape(-1).copy()
        nbytes = flat.shape[0] * self.itemsize
        # One row per real component, its bytes in reverse.
        parts = flat.view("uint8").reshape(nbytes // part, part)[:, ::-1].copy()
        swapped = parts.reshape(-1).view(self.dtype).reshape(self.shape)
    if not inplace:
        return swapped
    self[...] = swapped
    return self


ndarray.setflags = _setflags
ndarray.byteswap = _byteswap
