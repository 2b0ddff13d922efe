// Bindings of the manipulation chapter.
#include "bindings.h"

namespace gpupy::py {

void bind_manipulation(nb::module_& m) {}

}  // namespace gpupy::py
