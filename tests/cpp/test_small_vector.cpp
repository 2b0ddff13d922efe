// SmallVector (the storage of Shape and Strides) against std::vector doing the same edits, on both
// sides of the inline capacity. Host only.
#include <gtest/gtest.h>

#include <vector>

#include "gpupy/small_vector.h"

using Small = gpupy::SmallVector<int64_t, 3>;

namespace {

std::vector<int64_t> as_vector(const Small& s) { return {s.begin(), s.end()}; }

}  // namespace

TEST(SmallVector, ConstructorsMatchVector) {
  EXPECT_EQ(as_vector(Small{}), (std::vector<int64_t>{}));
  EXPECT_EQ(as_vector(Small(4)), (std::vector<int64_t>(4)));
  EXPECT_EQ(as_vector(Small(5, 7)), (std::vector<int64_t>(5, 7)));
  EXPECT_EQ(as_vector(Small{9}), (std::vector<int64_t>{9}));  // a list, not a count
  std::vector<int64_t> v{1, 2, 3, 4, 5};
  EXPECT_EQ(as_vector(Small(v.rbegin(), v.rend())), (std::vector<int64_t>{5, 4, 3, 2, 1}));
}

TEST(SmallVector, CopyAndMoveAcrossInlineCapacity) {
  for (int n : {0, 2, 3, 4, 9}) {
    Small a;
    std::vector<int64_t> ref;
    for (int i = 0; i < n; ++i) {
      a.push_back(i * 10);
      ref.push_back(i * 10);
    }
    Small copy = a;
    EXPECT_EQ(as_vector(copy), ref);
    Small assigned{42, 43, 44, 45};
    assigned = a;
    EXPECT_EQ(as_vector(assigned), ref);
    Small moved = std::move(copy);
    EXPECT_EQ(as_vector(moved), ref);
    EXPECT_TRUE(copy.empty());  // NOLINT(bugprone-use-after-move): moved-from is empty by design
    copy.push_back(1);          // and usable again
    EXPECT_EQ(as_vector(copy), (std::vector<int64_t>{1}));
    Small move_assigned{7};
    move_assigned = std::move(moved);
    EXPECT_EQ(as_vector(move_assigned), ref);
    EXPECT_EQ(a == move_assigned, true);
  }
}

TEST(SmallVector, EditsMatchVector) {
  Small s{1, 2};
  std::vector<int64_t> ref{1, 2};
  s.insert(s.begin(), 0);
  ref.insert(ref.begin(), 0);
  s.insert(s.end(), 3, 8);  // grows past the inline capacity
  ref.insert(ref.end(), 3, 8);
  EXPECT_EQ(as_vector(s), ref);
  s.insert(s.begin() + 1, s.begin(), s.end());  // from itself, across a reallocation
  std::vector<int64_t> expected{0, 0, 1, 2, 8, 8, 8, 1, 2, 8, 8, 8};
  EXPECT_EQ(as_vector(s), expected);
  s.erase(s.begin() + 2, s.begin() + 5);
  expected.erase(expected.begin() + 2, expected.begin() + 5);
  EXPECT_EQ(as_vector(s), expected);
  s.erase(s.begin());
  expected.erase(expected.begin());
  EXPECT_EQ(as_vector(s), expected);
  s.resize(2);
  EXPECT_EQ(as_vector(s), (std::vector<int64_t>{0, 8}));
  s.resize(4, -1);
  EXPECT_EQ(as_vector(s), (std::vector<int64_t>{0, 8, -1, -1}));
  s.assign(s.begin() + 1, s.end());  // a subrange of itself
  EXPECT_EQ(as_vector(s), (std::vector<int64_t>{8, -1, -1}));
  s.push_back(s[0]);  // an element of itself
  EXPECT_EQ(as_vector(s), (std::vector<int64_t>{8, -1, -1, 8}));
  s.pop_back();
  EXPECT_EQ(s.back(), -1);
  EXPECT_EQ(s.front(), 8);
  EXPECT_NE(s, (Small{8, -1}));
  s.clear();
  EXPECT_TRUE(s.empty());
}
