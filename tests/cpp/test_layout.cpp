// NumPy's layout rule for new element-wise results (iteration_axes, empty_in_layout): the axis
// orders checked by hand against NumPy 2.4's ufunc results. Host only.
#include <gtest/gtest.h>

#include <vector>

#include "gpupy/error.h"
#include "gpupy/ops.h"

using gpupy::Array;
using gpupy::DType;
using gpupy::Shape;
using gpupy::Strides;

namespace {

Array f64(const Shape& shape) { return gpupy::empty(shape, DType::float64, gpupy::Device{}); }

std::vector<int> axes_of(const Shape& shape, const std::vector<const Array*>& operands,
                         char order = 'K') {
  return gpupy::iteration_axes(shape, operands, order);
}

}  // namespace

TEST(IterationAxes, KeepsOneOperandsStrideOrder) {
  Array c = f64({2, 3, 4});
  Array p = gpupy::permute_dims(c, {1, 2, 0});  // strides (32, 8, 96)
  EXPECT_EQ(axes_of(c.shape(), {&c}), (std::vector<int>{0, 1, 2}));
  EXPECT_EQ(axes_of(p.shape(), {&p}), (std::vector<int>{2, 0, 1}));
  Array t = gpupy::transpose(c);
  EXPECT_EQ(axes_of(t.shape(), {&t}), (std::vector<int>{2, 1, 0}));
  Array reversed = gpupy::flip(t, std::nullopt);  // negative strides sort by magnitude
  EXPECT_EQ(axes_of(reversed.shape(), {&reversed}), (std::vector<int>{2, 1, 0}));
}

TEST(IterationAxes, BroadcastAndLengthOneAxesAreNotCompared) {
  // numpy.exp(numpy.broadcast_to(x[:, :1, :], (2, 3, 4)).T) has strides (8, 64, 32)
  Array b = gpupy::transpose(gpupy::broadcast_to(f64({2, 1, 4}), {2, 3, 4}));
  EXPECT_EQ(axes_of(b.shape(), {&b}), (std::vector<int>{1, 2, 0}));
  // an F-ordered (3, 1, 4): the length-1 axis stays outermost, (8, 96, 24) as numpy.where's
  // (a ufunc's contiguous shortcut makes it F-ordered instead: contiguous_order)
  Array f = gpupy::transpose(f64({4, 1, 3}));
  EXPECT_EQ(axes_of(f.shape(), {&f}), (std::vector<int>{1, 2, 0}));
  // a row broadcast against an F matrix leaves the matrix's order
  Array m = gpupy::transpose(f64({4, 3}));
  Array row = f64({4});
  EXPECT_EQ(axes_of({3, 4}, {&m, &row}), (std::vector<int>{1, 0}));
}

TEST(IterationAxes, ConflictsGiveCOrder) {
  Array c = f64({3, 4});
  Array f = gpupy::transpose(f64({4, 3}));
  EXPECT_EQ(axes_of({3, 4}, {&c, &f}), (std::vector<int>{0, 1}));
  EXPECT_EQ(axes_of({3, 4}, {&f, &c}), (std::vector<int>{0, 1}));
  EXPECT_EQ(axes_of({3, 4}, {&f, &f}), (std::vector<int>{1, 0}));
}

TEST(IterationAxes, ExplicitOrders) {
  Array c = f64({2, 3, 4});
  Array f = gpupy::transpose(f64({4, 3, 2}));
  EXPECT_EQ(axes_of(c.shape(), {&c}, 'F'), (std::vector<int>{2, 1, 0}));
  EXPECT_EQ(axes_of(c.shape(), {&f}, 'C'), (std::vector<int>{0, 1, 2}));
  EXPECT_EQ(axes_of(c.shape(), {&f}, 'A'), (std::vector<int>{2, 1, 0}));
  EXPECT_EQ(axes_of(c.shape(), {&f, &c}, 'A'), (std::vector<int>{0, 1, 2}));
  EXPECT_EQ(axes_of({}, {}, 'K'), (std::vector<int>{}));
}

TEST(IterationAxes, AnOrderOutsideCFAKIsRefused) {
  // as NumPy's ValueError; it fell back to C order, whatever the letter or the rank
  Array c = f64({2, 3});
  for (char order : {'Q', 'c', '\0'})
    EXPECT_THROW(axes_of(c.shape(), {&c}, order), gpupy::ValueError) << order;
  EXPECT_THROW(axes_of({}, {}, 'Q'), gpupy::ValueError);
}

TEST(EmptyInLayout, StridesFollowTheAxes) {
  Array a = gpupy::empty_in_layout({2, 3, 4}, DType::float32, gpupy::Device{}, {2, 0, 1});
  EXPECT_EQ(a.strides(), (Strides{12, 4, 24}));
  Array f = gpupy::empty_in_layout({2, 3}, DType::int16, gpupy::Device{}, {1, 0});
  EXPECT_TRUE(f.is_f_contiguous());
  EXPECT_FALSE(f.is_c_contiguous());
  EXPECT_EQ(f.nbytes(), 12);
}
