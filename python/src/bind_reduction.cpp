// Bindings of the reduction chapter.
#include "bindings.h"

namespace gpupy::py {

void bind_reduction(nb::module_& m) {}

}  // namespace gpupy::py
