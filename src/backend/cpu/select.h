// Introselect for the cpu backend's partition: puts the elements at a sorted list of positions
// where a full sort would, in O(n) on average and O(n log n) at worst. Host only.
#pragma once

#include <algorithm>
#include <bit>
#include <cstdint>
#include <utility>

namespace gpupy::cpu::select {

// Ranges up to this length are finished by insertion sort.
inline constexpr int64_t kSmall = 16;
// From this length the pivot is Tukey's ninther (a median of three medians) instead of a median
// of three, which keeps organ-pipe and sawtooth rows from splitting badly.
inline constexpr int64_t kNintherFrom = 128;

/// Index of the median of v[a], v[b], v[c].
template <class E, class Less>
int64_t median3(const E* v, int64_t a, int64_t b, int64_t c, Less less) {
  if (less(v[a], v[b])) {
    if (less(v[b], v[c])) return b;
    return less(v[a], v[c]) ? c : a;
  }
  if (less(v[a], v[c])) return a;
  return less(v[b], v[c]) ? c : b;
}

template <class E, class Less>
void insertion_sort(E* v, int64_t lo, int64_t hi, Less less) {
  for (int64_t i = lo + 1; i < hi; ++i) {
    E x = std::move(v[i]);
    int64_t j = i;
    for (; j > lo && less(x, v[j - 1]); --j) v[j] = std::move(v[j - 1]);
    v[j] = std::move(x);
  }
}

/// A position in [lo, hi) scattered by a fixed hash of (lo, hi, j).
inline int64_t scattered(int64_t lo, int64_t hi, uint64_t j) {
  uint64_t z = (uint64_t(lo) * 0x9E3779B97F4A7C15u) ^ (uint64_t(hi) + j * 0xBF58476D1CE4E5B9u);
  z = (z ^ (z >> 31)) * 0x94D049BB133111EBu;
  return lo + int64_t((z ^ (z >> 29)) % uint64_t(hi - lo));
}

/// Moves a pivot to v[lo]: the median of v[lo], v[mid] and v[last], or for long ranges Tukey's
/// ninther (the median of three medians of three), of samples spread evenly over the range at an
/// odd spacing, or after a poor split (a periodic row lining up with them) at hashed positions.
template <class E, class Less>
void choose_pivot(E* v, int64_t lo, int64_t hi, bool scatter, Less less) {
  const int64_t n = hi - lo, mid = lo + n / 2, last = hi - 1;
  if (n < kNintherFrom) {
    std::swap(v[lo], v[median3(v, lo, mid, last, less)]);
    return;
  }
  const int64_t s = (n / 8) | 1;
  int64_t at[9] = {lo, lo + s, lo + 2 * s, mid - s, mid, mid + s, last - 2 * s, last - s, last};
  if (scatter)
    for (int j = 0; j < 9; ++j) at[j] = scattered(lo, hi, j);
  const int64_t a = median3(v, at[0], at[1], at[2], less);
  const int64_t b = median3(v, at[3], at[4], at[5], less);
  const int64_t c = median3(v, at[6], at[7], at[8], less);
  std::swap(v[lo], v[median3(v, a, b, c, less)]);
}

/// Moves the elements of v[lo, hi) for which pred holds to the front and returns where the rest
/// begins. Branch-free (every step stores, a flag advances the boundary), so the unpredictable
/// comparisons of random data cost no mispredictions.
template <class E, class Pred>
int64_t move_front(E* v, int64_t lo, int64_t hi, Pred pred) {
  int64_t first = lo;
  for (int64_t r = lo; r < hi; ++r) {
    E x = v[r];
    const bool front = pred(x);
    v[r] = v[first];
    v[first] = x;
    first += front;
  }
  return first;
}

/// Partitions v[lo, hi) (longer than kSmall) around a pivot: returns [p, q) holding values equal
/// to it (at least the pivot itself), with the smaller ones before and the greater after. Values
/// equal to the pivot are split out when the pivot is the range's least value (it equals
/// v[lo - 1], which no value of the range is below) or the split left most of the range there.
template <class E, class Less>
std::pair<int64_t, int64_t> partition_step(E* v, int64_t lo, int64_t hi, bool scatter, Less less) {
  choose_pivot(v, lo, hi, scatter, less);
  const E pivot = v[lo];
  auto not_above = [&](const E& x) { return !less(pivot, x); };
  if (lo > 0 && !less(v[lo - 1], pivot)) return {lo, move_front(v, lo, hi, not_above)};
  const int64_t p = move_front(v, lo + 1, hi, [&](const E& x) { return less(x, pivot); }) - 1;
  std::swap(v[lo], v[p]);
  const int64_t q = p + 1;
  return {p, hi - q > (hi - lo) / 8 * 7 ? move_front(v, q, hi, not_above) : q};
}

/// Puts the element a sort would place at k into v[k], with no greater one in v[lo, k) and no
/// smaller one in v(k, hi). After 2 log2(n) poor splits the rest is a heap select. v[lo - 1],
/// when lo > 0, must be no greater than any of v[lo, hi) (select_many keeps that true).
template <class E, class Less>
void select_one(E* v, int64_t lo, int64_t hi, int64_t k, Less less) {
  int depth = 2 * std::bit_width(uint64_t(hi - lo));
  bool scatter = false;  // pivot samples at hashed positions, from the first poor split on
  while (hi - lo > kSmall) {
    if (k == lo || k == hi - 1) {  // the minimum or maximum: one scan
      E* m =
          k == lo ? std::min_element(v + lo, v + hi, less) : std::max_element(v + lo, v + hi, less);
      std::swap(v[k], *m);
      return;
    }
    if (depth-- == 0) {
      std::partial_sort(v + lo, v + k + 1, v + hi, less);
      return;
    }
    const int64_t n = hi - lo;
    const auto [p, q] = partition_step(v, lo, hi, scatter, less);
    if (k < p)
      hi = p;
    else if (k >= q)
      lo = q;
    else
      return;
    scatter = scatter || hi - lo > n / 8 * 7;
  }
  insertion_sort(v, lo, hi, less);
}

/// select_one for each of the ascending, distinct positions k[0, nk), all within [lo, hi): the
/// middle one first, then each side's positions within that side only.
template <class E, class Less>
void select_many(E* v, int64_t lo, int64_t hi, const int64_t* k, int64_t nk, Less less) {
  while (nk > 0) {
    const int64_t m = nk / 2;
    select_one(v, lo, hi, k[m], less);
    select_many(v, lo, k[m], k, m, less);
    lo = k[m] + 1, k += m + 1, nk -= m + 1;
  }
}

}  // namespace gpupy::cpu::select
