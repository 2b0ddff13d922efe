"""File input and output: NumPy's readers and writers on the host. Writers copy gpupy arrays to the
host once; readers parse on the host and place the result on ``device`` (default: the default
device). Also the ndarray methods tofile, dump and dumps."""

import pickle

import numpy

from gpupy import _core
from gpupy._utilities import _host, delegating, named_errors

__all__ = [
    "fromfile",
    "fromregex",
    "genfromtxt",
    "load",
    "loadtxt",
    "save",
    "savetxt",
    "savez",
    "savez_compressed",
]


def _to_device(host, device, op):
    """A NumPy result of a reader as a gpupy array on ``device``."""
    from gpupy._creation import asarray

    host = numpy.asarray(host)
    if host.dtype.names is not None or host.dtype.kind in "OSUVMm":
        raise TypeError(
            f"[{op}] the data read has dtype {host.dtype}, which gpupy arrays do not support; "
            f"read it with numpy.{op}"
        )
    return asarray(host, device=device)


def _reader_device(device, like):
    return like.device if device is None and isinstance(like, _core.ndarray) else device


# ---- NumPy's binary formats ----------------------------------------------------------------------


@delegating
def save(file, arr, allow_pickle=True):
    """See numpy.save: writes ``arr`` in .npy format (a gpupy array is copied to the host once)."""
    numpy.save(file, _host(arr), allow_pickle=allow_pickle)


@delegating
def savez(file, *args, allow_pickle=True, **kwds):
    """See numpy.savez: arrays in one uncompressed .npz (gpupy arrays are copied to the host)."""
    numpy.savez(file, *map(_host, args), allow_pickle=allow_pickle, **_host_values(kwds))


@delegating
def savez_compressed(file, *args, allow_pickle=True, **kwds):
    """See numpy.savez_compressed: as savez, compressed."""
    numpy.savez_compressed(file, *map(_host, args), allow_pickle=allow_pickle, **_host_values(kwds))


def _host_values(kwds):
    return {name: _host(a) for name, a in kwds.items()}


class NpzFile:
    """What load returns for an .npz file: a read-only mapping from names to gpupy arrays (on the
    device load was given), read from the file on access, as numpy.lib.npyio.NpzFile."""

    def __init__(self, npz, device):
        self._npz = npz
        self._device = device
        self.files = npz.files

    def __getitem__(self, key):
        return _to_device(self._npz[key], self._device, "load")

    def __contains__(self, key):
        return key in self._npz

    def __iter__(self):
        return iter(self.files)

    def __len__(self):
        return len(self.files)

    def keys(self):
        return self._npz.keys()

    def values(self):
        return [self[k] for k in self.files]

    def items(self):
        return [(k, self[k]) for k in self.files]

    def get(self, key, default=None):
        return self[key] if key in self else default

    def close(self):
        self._npz.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __repr__(self):
        return f"<gpupy NpzFile with keys: {', '.join(self.files)}>"


@delegating
def load(
    file,
    mmap_mode=None,
    allow_pickle=False,
    fix_imports=True,
    encoding="ASCII",
    *,
    max_header_size=10000,
    device=None,
):
    """See numpy.load: .npy files give a gpupy array on ``device`` (default: the default device),
    .npz files an NpzFile of gpupy arrays; pickled objects are returned as NumPy unpickles them.
    The file is read on the host. With ``mmap_mode`` 'r' or 'c' a cpu array may share the
    mapping (read-only for 'r', private for 'c', as in NumPy) and other devices get a copy;
    'r+' and 'w+', whose writes reach the file, raise ValueError."""
    if mmap_mode in ("r+", "w+"):
        raise ValueError(
            f"[load] mmap_mode={mmap_mode!r} writes through to the file, which gpupy arrays "
            "do not do; use numpy.load for a writable memory map"
        )
    result = numpy.load(
        file,
        mmap_mode=mmap_mode,
        allow_pickle=allow_pickle,
        fix_imports=fix_imports,
        encoding=encoding,
        max_header_size=max_header_size,
    )
    if isinstance(result, numpy.lib.npyio.NpzFile):
        return NpzFile(result, device)
    if isinstance(result, numpy.ndarray) and result.dtype.kind != "O":
        return _to_device(result, device, "load")
    return result


@delegating
def fromfile(file, dtype=float, count=-1, sep="", offset=0, *, like=None, device=None):
    """See numpy.fromfile: reads on the host; the array is placed on ``device`` (default: the
    device of ``like``, else the default device)."""
    host = numpy.fromfile(file, dtype=dtype, count=count, sep=sep, offset=offset)
    return _to_device(host, _reader_device(device, like), "fromfile")


# ---- text formats --------------------------------------------------------------------------------


@delegating
def savetxt(fname, X, *args, **kwargs):  # noqa: N803 - NumPy's name
    """See numpy.savetxt: a gpupy array is copied to the host once and written as text."""
    numpy.savetxt(fname, _host(X), *args, **kwargs)


def loadtxt(fname, dtype=float, *args, like=None, device=None, **kwargs):
    """See numpy.loadtxt: parses on the host; the array is placed on ``device`` (default: the
    device of ``like``, else the default device). A structured ``dtype`` needs ``unpack=True``
    (one gpupy array per field)."""
    with named_errors("loadtxt"):
        host = numpy.loadtxt(fname, dtype, *args, **kwargs)
    return _to_devices(host, _reader_device(device, like), "loadtxt")


def genfromtxt(fname, dtype=float, *args, like=None, device=None, **kwargs):
    """See numpy.genfromtxt: parses on the host; the array is placed on ``device`` (default: the
    device of ``like``, else the default device). Structured results (``names=``, ``dtype=None``
    on mixed columns) without ``unpack=True``, and masked results (``usemask=True``), have no
    gpupy form and raise."""
    if kwargs.get("usemask"):
        raise NotImplementedError("[genfromtxt] gpupy has no masked arrays; use numpy.genfromtxt")
    with named_errors("genfromtxt"):
        host = numpy.genfromtxt(fname, dtype, *args, **kwargs)
    return _to_devices(host, _reader_device(device, like), "genfromtxt")


def _to_devices(host, device, op):
    """A reader's result (an array, or with unpack= a list of arrays) on ``device``."""
    if isinstance(host, tuple | list):
        return [_to_device(h, device, op) for h in host]
    return _to_device(host, device, op)


def fromregex(file, regexp, dtype, encoding=None, *, device=None):
    """See numpy.fromregex: parses on the host; the result is placed on ``device`` (default: the
    default device). gpupy arrays have no structured dtypes: a one-field ``dtype`` gives a 1-d
    array of that field, several fields of one dtype a 2-d array with a column per field."""
    with named_errors("fromregex"):
        host = numpy.fromregex(file, regexp, dtype, encoding=encoding)
    fields = [host[name] for name in host.dtype.names]
    if len({f.dtype for f in fields}) != 1:
        raise TypeError(
            f"[fromregex] fields of different dtypes ({host.dtype}) have no gpupy form; use "
            "numpy.fromregex"
        )
    return _to_device(
        fields[0] if len(fields) == 1 else numpy.stack(fields, axis=-1), device, "fromregex"
    )


# ---- ndarray methods -----------------------------------------------------------------------------


def _tofile(self, fid, sep="", format="%s"):  # noqa: A002 - NumPy's name
    """See numpy.ndarray.tofile: the array is copied to the host once and written."""
    with named_errors("tofile"):
        self.get().tofile(fid, sep=sep, format=format)


def _dumps(self):
    """See numpy.ndarray.dumps: the pickle of the array (it unpickles onto the same device)."""
    return pickle.dumps(self, protocol=2)


def _dump(self, file):
    """See numpy.ndarray.dump: pickles the array to ``file`` (a path or a binary file)."""
    if isinstance(file, str | bytes) or hasattr(file, "__fspath__"):
        with open(file, "wb") as f:
            pickle.dump(self, f, protocol=2)
    else:
        pickle.dump(self, file, protocol=2)


_core.ndarray.tofile = _tofile
_core.ndarray.dumps = _dumps
_core.ndarray.dump = _dump
