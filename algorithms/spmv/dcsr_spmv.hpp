#pragma once
// SpMV y := alpha * A * x + beta * y on DCSR, fragmented or not.
// DcsrSpmv: one vector of lanes per row, the lane count chosen from the mean
// row length. AdcsrSpmv: rows binned by length (1, 2-3, 4-8, 9-16, ...), one
// kernel per bin with lanes matched to it, the bins launched on separate
// execution space instances so that they may overlap.
#include <strata/core/kokkos_compat.hpp>
#include <strata/formats/dcsr/dcsr_matrix.hpp>
#include <strata/formats/dcsr/dcsr_rows.hpp>

#include <cstring>
#include <vector>

namespace strata {
namespace Impl {

// Thread per row, ThreadVectorRange over each segment's live entries. With
// a row list the thread's row is taken from it (one ADCSR bin).
template <class Value, class Device, class XView, class YView>
struct DcsrSpmvFunctor {
  using member_type = typename Kokkos::TeamPolicy<typename Device::execution_space>::member_type;
  DcsrView<Value, Device> A;
  XView x;
  YView y;
  Value alpha, beta;
  Kokkos::View<const int*, Device> row_list;  // empty: rows in index order
  int first = 0;
  int count = 0;

  KOKKOS_INLINE_FUNCTION void operator()(const member_type& member) const {
    const int i = member.league_rank() * member.team_size() + member.team_rank();
    if (i >= count) return;
    const int r = row_list.extent(0) > 0 ? row_list(first + i) : first + i;
    int remaining = A.row_sizes(r);
    Value sum = Value(0);
    for (int s = 0; s < A.max_segments && remaining > 0; ++s) {
      const int begin = A.segment_begin(r, s);
      const int capacity = A.segment_end(r, s) - begin;
      const int length = capacity < remaining ? capacity : remaining;
      Value part = Value(0);
      Kokkos::parallel_reduce(
          Kokkos::ThreadVectorRange(member, length),
          [&](const int p, Value& acc) { acc += A.values(begin + p) * x(A.cols(begin + p)); }, part);
      sum += part;
      remaining -= length;
    }
    Kokkos::single(Kokkos::PerThread(member), [&]() {
      y(r) = beta == Value(0) ? alpha * sum : alpha * sum + beta * y(r);
    });
  }
};

template <class Value, class Device, class XView, class YView>
void launch_dcsr_rows(const typename Device::execution_space& space, const DcsrView<Value, Device>& A, Value alpha,
                      const XView& x, Value beta, const YView& y, const Kokkos::View<const int*, Device>& row_list,
                      int first, int count, int lanes) {
  if (count == 0) return;
  const auto teams = dcsr_row_teams(space, count, lanes);
  DcsrSpmvFunctor<Value, Device, XView, YView> f{A, x, y, alpha, beta, row_list, first, count};
  Kokkos::parallel_for("strata::dcsr::spmv", teams.policy(), f);
}

inline void require_normal_mode(const char mode[], const char* who) {
  STRATA_REQUIRE(mode != nullptr && std::strcmp(mode, "N") == 0,
                 std::string(who) + ": mode '" + (mode ? mode : "") + "' is not supported; DCSR SpMV computes \"N\"");
}

template <class Value, class Device, class XView, class YView>
void check_spmv_arguments(const DcsrMatrix<Value, Device>& A, const XView& x, const YView& y, const char* who) {
  static_assert(Kokkos::is_view<XView>::value && Kokkos::is_view<YView>::value && XView::rank == 1 &&
                    YView::rank == 1,
                "DCSR SpMV: x and y must be rank-1 Views");
  static_assert(std::is_same<typename YView::value_type, Value>::value, "DCSR SpMV: y must hold non-const Value");
  STRATA_REQUIRE(static_cast<index_type>(x.extent(0)) == A.num_cols() &&
                     static_cast<index_type>(y.extent(0)) == A.num_rows(),
                 std::string(who) + ": x has " + std::to_string(x.extent(0)) + " and y " +
                     std::to_string(y.extent(0)) + " entries for a " + std::to_string(A.num_rows()) + " x " +
                     std::to_string(A.num_cols()) + " matrix");
}

}  // namespace Impl

template <class Value, class ExecSpace>
class DcsrSpmv {
 public:
  using device_type = Kokkos::Device<ExecSpace, typename ExecSpace::memory_space>;
  using matrix_type = DcsrMatrix<Value, device_type>;

  // Lanes per row from the matrix's mean row length now.
  explicit DcsrSpmv(const matrix_type& A)
      : lanes_(dcsr_lanes_for_mean_length(A.num_rows() > 0 ? static_cast<double>(A.nnz()) / A.num_rows() : 0.0)) {}

  int lanes() const { return lanes_; }

  template <class XView, class YView>
  void apply(const ExecSpace& space, const char mode[], Value alpha, const matrix_type& A, const XView& x, Value beta,
             const YView& y) const {
    Impl::require_normal_mode(mode, "DcsrSpmv");
    Impl::check_spmv_arguments(A, x, y, "DcsrSpmv");
    Impl::launch_dcsr_rows(space, A.view(), alpha, x, beta, y, Kokkos::View<const int*, device_type>(), 0,
                           A.num_rows(), lanes_);
  }

 private:
  int lanes_;
};

template <class Value, class ExecSpace>
class AdcsrSpmv {
 public:
  using device_type = Kokkos::Device<ExecSpace, typename ExecSpace::memory_space>;
  using matrix_type = DcsrMatrix<Value, device_type>;

  // Bins the rows by their current lengths. Results stay correct after
  // insertions (every row is in some bin); call rebin() to restore the lanes
  // fit after rows have grown.
  explicit AdcsrSpmv(const matrix_type& A) { rebin(A); }

  void rebin(const matrix_type& A) {
    auto bins = dcsr_bin_rows(A.view().row_sizes);
    rows_ = bins.rows;
    offsets_ = bins.offsets;
    num_rows_ = A.num_rows();
    int used = 0;
    for (int b = 0; b < dcsr_length_bin_count; ++b) used += offsets_[b + 1] > offsets_[b] ? 1 : 0;
    if (static_cast<int>(instances_.size()) < used) instances_ = compat::execution_space_instances<ExecSpace>(used);
  }

  // Rows per bin, for reports.
  const std::vector<index_type>& bin_offsets() const { return offsets_; }

  template <class XView, class YView>
  void apply(const ExecSpace& space, const char mode[], Value alpha, const matrix_type& A, const XView& x, Value beta,
             const YView& y) {
    Impl::require_normal_mode(mode, "AdcsrSpmv");
    Impl::check_spmv_arguments(A, x, y, "AdcsrSpmv");
    STRATA_REQUIRE(A.num_rows() == num_rows_, "AdcsrSpmv: binned for " + std::to_string(num_rows_) +
                                                  " rows, applied to a matrix with " + std::to_string(A.num_rows()));
    // x and y come from work on `space`; the bins run on other instances.
    space.fence();
    int next = 0;
    for (int b = 0; b < dcsr_length_bin_count; ++b) {
      const int count = static_cast<int>(offsets_[b + 1] - offsets_[b]);
      if (count == 0) continue;
      Impl::launch_dcsr_rows(instances_[next++], A.view(), alpha, x, beta, y,
                             Kokkos::View<const int*, device_type>(rows_), static_cast<int>(offsets_[b]), count,
                             dcsr_bin_lanes(b));
    }
    for (int i = 0; i < next; ++i) instances_[i].fence();
  }

 private:
  Kokkos::View<int*, device_type> rows_;
  std::vector<index_type> offsets_;
  std::vector<ExecSpace> instances_;
  int num_rows_ = 0;
};

}  // namespace strata
