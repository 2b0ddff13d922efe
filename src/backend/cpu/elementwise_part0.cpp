// Elementwise loops for table rows 0, 4, 8, ... (see elementwise_kernel.h). Host only.
#define GPUPY_PART 0
#define GPUPY_PART_FUNCTION elementwise_part0
#include "elementwise_part.inc"
