// compile_emu: generates the translation unit for a user kernel source, keys it by content, and
// compiles it with the host compiler into the on-disk cache. Host only.
#include "gpupy/kernel/emu_compiler.h"

#include <unistd.h>

#include <atomic>
#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <sstream>
#include <unordered_map>

#include "gpupy/emu/runtime.h"
#include "kernel/process.h"
#include "kernel/sha256.h"

namespace fs = std::filesystem;

namespace gpupy::kernel {
namespace detail {
std::string emu_library_dir();
/// Content hash of gpupy's headers and of the user's `#include "..."` files (emu_cache_key.cpp).
std::string headers_hash(const std::string& gpupy_include_dir, const std::string& source,
                         const std::vector<std::string>& include_dirs);
}  // namespace detail

namespace {

/// Bumped whenever the launch entry's ABI or the generated code changes.
constexpr const char* kEmuAbiVersion = "gpupy-emu-abi-1";

std::atomic<unsigned long long> g_compiler_runs{0};
std::mutex g_mutex;  // guards g_modules and serialises compiles (no duplicate work)
std::unordered_map<std::string, std::shared_ptr<EmuModule>> g_modules;

std::string kernel_names(const std::vector<KernelEntry>& kernels) {
  std::string out;
  for (const auto& k : kernels) out += (out.empty() ? "" : ", ") + k.name;
  return out;
}

void check_names(const std::vector<KernelEntry>& kernels) {
  if (kernels.empty()) throw ValueError("[emu] compile_emu needs at least one kernel name");
  for (const auto& k : kernels) {
    bool ok = !k.name.empty() && !std::isdigit(static_cast<unsigned char>(k.name[0]));
    for (char c : k.name) ok = ok && (std::isalnum(static_cast<unsigned char>(c)) || c == '_');
    if (!ok) throw ValueError("[emu] '" + k.name + "' is not a kernel name");
  }
}

/// extern "C" gpupy_emu_launch_<name>: unpacks kernelParams-style args and runs the grid.
std::string launch_entry(const KernelEntry& k) {
  std::ostringstream s;
  std::string ns = "gpupy_emu_entry_" + k.name;
  std::size_t n = k.param_types.size();
  s << "namespace " << ns << " {\n";
  for (std::size_t i = 0; i < n; ++i) s << "using T" << i << " = " << k.param_types[i] << ";\n";
  s << "struct Params {";
  for (std::size_t i = 0; i < n; ++i) s << " T" << i << " a" << i << ";";
  s << " };\n";
  s << "void body(void* p) {\n  [[maybe_unused]] auto* c = static_cast<const Params*>(p);\n  "
    << (k.call.empty() ? k.name : k.call) << "(";
  for (std::size_t i = 0; i < n; ++i) s << (i ? ", " : "") << "c->a" << i;
  s << ");\n}\n}  // namespace " << ns << "\n";
  s << "extern \"C\" __attribute__((visibility(\"default\"))) void gpupy_emu_launch_" << k.name
    << "(const gpupy::emu::LaunchConfig* cfg, [[maybe_unused]] void** args) {\n  " << ns
    << "::Params p{";
  for (std::size_t i = 0; i < n; ++i) {
    s << (i ? ", " : "") << "*static_cast<" << ns << "::T" << i << "*>(args[" << i << "])";
  }
  s << "};\n  gpupy::emu::launch_erased(*cfg, &" << ns << "::body, &p);\n}\n";
  return s.str();
}

std::string translation_unit(const std::string& source, const std::vector<KernelEntry>& kernels) {
  std::string tu = "#include \"gpupy/emu/cuda_emu.h\"\n#line 1 \"" + kernels[0].name + ".cu\"\n";
  tu += emu::rewrite_dynamic_shared(source);
  tu += "\n#line 1 \"gpupy_emu_launch_entries\"\n";
  for (const auto& k : kernels) tu += launch_entry(k);
  return tu;
}

/// $GPUPY_EMU_CXX, $CXX or c++, split on spaces ("ccache g++" works; no shell is involved).
std::vector<std::string> compiler_command() {
  const char* env = std::getenv("GPUPY_EMU_CXX");
  if (!env || !*env) env = std::getenv("CXX");
  std::istringstream words(env && *env ? env : "c++");
  std::vector<std::string> argv;
  for (std::string w; words >> w;) argv.push_back(w);
  return argv;
}

/// The compiler's command and `--version` output, computed once per compiler command.
std::string compiler_identity(const std::vector<std::string>& compiler) {
  static std::unordered_map<std::string, std::string> known;  // guarded by g_mutex
  std::string joined;
  for (const auto& w : compiler) joined += w + '\0';
  auto it = known.find(joined);
  if (it != known.end()) return it->second;
  std::vector<std::string> argv = compiler;
  argv.push_back("--version");
  detail::ProcessResult r = detail::run_process(argv);
  return known[joined] = joined + r.output;
}

std::string default_cache_dir() {
  if (const char* env = std::getenv("GPUPY_CACHE_DIR"); env && *env) return env;
  const char* home = std::getenv("HOME");
  fs::path base = home && *home ? fs::path(home) / ".cache" : fs::temp_directory_path();
  return (base / "gpupy" / "emu").string();
}

struct Build {
  std::vector<std::string> compile_flags;  // everything but the input and output files
  std::vector<std::string> link_flags;
};

Build build_flags(const EmuCompileOptions& opts, const std::string& include_dir) {
  Build b;
  b.compile_flags = {"-shared", "-fPIC", "-O2", "-std=c++20", "-I" + include_dir};
  for (const auto& d : opts.include_dirs) b.compile_flags.push_back("-I" + d);
  // Stand-ins for the CUDA headers kernels include (cuda_fp16.h, cuda_runtime.h), searched last.
  b.compile_flags.push_back("-I" + include_dir + "/gpupy/emu/cuda_headers");
  for (const auto& o : opts.options) b.compile_flags.push_back(o);
  std::string lib = detail::emu_library_dir();
  b.link_flags = {"-L" + lib, "-lgpupy_emu", "-Wl,-rpath," + lib};
  return b;
}

/// Compiles tu into `target` through a temporary name, so that no process sees a partial file.
void compile_to(const std::string& tu, const std::vector<std::string>& compiler, const Build& b,
                const fs::path& target, const std::vector<KernelEntry>& kernels) {
  static std::atomic<unsigned> counter{0};
  std::string stem =
      target.string() + "." + std::to_string(getpid()) + "." + std::to_string(counter++);
  std::string cpp = stem + ".cpp", tmp = stem + ".tmp";
  std::ofstream(cpp, std::ios::binary) << tu;
  std::vector<std::string> argv = compiler;
  argv.insert(argv.end(), b.compile_flags.begin(), b.compile_flags.end());
  argv.insert(argv.end(), {"-o", tmp, cpp});
  argv.insert(argv.end(), b.link_flags.begin(), b.link_flags.end());
  ++g_compiler_runs;
  detail::ProcessResult r = detail::run_process(argv);
  std::error_code ec;
  fs::remove(cpp, ec);
  if (!r.started || r.exit_code != 0) {
    fs::remove(tmp, ec);
    throw CompileError("[emu] compiling kernel(s) " + kernel_names(kernels) + " failed:\n" +
                       r.output);
  }
  fs::rename(tmp, target, ec);
  if (ec) throw Error("[emu] cannot move the compiled kernel to " + target.string());
}

}  // namespace

std::shared_ptr<EmuModule> compile_emu(const std::string& source,
                                       const std::vector<KernelEntry>& kernels,
                                       const EmuCompileOptions& options) {
  check_names(kernels);
  std::string tu = translation_unit(source, kernels);
  std::string include_dir = emu_include_dir();
  Build b = build_flags(options, include_dir);
  std::vector<std::string> compiler = compiler_command();

  std::lock_guard lock(g_mutex);
  detail::Sha256 h;
  h.update_field(kEmuAbiVersion);
  h.update_field(tu);
  h.update_field(compiler_identity(compiler));
  for (const auto& f : b.compile_flags) h.update_field(f);
  for (const auto& f : b.link_flags) h.update_field(f);
  h.update_field(detail::headers_hash(include_dir, source, options.include_dirs));
  std::string key = h.hex();

  if (auto it = g_modules.find(key); it != g_modules.end()) return it->second;
  fs::path dir = options.cache_dir.empty() ? default_cache_dir() : options.cache_dir;
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) throw Error("[emu] cannot create the kernel cache " + dir.string() + ": " + ec.message());
  fs::path target = dir / (key + ".so");
  if (!fs::exists(target, ec)) compile_to(tu, compiler, b, target, kernels);
  auto module = EmuModule::load(target.string(), kernels);
  g_modules[key] = module;
  return module;
}

namespace testing {
unsigned long long compiler_invocations() { return g_compiler_runs.load(); }
void clear_memory_cache() {
  std::lock_guard lock(g_mutex);
  g_modules.clear();
}
}  // namespace testing

}  // namespace gpupy::kernel
