#pragma once
// The one table of SpMV kernels the command, the benchmarks and the automatic
// choice share: a name, the format it runs on and the algorithm the handle is
// set to. Everything is reached through strata::spmv; nothing else names kernels.
#include <strata/algorithms/spmv/any_matrix.hpp>
#include <strata/algorithms/spmv/cusparse_available.hpp>
#include <strata/core/kokkos_compat.hpp>
#include <strata/scheduler/controller_available.hpp>

#include <string>
#include <vector>

namespace strata {

struct SpmvKernel {
  std::string name;   // "csr", "coo", "adcsr", "auto", ...
  Format format;      // Format::automatic for "auto" and "auto-timed"
  SpmvAlgorithm algorithm;
  bool measured_choice;  // "auto-timed": times the candidates once per matrix signature
  const char* summary;
};

// Every kernel this build has for ExecSpace, in report order.
template <class ExecSpace>
std::vector<SpmvKernel> spmv_kernels() {
  constexpr bool cusparse = Impl::cusparse_spmv_available<ExecSpace>::value;
  std::vector<SpmvKernel> k;
  k.push_back({"csr", Format::csr, SpmvAlgorithm::kk_native, false, "CSR, Kokkos Kernels native kernel"});
  if (compat::kk_has_merge_path) {
    k.push_back({"csr-merge", Format::csr, SpmvAlgorithm::kk_merge_path, false, "CSR, Kokkos Kernels merge path"});
  }
  k.push_back({"csr-rows", Format::csr, SpmvAlgorithm::row_vectors, false,
               "CSR, Strata row kernel (one launch; T and H over A^T's rows kept by the handle)"});
  k.push_back({"csr-balanced", Format::csr, SpmvAlgorithm::load_balanced, false,
               "CSR, Strata nonzero-balanced kernel (rows found from the offsets; T and H over A^T's rows)"});
  if (cusparse) k.push_back({"cusparse-csr", Format::csr, SpmvAlgorithm::cusparse, false, "CSR, cuSPARSE"});
  k.push_back({"csr-split", Format::column_split, SpmvAlgorithm::load_balanced, false,
               "CSR in column panels whose part of x fits the L2, each by the nonzero-balanced kernel"});
  k.push_back({"coo", Format::coo, SpmvAlgorithm::load_balanced, false, "COO, Strata load-balanced kernel"});
  if (cusparse) k.push_back({"cusparse-coo", Format::coo, SpmvAlgorithm::cusparse, false, "COO, cuSPARSE"});
  k.push_back({"dcsr", Format::dcsr, SpmvAlgorithm::row_vectors, false, "Dynamic CSR, vector per row"});
  k.push_back({"adcsr", Format::dcsr, SpmvAlgorithm::binned_rows, false, "Dynamic CSR, rows binned by length"});
  k.push_back({"hyb", Format::hyb, SpmvAlgorithm::format_default, false,
               "HYB (ELL + COO), ELL columns as 16-bit offsets in 32-row tiles"});
  k.push_back({"hyb-int32", Format::hyb, SpmvAlgorithm::ell_coo, false, "HYB (ELL + COO), ELL columns in 32 bits"});
  k.push_back({"hisparse", Format::hisparse, SpmvAlgorithm::leaf_bins, false,
               "HiSparse, leaves in bins by entry count (a thread, a warp or a block per leaf)"});
  k.push_back({"hisparse-sched", Format::hisparse, SpmvAlgorithm::scheduled, false,
               "HiSparse, tree walk on the dynamic scheduler (host-driven launcher)"});
  k.push_back({"hisparse-persist", Format::hisparse, SpmvAlgorithm::persistent, false,
               "HiSparse, tree walk on persistent teams (one launch)"});
  if (scheduler::controller_available<ExecSpace>::value) {
    k.push_back({"hisparse-ctrl", Format::hisparse, SpmvAlgorithm::controlled, false,
                 "HiSparse, tree walk launched from the device by the CUDA controller (dynamic parallelism)"});
  }
  k.push_back({"auto", Format::automatic, SpmvAlgorithm::format_default, false,
               "automatic choice by the matrix's statistics (documented rule)"});
  k.push_back({"auto-timed", Format::automatic, SpmvAlgorithm::format_default, true,
               "automatic choice by timing the candidates once per matrix signature"});
  return k;
}

template <class ExecSpace>
std::string spmv_kernel_names() {
  std::string names;
  for (const auto& k : spmv_kernels<ExecSpace>()) names += (names.empty() ? "" : ", ") + k.name;
  return names;
}

// Throws strata::Error naming the kernels this build has.
template <class ExecSpace>
SpmvKernel find_spmv_kernel(const std::string& name) {
  for (const auto& k : spmv_kernels<ExecSpace>()) {
    if (k.name == name) return k;
  }
  throw Error("SpMV kernel '" + name + "' is not in this build (execution space " + ExecSpace::name() +
              "); available: " + spmv_kernel_names<ExecSpace>());
}

}  // namespace strata
