// A vector that keeps its first N elements inline: shapes and strides without a heap allocation
// for every array handle (each small op copies several). Host only.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <initializer_list>
#include <iterator>
#include <new>
#include <type_traits>

namespace gpupy {

/// std::vector's interface (the part gpupy uses) for trivially copyable elements; up to N
/// elements live inside the object, more go to the heap.
template <class T, size_t N>
class SmallVector {
  static_assert(std::is_trivially_copyable_v<T>, "SmallVector copies elements with memcpy");

 public:
  using value_type = T;
  using size_type = size_t;
  using difference_type = std::ptrdiff_t;
  using reference = T&;
  using const_reference = const T&;
  using pointer = T*;
  using const_pointer = const T*;
  using iterator = T*;
  using const_iterator = const T*;
  using reverse_iterator = std::reverse_iterator<iterator>;
  using const_reverse_iterator = std::reverse_iterator<const_iterator>;

  SmallVector() = default;
  explicit SmallVector(size_t n) : SmallVector(n, T()) {}
  SmallVector(size_t n, const T& value) { assign(n, value); }
  SmallVector(std::initializer_list<T> items) { assign(items.begin(), items.end()); }
  template <class It, class = typename std::iterator_traits<It>::iterator_category>
  SmallVector(It first, It last) {
    assign(first, last);
  }
  SmallVector(const SmallVector& other) {
    if (other.is_inline()) {  // the common case, kept free of calls: arrays copy shapes a lot
      std::memcpy(inline_, other.inline_, sizeof(inline_));
      size_ = other.size_;
    } else {
      assign(other.begin(), other.end());
    }
  }
  SmallVector(SmallVector&& other) noexcept { take(other); }
  ~SmallVector() { release(); }

  SmallVector& operator=(const SmallVector& other) {
    if (this != &other) copy_from(other);
    return *this;
  }
  SmallVector& operator=(SmallVector&& other) noexcept {
    if (this != &other) {
      release();
      take(other);
    }
    return *this;
  }
  SmallVector& operator=(std::initializer_list<T> items) {
    assign(items.begin(), items.end());
    return *this;
  }

  void assign(size_t n, const T& value) {
    clear();
    resize(n, value);
  }
  template <class It, class = typename std::iterator_traits<It>::iterator_category>
  void assign(It first, It last) {
    using Category = typename std::iterator_traits<It>::iterator_category;
    if constexpr (std::is_base_of_v<std::forward_iterator_tag, Category>) {
      size_t n = static_cast<size_t>(std::distance(first, last));
      if (n > capacity_) {
        // Copied out first: the source may be this vector, which growing frees.
        SmallVector items;
        items.grow(n);
        std::copy(first, last, items.data_);
        items.size_ = n;
        *this = std::move(items);
        return;
      }
      std::copy(first, last, data_);  // a subrange of this vector moves left: safe
      size_ = n;
    } else {
      clear();
      for (; first != last; ++first) push_back(*first);
    }
  }

  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  size_t capacity() const { return capacity_; }
  T* data() { return data_; }
  const T* data() const { return data_; }
  iterator begin() { return data_; }
  iterator end() { return data_ + size_; }
  const_iterator begin() const { return data_; }
  const_iterator end() const { return data_ + size_; }
  const_iterator cbegin() const { return begin(); }
  const_iterator cend() const { return end(); }
  reverse_iterator rbegin() { return reverse_iterator(end()); }
  reverse_iterator rend() { return reverse_iterator(begin()); }
  const_reverse_iterator rbegin() const { return const_reverse_iterator(end()); }
  const_reverse_iterator rend() const { return const_reverse_iterator(begin()); }
  T& operator[](size_t i) { return data_[i]; }
  const T& operator[](size_t i) const { return data_[i]; }
  T& front() { return data_[0]; }
  const T& front() const { return data_[0]; }
  T& back() { return data_[size_ - 1]; }
  const T& back() const { return data_[size_ - 1]; }

  void reserve(size_t n) {
    if (n > capacity_) grow(n);
  }
  void clear() { size_ = 0; }
  void resize(size_t n) { resize(n, T()); }
  void resize(size_t n, const T& value) {
    reserve(n);
    std::fill(data_ + std::min(n, size_), data_ + n, value);
    size_ = n;
  }
  void push_back(const T& value) {
    T copy = value;  // `value` may live in this vector, which growing frees
    reserve(size_ + 1);
    data_[size_++] = copy;
  }
  template <class... Args>
  T& emplace_back(Args&&... args) {
    push_back(T(std::forward<Args>(args)...));
    return back();
  }
  void pop_back() { --size_; }

  iterator insert(const_iterator pos, const T& value) { return insert(pos, size_t(1), value); }
  iterator insert(const_iterator pos, size_t n, const T& value) {
    T copy = value;
    size_t at = open_gap(pos, n);
    std::fill(data_ + at, data_ + at + n, copy);
    return data_ + at;
  }
  template <class It, class = typename std::iterator_traits<It>::iterator_category>
  iterator insert(const_iterator pos, It first, It last) {
    // Copied out first: the source may be this vector, which opening the gap moves.
    SmallVector<T, N> items;
    for (; first != last; ++first) items.push_back(*first);
    size_t at = open_gap(pos, items.size());
    std::copy(items.begin(), items.end(), data_ + at);
    return data_ + at;
  }
  iterator insert(const_iterator pos, std::initializer_list<T> items) {
    return insert(pos, items.begin(), items.end());
  }
  iterator erase(const_iterator pos) { return erase(pos, pos + 1); }
  iterator erase(const_iterator first, const_iterator last) {
    size_t at = static_cast<size_t>(first - data_), n = static_cast<size_t>(last - first);
    std::copy(data_ + at + n, data_ + size_, data_ + at);
    size_ -= n;
    return data_ + at;
  }

  friend bool operator==(const SmallVector& a, const SmallVector& b) {
    return a.size_ == b.size_ && std::equal(a.begin(), a.end(), b.begin());
  }
  friend bool operator!=(const SmallVector& a, const SmallVector& b) { return !(a == b); }

 private:
  bool is_inline() const { return data_ == inline_; }
  void release() {
    if (!is_inline()) std::free(data_);
  }
  // The inline block is copied whole: a fixed-size copy compiles to a few moves, where copying
  // size() elements calls memmove.
  void copy_from(const SmallVector& other) {
    if (other.size_ <= N) {
      release();
      data_ = inline_;
      capacity_ = N;
      std::memcpy(inline_, other.data_, sizeof(inline_));
      size_ = other.size_;
    } else {
      assign(other.begin(), other.end());
    }
  }
  // Leaves `other` empty and inline.
  void take(SmallVector& other) {
    size_ = other.size_;
    capacity_ = other.capacity_;
    if (other.is_inline()) {
      data_ = inline_;
      std::memcpy(inline_, other.inline_, sizeof(inline_));
    } else {
      data_ = other.data_;
    }
    other.data_ = other.inline_;
    other.size_ = 0;
    other.capacity_ = N;
  }
  void grow(size_t n) {
    n = std::max(n, 2 * capacity_);
    auto* heap = static_cast<T*>(std::malloc(n * sizeof(T)));
    if (!heap) throw std::bad_alloc();
    std::copy(begin(), end(), heap);
    release();
    data_ = heap;
    capacity_ = n;
  }
  // Shifts [pos, end) right by n and returns pos as an index.
  size_t open_gap(const_iterator pos, size_t n) {
    size_t at = static_cast<size_t>(pos - data_);
    reserve(size_ + n);
    std::copy_backward(data_ + at, data_ + size_, data_ + size_ + n);
    size_ += n;
    return at;
  }

  T* data_ = inline_;
  size_t size_ = 0;
  size_t capacity_ = N;
  T inline_[N]{};
};

}  // namespace gpupy
