// Tests of run-time compilation for the emu device: kernels given as strings are compiled by the
// host compiler, launched, cached in memory and on disk, and rebuilt when a header changes. Host
// only.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <numeric>
#include <vector>

#include "gpupy/kernel/emu_compiler.h"

namespace fs = std::filesystem;
using gpupy::emu::dim3;
using gpupy::kernel::compile_emu;
using gpupy::kernel::CompileError;
using gpupy::kernel::EmuCompileOptions;
using gpupy::kernel::parameter_types;
namespace testing_hooks = gpupy::kernel::testing;

namespace {

/// A fresh cache directory per test, so that compiler runs are predictable.
class EmuCompiler : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("gpupy_emu_compiler_test_" + std::to_string(getpid()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    opts_.cache_dir = (dir_ / "cache").string();
  }
  void TearDown() override { fs::remove_all(dir_); }
  fs::path dir_;
  EmuCompileOptions opts_;
};

const char* kSaxpy = R"(
__global__ void saxpy(float* y, const float* x, float a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}
)";

TEST(EmuParameterTypes, DropsNamesKeepsQualifiers) {
  std::string src = R"(// __global__ void saxpy(int) in a comment
    extern "C" __global__ void k(const double* __restrict__ in, double *out, unsigned int n,
                                 long long m, unsigned) {})";
  std::vector<std::string> want = {"const double*", "double*", "unsigned int", "long long",
                                   "unsigned"};
  EXPECT_EQ(parameter_types(src, "k"), want);
  EXPECT_EQ(parameter_types(kSaxpy, "saxpy"),
            (std::vector<std::string>{"float*", "const float*", "float", "int"}));
  EXPECT_TRUE(parameter_types("__global__ void f(void) {}", "f").empty());
  EXPECT_THROW(parameter_types(kSaxpy, "nope"), gpupy::ValueError);
  EXPECT_THROW(parameter_types("template <class T> __global__ void t(T* p) {}", "t"),
               gpupy::NotImplementedError);
}

TEST_F(EmuCompiler, SaxpyOverSeveralBlocks) {
  const int n = 1000;
  std::vector<float> x(n), y(n, 1.0f);
  std::iota(x.begin(), x.end(), 0.0f);
  auto m = compile_emu(kSaxpy, {{"saxpy", parameter_types(kSaxpy, "saxpy")}}, opts_);
  float* py = y.data();
  const float* px = x.data();
  float a = 2.0f;
  int count = n;
  void* args[] = {&py, &px, &a, &count};
  m->launch("saxpy", dim3((n + 127) / 128), dim3(128), 0, args);
  for (int i = 0; i < n; ++i) ASSERT_EQ(y[i], 2.0f * i + 1.0f) << i;
  EXPECT_THROW(m->launch("other", dim3(1), dim3(1), 0, args), gpupy::ValueError);
}

TEST_F(EmuCompiler, DynamicSharedReductionAndWarpShuffle) {
  const char* src = R"(
__global__ void block_sum(const double* in, double* out, long long n) {
  extern __shared__ double buf[];
  long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  buf[threadIdx.x] = i < n ? in[i] : 0.0;
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s /= 2) {
    if (threadIdx.x < s) buf[threadIdx.x] += buf[threadIdx.x + s];
    __syncthreads();
  }
  if (threadIdx.x == 0) out[blockIdx.x] = buf[0];
}
__global__ void warp_sum(const int* in, int* out) {
  int v = in[threadIdx.x];
  for (int o = 16; o > 0; o /= 2) v += __shfl_down_sync(0xffffffffu, v, o);
  if (threadIdx.x % 32 == 0) out[threadIdx.x / 32] = v;
}
)";
  auto m = compile_emu(src,
                       {{"block_sum", parameter_types(src, "block_sum")},
                        {"warp_sum", parameter_types(src, "warp_sum")}},
                       opts_);
  const long long n = 1000;
  std::vector<double> in(n), out(4);
  std::iota(in.begin(), in.end(), 1.0);
  const double* pin = in.data();
  double* pout = out.data();
  long long count = n;
  void* args[] = {&pin, &pout, &count};
  m->launch("block_sum", dim3(4), dim3(256), 256 * sizeof(double), args);
  EXPECT_EQ(std::accumulate(out.begin(), out.end(), 0.0), n * (n + 1) / 2.0);

  std::vector<int> lanes(64), sums(2);
  std::iota(lanes.begin(), lanes.end(), 0);
  const int* pl = lanes.data();
  int* ps = sums.data();
  void* wargs[] = {&pl, &ps};
  m->launch("warp_sum", dim3(1), dim3(64), 0, wargs);
  EXPECT_EQ(sums, (std::vector<int>{31 * 32 / 2, (32 + 63) * 32 / 2}));
}

TEST_F(EmuCompiler, SyntaxErrorRaisesWithTheCompilerLog) {
  const char* src = "__global__ void broken(int* p) { p[0] = 1 }\n";
  try {
    compile_emu(src, {{"broken", {"int*"}}}, opts_);
    FAIL() << "expected CompileError";
  } catch (const CompileError& e) {
    std::string what = e.what();
    EXPECT_EQ(what.rfind("[emu] compiling kernel(s) broken failed:", 0), 0u) << what;
    EXPECT_NE(what.find("broken.cu:1"), std::string::npos) << what;
    EXPECT_NE(what.find("expected"), std::string::npos) << what;
  }
}

TEST_F(EmuCompiler, SecondCompileHitsTheCaches) {
  const char* src = "__global__ void fill(int* p, int v) { p[threadIdx.x] = v; }\n";
  auto before = testing_hooks::compiler_invocations();
  auto m1 = compile_emu(src, {{"fill", {"int*", "int"}}}, opts_);
  EXPECT_EQ(testing_hooks::compiler_invocations(), before + 1);
  auto m2 = compile_emu(src, {{"fill", {"int*", "int"}}}, opts_);  // in memory
  EXPECT_EQ(m1, m2);
  testing_hooks::clear_memory_cache();
  auto m3 = compile_emu(src, {{"fill", {"int*", "int"}}}, opts_);  // on disk
  EXPECT_EQ(testing_hooks::compiler_invocations(), before + 1);
  std::vector<int> out(8);
  int* p = out.data();
  int v = 7;
  void* args[] = {&p, &v};
  m3->launch("fill", dim3(1), dim3(8), 0, args);
  EXPECT_EQ(out, std::vector<int>(8, 7));
}

TEST_F(EmuCompiler, HeaderEditInvalidatesTheCache) {
  fs::create_directories(dir_ / "inc");
  auto write_header = [&](int value) {
    std::ofstream(dir_ / "inc" / "value.cuh") << "#define VALUE " << value << "\n";
  };
  const char* src = "#include \"value.cuh\"\n__global__ void get(int* p) { *p = VALUE; }\n";
  opts_.include_dirs = {(dir_ / "inc").string()};
  int out = 0;
  int* p = &out;
  void* args[] = {&p};
  auto before = testing_hooks::compiler_invocations();
  write_header(3);
  compile_emu(src, {{"get", {"int*"}}}, opts_)->launch("get", dim3(1), dim3(1), 0, args);
  EXPECT_EQ(out, 3);
  write_header(5);
  compile_emu(src, {{"get", {"int*"}}}, opts_)->launch("get", dim3(1), dim3(1), 0, args);
  EXPECT_EQ(out, 5);
  EXPECT_EQ(testing_hooks::compiler_invocations(), before + 2);
}

TEST_F(EmuCompiler, KernelFailureNamesTheKernel) {
  const char* src = "__global__ void boom(int* p) { if (threadIdx.x == 3) __trap(); }\n";
  auto m = compile_emu(src, {{"boom", {"int*"}}}, opts_);
  int* p = nullptr;
  void* args[] = {&p};
  try {
    m->launch("boom", dim3(1), dim3(8), 0, args);
    FAIL() << "expected a trap";
  } catch (const gpupy::Error& e) {
    EXPECT_NE(std::string(e.what()).find("'boom'"), std::string::npos) << e.what();
  }
}

}  // namespace
