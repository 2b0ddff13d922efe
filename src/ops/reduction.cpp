// Reductions front end (to be completed). Host only.
#include "gpupy/error.h"
#include "gpupy/ops.h"

namespace gpupy {

#define GPUPY_PENDING(sig, name) \
  sig { throw NotImplementedError("[" name "] not implemented yet"); }
GPUPY_PENDING(Array sum(const Array&, const Axes&, bool, std::optional<DType>), "sum")
GPUPY_PENDING(Array prod(const Array&, const Axes&, bool, std::optional<DType>), "prod")
GPUPY_PENDING(Array mean(const Array&, const Axes&, bool, std::optional<DType>), "mean")
GPUPY_PENDING(Array var(const Array&, const Axes&, double, bool), "var")
GPUPY_PENDING(Array std(const Array&, const Axes&, double, bool), "std")
GPUPY_PENDING(Array min(const Array&, const Axes&, bool), "min")
GPUPY_PENDING(Array max(const Array&, const Axes&, bool), "max")
GPUPY_PENDING(Array any(const Array&, const Axes&, bool), "any")
GPUPY_PENDING(Array all(const Array&, const Axes&, bool), "all")
GPUPY_PENDING(Array argmin(const Array&, std::optional<int>, bool), "argmin")
GPUPY_PENDING(Array argmax(const Array&, std::optional<int>, bool), "argmax")

}  // namespace gpupy
