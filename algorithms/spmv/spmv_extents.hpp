#pragma once
// strata::spmv's check of x's and y's extents against op(A), with a message
// naming the format, the mode and both shapes.
#include <strata/algorithms/spmv/mode.hpp>
#include <strata/core/error.hpp>
#include <strata/core/index.hpp>

#include <string>
#include <type_traits>

namespace strata::Impl {

template <class XView, class YView>
void check_spmv_extents(const char* format, SpmvMode mode, index_type rows, index_type cols, const XView& x,
                        const YView& y) {
  const bool t = is_transposed(mode);
  const index_type in_len = t ? rows : cols;
  const index_type out_len = t ? cols : rows;
  const auto shape = [](const auto& v) {
    std::string s = std::to_string(v.extent(0));
    if constexpr (std::decay_t<decltype(v)>::rank == 2) s += " x " + std::to_string(v.extent(1));
    return s;
  };
  const bool columns_match = XView::rank == 1 || x.extent(1) == y.extent(1);
  if (static_cast<index_type>(x.extent(0)) != in_len || static_cast<index_type>(y.extent(0)) != out_len ||
      !columns_match) {
    throw Error(std::string("strata::spmv (") + format + ", mode " + to_string(mode) + "): A is " +
                std::to_string(rows) + " x " + std::to_string(cols) + ", so x needs " + std::to_string(in_len) +
                " rows and y " + std::to_string(out_len) + (XView::rank == 2 ? " (with equal column counts)" : "") +
                "; got x of " + shape(x) + " and y of " + shape(y));
  }
}

}  // namespace strata::Impl
