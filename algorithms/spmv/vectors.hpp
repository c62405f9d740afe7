#pragma once
// What every format's SpMV does with x and y the same way: extent checks
// (spmv_extents.hpp), beta scaling with BLAS semantics
// (beta = 0 overwrites y, NaN included), and the column loop that gives every
// format rank-2 (multi-vector) support where it has no native kernel.
// Kernels are named functors, not extended lambdas: see docs/BACKENDS.md, "Extended lambdas".
#include <strata/algorithms/spmv/mode.hpp>
#include <strata/algorithms/spmv/spmv_extents.hpp>
#include <strata/core/index.hpp>
#include <strata/core/value_traits.hpp>

#include <Kokkos_Core.hpp>

#include <string>
#include <type_traits>

namespace strata::Impl {

template <class Value, class YView>
struct ScaleOutputVector {
  YView y;
  Value beta;

  KOKKOS_INLINE_FUNCTION void operator()(const std::size_t i) const { y(i) = beta * y(i); }
};

// One thread per row of y, its k columns in turn.
template <class Value, class YView>
struct ScaleOutputMultivector {
  YView y;
  Value beta;
  std::size_t k;

  KOKKOS_INLINE_FUNCTION void operator()(const std::size_t i) const {
    for (std::size_t j = 0; j < k; ++j) y(i, j) = beta * y(i, j);
  }
};

// x as the nonzero-balanced kernels read it, gathered by column index: through the read-only cache.
template <class XView>
using gathered_vector_t =
    Kokkos::View<std::conditional_t<XView::rank == 1, const typename XView::non_const_value_type*,
                                    const typename XView::non_const_value_type**>,
                 typename XView::array_layout, typename XView::device_type, Kokkos::MemoryTraits<Kokkos::RandomAccess>>;

// y := beta * y over every entry of a rank-1 or rank-2 y.
template <class ExecSpace, class Value, class YView>
void scale_output(const ExecSpace& space, const Value& beta, const YView& y) {
  if (beta == Value(1)) return;
  if (beta == Value(0)) {
    // A fill (a memset on GPUs where y is contiguous): overwrites NaN as BLAS requires.
    Kokkos::deep_copy(space, y, Value(0));
    return;
  }
  if constexpr (YView::rank == 1) {
    Kokkos::parallel_for("strata::spmv::scale_y", Kokkos::RangePolicy<ExecSpace>(space, 0, y.extent(0)),
                         ScaleOutputVector<Value, YView>{y, beta});
  } else {
    const std::size_t k = y.extent(1);
    Kokkos::parallel_for("strata::spmv::scale_y_mv", Kokkos::RangePolicy<ExecSpace>(space, 0, y.extent(0)),
                         ScaleOutputMultivector<Value, YView>{y, beta, k});
  }
}

// f(x_j, y_j) for every column j of rank-2 x and y: the multi-vector product of
// formats without a native one (each column is a rank-1 product).
template <class XView, class YView, class F>
void for_each_column(const XView& x, const YView& y, F&& f) {
  static_assert(XView::rank == 2 && YView::rank == 2, "for_each_column: rank-2 views only");
  for (std::size_t j = 0; j < x.extent(1); ++j) f(Kokkos::subview(x, Kokkos::ALL, j), Kokkos::subview(y, Kokkos::ALL, j));
}

// Scratch vectors that stand in for x and y where a kernel needs contiguous
// arrays (cuSPARSE; Kokkos Kernels' rank-1 kernel on multi-vector columns),
// reallocated only when a longer vector comes.
template <class Value, class Device>
class VectorScratch {
 public:
  using vector_type = Kokkos::View<Value*, Device>;
  vector_type& x(std::size_t n) { return sized(x_, n, "strata::spmv::scratch_x"); }
  vector_type& y(std::size_t n) { return sized(y_, n, "strata::spmv::scratch_y"); }

  // f(x_data, y_data) on contiguous arrays: x and y themselves where `usable`
  // accepts them, else the scratch vectors (x copied in; y copied in when beta
  // != 0, since beta = 0 must overwrite, and copied back afterwards).
  template <class ExecSpace, class XView, class YView, class Usable, class F>
  void run_contiguous(const ExecSpace& space, const XView& x, const Value& beta, const YView& y, const Usable& usable,
                      F&& f) {
    static_assert(XView::rank == 1 && YView::rank == 1, "VectorScratch::run_contiguous: rank-1 views only");
    const Value* x_data = x.data();
    if (!usable(x)) {
      auto staged = Kokkos::subview(this->x(x.extent(0)), std::make_pair(std::size_t(0), x.extent(0)));
      Kokkos::deep_copy(space, staged, x);
      x_data = staged.data();
    }
    if (usable(y)) {
      f(x_data, y.data());
      return;
    }
    auto staged = Kokkos::subview(this->y(y.extent(0)), std::make_pair(std::size_t(0), y.extent(0)));
    if (!(beta == Value(0))) Kokkos::deep_copy(space, staged, y);
    f(x_data, staged.data());
    Kokkos::deep_copy(space, y, staged);
  }

 private:
  static vector_type& sized(vector_type& v, std::size_t n, const char* label) {
    if (v.extent(0) < n) v = vector_type(Kokkos::view_alloc(Kokkos::WithoutInitializing, std::string(label)), n);
    return v;
  }
  vector_type x_, y_;
};

// Entry (i, j) of a rank-2 view, or entry i of a rank-1 view (j = 0): lets one
// kernel body serve vectors and multi-vectors.
template <class View>
KOKKOS_INLINE_FUNCTION auto& vector_at(const View& v, std::size_t i, std::size_t j) {
  if constexpr (View::rank == 1) {
    (void)j;
    return v(i);
  } else {
    return v(i, j);
  }
}

template <class View>
std::size_t column_count(const View& v) {
  if constexpr (View::rank == 1) {
    return 1;
  } else {
    return v.extent(1);
  }
}

template <class Value>
KOKKOS_INLINE_FUNCTION Value conjugate_if(const Value& v, bool conjugate) {
  if constexpr (value_traits<Value>::is_complex) {
    return conjugate ? Value(v.real(), -v.imag()) : v;
  } else {
    (void)conjugate;
    return v;
  }
}

}  // namespace strata::Impl
