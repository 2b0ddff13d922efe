"""Compiles host kernels for the tests: Pyccel modules once per session, cached by source hash
in a temporary folder (pytest.importorskip when the compiler is missing)."""

import glob
import hashlib
import importlib
import importlib.util
import os
import sys
import tempfile

import pytest

_CACHE_DIR = os.path.join(tempfile.gettempdir(), "gpupy_pyccel_cache")
_compiled = {}  # source hash -> compiled module


def pyccel_module(source, name):
    """The Pyccel (C) compilation of `source` as a module called name_<hash>."""
    pyccel = pytest.importorskip("pyccel")
    digest = hashlib.sha256(source.encode()).hexdigest()[:16]
    if digest in _compiled:
        return _compiled[digest]
    folder = os.path.join(_CACHE_DIR, digest)
    os.makedirs(folder, exist_ok=True)
    mod_name = f"{name}_{digest}"
    path = os.path.join(folder, mod_name + ".py")
    if not os.path.exists(path):
        with open(path, "w", encoding="utf-8") as f:
            f.write(source)
    built = glob.glob(os.path.join(folder, "build", "__epyccel__", f"{mod_name}_*.so"))
    if built:  # compiled by an earlier session: load the extension module directly
        compiled = _load_extension(built[0])
        _compiled[digest] = compiled
        return compiled
    sys.path.insert(0, folder)
    cwd = os.getcwd()
    os.chdir(folder)  # Pyccel leaves lock files in the working directory
    try:
        module = importlib.import_module(mod_name)
        compiled = pyccel.epyccel(module, language="c", folder=os.path.join(folder, "build"))
    finally:
        os.chdir(cwd)
        sys.path.remove(folder)
    _compiled[digest] = compiled
    return compiled


def _load_extension(path):
    name = os.path.basename(path).split(".", 1)[0]
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    sys.modules[name] = module  # so that the stub next to it is found by module name
    return module


def compile_host_with_pyccel(module):
    """A `compile_host` for KernelCatalog: Pyccel compiles the kernel module's source."""
    with open(module.__file__, encoding="utf-8") as f:
        source = f.read()
    return pyccel_module(source, module.__name__.rsplit(".", 1)[-1])
