#pragma once
// The kernels strata::spmv can run, named once. Each format accepts a subset
// (SpmvHandle::set_algorithm checks it against the handle's matrix type);
// `format_default` runs the format's own best kernel.
#include <strata/core/error.hpp>

#include <string>

namespace strata {

enum class SpmvAlgorithm {
  format_default,
  // CSR (KokkosSparse::CrsMatrix)
  kk_native,      // Kokkos Kernels' own row kernel
  kk_merge_path,  // Kokkos Kernels' merge-path kernel (Kokkos Kernels >= 4.3)
  cusparse,       // cuSPARSE SpMV on the same arrays (CSR and COO; CUDA builds with STRATA_ENABLE_CUSPARSE)
  // COO (CooMatrix) and CSR
  load_balanced,  // equal nonzero chunks per warp, segmented scan (Flegar & Anzt); CSR: rows from its offsets
  // DCSR (DcsrMatrix) and CSR
  row_vectors,  // one vector of lanes per row, lanes from the mean row length (CSR: T and H over A^T's rows)
  binned_rows,  // ADCSR: rows binned by length, lanes matched to each bin
  // HYB (HybMatrix)
  ell_coo,  // ELL part row by row with its 32-bit columns, then the COO overflow by the load-balanced COO kernel
  ell_offsets_coo,  // the same with the ELL columns read as 16-bit offsets from a base per 32-row tile and slot,
                    // encoded by the handle (algorithms/spmv/hyb.hpp; too wide a tile's slot in 32 bits); the default
  // HiSparse (HiSparseMatrix)
  leaf_bins,   // the leaves in bins by entry count: a thread, a warp or a block per leaf, atomics on y
  scheduled,   // the tree walked on the dynamic scheduler at every product (scheduler/host_driven.hpp)
  persistent,  // the same walk in one launch of persistent teams (scheduler/persistent.hpp)
  controlled,  // the same walk launched from the device by the CUDA controller (scheduler/controller.hpp)
};

inline const char* to_string(SpmvAlgorithm a) {
  switch (a) {
    case SpmvAlgorithm::format_default: return "format_default";
    case SpmvAlgorithm::kk_native: return "kk_native";
    case SpmvAlgorithm::kk_merge_path: return "kk_merge_path";
    case SpmvAlgorithm::cusparse: return "cusparse";
    case SpmvAlgorithm::load_balanced: return "load_balanced";
    case SpmvAlgorithm::row_vectors: return "row_vectors";
    case SpmvAlgorithm::binned_rows: return "binned_rows";
    case SpmvAlgorithm::ell_coo: return "ell_coo";
    case SpmvAlgorithm::ell_offsets_coo: return "ell_offsets_coo";
    case SpmvAlgorithm::leaf_bins: return "leaf_bins";
    case SpmvAlgorithm::scheduled: return "scheduled";
    case SpmvAlgorithm::persistent: return "persistent";
    case SpmvAlgorithm::controlled: return "controlled";
  }
  return "?";
}

}  // namespace strata
