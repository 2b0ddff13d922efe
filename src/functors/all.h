// Every functor named in include/gpupy/elementwise_ops.inc. Host and device.
#pragma once

#include "arithmetic.h"
#include "compare.h"
#include "float16_loops.h"
#include "math.h"
#include "numpy_extras.h"
