#pragma once
// The plug-in point of strata::add: one specialisation of Impl::AddFormat per
// format that can add, in algorithms/add/<format>.hpp (as Impl::SpmvFormat is
// for strata::spmv).
#include <type_traits>

namespace strata {
namespace Impl {

template <class ExecSpace, class Matrix, class Enable = void>
struct AddFormat {
  static constexpr bool available = false;
};

}  // namespace Impl

template <class ExecSpace, class Matrix>
struct is_add_format : std::bool_constant<Impl::AddFormat<ExecSpace, Matrix>::available> {};

}  // namespace strata
