// Elementwise kernels for table rows 3, 9, 15, ... (see elementwise.cuh): for each row and
// each input dtype its functor accepts, a contiguous grid-stride kernel (scalar operands by value)
// and strided kernels with 32- and 64-bit offsets. Both compilers (nvcc; host compiler for emu).
#define GPUPY_PART 3
#define GPUPY_PART_FUNCTION elementwise_part3
#include "elementwise_part.cuh"
