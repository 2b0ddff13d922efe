// cpu sorting, selection, scans and binary search along the last axis: rows run in parallel, each
// row a stable sort of its order-preserving keys (radix for long rows of 64-bit keys, else
// std::stable_sort over (key, position) pairs), a radix sort of bare keys where only the values
// are asked for, or an introselect (select.h). Host only.
#include <algorithm>
#include <cstring>
#include <memory>
#include <utility>
#include <vector>

#include "../../core/dispatch.h"
#include "../../functors/all.h"
#include "../sort_keys.h"
#include "cpu_backend.h"
#include "parallel.h"
#include "select.h"

namespace gpupy::cpu {
namespace {

/// Byte offset of row `r` (C order over all axes but the last) of `a`.
int64_t row_offset(const Array& a, int64_t r) {
  int64_t off = 0;
  for (int d = a.ndim() - 2; d >= 0; --d) {
    off += (r % a.shape()[d]) * a.strides()[d];
    r /= a.shape()[d];
  }
  return off;
}

/// Byte offset of flat element `i` (C order) of `a`.
int64_t flat_offset(const Array& a, int64_t i) {
  int64_t off = 0;
  for (int d = a.ndim() - 1; d >= 0; --d) {
    off += (i % a.shape()[d]) * a.strides()[d];
    i /= a.shape()[d];
  }
  return off;
}

/// Rows handed to a thread at once: about kParallelGrain elements.
int64_t row_grain(int64_t n) {
  return std::max<int64_t>(1, kParallelGrain / std::max<int64_t>(n, 1));
}

// Rows at least this long sort their 64-bit keys by radix: below it std::stable_sort is faster.
constexpr int64_t kRadixFrom = 64;

/// A row's keys and the buffers of radix_order, kept by each thread from row to row.
struct RadixScratch {
  std::vector<uint64_t> keys, next_keys;
  std::vector<int64_t> next_order;
};

/// Positions [0, n) ordered by `s.keys`, stably: an LSD radix sort, 8 bits per pass. One counting
/// pass builds every digit's histogram, and a digit that every key shares costs no pass (a small
/// range of integers sorts in one or two passes).
void radix_order(RadixScratch& s, std::vector<int64_t>& order) {
  const size_t n = s.keys.size();
  size_t count[8][256] = {};
  for (uint64_t k : s.keys)
    for (int d = 0; d < 8; ++d) ++count[d][(k >> (8 * d)) & 0xff];
  s.next_keys.resize(n);
  s.next_order.resize(n);
  for (int d = 0; d < 8; ++d) {
    size_t* start = count[d];
    if (start[(s.keys[0] >> (8 * d)) & 0xff] == n) continue;
    size_t sum = 0;
    for (int b = 0; b < 256; ++b) sum += std::exchange(start[b], sum);
    const uint64_t* keys = s.keys.data();
    const int64_t* from = order.data();
    uint64_t* next_keys = s.next_keys.data();
    int64_t* next_order = s.next_order.data();
    for (size_t i = 0; i < n; ++i) {
      const size_t at = start[(keys[i] >> (8 * d)) & 0xff]++;
      next_keys[at] = keys[i];
      next_order[at] = from[i];
    }
    s.keys.swap(s.next_keys);
    order.swap(s.next_order);
  }
}

/// Positions of one row ordered by key, stably (NumPy's sort order; `descending` reverses it
/// while equal keys keep their order).
template <class T>
void row_order(const char* src, int64_t n, int64_t si, bool descending, std::vector<int64_t>& order,
               RadixScratch& scratch) {
  using Key = sort_keys::KeyOf<T>;
  auto key_at = [&](int64_t j) {
    Key k = sort_keys::key(*reinterpret_cast<const T*>(src + j * si));
    return descending ? sort_keys::invert(k) : k;
  };
  order.resize(n);
  if constexpr (std::is_same_v<Key, uint64_t>) {
    if (n >= kRadixFrom) {
      scratch.keys.resize(n);
      for (int64_t j = 0; j < n; ++j) scratch.keys[j] = key_at(j), order[j] = j;
      radix_order(scratch, order);
      return;
    }
  }
  std::vector<std::pair<Key, int64_t>> row(n);
  for (int64_t j = 0; j < n; ++j) row[j] = {key_at(j), j};
  std::stable_sort(row.begin(), row.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  for (int64_t j = 0; j < n; ++j) order[j] = row[j].second;
}

// Sorting values alone (no positions) of 4- and 8-byte integers and floats: the values map one
// to one onto unsigned keys in the same order, so any sort of the keys gives the stable sort's
// values; a float row holding NaN or -0.0 (equal keys of distinct values) takes the stable path.
template <class T>
inline constexpr bool kRadixValues =
    std::is_arithmetic_v<T> && !std::is_same_v<T, bool> && (sizeof(T) == 4 || sizeof(T) == 8);
template <class T>
using RadixKey = std::conditional_t<sizeof(T) == 4, uint32_t, uint64_t>;
// Rows shorter than this sort their keys with std::sort: a radix pass clears 256 counters.
constexpr int64_t kRadixValuesFrom = 96;

/// Sorts keys[0, n) (tmp holds n more): LSD radix, 8 bits per pass, passes on shared digits
/// skipped.
template <class K>
void radix_sort_keys(K* keys, K* tmp, int64_t n) {
  constexpr int kDigits = sizeof(K);
  uint32_t count[kDigits][256] = {};
  for (int64_t i = 0; i < n; ++i)
    for (int d = 0; d < kDigits; ++d) ++count[d][(keys[i] >> (8 * d)) & 0xff];
  K *from = keys, *to = tmp;
  for (int d = 0; d < kDigits; ++d) {
    uint32_t* start = count[d];
    if (start[(from[0] >> (8 * d)) & 0xff] == uint32_t(n)) continue;
    uint32_t sum = 0;
    for (int b = 0; b < 256; ++b) sum += std::exchange(start[b], sum);
    for (int64_t i = 0; i < n; ++i) to[start[(from[i] >> (8 * d)) & 0xff]++] = from[i];
    std::swap(from, to);
  }
  if (from != keys) std::copy(from, from + n, keys);
}

/// One row's values sorted through their keys into dst; false (nothing written) for a float row
/// with NaN or -0.0, and for a row too long for 32-bit digit counts.
template <class T>
bool sort_values_by_keys(const char* src, int64_t n, int64_t si, bool descending, char* dst,
                         int64_t sv, std::vector<RadixKey<T>>& buf) {
  using K = RadixKey<T>;
  if (n > int64_t(UINT32_MAX)) return false;
  constexpr K kSign = K(1) << (8 * sizeof(K) - 1);
  buf.resize(2 * n);
  K* keys = buf.data();
  const K flip = descending ? ~K(0) : K(0);
  bool plain = true;
  for (int64_t j = 0; j < n; ++j) {
    K u;
    std::memcpy(&u, src + j * si, sizeof(K));
    if constexpr (std::is_floating_point_v<T>) {
      const K inf = std::is_same_v<T, float> ? K(0x7f800000u) : K(0x7ff0000000000000u);
      plain &= !((u & ~kSign) > inf) & (u != kSign);
      u = (u & kSign) ? ~u : (u | kSign);
    } else if constexpr (std::is_signed_v<T>) {
      u ^= kSign;
    }
    keys[j] = u ^ flip;
  }
  if (!plain) return false;
  if (n < kRadixValuesFrom)
    std::sort(keys, keys + n);
  else
    radix_sort_keys(keys, keys + n, n);
  for (int64_t j = 0; j < n; ++j) {
    K u = keys[j] ^ flip;
    if constexpr (std::is_floating_point_v<T>)
      u = (u & kSign) ? (u ^ kSign) : ~u;
    else if constexpr (std::is_signed_v<T>)
      u ^= kSign;
    std::memcpy(dst + j * sv, &u, sizeof(K));
  }
  return true;
}

template <class T>
void sort_rows(const Array& in, const Array& values, const Array* indices, bool descending) {
  const int64_t n = in.shape().back(), rows = in.size() / n;
  const int64_t si = in.strides().back(), sv = values.strides().back();
  parallel_for(rows, row_grain(n), [&](int64_t r0, int64_t r1) {
    std::vector<int64_t> order;
    std::vector<RadixKey<T>> keys;
    RadixScratch scratch;
    for (int64_t r = r0; r < r1; ++r) {
      const char* src = in.data() + row_offset(in, r);
      if constexpr (kRadixValues<T>) {
        char* dst = values.data() + row_offset(values, r);
        if (!indices && sort_values_by_keys<T>(src, n, si, descending, dst, sv, keys)) continue;
      }
      row_order<T>(src, n, si, descending, order, scratch);
      char* dst = values.data() + row_offset(values, r);
      for (int64_t j = 0; j < n; ++j)
        *reinterpret_cast<T*>(dst + j * sv) = *reinterpret_cast<const T*>(src + order[j] * si);
      if (indices) {
        char* idx = indices->data() + row_offset(*indices, r);
        const int64_t sx = indices->strides().back();
        for (int64_t j = 0; j < n; ++j) *reinterpret_cast<int64_t*>(idx + j * sx) = order[j];
      }
    }
  });
}

/// An element with the position it came from (argpartition).
template <class T>
struct Tagged {
  T value;
  int64_t at;
};

/// Each row selected at `kth` in a buffer: the output row itself when it is contiguous.
template <class T>
void partition_rows(const Array& in, const std::vector<int64_t>& kth, const Array& values,
                    const Array* indices) {
  const int64_t n = in.shape().back(), rows = in.size() / n, nk = int64_t(kth.size());
  const int64_t si = in.strides().back(), sv = values.strides().back();
  auto less = [](const T& a, const T& b) { return sort_keys::less(a, b); };
  const bool direct = sv == int64_t(sizeof(T));
  parallel_for(rows, row_grain(n), [&](int64_t r0, int64_t r1) {
    std::unique_ptr<T[]> buf(direct || indices ? nullptr : new T[n]);  // not vector: T may be bool
    std::vector<Tagged<T>> tagged;
    for (int64_t r = r0; r < r1; ++r) {
      const char* src = in.data() + row_offset(in, r);
      char* dst = values.data() + row_offset(values, r);
      auto at = [&](int64_t j) { return *reinterpret_cast<const T*>(src + j * si); };
      auto put = [&](int64_t j, const T& v) { *reinterpret_cast<T*>(dst + j * sv) = v; };
      if (indices) {
        tagged.resize(n);
        for (int64_t j = 0; j < n; ++j) tagged[j] = {at(j), j};
        select::select_many(
            tagged.data(), 0, n, kth.data(), nk,
            [&](const Tagged<T>& a, const Tagged<T>& b) { return less(a.value, b.value); });
        char* idx = indices->data() + row_offset(*indices, r);
        const int64_t sx = indices->strides().back();
        for (int64_t j = 0; j < n; ++j) {
          put(j, tagged[j].value);
          *reinterpret_cast<int64_t*>(idx + j * sx) = tagged[j].at;
        }
        continue;
      }
      T* row = direct ? reinterpret_cast<T*>(dst) : buf.get();
      for (int64_t j = 0; j < n; ++j) row[j] = at(j);
      select::select_many(row, 0, n, kth.data(), nk, less);
      if (!direct)
        for (int64_t j = 0; j < n; ++j) put(j, row[j]);
    }
  });
}

template <class T, class Op>
void scan_rows(const Array& in, const Array& out) {
  const int64_t n = in.shape().back(), rows = in.size() / n;
  const int64_t si = in.strides().back(), so = out.strides().back();
  parallel_for(rows, row_grain(n), [&](int64_t r0, int64_t r1) {
    for (int64_t r = r0; r < r1; ++r) {
      const char* src = in.data() + row_offset(in, r);
      char* dst = out.data() + row_offset(out, r);
      T acc = *reinterpret_cast<const T*>(src);
      *reinterpret_cast<T*>(dst) = acc;
      for (int64_t j = 1; j < n; ++j) {
        acc = Op{}(acc, *reinterpret_cast<const T*>(src + j * si));
        *reinterpret_cast<T*>(dst + j * so) = acc;
      }
    }
  });
}

}  // namespace

void CpuBackend::sort(const Array& in, const Array& values_out, const Array* indices_out,
                      bool descending) {
  if (in.size() == 0) return;
  dispatch_dtype_except_float16(in.dtype(), "sort", [&](auto tag) {
    sort_rows<typename decltype(tag)::type>(in, values_out, indices_out, descending);
  });
}

void CpuBackend::partition(const Array& in, const std::vector<int64_t>& kth,
                           const Array& values_out, const Array* indices_out) {
  if (in.size() == 0) return;
  dispatch_dtype_except_float16(in.dtype(), "partition", [&](auto tag) {
    partition_rows<typename decltype(tag)::type>(in, kth, values_out, indices_out);
  });
}

void CpuBackend::scan(ScanOp op, const Array& in, const Array& out) {
  if (in.size() == 0) return;
  dispatch_dtype_except_float16(in.dtype(), "scan", [&](auto tag) {
    using T = typename decltype(tag)::type;
    if (op == ScanOp::sum)
      scan_rows<T, fn::Add>(in, out);
    else
      scan_rows<T, fn::Multiply>(in, out);
  });
}

namespace {

/// Many queries into few sorted values (histogram's edges): the keys once, then a binary search
/// whose steps compile to conditional moves instead of unpredictable branches.
template <class T>
void search_few(const Array& sorted, const Array& queries, const Array& out, bool right) {
  const int64_t n = sorted.size(), ss = sorted.strides()[0];
  std::vector<uint64_t> keys(n);
  for (int64_t i = 0; i < n; ++i)
    keys[i] = sort_keys::key(*reinterpret_cast<const T*>(sorted.data() + i * ss));
  const T* q = reinterpret_cast<const T*>(queries.data());
  auto* o = reinterpret_cast<int64_t*>(out.data());
  parallel_for(queries.size(), 4096, [&](int64_t q0, int64_t q1) {
    for (int64_t j = q0; j < q1; ++j) {
      const uint64_t v = sort_keys::key(q[j]);
      const uint64_t* first = keys.data();
      int64_t len = n;
      while (len > 0) {  // first key that is > v (`right`) or >= v
        const int64_t half = len / 2;
        const bool before = right ? !(v < first[half]) : first[half] < v;
        first = before ? first + half + 1 : first;
        len = before ? len - half - 1 : half;
      }
      o[j] = first - keys.data();
    }
  });
}

}  // namespace

void CpuBackend::searchsorted(const Array& sorted, const Array* sorter, const Array& queries,
                              const Array& out, bool right) {
  if (queries.size() == 0) return;
  dispatch_dtype_except_float16(sorted.dtype(), "searchsorted", [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_same_v<sort_keys::KeyOf<T>, uint64_t>) {
      if (!sorter && sorted.size() <= queries.size() && sorted.size() <= (1 << 16) &&
          queries.is_c_contiguous() && out.is_c_contiguous())
        return search_few<T>(sorted, queries, out, right);
    }
    const int64_t n = sorted.size(), ss = sorted.strides()[0];
    const int64_t sp = sorter ? sorter->strides()[0] : 0;
    auto get = [&](int64_t m) {
      if (sorter) m = *reinterpret_cast<const int64_t*>(sorter->data() + m * sp);
      return sort_keys::key(*reinterpret_cast<const T*>(sorted.data() + m * ss));
    };
    parallel_for(queries.size(), 1024, [&](int64_t q0, int64_t q1) {
      for (int64_t q = q0; q < q1; ++q) {
        auto v =
            sort_keys::key(*reinterpret_cast<const T*>(queries.data() + flat_offset(queries, q)));
        *reinterpret_cast<int64_t*>(out.data() + flat_offset(out, q)) =
            sort_keys::bound(get, 0, n, v, right);
      }
    });
  });
}

}  // namespace gpupy::cpu
