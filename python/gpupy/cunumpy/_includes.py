"""The headers a CUDA source includes, and their content hash: CudaKernel compile caches key on
the hash so that editing a header recompiles the kernels that include it (spec §2.4)."""

import hashlib
import os
import re

# `#include "file"` and `#include <file>`, at the start of a line (comments are not parsed out: a
# commented include that resolves only costs a hash).
_INCLUDE = re.compile(r'^[ \t]*#[ \t]*include[ \t]*([<"])([^>"]+)[>"]', re.MULTILINE)


def _read(path):
    with open(path, encoding="utf-8", errors="replace") as f:
        return f.read()


def resolve_includes(source, include_dirs=(), *, base_dir=None, angle_dirs=()):
    """Absolute paths of the headers `source` includes, recursively, each once, depth first:
    `#include "x"` relative to the including file (``base_dir`` for the source itself), then
    ``include_dirs``; `#include <x>` only when found under ``angle_dirs`` (the shipped cunumpy
    headers). Files found nowhere are ignored. A source without includes reads no file."""
    found, seen = [], set()

    def visit(text, here):
        for kind, name in _INCLUDE.findall(text):
            if kind == '"':
                dirs = ([here] if here else []) + list(include_dirs)
            else:
                dirs = list(angle_dirs)
            for d in dirs:
                path = os.path.abspath(os.path.join(d, name))
                if os.path.isfile(path):
                    if path not in seen:
                        seen.add(path)
                        found.append(path)
                        visit(_read(path), os.path.dirname(path))
                    break

    visit(source, None if base_dir is None else str(base_dir))
    return found


def include_hash(paths):
    """First 16 hex digits of SHA-256 over each file's 8-byte little-endian length and content."""
    digest = hashlib.sha256()
    for path in paths:
        with open(path, "rb") as f:
            content = f.read()
        digest.update(len(content).to_bytes(8, "little"))
        digest.update(content)
    return digest.hexdigest()[:16]
