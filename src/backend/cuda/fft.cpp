// gpupy.fft on cuda: cuFFT, dlopen-ed at first use, transforms the last axis of a contiguous copy
// with plans from a small cache. Host only.
#include <cufft.h>

#include <climits>
#include <list>
#include <mutex>
#include <string>

#include "../../core/cuda_library.h"
#include "../cuda_libs.h"
#include "cuda_backend.h"
#include "gpupy/error.h"
#include "kernels.h"
#include "stream.h"

namespace gpupy::cuda {
namespace {

struct CufftApi {
  decltype(&cufftCreate) create = nullptr;
  decltype(&cufftMakePlanMany) make_plan_many = nullptr;
  decltype(&cufftSetStream) set_stream = nullptr;
  decltype(&cufftDestroy) destroy = nullptr;
  decltype(&cufftExecC2C) c2c = nullptr;
  decltype(&cufftExecZ2Z) z2z = nullptr;
  decltype(&cufftExecR2C) r2c = nullptr;
  decltype(&cufftExecD2Z) d2z = nullptr;
  decltype(&cufftExecC2R) c2r = nullptr;
  decltype(&cufftExecZ2D) z2d = nullptr;
};

LoadedLibrary<CufftApi> load() {
  return load_cuda_library<CufftApi>("GPUPY_CUFFT_LIBRARY",
                                     {"libcufft.so.12", "libcufft.so.11", "libcufft.so"}, "cuFFT",
                                     [](void* lib, CufftApi& a, std::string& e) {
                                       auto resolve = [&](const char* symbol, auto& fn) {
                                         resolve_symbol(lib, symbol, fn, e, "libcufft");
                                       };
                                       resolve("cufftCreate", a.create);
                                       resolve("cufftMakePlanMany", a.make_plan_many);
                                       resolve("cufftSetStream", a.set_stream);
                                       resolve("cufftDestroy", a.destroy);
                                       resolve("cufftExecC2C", a.c2c);
                                       resolve("cufftExecZ2Z", a.z2z);
                                       resolve("cufftExecR2C", a.r2c);
                                       resolve("cufftExecD2Z", a.d2z);
                                       resolve("cufftExecC2R", a.c2r);
                                       resolve("cufftExecZ2D", a.z2d);
                                     });
}

const CufftApi& cufft(const char* op) {
  static const LoadedLibrary<CufftApi> loaded = load();
  if (!loaded.error.empty()) throw CudaError(op_message(op, loaded.error));
  return loaded.api;
}

std::string result_name(cufftResult r) {
  switch (r) {
    case CUFFT_INVALID_PLAN:
      return "CUFFT_INVALID_PLAN";
    case CUFFT_ALLOC_FAILED:
      return "CUFFT_ALLOC_FAILED";
    case CUFFT_INVALID_TYPE:
      return "CUFFT_INVALID_TYPE";
    case CUFFT_INVALID_VALUE:
      return "CUFFT_INVALID_VALUE";
    case CUFFT_INTERNAL_ERROR:
      return "CUFFT_INTERNAL_ERROR";
    case CUFFT_EXEC_FAILED:
      return "CUFFT_EXEC_FAILED";
    case CUFFT_SETUP_FAILED:
      return "CUFFT_SETUP_FAILED";
    case CUFFT_INVALID_SIZE:
      return "CUFFT_INVALID_SIZE";
    case CUFFT_NOT_SUPPORTED:
      return "CUFFT_NOT_SUPPORTED";
    default:
      return "cuFFT status " + std::to_string(static_cast<int>(r));
  }
}

void check(cufftResult r, const char* call, const char* op) {
  if (r != CUFFT_SUCCESS)
    throw CudaError(op_message(op, std::string(call) + " failed: " + result_name(r)));
}

// A plan's work area serves every transform executed with it, so transforms queued on two streams
// with one plan could run at once and share it: each stream has its own plans. A destroyed
// stream's handle may come back for a new stream, whose work is then ordered after the old one's.
struct PlanKey {
  int device, n, batch;
  cufftType type;
  cudaStream_t stream;
  bool operator==(const PlanKey&) const = default;
};

constexpr size_t kMaxPlans = 16;
std::mutex g_mutex;  // guards the cache; a plan is not safe to use from two threads at once
std::list<std::pair<PlanKey, cufftHandle>> g_plans;  // most recently used first

// The cached plan for `key` (the caller holds g_mutex and a DeviceGuard for key.device).
cufftHandle plan_for(const CufftApi& api, const PlanKey& key, const char* op) {
  for (auto it = g_plans.begin(); it != g_plans.end(); ++it) {
    if (it->first == key) {
      g_plans.splice(g_plans.begin(), g_plans, it);
      return it->second;
    }
  }
  if (g_plans.size() >= kMaxPlans) {
    // Evicted plans may still be queued: cufftDestroy frees with cudaFree, which waits for them.
    auto& last = g_plans.back();
    DeviceGuard guard(last.first.device);
    check(api.destroy(last.second), "cufftDestroy", op);
    g_plans.pop_back();
  }
  int n = key.n;
  cufftHandle plan = 0;
  // Null embeddings select the basic layout: rows of n (or n/2+1 complex) values back to back.
  auto make = [&] {
    check(api.create(&plan), "cufftCreate", op);
    size_t work = 0;
    cufftResult r =
        api.make_plan_many(plan, 1, &n, nullptr, 1, 0, nullptr, 1, 0, key.type, key.batch, &work);
    if (r != CUFFT_SUCCESS) api.destroy(plan);
    return r;
  };
  cufftResult r = make();
  if (r == CUFFT_ALLOC_FAILED) {
    // The work area comes from cudaMalloc, outside gpupy's pool: when the pool's cached blocks
    // fill the device, they are given back and the plan made once more.
    backend_of(key.device).free_all_blocks();
    r = make();
  }
  check(r, "cufftMakePlanMany", op);
  g_plans.emplace_front(key, plan);
  return plan;
}

int checked_int(int64_t v, const char* what, const char* op) {
  if (v > INT_MAX)
    throw NotImplementedError(op_message(op, std::string(what) + " beyond 2**31-1 is not "
                                                                 "supported on cuda"));
  return static_cast<int>(v);
}

}  // namespace

Array fft(const Array& x, FftKind kind, int64_t n_out, const char* op) {
  if (x.device().type != DeviceType::cuda)
    throw ValueError(op_message(op, "the cuFFT path expects a cuda array"));
  if (x.ndim() < 1) throw ValueError(op_message(op, "expects at least one dimension"));
  bool single = x.dtype() == DType::float32 || x.dtype() == DType::complex64;
  DType real = single ? DType::float32 : DType::float64;
  DType complex = single ? DType::complex64 : DType::complex128;
  int64_t n_in = x.shape().back();
  int64_t n = kind == FftKind::real_inverse ? n_out : n_in;  // the transform length
  if (n < 1)
    throw ValueError(
        op_message(op, "invalid number of data points (" + std::to_string(n) + ") specified"));
  if (kind == FftKind::real_inverse && n_in != n / 2 + 1)
    throw ValueError(op_message(op, "a complex-to-real transform of " + std::to_string(n) +
                                        " points takes " + std::to_string(n / 2 + 1) +
                                        " values, got " + std::to_string(n_in)));
  Shape out_shape = x.shape();
  out_shape.back() = kind == FftKind::real_forward ? n / 2 + 1 : n;
  DType in_dtype = kind == FftKind::real_forward ? real : complex;
  DType out_dtype = kind == FftKind::real_inverse ? real : complex;
  int device = x.device().index;
  require_device(device);
  DeviceGuard guard(device);
  cudaStream_t stream = backend_of(device).stream_for(x);
  // Always a copy: it makes the rows contiguous, converts the dtype, and cuFFT's complex-to-real
  // transform overwrites its input.
  Array in = Array::empty(x.shape(), in_dtype, x.device());
  Array out = Array::empty(out_shape, out_dtype, x.device());
  int64_t rows = n_in == 0 ? 0 : x.size() / n_in;
  if (rows == 0) return out;
  launch_copy(x, in, stream);

  cufftType type = kind == FftKind::real_forward   ? (single ? CUFFT_R2C : CUFFT_D2Z)
                   : kind == FftKind::real_inverse ? (single ? CUFFT_C2R : CUFFT_Z2D)
                                                   : (single ? CUFFT_C2C : CUFFT_Z2Z);
  PlanKey key{device, checked_int(n, "a transform length", op),
              checked_int(rows, "a batch of transforms", op), type, stream};
  const CufftApi& api = cufft(op);
  std::lock_guard<std::mutex> lock(g_mutex);
  cufftHandle plan = plan_for(api, key, op);
  check(api.set_stream(plan, stream), "cufftSetStream", op);
  void* i = in.data();
  void* o = out.data();
  int direction = kind == FftKind::inverse ? CUFFT_INVERSE : CUFFT_FORWARD;
  switch (type) {
    case CUFFT_C2C:
      check(api.c2c(plan, static_cast<cufftComplex*>(i), static_cast<cufftComplex*>(o), direction),
            "cufftExecC2C", op);
      break;
    case CUFFT_Z2Z:
      check(api.z2z(plan, static_cast<cufftDoubleComplex*>(i), static_cast<cufftDoubleComplex*>(o),
                    direction),
            "cufftExecZ2Z", op);
      break;
    case CUFFT_R2C:
      check(api.r2c(plan, static_cast<cufftReal*>(i), static_cast<cufftComplex*>(o)),
            "cufftExecR2C", op);
      break;
    case CUFFT_D2Z:
      check(api.d2z(plan, static_cast<cufftDoubleReal*>(i), static_cast<cufftDoubleComplex*>(o)),
            "cufftExecD2Z", op);
      break;
    case CUFFT_C2R:
      check(api.c2r(plan, static_cast<cufftComplex*>(i), static_cast<cufftReal*>(o)),
            "cufftExecC2R", op);
      break;
    default:
      check(api.z2d(plan, static_cast<cufftDoubleComplex*>(i), static_cast<cufftDoubleReal*>(o)),
            "cufftExecZ2D", op);
      break;
  }
  return out;
}

}  // namespace gpupy::cuda
