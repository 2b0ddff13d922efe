// Unit tests of the kernel runtime's C type table, signature parser and argument packing. Host.
#include <gtest/gtest.h>

#include <cstring>

#include "gpupy/error.h"
#include "gpupy/kernel/arguments.h"
#include "gpupy/kernel/signature.h"

using namespace gpupy;
using namespace gpupy::kernel;

namespace {

std::string value_error(const std::string& src, const std::string& name,
                        std::optional<std::vector<std::string>> targs = std::nullopt) {
  try {
    parse_cuda_signature(src, name, targs);
  } catch (const ValueError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST(KernelCTypes, TableAndInverse) {
  EXPECT_EQ(dtype_of_ctype("unsigned long"), DType::uint64);
  EXPECT_EQ(dtype_of_ctype("const signed char"), DType::int8);
  EXPECT_EQ(dtype_of_ctype("long long int"), DType::int64);
  EXPECT_EQ(dtype_of_ctype("size_t"), DType::uint64);
  EXPECT_EQ(dtype_of_ctype("thrust::complex<double>"), DType::complex128);
  EXPECT_EQ(dtype_of_ctype("cuda::std::complex<float>"), DType::complex64);
  EXPECT_FALSE(dtype_of_ctype("Particle").has_value());
  for (int i = 0; i < kNumDTypes; ++i) {
    auto dt = static_cast<DType>(i);
    EXPECT_EQ(dtype_of_ctype(ctype_of(dt)), dt) << ctype_of(dt);
  }
  EXPECT_EQ(ctype_of(DType::int64), "long long");
}

TEST(KernelSignature, PointersScalarsAndComments) {
  auto sig = parse_cuda_signature(
      "// __global__ void k(int x) {}\n/* __global__ void k(float y) */\n"
      "extern \"C\" __global__ void k(const double* __restrict__ x, float y[], int n) {}",
      "k", std::nullopt);
  ASSERT_EQ(sig.params.size(), 3u);
  EXPECT_EQ(sig.params[0].describe(), "double* x");
  EXPECT_EQ(sig.params[0].decl_type, "const double*");
  EXPECT_TRUE(sig.params[1].pointer);
  EXPECT_EQ(sig.params[1].dtype, DType::float32);
  EXPECT_EQ(sig.params[2].describe(), "int n");
  EXPECT_TRUE(parse_cuda_signature("__global__ void e(void) {}", "e", std::nullopt).params.empty());
  EXPECT_TRUE(parse_cuda_signature("__global__ void e() {}", "e", std::nullopt).params.empty());
  EXPECT_NE(value_error("// __global__ void k(int x) {}", "k").find("no __global__ function 'k'"),
            std::string::npos);
}

TEST(KernelSignature, TemplatesViewsAndVoidPointers) {
  const std::string src =
      "template <typename T, int N>\n__global__ void t(Array2D<const T> a, CArray3D<T> c, "
      "void* raw, T s) {}";
  auto sig = parse_cuda_signature(src, "t", std::vector<std::string>{"float", "4"});
  EXPECT_EQ(sig.expression, "t<float, 4>");
  EXPECT_EQ(sig.params[0].view_ndim, 2);
  EXPECT_EQ(sig.params[0].ctype, "Array2D<float>");
  EXPECT_TRUE(sig.params[1].contiguous);
  EXPECT_EQ(sig.params[1].packed_size(), 8u + 3 * 8);
  EXPECT_EQ(sig.params[0].packed_size(), 8u + 2 * 2 * 8);
  EXPECT_TRUE(sig.params[2].pointer);
  EXPECT_FALSE(sig.params[2].dtype.has_value());
  EXPECT_EQ(sig.params[3].dtype, DType::float32);
  EXPECT_NE(value_error(src, "t").find("'t' is a template with 2 parameters; pass them as "
                                       "template_args"),
            std::string::npos);
  EXPECT_NE(value_error("__global__ void p(int x) {}", "p", std::vector<std::string>{"int"})
                .find("not a template"),
            std::string::npos);
  auto names = cuda_kernel_names(src + "\n__global__ void u() {}\n// __global__ void v() {}");
  EXPECT_EQ(names, (std::vector<std::string>{"t", "u"}));
}

TEST(KernelSignature, Rejections) {
  EXPECT_NE(
      value_error("__global__ void k(double** p) {}", "k").find("unsupported type 'double**'"),
      std::string::npos);
  EXPECT_NE(
      value_error("__global__ void k(Particle p) {}", "k").find("unsupported type 'Particle'"),
      std::string::npos);
  EXPECT_NE(value_error("__global__ void k(Array17D<double> p) {}", "k").find("unsupported type"),
            std::string::npos);
  EXPECT_NE(value_error("__global__ void k(Array2D<double>* p) {}", "k")
                .find("array views take a scalar element type and are passed by value"),
            std::string::npos);
  EXPECT_NE(value_error("__global__ void k(Array2D<Particle> p) {}", "k")
                .find("array views take a scalar element type"),
            std::string::npos);
  EXPECT_NE(value_error("__global__ void k(int x {}", "k").find("not closed"), std::string::npos);
}

TEST(KernelArguments, IntegerRangesAndViews) {
  char buf[16];
  store_integer(DType::int32, 5, "a", buf);
  int32_t i;
  std::memcpy(&i, buf, 4);
  EXPECT_EQ(i, 5);
  try {
    store_integer(DType::int32, int64_t(1) << 31, "argument 0 (int n)", buf);
    FAIL();
  } catch (const OverflowError& e) {
    EXPECT_STREQ(e.what(),
                 "argument 0 (int n): 2147483648 is out of range [-2147483648, 2147483647]");
  }
  EXPECT_THROW(store_integer(DType::uint8, -1, "a", buf), OverflowError);

  auto sig = parse_cuda_signature("__global__ void k(Array2D<double> a) {}", "k", std::nullopt);
  int64_t shape[] = {3, 4}, strides[] = {80, 16};
  ArrayArg a{reinterpret_cast<void*>(0x1000), DType::float64, 2, shape, strides};
  int64_t rec[5];
  pack_view(sig.params[0], a, "a", rec);
  EXPECT_EQ(rec[0], 0x1000);
  EXPECT_EQ(rec[1], 3);
  EXPECT_EQ(rec[3], 10);
  EXPECT_EQ(rec[4], 2);
  EXPECT_FALSE(c_contiguous(a));
  a.ndim = 1;
  EXPECT_THROW(pack_view(sig.params[0], a, "a", rec), TypeError);
}

TEST(KernelSignature, StructsByValue) {
  std::vector<StructType> structs{{"Markers", 48}};
  auto sig = parse_cuda_signature("__global__ void k(const Markers m, struct Markers n, int i) {}",
                                  "k", std::nullopt, structs);
  ASSERT_EQ(sig.params.size(), 3u);
  EXPECT_EQ(sig.params[0].struct_size, 48u);
  EXPECT_EQ(sig.params[1].ctype, "Markers");
  EXPECT_EQ(ArgumentLayout(sig).offsets[2], 96u);
  EXPECT_THROW(parse_cuda_signature("__global__ void k(Markers* m) {}", "k", std::nullopt, structs),
               ValueError);
  EXPECT_THROW(parse_cuda_signature("__global__ void k(Markers m) {}", "k", std::nullopt),
               ValueError);
}
