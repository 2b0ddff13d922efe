// SHA-256 for the kernel compile cache's keys (no external dependency). Host only.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

namespace gpupy::kernel::detail {

/// Incremental SHA-256 (FIPS 180-4).
class Sha256 {
 public:
  Sha256();
  void update(std::string_view data);
  /// Feeds a length prefix then the bytes, so that ("ab","c") and ("a","bc") hash differently.
  void update_field(std::string_view data);
  /// The digest as 64 lowercase hex characters; the object must not be updated afterwards.
  std::string hex();

 private:
  void block(const unsigned char* p);
  std::array<std::uint32_t, 8> h_;
  std::array<unsigned char, 64> buf_{};
  std::size_t buf_len_ = 0;
  std::uint64_t total_ = 0;
};

}  // namespace gpupy::kernel::detail
