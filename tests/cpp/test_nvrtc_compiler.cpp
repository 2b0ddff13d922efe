// compile_nvrtc: CUDA C++ to CUBIN with NVRTC (no GPU needed), errors with NVRTC's log, and the
// compile cache. Skipped where libnvrtc cannot be loaded.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>

#include "gpupy/kernel/emu_compiler.h"
#include "kernel/nvrtc_compiler.h"

namespace fs = std::filesystem;
using namespace gpupy::kernel;

namespace {

class NvrtcCompiler : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string reason;
    if (!nvrtc_available(&reason)) GTEST_SKIP() << reason;
    dir_ = fs::temp_directory_path() / ("gpupy_nvrtc_test_" + std::to_string(getpid()));
    opts_.cache_dir = dir_.string();
  }
  void TearDown() override {
    std::error_code ec;
    if (!dir_.empty()) fs::remove_all(dir_, ec);
  }
  static bool is_elf(const std::string& bytes) {
    return bytes.rfind(
               "\x7f"
               "ELF",
               0) == 0;
  }

  fs::path dir_;
  NvrtcCompileOptions opts_;
};

const char* kSaxpy = R"(
__global__ void saxpy(float a, const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}
)";

TEST_F(NvrtcCompiler, SaxpyToCubin) {
  auto p = compile_nvrtc(kSaxpy, {"saxpy"}, opts_);
  ASSERT_FALSE(p->cubin.empty());
  EXPECT_TRUE(is_elf(p->cubin));
  ASSERT_EQ(p->lowered_names.size(), 1u);
  EXPECT_NE(p->lowered_name("saxpy").find("saxpy"), std::string::npos);
  EXPECT_TRUE(fs::exists(dir_ / "nvrtc" / (p->key + ".cubin")));
  EXPECT_FALSE(nvrtc_version().empty());
}

TEST_F(NvrtcCompiler, TemplateInstancesAndGpupyHeaders) {
  const char* src = R"(
#include <cunumpy/array_view.cuh>
template <typename T, int N>
__global__ void scale(T* x, T s) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < N) x[i] *= s;
}
)";
  auto p = compile_nvrtc(src, {"scale<float, 4>", "scale<double, 8>"}, opts_);
  EXPECT_TRUE(is_elf(p->cubin));
  ASSERT_EQ(p->lowered_names.size(), 2u);
  EXPECT_EQ(p->lowered_name("scale<float, 4>").rfind("_Z", 0), 0u);
  EXPECT_NE(p->lowered_names[0], p->lowered_names[1]);
}

TEST_F(NvrtcCompiler, SyntaxErrorRaisesCompileErrorWithLog) {
  try {
    compile_nvrtc("__global__ void broken(int* x) { x[0] = ; }", {"broken"}, opts_);
    FAIL() << "expected CompileError";
  } catch (const CompileError& e) {
    std::string what = e.what();
    EXPECT_NE(what.find("broken"), std::string::npos) << what;
    EXPECT_NE(what.find("error"), std::string::npos) << what;
  }
}

TEST_F(NvrtcCompiler, SecondCompileHitsTheCaches) {
  std::string src = std::string(kSaxpy) + "// cache test " + dir_.string() + "\n";
  auto before = gpupy::kernel::testing::nvrtc_invocations();
  auto a = compile_nvrtc(src, {"saxpy"}, opts_);
  EXPECT_EQ(gpupy::kernel::testing::nvrtc_invocations(), before + 1);
  auto b = compile_nvrtc(src, {"saxpy"}, opts_);  // in memory
  EXPECT_EQ(a.get(), b.get());
  gpupy::kernel::testing::clear_nvrtc_memory_cache();
  auto c = compile_nvrtc(src, {"saxpy"}, opts_);  // on disk
  EXPECT_EQ(gpupy::kernel::testing::nvrtc_invocations(), before + 1);
  EXPECT_EQ(c->cubin, a->cubin);
  EXPECT_EQ(c->lowered_names, a->lowered_names);
  opts_.options = {"-DOTHER=1"};  // other options: another key
  compile_nvrtc(src, {"saxpy"}, opts_);
  EXPECT_EQ(gpupy::kernel::testing::nvrtc_invocations(), before + 2);
}

TEST_F(NvrtcCompiler, ArchMustBeReal) {
  opts_.arch = "compute_90";
  EXPECT_THROW(compile_nvrtc(kSaxpy, {"saxpy"}, opts_), gpupy::ValueError);
}

}  // namespace
