#pragma once
// AnyMatrix: one of Strata's formats chosen at run time (by a command-line
// option, a configuration file, or Format::automatic), converted from a host
// CSR matrix, with the SpMV algorithm chosen for it. strata::spmv takes it like
// any other format and runs the held format's kernel (any.hpp). It lives with
// the operation, not under formats/, because the choice is made for SpMV.
#include <strata/algorithms/spmv/algorithm.hpp>
#include <strata/core/device_info.hpp>
#include <strata/core/error.hpp>
#include <strata/core/host_csr.hpp>
#include <strata/core/kokkos_crs.hpp>
#include <strata/formats/column_split/column_split_csr.hpp>
#include <strata/formats/coo/coo_csr_conversion.hpp>
#include <strata/formats/dcsr/dcsr_convert.hpp>
#include <strata/formats/hisparse/hisparse_convert.hpp>
#include <strata/formats/hyb/hyb_matrix.hpp>

#include <cmath>
#include <string>
#include <variant>

namespace strata {

// automatic is a request (algorithms/spmv/automatic.hpp decides), never the
// format an AnyMatrix holds.
enum class Format { csr, coo, dcsr, hyb, hisparse, column_split, automatic };

inline const char* to_string(Format f) {
  switch (f) {
    case Format::csr: return "csr";
    case Format::coo: return "coo";
    case Format::dcsr: return "dcsr";
    case Format::hyb: return "hyb";
    case Format::hisparse: return "hisparse";
    case Format::column_split: return "column_split";
    case Format::automatic: return "automatic";
  }
  return "?";
}

// The kernel to run when the handle asks for format_default, and why.
struct SpmvAlgorithmHint {
  SpmvAlgorithm algorithm = SpmvAlgorithm::format_default;
  std::string reason;
};

template <class Value, class Device>
class AnyMatrix {
 public:
  using value_type = Value;
  using device_type = Device;
  using execution_space = typename Device::execution_space;
  using csr_type = DeviceCsr<Value, Device>;
  using coo_type = CooMatrix<Value, Device>;
  using dcsr_type = DcsrMatrix<Value, Device>;
  using hyb_type = HybMatrix<Value, Device>;
  using hisparse_type = HiSparseMatrix<Value, Device>;
  using column_split_type = ColumnSplitCsr<Value, Device>;
  // Alternatives in the order of Format's enumerators.
  using variant_type = std::variant<csr_type, coo_type, dcsr_type, hyb_type, hisparse_type, column_split_type>;

  AnyMatrix() = default;
  template <class M, std::enable_if_t<std::is_constructible_v<variant_type, M>, int> = 0>
  AnyMatrix(M matrix) : matrix_(std::move(matrix)) {}

  Format format() const { return static_cast<Format>(matrix_.index()); }
  const variant_type& variant() const { return matrix_; }

  template <class M>
  const M& as() const {
    const M* m = std::get_if<M>(&matrix_);
    STRATA_REQUIRE(m != nullptr, std::string("AnyMatrix::as: the matrix is held as ") + to_string(format()));
    return *m;
  }

  index_type num_rows() const {
    return std::visit([](const auto& m) { return static_cast<index_type>(rows_of(m)); }, matrix_);
  }
  index_type num_cols() const {
    return std::visit([](const auto& m) { return static_cast<index_type>(cols_of(m)); }, matrix_);
  }

  // The algorithm strata::spmv runs when the handle asks for format_default:
  // what Format::automatic chose, or the format's own default. `why` says why.
  SpmvAlgorithmHint hint() const { return hint_; }
  void set_hint(SpmvAlgorithmHint hint) { hint_ = std::move(hint); }

 private:
  template <class M>
  static auto rows_of(const M& m) {
    if constexpr (std::is_same_v<M, csr_type>) return m.numRows(); else return m.num_rows();
  }
  template <class M>
  static auto cols_of(const M& m) {
    if constexpr (std::is_same_v<M, csr_type>) return m.numCols(); else return m.num_cols();
  }

  variant_type matrix_;
  SpmvAlgorithmHint hint_;
};

// Device bytes a format's arrays occupy.
template <class Value, class Device>
std::size_t memory_bytes(const AnyMatrix<Value, Device>& A) {
  return std::visit(
      [](const auto& m) -> std::size_t {
        using M = std::decay_t<decltype(m)>;
        if constexpr (std::is_same_v<M, DeviceCsr<Value, Device>>) {
          return m.graph.row_map.span() * sizeof(int) + m.graph.entries.span() * sizeof(int) +
                 m.values.span() * sizeof(Value);
        } else if constexpr (std::is_same_v<M, CooMatrix<Value, Device>>) {
          return static_cast<std::size_t>(m.nnz()) * (2 * sizeof(int) + sizeof(Value));
        } else if constexpr (std::is_same_v<M, HiSparseMatrix<Value, Device>>) {
          return static_cast<std::size_t>(m.pool_bytes());
        } else {
          return m.memory_bytes();
        }
      },
      A.variant());
}

// Converts a host CSR matrix into `format` on the device (not automatic: see
// make_spmv_matrix in algorithms/spmv/automatic.hpp).
template <class Value, class Device>
AnyMatrix<Value, Device> to_format(const HostCsr<Value>& host, Format format) {
  STRATA_REQUIRE(format != Format::automatic,
                 "to_format: Format::automatic is decided by strata::make_spmv_matrix (algorithms/spmv/automatic.hpp)");
  const auto csr = to_kokkos_crs<DeviceCsr<Value, Device>>(host, "strata::matrix");
  switch (format) {
    case Format::csr: return AnyMatrix<Value, Device>(csr);
    case Format::coo: return AnyMatrix<Value, Device>(coo_from_csr(csr, "strata::coo"));
    case Format::dcsr: return AnyMatrix<Value, Device>(dcsr_from_csr<Value, Device>(csr));
    case Format::hyb: {
      // ELL as wide as the mean row: most rows fit, long rows overflow to COO.
      const double mean = host.num_rows > 0 ? static_cast<double>(host.nnz()) / host.num_rows : 0.0;
      return AnyMatrix<Value, Device>(hyb_from_csr<Value, Device>(csr, static_cast<int>(std::ceil(mean))));
    }
    case Format::hisparse: return AnyMatrix<Value, Device>(to_hisparse(csr));
    case Format::column_split: {
      // As few panels as keep each one's part of x within a third of the last-level cache.
      const int panels = column_panels_for(host.num_cols, sizeof(Value),
                                           last_level_cache_bytes<typename Device::execution_space>::get());
      return AnyMatrix<Value, Device>(split_columns(csr, panels));
    }
    case Format::automatic: break;
  }
  throw Error("to_format: unknown format");
}

}  // namespace strata
