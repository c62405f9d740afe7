#pragma once
// AddHandle: what strata::add keeps from one addition to the next — for
// HiSparse the levels' scratch (hisparse_add_workspace.hpp), which grows to
// the largest addition made with the handle and is released with it. A code
// that adds repeatedly keeps one handle, so that an addition allocates only
// its result: on a GPU an allocation of the scratch and its release (which
// synchronises the device) cost more than the whole addition of a small
// matrix (docs/PERFORMANCE.md). Unlike an SpmvHandle, an AddHandle is not tied
// to its matrices: any terms of the Matrix type may be added with it, one
// addition at a time. Like an SpmvHandle it moves but does not copy: a copy
// would share the scratch, and two additions through two copies at once would
// write the same words.
#include <strata/algorithms/add/add_format.hpp>

#include <Kokkos_Core.hpp>

namespace strata {

template <class ExecSpace, class Matrix>
class AddHandle {
  static_assert(Kokkos::is_execution_space<ExecSpace>::value,
                "strata::AddHandle: the first template argument must be a Kokkos execution space");
  static_assert(is_add_format<ExecSpace, Matrix>::value,
                "strata::AddHandle: Matrix is not a format strata::add supports (HiSparseMatrix) or its header "
                "(<strata/algorithms/add.hpp>) is not included");

 public:
  using state_type = typename Impl::AddFormat<ExecSpace, Matrix>::State;

  AddHandle() = default;
  AddHandle(const AddHandle&) = delete;
  AddHandle& operator=(const AddHandle&) = delete;
  AddHandle(AddHandle&&) noexcept = default;
  AddHandle& operator=(AddHandle&&) noexcept = default;

  // The format's state, for Impl::AddFormat::apply.
  state_type& state() { return state_; }

 private:
  state_type state_;
};

}  // namespace strata
