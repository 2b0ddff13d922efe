// Elementwise loops for table rows 3, 7, 11, ... (see elementwise_kernel.h). Host only.
#define GPUPY_PART 3
#define GPUPY_PART_FUNCTION elementwise_part3
#include "elementwise_part.inc"
