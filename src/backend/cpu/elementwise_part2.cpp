// Elementwise loops for table rows 2, 6, 10, ... (see elementwise_kernel.h). Host only.
#define GPUPY_PART 2
#define GPUPY_PART_FUNCTION elementwise_part2
#include "elementwise_part.inc"
