// Tests of the emu runtime: launch validation, errors raised from kernels (trap, assert,
// exceptions, deadlock) and the dynamic shared memory rewrite. Host only.
// The kernels here must see assert enabled even in Release builds.
#undef NDEBUG

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "gpupy/error.h"
#include "kernels/emu_error_kernels.cuh"

namespace {

using gpupy::emu::launch;

// Runs f and returns the message of the gpupy error of type E it throws.
template <class E, class F>
std::string error_of(F f) {
  try {
    f();
  } catch (const E& e) {
    return e.what();
  }
  return "<no error>";
}

TEST(EmuLaunch, InvalidConfigurationsNameTheKernel) {
  auto bad = [](dim3 grid, dim3 block, size_t shmem) {
    return error_of<gpupy::ValueError>([&] { GPUPY_EMU_LAUNCH(noop, grid, block, shmem); });
  };
  EXPECT_NE(bad(dim3(1), dim3(1025), 0).find("[emu] kernel 'noop'"), std::string::npos);
  EXPECT_NE(bad(dim3(1), dim3(1025), 0).find("1024"), std::string::npos);
  EXPECT_NE(bad(dim3(1), dim3(1, 1, 65), 0).find("block.z"), std::string::npos);
  EXPECT_NE(bad(dim3(1, 65536), dim3(1), 0).find("grid.y"), std::string::npos);
  EXPECT_NE(bad(dim3(1, 1, 65536), dim3(1), 0).find("grid.z"), std::string::npos);
  EXPECT_NE(bad(dim3(0), dim3(1), 0).find("zero"), std::string::npos);
  EXPECT_NE(bad(dim3(1), dim3(32, 0), 0).find("zero"), std::string::npos);
  EXPECT_NE(bad(dim3(1), dim3(32), 48 * 1024 + 1).find("dynamic shared memory"), std::string::npos);
  EXPECT_THROW(GPUPY_EMU_LAUNCH(noop, dim3(1), dim3(2048), 0), gpupy::ValueError);
}

TEST(EmuLaunch, DynamicSharedLimitCanBeRaised) {
  gpupy::emu::set_max_dynamic_shared_bytes(96 * 1024);
  EXPECT_NO_THROW(GPUPY_EMU_LAUNCH(noop, dim3(2), dim3(32), 64 * 1024));
  gpupy::emu::set_max_dynamic_shared_bytes(48 * 1024);
  EXPECT_THROW(GPUPY_EMU_LAUNCH(noop, dim3(2), dim3(32), 64 * 1024), gpupy::ValueError);
}

TEST(EmuLaunch, TrapNamesKernelBlockAndThread) {
  const std::string msg =
      error_of<gpupy::Error>([] { GPUPY_EMU_LAUNCH(trapping, dim3(4), dim3(64), 0, 1, 5); });
  EXPECT_EQ(msg, "[emu] kernel 'trapping' trapped in block (1,0,0) thread (5,0,0)");
  EXPECT_THROW(GPUPY_EMU_LAUNCH(trapping, dim3(4), dim3(64), 0, 1, 5), gpupy::Error);
}

TEST(EmuLaunch, TrapInsideFiberModeBlock) {
  const std::string msg = error_of<gpupy::Error>(
      [] { GPUPY_EMU_LAUNCH(trapping_after_barrier, dim3(1), dim3(128), 0, 77); });
  EXPECT_EQ(msg, "[emu] kernel 'trapping_after_barrier' trapped in block (0,0,0) thread (77,0,0)");
  // The promoted thread (thread 0) traps too: the block still unwinds cleanly.
  EXPECT_THROW(GPUPY_EMU_LAUNCH(trapping_after_barrier, dim3(3), dim3(64), 0, 0), gpupy::Error);
  EXPECT_NO_THROW(GPUPY_EMU_LAUNCH(trapping_after_barrier, dim3(2), dim3(64), 0, 1000));
}

TEST(EmuLaunch, FailedAssertRaises) {
  const std::string msg =
      error_of<gpupy::Error>([] { GPUPY_EMU_LAUNCH(asserting, dim3(1), dim3(32), 0, 10); });
  EXPECT_NE(msg.find("[emu] kernel 'asserting' failed assertion"), std::string::npos) << msg;
  // Threads 10..31 fail; which one reports first depends on $GPUPY_EMU_SCHEDULE, as on a GPU.
  const std::size_t at = msg.find("thread (");
  ASSERT_NE(at, std::string::npos) << msg;
  const int thread = std::stoi(msg.substr(at + 8));
  EXPECT_GE(thread, 10) << msg;
  EXPECT_LT(thread, 32) << msg;
  EXPECT_NO_THROW(GPUPY_EMU_LAUNCH(asserting, dim3(1), dim3(32), 0, 32));
}

TEST(EmuLaunch, KernelExceptionIsReported) {
  const std::string msg =
      error_of<gpupy::Error>([] { GPUPY_EMU_LAUNCH(throwing, dim3(2), dim3(8), 0); });
  EXPECT_NE(msg.find("threw \"bad value\""), std::string::npos) << msg;
  EXPECT_NE(msg.find("thread (3,0,0)"), std::string::npos) << msg;
}

TEST(EmuLaunch, DeadlockIsAnErrorNotAHang) {
  const std::string msg =
      error_of<gpupy::Error>([] { GPUPY_EMU_LAUNCH(deadlocking, dim3(1), dim3(64), 0); });
  EXPECT_NE(msg.find("[emu] kernel 'deadlocking' deadlocked"), std::string::npos) << msg;
  EXPECT_NE(msg.find("in block (0,0,0)"), std::string::npos) << msg;
}

TEST(EmuLaunch, UnnamedLaunchStillNamesSomething) {
  const std::string msg =
      error_of<gpupy::Error>([] { launch(trapping, dim3(1), dim3(4), 0, 0, 2); });
  EXPECT_NE(msg.find("[emu] kernel '"), std::string::npos) << msg;
  EXPECT_NE(msg.find("trapped in block (0,0,0) thread (2,0,0)"), std::string::npos) << msg;
}

TEST(EmuLaunch, IntrinsicsOutsideKernelsRaise) {
  EXPECT_THROW(__syncthreads(), gpupy::Error);
  EXPECT_THROW(__syncwarp(), gpupy::Error);
}

TEST(EmuLaunch, RuntimeWorksAfterErrors) {
  unsigned counter = 0;
  launch(count_threads, dim3(7), dim3(5), 0, &counter);
  EXPECT_EQ(counter, 35u);
}

TEST(EmuRewrite, ExternSharedBecomesMacro) {
  using gpupy::emu::rewrite_dynamic_shared;
  EXPECT_EQ(
      rewrite_dynamic_shared("__global__ void k() { extern __shared__ float s[]; s[0] = 1; }"),
      "__global__ void k() { GPUPY_DYNAMIC_SHARED(float, s); s[0] = 1; }");
  EXPECT_EQ(rewrite_dynamic_shared(
                "void k() {\n  extern __shared__ __align__(16) unsigned char  buf [ ];\n}"),
            "void k() {\n  GPUPY_DYNAMIC_SHARED(unsigned char, buf);\n}");
  EXPECT_EQ(rewrite_dynamic_shared("extern __shared__ double g[];\nvoid f() {}"),
            "GPUPY_DYNAMIC_SHARED_GLOBAL(double, g);\nvoid f() {}");
  EXPECT_EQ(rewrite_dynamic_shared("namespace a { extern __shared__ int g[]; }"),
            "namespace a { GPUPY_DYNAMIC_SHARED_GLOBAL(int, g); }");
  EXPECT_EQ(rewrite_dynamic_shared("void f() { extern __shared__ P<int, float> p[]; }"),
            "void f() { using gpupy_emu_shared_t_p = P<int, float>; "
            "GPUPY_DYNAMIC_SHARED(gpupy_emu_shared_t_p, p); }");
  const std::string untouched = "extern int x[]; __shared__ float t[32]; // extern __shared__";
  EXPECT_EQ(rewrite_dynamic_shared(untouched), untouched);
}

// The rewritten form used at namespace scope: resolved per block at every use.
GPUPY_DYNAMIC_SHARED_GLOBAL(int, g_dynamic);

__global__ void reverse_global_dynamic(int* data) {
  const int t = threadIdx.x;
  g_dynamic[t] = data[t];
  __syncthreads();
  int* p = static_cast<int*>(g_dynamic);
  data[t] = p[blockDim.x - 1 - t];
}

TEST(EmuRewrite, NamespaceScopeDynamicShared) {
  std::vector<int> v{1, 2, 3, 4, 5};
  launch(reverse_global_dynamic, dim3(1), dim3(5), 5 * sizeof(int), v.data());
  EXPECT_EQ(v, (std::vector<int>{5, 4, 3, 2, 1}));
}

}  // namespace
