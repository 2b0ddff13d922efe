// Advanced indexing (integer and boolean arrays) and the compaction ops built on it. Host only.
#pragma once

#include <optional>
#include <vector>

#include "gpupy/array.h"
#include "gpupy/ops.h"

namespace gpupy {

/// One entry of a full NumPy index: a basic item, or (when `array` is set) an integer or boolean
/// array already on the indexed array's device.
struct IndexEntry {
  IndexItem basic;
  std::optional<Array> array;
};

/// `a[entries]` with NumPy's advanced-indexing rules (a copy laid out as NumPy's, or C-ordered with
/// order 'C' as numpy.take's); basic-only indices give views.
Array getitem(const Array& a, const std::vector<IndexEntry>& entries, char order = 'K');
/// `a[entries] = value`; with duplicate indices the last write wins on cpu, any one on devices.
void setitem(const Array& a, const std::vector<IndexEntry>& entries, const Operand& value);
/// NumPy's nonzero: one int64 array of coordinates per axis (ndim >= 1).
std::vector<Array> nonzero(const Array& a);
/// C-order flat indices of the nonzero elements of `a` (any ndim), int64.
Array flatnonzero(const Array& a);

}  // namespace gpupy
