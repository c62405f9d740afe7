// HiSparseLeafInWarps<Kokkos::Cuda>::sort_column_order_keys, compiled once for the library in CUDA builds
// (cuda/hisparse_leaf_cuda.hpp says why).
#include <strata/algorithms/spmv/hisparse_leaf.hpp>
#include <strata/core/sort_keys.hpp>

namespace strata::Impl {

void HiSparseLeafInWarps<Kokkos::Cuda>::sort_column_order_keys(
    const Kokkos::Cuda& space, const Kokkos::View<std::uint64_t*, Kokkos::CudaSpace>& keys, int key_bits) {
  sort_keys(space, keys, key_bits);
}

}  // namespace strata::Impl
