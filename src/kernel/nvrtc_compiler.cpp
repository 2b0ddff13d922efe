// compile_nvrtc: NVRTC resolved with dlopen/dlsym (its C API declared here, no CUDA headers), and
// the in-memory and on-disk CUBIN cache. Host only.
#include "kernel/nvrtc_compiler.h"

#include <dlfcn.h>
#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <sstream>
#include <unordered_map>

#include "core/cuda_library.h"
#include "gpupy/error.h"
#include "gpupy/kernel/emu_compiler.h"
#include "kernel/sha256.h"

namespace fs = std::filesystem;

namespace gpupy::kernel {
namespace detail {
std::string headers_hash(const std::string& gpupy_include_dir, const std::string& source,
                         const std::vector<std::string>& include_dirs);
}  // namespace detail

namespace {

// The part of NVRTC's C API gpupy uses (nvrtc.h, stable since CUDA 11).
using nvrtcResult = int;
using nvrtcProgram = struct _nvrtcProgram*;
constexpr nvrtcResult NVRTC_SUCCESS = 0;

struct NvrtcApi {
  const char* (*get_error_string)(nvrtcResult);
  nvrtcResult (*version)(int*, int*);
  nvrtcResult (*create_program)(nvrtcProgram*, const char*, const char*, int, const char* const*,
                                const char* const*);
  nvrtcResult (*destroy_program)(nvrtcProgram*);
  nvrtcResult (*compile_program)(nvrtcProgram, int, const char* const*);
  nvrtcResult (*get_cubin_size)(nvrtcProgram, std::size_t*);
  nvrtcResult (*get_cubin)(nvrtcProgram, char*);
  nvrtcResult (*get_log_size)(nvrtcProgram, std::size_t*);
  nvrtcResult (*get_log)(nvrtcProgram, char*);
  nvrtcResult (*add_name_expression)(nvrtcProgram, const char*);
  nvrtcResult (*get_lowered_name)(nvrtcProgram, const char*, const char**);
  std::string version_text;  // "major.minor", read once at load
};

using Loaded = LoadedLibrary<NvrtcApi>;

Loaded load() {
  return load_cuda_library<NvrtcApi>(
      "GPUPY_NVRTC_PATH", {"libnvrtc.so.13", "libnvrtc.so.12", "libnvrtc.so"}, "NVRTC",
      [](void* lib, NvrtcApi& a, std::string& e) {
        auto resolve = [&](const char* symbol, auto& fn) {
          resolve_symbol(lib, symbol, fn, e, "libnvrtc");
        };
        resolve("nvrtcGetErrorString", a.get_error_string);
        resolve("nvrtcVersion", a.version);
        resolve("nvrtcCreateProgram", a.create_program);
        resolve("nvrtcDestroyProgram", a.destroy_program);
        resolve("nvrtcCompileProgram", a.compile_program);
        resolve("nvrtcGetCUBINSize", a.get_cubin_size);
        resolve("nvrtcGetCUBIN", a.get_cubin);
        resolve("nvrtcGetProgramLogSize", a.get_log_size);
        resolve("nvrtcGetProgramLog", a.get_log);
        resolve("nvrtcAddNameExpression", a.add_name_expression);
        resolve("nvrtcGetLoweredName", a.get_lowered_name);
        if (!e.empty()) return;
        int major = 0, minor = 0;
        if (a.version(&major, &minor) != NVRTC_SUCCESS) e = "nvrtcVersion failed";
        a.version_text = std::to_string(major) + "." + std::to_string(minor);
      },
      "; set GPUPY_NVRTC_PATH to libnvrtc.so");
}

const Loaded& loaded() {
  static const Loaded l = load();
  return l;
}

const NvrtcApi& nvrtc() {
  const Loaded& l = loaded();
  if (!l.error.empty()) throw CudaError("[nvrtc] " + l.error);
  return l.api;
}

void check(nvrtcResult r, const char* call) {
  if (r == NVRTC_SUCCESS) return;
  throw CudaError(std::string("[nvrtc] ") + call + " failed: " + nvrtc().get_error_string(r));
}

/// Bumped whenever the way gpupy drives NVRTC changes the produced code.
constexpr const char* kNvrtcCacheVersion = "gpupy-nvrtc-1";

std::atomic<unsigned long long> g_runs{0};
std::mutex g_mutex;  // guards g_programs and serialises compiles
std::unordered_map<std::string, std::shared_ptr<const NvrtcProgram>> g_programs;

std::string default_cache_dir() {
  if (const char* env = std::getenv("GPUPY_CACHE_DIR"); env && *env) return env;
  const char* home = std::getenv("HOME");
  fs::path base = home && *home ? fs::path(home) / ".cache" : fs::temp_directory_path();
  return (base / "gpupy").string();
}

std::string read_file(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

/// Writes through a temporary name, so that no process sees a partial file.
void write_file(const fs::path& target, const std::string& data) {
  static std::atomic<unsigned> counter{0};
  fs::path tmp =
      target.string() + "." + std::to_string(getpid()) + "." + std::to_string(counter++) + ".tmp";
  std::ofstream(tmp, std::ios::binary) << data;
  std::error_code ec;
  fs::rename(tmp, target, ec);
  if (ec) fs::remove(tmp, ec);
}

std::string program_log(const NvrtcApi& api, nvrtcProgram prog) {
  std::size_t size = 0;
  if (api.get_log_size(prog, &size) != NVRTC_SUCCESS || size == 0) return {};
  std::string log(size, '\0');
  if (api.get_log(prog, log.data()) != NVRTC_SUCCESS) return {};
  while (!log.empty() && (log.back() == '\0' || log.back() == '\n')) log.pop_back();
  return log;
}

/// Runs NVRTC; fills cubin and lowered names of `out`.
void run_nvrtc(const std::string& source, const std::vector<std::string>& flags,
               NvrtcProgram& out) {
  const NvrtcApi& api = nvrtc();
  std::string file = (out.name_expressions.empty() ? "kernel" : out.name_expressions[0]) + ".cu";
  for (char& c : file)
    if (c == '<' || c == '>' || c == ',' || c == ' ' || c == ':') c = '_';
  nvrtcProgram prog = nullptr;
  check(api.create_program(&prog, source.c_str(), file.c_str(), 0, nullptr, nullptr),
        "nvrtcCreateProgram");
  struct Destroy {
    const NvrtcApi& api;
    nvrtcProgram& prog;
    ~Destroy() { api.destroy_program(&prog); }
  } destroy{api, prog};
  for (const auto& e : out.name_expressions)
    check(api.add_name_expression(prog, e.c_str()), "nvrtcAddNameExpression");
  std::vector<const char*> argv;
  for (const auto& f : flags) argv.push_back(f.c_str());
  ++g_runs;
  nvrtcResult r = api.compile_program(prog, static_cast<int>(argv.size()), argv.data());
  if (r != NVRTC_SUCCESS) {
    std::string names;
    for (const auto& e : out.name_expressions) names += (names.empty() ? "" : ", ") + e;
    throw CompileError("[nvrtc] compiling kernel(s) " + names + " failed (" +
                       api.get_error_string(r) + "):\n" + program_log(api, prog));
  }
  std::size_t size = 0;
  check(api.get_cubin_size(prog, &size), "nvrtcGetCUBINSize");
  if (size == 0) throw CudaError("[nvrtc] NVRTC produced no CUBIN (is the arch a real sm_XY?)");
  out.cubin.assign(size, '\0');
  check(api.get_cubin(prog, out.cubin.data()), "nvrtcGetCUBIN");
  for (const auto& e : out.name_expressions) {
    const char* lowered = nullptr;
    check(api.get_lowered_name(prog, e.c_str(), &lowered), "nvrtcGetLoweredName");
    out.lowered_names.emplace_back(lowered ? lowered : "");
  }
}

std::string join_lines(const std::vector<std::string>& v) {
  std::string s;
  for (const auto& x : v) s += x + '\n';
  return s;
}

std::vector<std::string> split_lines(const std::string& s) {
  std::vector<std::string> out;
  std::istringstream in(s);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

}  // namespace

const std::string& NvrtcProgram::lowered_name(const std::string& expression) const {
  for (std::size_t i = 0; i < name_expressions.size(); ++i)
    if (name_expressions[i] == expression) return lowered_names[i];
  throw ValueError("[nvrtc] the program has no kernel '" + expression + "'");
}

namespace {

/// The CUDA toolkit's include directory (CUDA_PATH, CUDA_HOME, /usr/local/cuda), so that kernels
/// can include the toolkit's device headers (cuda_fp16.h), or "" when there is none: NVRTC finds
/// only its own built-in headers by itself.
const std::string& toolkit_include_dir() {
  static const std::string dir = [] {
    std::vector<fs::path> roots;
    for (const char* var : {"CUDA_PATH", "CUDA_HOME"})
      if (const char* v = std::getenv(var); v && *v) roots.emplace_back(v);
    roots.emplace_back("/usr/local/cuda");
    std::error_code ec;
    for (const fs::path& root : roots)
      if (fs::exists(root / "include" / "cuda_fp16.h", ec)) return (root / "include").string();
    return std::string();
  }();
  return dir;
}

}  // namespace

std::shared_ptr<const NvrtcProgram> compile_nvrtc(const std::string& source,
                                                  const std::vector<std::string>& name_expressions,
                                                  const NvrtcCompileOptions& options) {
  if (name_expressions.empty()) throw ValueError("[nvrtc] compile_nvrtc needs a kernel name");
  if (options.arch.rfind("sm_", 0) != 0)
    throw ValueError("[nvrtc] arch must be 'sm_XY' (a CUBIN), got '" + options.arch + "'");
  const Loaded& l = loaded();
  if (!l.error.empty()) throw CudaError("[nvrtc] " + l.error);

  std::string include_dir = emu_include_dir();
  std::vector<std::string> dirs = options.include_dirs;
  dirs.push_back((fs::path(include_dir) / "gpupy").string());
  if (!toolkit_include_dir().empty()) dirs.push_back(toolkit_include_dir());
  std::vector<std::string> flags = {"--gpu-architecture=" + options.arch};
  for (const auto& d : dirs) flags.push_back("-I" + d);
  for (const auto& o : options.options) flags.push_back(o);

  detail::Sha256 h;
  h.update_field(kNvrtcCacheVersion);
  h.update_field(l.api.version_text);
  h.update_field(source);
  for (const auto& f : flags) h.update_field(f);
  h.update_field("names");
  for (const auto& e : name_expressions) h.update_field(e);
  h.update_field(detail::headers_hash(include_dir, source, dirs));
  std::string key = h.hex();

  std::lock_guard lock(g_mutex);
  if (auto it = g_programs.find(key); it != g_programs.end()) return it->second;
  auto program = std::make_shared<NvrtcProgram>();
  program->key = key;
  program->name_expressions = name_expressions;

  fs::path dir =
      fs::path(options.cache_dir.empty() ? default_cache_dir() : options.cache_dir) / "nvrtc";
  fs::path cubin_path = dir / (key + ".cubin"), names_path = dir / (key + ".names");
  std::error_code ec;
  if (fs::exists(cubin_path, ec) && fs::exists(names_path, ec)) {
    program->cubin = read_file(cubin_path);
    program->lowered_names = split_lines(read_file(names_path));
  }
  if (program->cubin.empty() || program->lowered_names.size() != name_expressions.size()) {
    program->cubin.clear();
    program->lowered_names.clear();
    run_nvrtc(source, flags, *program);
    fs::create_directories(dir, ec);
    if (!ec) {  // an unwritable cache only costs recompiles
      write_file(names_path, join_lines(program->lowered_names));
      write_file(cubin_path, program->cubin);
    }
  }
  g_programs[key] = program;
  return program;
}

bool nvrtc_available(std::string* reason) {
  const Loaded& l = loaded();
  if (reason) *reason = l.error;
  return l.error.empty();
}

std::string nvrtc_version() {
  nvrtc();
  return loaded().api.version_text;
}

namespace testing {
unsigned long long nvrtc_invocations() { return g_runs.load(); }
void clear_nvrtc_memory_cache() {
  std::lock_guard lock(g_mutex);
  g_programs.clear();
}
}  // namespace testing

}  // namespace gpupy::kernel
