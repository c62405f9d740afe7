#pragma once
// The simple HiSparse SpMV, y := alpha * op(A) * x + beta * y, with A's own
// transpose flag and scale factor folded in: the leaf list is built once, level
// by level; each product scales y, then one team per leaf adds its entries with
// atomics. Not tuned: it is the reference the dynamic scheduler has to beat.
#include <strata/formats/hisparse/hisparse_leaves.hpp>

#include <string>

namespace strata {
namespace hisparse::Impl {

template <class Value>
KOKKOS_INLINE_FUNCTION Value conjugate_if(const Value& v, bool conjugate) {
  if constexpr (value_traits<Value>::is_complex) {
    return conjugate ? Kokkos::conj(v) : v;
  } else {
    (void)conjugate;
    return v;
  }
}

template <class Value, class ExecSpace>
struct LeafSpmv {
  using device_type = Kokkos::Device<ExecSpace, typename ExecSpace::memory_space>;
  using vector_type = Kokkos::View<Value*, device_type>;
  using team_policy = Kokkos::TeamPolicy<ExecSpace>;

  static void apply(const ExecSpace& space, const HiSparseRef<Value, device_type>& R, const LeafList<device_type>& leaves,
                    bool transpose, bool conjugate, Value alpha, const vector_type& x, Value beta, const vector_type& y) {
    const Value zero = value_from<Value>(0.0, 0.0);
    const Value one = value_from<Value>(1.0, 0.0);
    // BLAS semantics: beta = 0 overwrites y, so NaN in y does not survive.
    if (beta == zero) {
      Kokkos::deep_copy(space, y, zero);
    } else if (!(beta == one)) {
      Kokkos::parallel_for(
          "strata::hisparse::spmv_scale_y", Kokkos::RangePolicy<ExecSpace>(space, 0, y.extent(0)),
          KOKKOS_LAMBDA(index_type i) { y(i) = beta * y(i); });
    }
    if (leaves.size == 0 || alpha == zero) return;
    const auto refs = leaves.refs;
    const auto row0 = leaves.row0, col0 = leaves.col0;
    const int b = R.log2_block;
    const int d = 1 << b;
    Kokkos::parallel_for(
        "strata::hisparse::spmv_leaves", team_policy(space, leaves.size, Kokkos::AUTO),
        KOKKOS_LAMBDA(const typename team_policy::member_type& team) {
          const index_type leaf = team.league_rank();
          const offset_type ref = refs(leaf);
          const NodeType t = type_of(ref);
          const unsigned char* node = R.bytes() + offset_of(ref);
          const std::uint32_t count = *reinterpret_cast<const std::uint32_t*>(node);
          const offset_type payload = payload_offset(t, count, b, sizeof(Value));
          const index_type r0 = row0(leaf), c0 = col0(leaf);
          auto add = [&](index_type r, index_type c, const Value& v) {
            const Value a = alpha * conjugate_if(v, conjugate);
            if (transpose) {
              Kokkos::atomic_add(&y(c), a * x(r));
            } else {
              Kokkos::atomic_add(&y(r), a * x(c));
            }
          };
          if (t == leaf_dense) {
            Kokkos::parallel_for(Kokkos::TeamThreadRange(team, d * d), [&](int slot) {
              if ((node[dense_mask_offset() + slot / 8] >> (slot % 8)) & 1u) {
                add(r0 + slot / d, c0 + slot % d, *reinterpret_cast<const Value*>(node + payload + slot * sizeof(Value)));
              }
            });
          } else {
            Kokkos::parallel_for(Kokkos::TeamThreadRange(team, count), [&](std::uint32_t k) {
              add(r0 + node[node_header_bytes + 2 * k], c0 + node[node_header_bytes + 2 * k + 1],
                  *reinterpret_cast<const Value*>(node + payload + k * sizeof(Value)));
            });
          }
        });
  }
};

}  // namespace hisparse::Impl

template <class Value, class ExecSpace>
class HiSparseSpmv {
 public:
  using device_type = Kokkos::Device<ExecSpace, typename ExecSpace::memory_space>;
  using matrix_type = HiSparseMatrix<Value, device_type>;
  using vector_type = Kokkos::View<Value*, device_type>;
  static_assert(is_supported_value<Value>::value, "HiSparseSpmv: unsupported value type");

  explicit HiSparseSpmv(matrix_type A) : A_(std::move(A)), leaves_(hisparse::collect_leaves(A_)) {}

  std::string name() const { return "hisparse_simple"; }

  // mode "N", "T", "C" or "H", applied on top of A's transpose flag; A's scale multiplies alpha.
  void apply(const ExecSpace& space, const char mode[], Value alpha, const vector_type& x, Value beta,
             const vector_type& y) {
    const std::string m(mode);
    STRATA_REQUIRE(m == "N" || m == "T" || m == "C" || m == "H",
                   "HiSparseSpmv: mode '" + m + "' is not one of N, T, C, H");
    const bool mode_transposes = m == "T" || m == "H";
    const bool conjugate = m == "C" || m == "H";
    const bool transpose = A_.transposed() != mode_transposes;
    const index_type in_len = mode_transposes ? A_.num_rows() : A_.num_cols();
    const index_type out_len = mode_transposes ? A_.num_cols() : A_.num_rows();
    STRATA_REQUIRE(static_cast<index_type>(x.extent(0)) == in_len && static_cast<index_type>(y.extent(0)) == out_len,
                   "HiSparseSpmv: x has " + std::to_string(x.extent(0)) + " entries (expected " +
                       std::to_string(in_len) + "), y has " + std::to_string(y.extent(0)) + " (expected " +
                       std::to_string(out_len) + ")");
    const Value scale = hisparse::Impl::conjugate_if(A_.scale_factor(), conjugate);
    hisparse::Impl::LeafSpmv<Value, ExecSpace>::apply(space, A_.ref(), leaves_, transpose, conjugate, alpha * scale, x,
                                                      beta, y);
  }

  const matrix_type& matrix() const { return A_; }

 private:
  matrix_type A_;
  hisparse::LeafList<device_type> leaves_;
};

}  // namespace strata
