#pragma once
// What strata::spmv runs once its call is checked, for any format whose
// kernels header (algorithms/spmv/<format>.hpp, which includes this one) is
// in the translation unit: the handle's analysis (prepare, reanalyze,
// describe) and the product (SpmvExecute::run), through the format's
// Impl::SpmvKernels. The library compiles them for its instances
// (algorithms/spmv/eti/); <strata/algorithms/spmv_definitions.hpp> brings
// every format's here for any other combination.
#include <strata/algorithms/spmv/execute.hpp>
#include <strata/algorithms/spmv/handle.hpp>

#include <memory>
#include <string>

namespace strata {

template <class ExecSpace, class Matrix>
typename SpmvHandle<ExecSpace, Matrix>::state_type& SpmvHandle<ExecSpace, Matrix>::prepare(const ExecSpace& space,
                                                                                           const Matrix& A) {
  const MatrixIdentity id = format::identity(A);
  if (bound_ && !(id == identity_)) {
    throw Error(std::string("strata::spmv: this SpmvHandle<") + format::name + "> was analysed for the " +
                identity_.describe() + " and cannot be used with the " + id.describe() +
                "; use one handle per matrix (or call reanalyze(A) to rebind it)");
  }
  if (!state_) {
    auto state = std::make_shared<state_type>();
    Impl::SpmvKernels<ExecSpace, Matrix>::analyze(space, settings_, A, *state);
    state_ = std::move(state);
  }
  identity_ = id;
  bound_ = true;
  return *state_;
}

template <class ExecSpace, class Matrix>
void SpmvHandle<ExecSpace, Matrix>::reanalyze(const ExecSpace& space, const Matrix& A) {
  using kernels = Impl::SpmvKernels<ExecSpace, Matrix>;
  if constexpr (Impl::has_refit<kernels>::value) {
    if (state_ && bound_ && format::identity(A) == identity_) {
      kernels::refit(space, settings_, A, *state_);
      return;
    }
  }
  state_.reset();
  bound_ = false;
  prepare(space, A);
}

template <class ExecSpace, class Matrix>
std::string SpmvHandle<ExecSpace, Matrix>::describe() const {
  std::string d = std::string(format::name) + " ";
  d += state_ ? Impl::SpmvKernels<ExecSpace, Matrix>::describe(settings_, *state_)
              : std::string(to_string(settings_.algorithm)) + " (not analysed yet)";
  return d;
}

namespace Impl {

template <class ExecSpace, class Matrix, class XView, class YView>
void SpmvExecute<ExecSpace, Matrix, XView, YView>::run(const ExecSpace& space, SpmvHandle<ExecSpace, Matrix>& handle,
                                                       SpmvMode mode, value_type alpha, const Matrix& A, const XView& x,
                                                       value_type beta, const YView& y) {
  auto& state = handle.prepare(space, A);
  SpmvKernels<ExecSpace, Matrix>::apply(space, handle.settings(), state, mode, alpha, A, x, beta, y);
}

}  // namespace Impl
}  // namespace strata
