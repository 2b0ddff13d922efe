// C++ invariants of broadcasting and of the stride arithmetic of shape views (values checked by
// hand against NumPy 2.4). Host only.
#include <gtest/gtest.h>

#include "gpupy/error.h"
#include "gpupy/ops.h"

using gpupy::Array;
using gpupy::DType;
using gpupy::IndexItem;
using gpupy::Shape;
using gpupy::Strides;

namespace {

Array f64(const Shape& shape) { return gpupy::empty(shape, DType::float64, gpupy::Device{}); }

IndexItem slice(std::optional<int64_t> start, std::optional<int64_t> stop,
                std::optional<int64_t> step) {
  IndexItem item;
  item.kind = IndexItem::Kind::slice;
  item.start = start;
  item.stop = stop;
  item.step = step;
  return item;
}

}  // namespace

TEST(Broadcast, Shapes) {
  EXPECT_EQ(gpupy::broadcast_shapes({3, 1}, {4}), (Shape{3, 4}));
  EXPECT_EQ(gpupy::broadcast_shapes({}, {2, 3}), (Shape{2, 3}));
  EXPECT_EQ(gpupy::broadcast_shapes({0, 1}, {1, 5}), (Shape{0, 5}));
  EXPECT_THROW(gpupy::broadcast_shapes({3}, {4}), gpupy::ValueError);
}

TEST(Broadcast, ToIsReadOnlyWithZeroStrides) {
  Array b = gpupy::broadcast_to(f64({3}), {2, 3});
  EXPECT_EQ(b.strides(), (Strides{0, 8}));
  EXPECT_TRUE(b.readonly());
  EXPECT_THROW(gpupy::broadcast_to(f64({3}), {4}), gpupy::ValueError);
}

TEST(Reshape, ContiguousIsView) {
  Array a = f64({2, 3, 4});
  Array r = gpupy::reshape(a, {4, -1});
  EXPECT_EQ(r.shape(), (Shape{4, 6}));
  EXPECT_EQ(r.strides(), (Strides{48, 8}));
  EXPECT_EQ(r.buffer(), a.buffer());
  EXPECT_THROW(gpupy::reshape(a, {5, -1}), gpupy::ValueError);
  EXPECT_THROW(gpupy::reshape(a, {-1, -1}), gpupy::ValueError);
}

TEST(Reshape, NoCopyOnTransposedAndSliced) {
  // numpy: np.zeros((4,6)).T.reshape(3,2,4).strides == (16, 8, 48)
  Array t = gpupy::transpose(f64({4, 6}));
  Array r = gpupy::reshape(t, {3, 2, 4});
  EXPECT_EQ(r.strides(), (Strides{16, 8, 48}));
  EXPECT_EQ(r.buffer(), t.buffer());
  // numpy: np.zeros((4,6))[:, ::2].reshape(2, 2, 3).strides == (96, 48, 16)
  Array s = gpupy::getitem(f64({4, 6}), {slice({}, {}, {}), slice({}, {}, 2)});
  EXPECT_EQ(s.strides(), (Strides{48, 16}));
  Array r2 = gpupy::reshape(s, {2, 2, 3});
  EXPECT_EQ(r2.strides(), (Strides{96, 48, 16}));
  EXPECT_EQ(r2.buffer(), s.buffer());
}

TEST(Reshape, CopiesWhenStridesForbid) {
  Array t = gpupy::transpose(f64({4, 6}));
  Array r = gpupy::reshape(t, {24});
  EXPECT_NE(r.buffer(), t.buffer());
  EXPECT_TRUE(r.is_c_contiguous());
}

TEST(Transpose, Strides) {
  Array a = f64({2, 3, 4});
  EXPECT_EQ(gpupy::transpose(a).strides(), (Strides{8, 32, 96}));
  Array p = gpupy::permute_dims(a, {1, -1, 0});
  EXPECT_EQ(p.shape(), (Shape{3, 4, 2}));
  EXPECT_EQ(p.strides(), (Strides{32, 8, 96}));
  EXPECT_THROW(gpupy::permute_dims(a, {0, 0, 1}), gpupy::ValueError);
  EXPECT_THROW(gpupy::permute_dims(a, {0, 1, 3}), gpupy::IndexError);
  EXPECT_THROW(gpupy::permute_dims(a, {0, 1}), gpupy::ValueError);
  EXPECT_EQ(gpupy::moveaxis(a, {0}, {-1}).shape(), (Shape{3, 4, 2}));
  EXPECT_EQ(gpupy::matrix_transpose(a).strides(), (Strides{96, 8, 32}));
}

TEST(Flip, NegativeStridesAndOffset) {
  Array a = f64({2, 3});
  Array f = gpupy::flip(a, std::vector<int>{1});
  EXPECT_EQ(f.strides(), (Strides{24, -8}));
  EXPECT_EQ(f.offset(), a.offset() + 16);
}

TEST(Getitem, IntegersSlicesNewaxis) {
  Array a = f64({4, 5});
  IndexItem i;
  i.integer = -1;
  IndexItem none;
  none.kind = IndexItem::Kind::newaxis;
  Array v = gpupy::getitem(a, {i, none, slice(4, 0, -2)});
  EXPECT_EQ(v.shape(), (Shape{1, 2}));
  EXPECT_EQ(v.strides(), (Strides{0, -16}));
  EXPECT_EQ(v.offset(), a.offset() + 3 * 40 + 4 * 8);
  i.integer = 4;
  EXPECT_THROW(gpupy::getitem(a, {i}), gpupy::IndexError);
  EXPECT_THROW(gpupy::getitem(a, {slice({}, {}, 0)}), gpupy::ValueError);
  EXPECT_THROW(gpupy::getitem(a, {slice({}, {}, {}), slice({}, {}, {}), slice({}, {}, {})}),
               gpupy::IndexError);
}

TEST(Squeeze, AxesChecked) {
  Array a = f64({1, 3, 1});
  EXPECT_EQ(gpupy::squeeze(a, std::nullopt).shape(), (Shape{3}));
  EXPECT_EQ(gpupy::squeeze(a, std::vector<int>{-1}).shape(), (Shape{1, 3}));
  EXPECT_THROW(gpupy::squeeze(a, std::vector<int>{1}), gpupy::ValueError);
  EXPECT_EQ(gpupy::expand_dims(a, std::vector<int>{0, -1}).shape(), (Shape{1, 1, 3, 1, 1}));
}
