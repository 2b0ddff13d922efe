// The elementwise op table's metadata, functor traits and NEP 50 promotion. Host only.
#include "elementwise_rules.h"

#include <algorithm>
#include <type_traits>

#include "../core/dispatch.h"
#include "../functors/all.h"
#include "gpupy/error.h"

namespace gpupy {
namespace {

struct OpRow {
  const char* name;
  int arity;
  TypeRule rule;
};

constexpr OpRow kRows[] = {
#define GPUPY_ELEMENTWISE(name, arity, rule, functor) {#name, arity, TypeRule::rule},
#include "gpupy/elementwise_ops.inc"
#undef GPUPY_ELEMENTWISE
};

const OpRow& row(ElementwiseOp op) { return kRows[static_cast<int>(op)]; }

template <class F, int Arity, class T>
constexpr bool invocable() {
  if constexpr (Arity == 1)
    return std::is_invocable_v<F, T>;
  else if constexpr (Arity == 2)
    return std::is_invocable_v<F, T, T>;
  else
    return std::is_invocable_v<F, T, T, T>;
}

template <class Op, int Arity>
std::optional<DType> result_of(DType dt) {
  return dispatch_dtype(dt, [](auto tag) -> std::optional<DType> {
    using T = typename decltype(tag)::type;
    using F = fn::loop_functor_t<Op, T>;
    if constexpr (invocable<F, Arity, T>()) {
      using R = std::conditional_t<Arity == 1, std::invoke_result<F, T>,
                                   std::conditional_t<Arity == 2, std::invoke_result<F, T, T>,
                                                      std::invoke_result<F, T, T, T>>>;
      return dtype_of<std::decay_t<typename R::type>>();
    } else {
      return std::nullopt;
    }
  });
}

std::optional<DType> functor_result_or_none(ElementwiseOp op, DType dt) {
  switch (op) {
#define GPUPY_ELEMENTWISE(name, arity, rule, functor) \
  case ElementwiseOp::name:                           \
    return result_of<fn::functor, arity>(dt);
#include "gpupy/elementwise_ops.inc"
#undef GPUPY_ELEMENTWISE
  }
  return std::nullopt;
}

std::string integer_text(const Scalar& s) {
  if (dtype_kind(s.dtype()) == DTypeKind::unsigned_int) {
    uint64_t v;
    s.store(DType::uint64, &v);
    return std::to_string(v);
  }
  return std::to_string(s.to_int64());
}

// The dtype a weak Python scalar takes next to arrays of dtype `strong` (NEP 50).
DType combine_weak(std::optional<DType> strong, const Scalar& s, const char* op) {
  DTypeKind kind = dtype_kind(s.dtype());
  if (!strong) return s.dtype();
  DType d = *strong;
  switch (kind) {
    case DTypeKind::boolean:
      return d;
    case DTypeKind::signed_int:
    case DTypeKind::unsigned_int: {
      DType target = is_bool(d) ? DType::int64 : d;
      if (is_integer(target) && !s.fits_integer(target))
        throw OverflowError(op_message(op, "Python integer " + integer_text(s) +
                                               " out of bounds for " +
                                               std::string(dtype_name(target))));
      return target;
    }
    case DTypeKind::floating:
      return is_inexact(d) ? d : DType::float64;
    case DTypeKind::complex:
      if (is_complex(d)) return d;
      return is_floating(d) ? complex_dtype(d) : DType::complex128;
  }
  return d;
}

}  // namespace

const char* op_name(ElementwiseOp op) { return row(op).name; }
int op_arity(ElementwiseOp op) { return row(op).arity; }
TypeRule op_rule(ElementwiseOp op) { return row(op).rule; }

bool functor_supports(ElementwiseOp op, DType dt) {
  return functor_result_or_none(op, dt).has_value();
}

DType functor_result(ElementwiseOp op, DType dt) {
  auto r = functor_result_or_none(op, dt);
  if (!r)
    throw TypeError(
        op_message(op_name(op), "not supported for input dtype " + std::string(dtype_name(dt))));
  return *r;
}

DType result_type(const std::vector<Operand>& inputs, const char* op) {
  std::vector<DType> dtypes;
  for (const Operand& x : inputs) {
    if (x.is_array())
      dtypes.push_back(x.array().dtype());
    else if (!x.scalar().weak())
      dtypes.push_back(x.scalar().dtype());
  }
  // Promotion is not associative. As NumPy, it starts from the first dtype of the highest
  // kind (bool < integer < float < complex): int16, uint16, float32 give float32, not float64
  // through int32.
  auto main = std::max_element(dtypes.begin(), dtypes.end(),
                               [](DType a, DType b) { return kind_rank(a) < kind_rank(b); });
  std::optional<DType> strong;
  if (main != dtypes.end()) strong = *main;
  for (DType d : dtypes) strong = promote_types(*strong, d);
  // Weak scalars only raise the kind (bool < int < float < complex); an all-weak call
  // promotes the scalars' own default dtypes.
  for (const Operand& x : inputs)
    if (!x.is_array() && x.scalar().weak()) strong = combine_weak(strong, x.scalar(), op);
  return strong.value_or(DType::float64);
}

}  // namespace gpupy
