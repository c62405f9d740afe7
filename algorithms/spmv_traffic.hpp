#pragma once
// The bytes and flops an SpMV must move and compute at the least, used to turn
// a time into effective GB/s and GFLOP/s. docs/PERFORMANCE.md states the model.
#include <strata/core/index.hpp>

namespace strata {

struct SpmvTraffic {
  double bytes = 0.0;
  double flops = 0.0;
};

// CSR: every value, column index and row offset read once; each input vector
// read once (perfect reuse); each output vector written once, and read too when
// beta != 0. A complex multiply-add counts 8 flops, a real one 2. Every format
// is rated by this model: it is the least traffic of the product, whatever the
// format moves, so GB/s compare formats doing the same work.
inline SpmvTraffic csr_spmv_traffic(index_type rows, index_type cols, index_type nnz, int value_bytes,
                                    int index_bytes, int offset_bytes, bool complex_values, bool transposed,
                                    bool reads_output, int vectors = 1) {
  const double in_len = static_cast<double>(transposed ? rows : cols);
  const double out_len = static_cast<double>(transposed ? cols : rows);
  SpmvTraffic t;
  t.bytes = static_cast<double>(nnz) * (value_bytes + index_bytes) + static_cast<double>(rows + 1) * offset_bytes +
            vectors * (in_len * value_bytes + out_len * value_bytes * (reads_output ? 2 : 1));
  t.flops = static_cast<double>(nnz) * (complex_values ? 8.0 : 2.0) * vectors;
  return t;
}

}  // namespace strata
