// The Philox4x32-10 generator behind gpupy.random.
#include "bindings.h"

namespace gpupy::py {
using namespace nb::literals;

void bind_random(nb::module_& m) {
  nb::enum_<RandomDistribution>(m, "_RandomDistribution")
      .value("uniform", RandomDistribution::uniform)
      .value("normal", RandomDistribution::normal)
      .value("bits", RandomDistribution::bits);
  m.def(
      "_philox_random",
      [](const Shape& shape, nb::handle dtype, RandomDistribution dist, uint64_t key,
         uint64_t counter, nb::handle device) {
        return philox_random(shape, *to_dtype(dtype), dist, key, counter, to_device_arg(device));
      },
      "shape"_a, "dtype"_a, "dist"_a, "key"_a, "counter"_a, "device"_a.none());
}

}  // namespace gpupy::py
