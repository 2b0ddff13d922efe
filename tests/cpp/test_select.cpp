// The cpu introselect (src/backend/cpu/select.h): placement against std::sort, linear work on
// the inputs that trouble quickselect, and the O(n log n) bound under an adversarial comparator.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <numeric>
#include <random>
#include <vector>

#include "backend/cpu/select.h"
#include "backend/sort_keys.h"

namespace {

using gpupy::cpu::select::select_many;

/// Every kth holds sorted[kth], with nothing greater before it and nothing smaller after it.
template <class T, class Less>
void expect_partitioned(const std::vector<T>& v, std::vector<T> sorted,
                        const std::vector<int64_t>& kth, Less less) {
  std::sort(sorted.begin(), sorted.end(), less);
  std::vector<T> again = v;
  std::sort(again.begin(), again.end(), less);
  for (size_t i = 0; i < v.size(); ++i)  // a permutation of the input
    ASSERT_FALSE(less(again[i], sorted[i]) || less(sorted[i], again[i])) << i;
  for (int64_t k : kth) {
    ASSERT_FALSE(less(v[k], sorted[k]) || less(sorted[k], v[k])) << "kth " << k;
    for (int64_t i = 0; i < k; ++i) ASSERT_FALSE(less(v[k], v[i])) << k << " before " << i;
    for (size_t i = k + 1; i < v.size(); ++i) ASSERT_FALSE(less(v[i], v[k])) << k << " after " << i;
  }
}

std::vector<double> pattern(const std::string& name, int64_t n, std::mt19937_64& rng) {
  std::vector<double> v(n);
  for (int64_t i = 0; i < n; ++i) {
    if (name == "random") v[i] = std::uniform_real_distribution<double>(-1, 1)(rng);
    if (name == "equal") v[i] = 3.0;
    if (name == "sorted") v[i] = double(i);
    if (name == "reversed") v[i] = double(n - i);
    if (name == "organ") v[i] = double(std::min(i, n - 1 - i));
    if (name == "sawtooth") v[i] = double(i % 64);
    if (name == "few") v[i] = double(rng() % 3);
  }
  return v;
}

const char* kPatterns[] = {"random", "equal", "sorted", "reversed", "organ", "sawtooth", "few"};

TEST(Select, MatchesSortAtEveryKth) {
  std::mt19937_64 rng(7);
  auto less = [](double a, double b) { return gpupy::sort_keys::less(a, b); };
  for (const char* name : kPatterns) {
    for (int64_t n : {1, 2, 3, 17, 100, 1000}) {
      std::vector<double> base = pattern(name, n, rng);
      for (const std::vector<int64_t>& kth :
           {std::vector<int64_t>{0}, {n - 1}, {n / 2}, {0, n / 3, n / 2, n - 1}}) {
        std::vector<int64_t> ks = kth;
        std::sort(ks.begin(), ks.end());
        ks.erase(std::unique(ks.begin(), ks.end()), ks.end());
        std::vector<double> v = base;
        select_many(v.data(), 0, n, ks.data(), int64_t(ks.size()), less);
        SCOPED_TRACE(std::string(name) + " n=" + std::to_string(n));
        expect_partitioned(v, base, ks, less);
      }
    }
  }
}

TEST(Select, NaNsGoLast) {
  std::vector<double> base = {NAN, 1.0, -0.0, NAN, -INFINITY, 0.0, INFINITY, 2.0, NAN, -1.0};
  auto less = [](double a, double b) { return gpupy::sort_keys::less(a, b); };
  for (int64_t k = 0; k < int64_t(base.size()); ++k) {
    std::vector<double> v = base;
    select_many(v.data(), 0, int64_t(v.size()), &k, 1, less);
    expect_partitioned(v, base, {k}, less);
    EXPECT_EQ(std::isnan(v[k]), k >= 7) << k;
  }
}

// One middle kth on a million elements costs a few passes on every pattern (quickselect's
// average is about 3.4 n comparisons with a median of three).
TEST(Select, LinearOnAwkwardPatterns) {
  std::mt19937_64 rng(11);
  const int64_t n = 1 << 20;
  for (const char* name : kPatterns) {
    const std::vector<double> base = pattern(name, n, rng);
    std::vector<double> v = base, ref = base;
    int64_t compares = 0;
    auto less = [&](double a, double b) { return ++compares, a < b; };
    const int64_t k = n / 2;
    select_many(v.data(), 0, n, &k, 1, less);
    EXPECT_LT(compares, 8 * n) << name;
    std::nth_element(ref.begin(), ref.begin() + k, ref.end());
    EXPECT_EQ(v[k], ref[k]) << name;
  }
}

// McIlroy's adversary: values are decided lazily, always so that the pivot candidate is the
// smallest, which makes any quickselect quadratic; the fallback must keep O(n log n).
struct Adversary {
  std::vector<int64_t> value;
  int64_t solid = 0, candidate = -1, gas, compares = 0;
  explicit Adversary(int64_t n) : value(n, n), gas(n) {}
  bool less(int64_t x, int64_t y) {
    ++compares;
    if (value[x] == gas && value[y] == gas) value[x == candidate ? x : y] = solid++;
    if (value[x] == gas)
      candidate = x;
    else if (value[y] == gas)
      candidate = y;
    return value[x] < value[y];
  }
};

TEST(Select, AdversaryStaysNLogN) {
  const int64_t n = 1 << 15;
  for (int64_t k : {int64_t(0) + 1, n / 2, n - 2}) {
    Adversary adv(n);
    std::vector<int64_t> v(n);
    std::iota(v.begin(), v.end(), 0);
    auto less = [&](int64_t x, int64_t y) { return adv.less(x, y); };
    select_many(v.data(), 0, n, &k, 1, less);
    EXPECT_LT(adv.compares, 8 * n * std::bit_width(uint64_t(n))) << k;
    std::vector<int64_t> vals(n);
    for (int64_t i = 0; i < n; ++i) vals[i] = adv.value[v[i]];
    for (int64_t i = 0; i < k; ++i) ASSERT_LE(vals[i], vals[k]);
    for (int64_t i = k + 1; i < n; ++i) ASSERT_GE(vals[i], vals[k]);
  }
}

}  // namespace
