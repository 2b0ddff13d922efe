// Bindings of the linalg chapter.
#include "bindings.h"

namespace gpupy::py {

void bind_linalg(nb::module_& m) {}

}  // namespace gpupy::py
