#include "command_line.hpp"
#include "commands.hpp"

#include <strata/core/column_index_compression.hpp>
#include <strata/core/generators.hpp>
#include <strata/core/matrix_source.hpp>
#include <strata/core/matrix_statistics.hpp>
#include <strata/formats/hisparse/hisparse_statistics.hpp>

#include <cstdint>
#include <cstdio>
#include <iostream>

namespace strata::cli {

namespace {

const std::vector<OptionSpec> info_options = with_options(
    {
        {"--json", false, "machine-readable output on stdout"},
        {"--help", false, "this text"},
    },
    matrix_input_options());

template <class Value>
MatrixStatistics statistics_of(const HostCsr<Value>& A) {
  return compute_statistics(A);
}

}  // namespace

int info_command(const std::vector<std::string>& args) {
  const ParsedArgs parsed = parse("info", args, info_options, 1);
  if (parsed.has("--help")) {
    std::cout << "usage: strata info MATRIX [--json] [--allow-underflow] [--allow-non-finite]\n\nOptions:\n"
              << format_options(info_options) << "\nGenerator specs:\n"
              << generator_help();
    return 0;
  }
  if (parsed.positional.empty()) throw UsageError("info: missing MATRIX");
  const std::string source = parsed.positional[0];
  const bool json = parsed.has("--json");
  const LoadedMatrix m = load_matrix(source, &std::cerr, matrix_load_options(parsed));
  const MatrixStatistics s = m.is_complex ? statistics_of(m.complex) : statistics_of(m.real);
  const auto footprints = format_footprints(s);
  const double irregularity = s.row_length_cv();
  const auto hisparse_stats =
      m.is_complex ? hisparse::compute_hisparse_statistics(m.complex) : hisparse::compute_hisparse_statistics(m.real);
  const ColumnIndexBytes columns = m.is_complex ? column_index_bytes(m.complex) : column_index_bytes(m.real);
  const auto per_entry = [&](std::uint64_t bytes) { return ColumnIndexBytes::per_entry(bytes, columns.nnz); };

  if (json) {
    std::cout << "{\"matrix\":" << json_string(m.name) << ",\"source\":" << json_string(source)
              << ",\"value_field\":\"" << (m.is_complex ? "complex" : "real") << "\",\"rows\":" << s.num_rows
              << ",\"cols\":" << s.num_cols << ",\"nnz\":" << s.nnz << ",\"row_length\":{\"mean\":"
              << s.row_length_mean << ",\"std\":" << s.row_length_std << ",\"min\":" << s.row_length_min
              << ",\"max\":" << s.row_length_max << ",\"empty_rows\":" << s.empty_rows
              << "},\"bandwidth\":" << s.bandwidth;
    if (m.file_report) {
      const auto& h = m.file_report->header;
      std::cout << ",\"file\":{\"format\":\"" << to_string(h.format) << "\",\"field\":\"" << to_string(h.field)
                << "\",\"symmetry\":\"" << to_string(h.symmetry) << "\",\"stored_entries\":" << h.stored_entries
                << ",\"duplicates_summed\":" << m.file_report->duplicates_summed << "}";
    }
    std::cout << ",\"bytes_per_nnz\":{";
    for (std::size_t i = 0; i < footprints.size(); ++i) {
      std::cout << (i ? "," : "") << "\"" << footprints[i].format << "\":{\"float\":"
                << footprints[i].bytes_per_nnz_float << ",\"double\":" << footprints[i].bytes_per_nnz_double << "}";
    }
    std::cout << "},\"column_index_bytes_per_nnz\":{\"csr\":" << per_entry(columns.csr)
              << ",\"row_steps16\":" << per_entry(columns.row_steps16)
              << ",\"tile_offsets16\":" << per_entry(columns.tile_offsets16)
              << ",\"rows_with_entries\":" << columns.rows_with_entries
              << ",\"rows_in_steps\":" << columns.rows_in_steps << ",\"tiles\":" << columns.tiles
              << ",\"tiles_in_offsets\":" << columns.tiles_in_offsets
              << "},\"hisparse\":" << hisparse::hisparse_statistics_json(hisparse_stats) << "}\n";
    return 0;
  }

  std::printf("matrix        %s\n", m.name.c_str());
  if (m.file_report) {
    const auto& h = m.file_report->header;
    std::printf("file          %s %s %s, %lld stored entries, %lld duplicates summed\n", to_string(h.format),
                to_string(h.field), to_string(h.symmetry), static_cast<long long>(h.stored_entries),
                static_cast<long long>(m.file_report->duplicates_summed));
  }
  std::printf("rows          %lld\ncols          %lld\nnnz           %lld\n", static_cast<long long>(s.num_rows),
              static_cast<long long>(s.num_cols), static_cast<long long>(s.nnz));
  std::printf("row length    mean %.3f  std %.3f  min %lld  max %lld  empty rows %lld  (std/mean %.3f)\n",
              s.row_length_mean, s.row_length_std, static_cast<long long>(s.row_length_min),
              static_cast<long long>(s.row_length_max), static_cast<long long>(s.empty_rows), irregularity);
  std::printf("bandwidth     %lld\n", static_cast<long long>(s.bandwidth));
  std::printf("bytes per nonzero (32-bit indices):\n  %-8s %8s %8s\n", "format", "float", "double");
  for (const auto& f : footprints) {
    std::printf("  %-8s %8.3f %8.3f\n", f.format, f.bytes_per_nnz_float, f.bytes_per_nnz_double);
  }
  const auto share = [](index_type part, index_type all) { return all > 0 ? 100.0 * part / all : 100.0; };
  std::printf(
      "column indices, bytes per nonzero (csr %.3f): 16-bit steps within rows %.3f (%.1f%% of rows), "
      "16-bit offsets in %lld-entry tiles %.3f (%.1f%% of tiles)\n",
      per_entry(columns.csr), per_entry(columns.row_steps16), share(columns.rows_in_steps, columns.rows_with_entries),
      static_cast<long long>(column_tile_entries), per_entry(columns.tile_offsets16),
      share(columns.tiles_in_offsets, columns.tiles));
  for (const auto& f : footprints) {
    if (std::string(f.format) == "csr") {
      hisparse::print_hisparse_statistics(hisparse_stats, f.bytes_per_nnz_float, f.bytes_per_nnz_double);
    }
  }
  return 0;
}

}  // namespace strata::cli
