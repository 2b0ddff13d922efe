// Elementwise loops for table rows 1, 5, 9, ... (see elementwise_kernel.h). Host only.
#define GPUPY_PART 1
#define GPUPY_PART_FUNCTION elementwise_part1
#include "elementwise_part.inc"
