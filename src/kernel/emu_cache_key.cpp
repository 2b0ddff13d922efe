// The header part of the emu compile cache key: a content hash of gpupy's headers and of every
// `#include "..."` file a kernel source pulls from its include directories, so that editing a
// header invalidates the cached library. Host only.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <set>
#include <sstream>
#include <string>
#include <unordered_map>
#include <vector>

#include "kernel/sha256.h"

namespace fs = std::filesystem;

namespace gpupy::kernel::detail {
namespace {

std::string read_file(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

/// gpupy's own headers change only with a new install or a rebuild: hashed once per directory.
std::string gpupy_headers_hash(const std::string& include_dir) {
  static std::mutex m;
  static std::unordered_map<std::string, std::string> known;
  std::lock_guard lock(m);
  if (auto it = known.find(include_dir); it != known.end()) return it->second;
  std::vector<fs::path> files;
  std::error_code ec;
  for (fs::recursive_directory_iterator it(fs::path(include_dir) / "gpupy", ec), end;
       !ec && it != end; it.increment(ec)) {
    if (it->is_regular_file(ec)) files.push_back(it->path());
  }
  std::sort(files.begin(), files.end());
  Sha256 h;
  for (const auto& f : files) {
    h.update_field(f.lexically_relative(include_dir).string());
    h.update_field(read_file(f));
  }
  return known[include_dir] = h.hex();
}

/// The names in `#include "name"` lines of text.
std::vector<std::string> quoted_includes(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    std::size_t i = line.find_first_not_of(" \t");
    if (i == std::string::npos || line[i] != '#') continue;
    i = line.find_first_not_of(" \t", i + 1);
    if (i == std::string::npos || line.compare(i, 7, "include") != 0) continue;
    std::size_t open = line.find('"', i + 7), close = line.find('"', open + 1);
    if (open != std::string::npos && close != std::string::npos) {
      out.push_back(line.substr(open + 1, close - open - 1));
    }
  }
  return out;
}

/// Hashes every quoted include found (recursively) in include_dirs or next to its includer.
void hash_includes(const std::string& text, const fs::path& includer_dir,
                   const std::vector<std::string>& include_dirs, std::set<fs::path>& seen,
                   Sha256& h) {
  for (const auto& name : quoted_includes(text)) {
    std::vector<fs::path> candidates;
    if (!includer_dir.empty()) candidates.push_back(includer_dir / name);
    for (const auto& d : include_dirs) candidates.push_back(fs::path(d) / name);
    std::error_code ec;
    for (const auto& c : candidates) {
      if (!fs::is_regular_file(c, ec)) continue;
      if (seen.insert(c.lexically_normal()).second) {
        std::string content = read_file(c);
        h.update_field(c.lexically_normal().string());
        h.update_field(content);
        hash_includes(content, c.parent_path(), include_dirs, seen, h);
      }
      break;
    }
  }
}

}  // namespace

std::string headers_hash(const std::string& gpupy_include_dir, const std::string& source,
                         const std::vector<std::string>& include_dirs) {
  Sha256 h;
  h.update_field(gpupy_headers_hash(gpupy_include_dir));
  std::set<fs::path> seen;
  hash_includes(source, fs::path(), include_dirs, seen, h);
  return h.hex();
}

}  // namespace gpupy::kernel::detail
