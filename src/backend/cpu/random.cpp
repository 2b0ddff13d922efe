// The cpu loop of gpupy.random: the Philox4x32-10 functor the CUDA kernels share, one block per
// element, so the cpu yields the same numbers as cuda and emu. Host only.
#include "../../functors/philox.h"
#include "cpu_backend.h"
#include "parallel.h"

namespace gpupy::cpu {

void CpuBackend::philox_fill(const Array& out, uint64_t key, uint64_t counter,
                             RandomDistribution dist) {
  fn::dispatch_philox(dist, out.dtype(), [&](auto d, auto tag) {
    using T = decltype(tag);
    T* data = reinterpret_cast<T*>(out.data());
    // By value: the stores through `data` must not make the compiler reload key and counter.
    parallel_for(out.size(), kParallelGrain / 8, [=](int64_t begin, int64_t end) {
      for (int64_t i = begin; i < end; ++i)
        data[i] = fn::philox_draw<decltype(d)::value, T>(key, counter + uint64_t(i));
    });
  });
}

}  // namespace gpupy::cpu
