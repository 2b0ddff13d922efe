// How each elementwise op chooses its loop dtype, and what its functor accepts. Host only.
#pragma once

#include <optional>

#include "gpupy/dtype.h"
#include "gpupy/ops.h"

namespace gpupy {

/// The dtype rule column of elementwise_ops.inc.
enum class TypeRule : uint8_t {
  promote,               // loop dtype = NumPy 2 result_type of the inputs
  promote_float,         // same, then integers/bool go to a float dtype (exp, sqrt, rint, ...)
  promote_float64,       // same, but integers/bool go to float64 (NumPy's true division)
  promote_bool_as_int8,  // same, but bool computes as int8 (floor_divide, remainder, power)
  as_bool,               // inputs are read as bool (logical_*)
  ldexp,                 // float dtype of the first input; the second is an integer exponent
};

TypeRule op_rule(ElementwiseOp op);
/// Whether the op's functor has a loop for inputs of dtype `dt`.
bool functor_supports(ElementwiseOp op, DType dt);
/// Output dtype of the op's functor for inputs of dtype `dt` (requires functor_supports).
DType functor_result(ElementwiseOp op, DType dt);

/// The dtype the op's inputs are cast to, as NumPy's casting= checks it (logical_* have NumPy
/// loops for every dtype, so theirs is the inputs' result_type, not bool).
DType elementwise_loop_dtype(ElementwiseOp op, const std::vector<Operand>& inputs);
/// Each input's dtype in NumPy's loop for casting= checks: as elementwise_loop_dtype, except
/// for ldexp's integer exponent and the signed-with-uint64 comparisons.
std::vector<DType> elementwise_loop_inputs(ElementwiseOp op, const std::vector<Operand>& inputs);

/// NumPy 2 result_type of operands (NEP 50: Python scalars are weak). Throws OverflowError
/// naming `op` when a Python int does not fit the array dtype.
DType result_type(const std::vector<Operand>& inputs, const char* op);

}  // namespace gpupy
