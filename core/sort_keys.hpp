#pragma once
// Ascending sort of unsigned 64-bit keys below 2^key_bits, in parallel on every
// backend. Kokkos::sort is a device radix sort on CUDA but std::sort on one
// thread on host backends (Kokkos 4.6 OpenMP), which made every HiSparse
// conversion a serial section there. Host backends here run a least-significant-
// digit radix sort over the key_bits that can differ, one chunk of keys per
// thread: per pass every chunk counts its digits, one exclusive scan over
// (digit, chunk) gives each chunk its output positions, and every chunk scatters
// its keys in order (stable). Passes whose digit is the same for every key are
// skipped. Device backends keep Kokkos::sort.
// Kernels are named functors, not extended lambdas: see docs/BACKENDS.md, "Extended lambdas".
#include <strata/core/error.hpp>
#include <strata/core/explicit_instances.hpp>
#include <strata/core/runs_on_host.hpp>

#include <Kokkos_Core.hpp>
#include <Kokkos_Sort.hpp>

#include <algorithm>
#include <cstdint>
#include <string>
#include <type_traits>

namespace strata {
namespace Impl {

constexpr int sort_digit_bits = 8;
constexpr std::size_t sort_buckets = std::size_t(1) << sort_digit_bits;
// Keys per chunk at least: below this, one more thread costs more than it saves.
constexpr std::size_t sort_min_chunk = 16384;

template <class KeyView>
struct KeyBitsAbove {
  KeyView keys;
  int key_bits;

  KOKKOS_INLINE_FUNCTION void operator()(const std::size_t i, std::uint64_t& bits) const {
    bits |= key_bits >= 64 ? 0 : keys(i) >> key_bits;
  }
};

// Per chunk: how many of its keys have each digit.
template <class KeyView, class CountView>
struct RadixCountDigits {
  KeyView keys;
  CountView counts;  // [chunk][digit]
  std::size_t n, chunk_size;
  int shift;

  void operator()(const std::size_t c) const {
    const std::size_t begin = c * chunk_size, end = std::min(n, begin + chunk_size);
    for (std::size_t d = 0; d < sort_buckets; ++d) counts(c, d) = 0;
    for (std::size_t k = begin; k < end; ++k) ++counts(c, (keys(k) >> shift) & (sort_buckets - 1));
  }
};

// Per chunk: its keys, in order, to the positions its counts were scanned into.
template <class KeyView, class CountView>
struct RadixScatter {
  KeyView from, to;
  CountView next;  // [chunk][digit]: where the chunk's next key with that digit goes
  std::size_t n, chunk_size;
  int shift;

  void operator()(const std::size_t c) const {
    const std::size_t begin = c * chunk_size, end = std::min(n, begin + chunk_size);
    for (std::size_t k = begin; k < end; ++k) {
      const std::uint64_t key = from(k);
      to(next(c, (key >> shift) & (sort_buckets - 1))++) = key;
    }
  }
};

// The chunks sort_keys gives a host backend: one per thread, each at least sort_min_chunk keys.
template <class ExecSpace>
std::size_t sort_chunks(const ExecSpace& space, std::size_t n) {
  return std::max<std::size_t>(1, std::min<std::size_t>(static_cast<std::size_t>(space.concurrency()),
                                                        n / sort_min_chunk));
}

// The radix sort of host backends, in `chunks` chunks (tests give any count on any backend).
template <class ExecSpace, class KeyView>
void radix_sort_on_host(const ExecSpace& space, const KeyView& keys, int key_bits, std::size_t chunks) {
  static_assert(runs_on_host<ExecSpace>,
                "strata::Impl::radix_sort_on_host: for execution spaces that run on the host");
  using device = typename KeyView::device_type;
  using key_view = Kokkos::View<std::uint64_t*, device>;
  using count_view = Kokkos::View<std::size_t**, Kokkos::LayoutRight, device>;
  using chunk_policy = Kokkos::RangePolicy<ExecSpace, Kokkos::Schedule<Kokkos::Static>>;
  const std::size_t n = keys.extent(0);
  if (n < 2) return;
  chunks = std::max<std::size_t>(1, chunks);
  const std::size_t chunk_size = (n + chunks - 1) / chunks;
  count_view counts("strata::sort_keys::counts", chunks, sort_buckets);
  key_view buffer(Kokkos::view_alloc(Kokkos::WithoutInitializing, "strata::sort_keys::buffer"), n);
  key_view from = keys, to = buffer;
  for (int shift = 0; shift < key_bits; shift += sort_digit_bits) {
    Kokkos::parallel_for("strata::sort_keys::count_digits", chunk_policy(space, 0, chunks),
                         RadixCountDigits<key_view, count_view>{from, counts, n, chunk_size, shift});
    space.fence();
    // Digit-major, chunk-minor exclusive scan: the output keeps the input order within a digit.
    std::size_t position = 0;
    bool one_digit = false;
    for (std::size_t d = 0; d < sort_buckets; ++d) {
      std::size_t with_digit = 0;
      for (std::size_t c = 0; c < chunks; ++c) {
        const std::size_t count = counts(c, d);
        counts(c, d) = position;
        position += count;
        with_digit += count;
      }
      one_digit = one_digit || with_digit == n;
    }
    if (one_digit) continue;
    Kokkos::parallel_for("strata::sort_keys::scatter", chunk_policy(space, 0, chunks),
                         RadixScatter<key_view, count_view>{from, to, counts, n, chunk_size, shift});
    space.fence();
    std::swap(from, to);
  }
  if (from.data() != keys.data()) Kokkos::deep_copy(space, keys, from);
  space.fence();
}

}  // namespace Impl

// Sorts keys ascending. Every key must be below 2^key_bits (0 <= key_bits <= 64):
// checked, since a larger key would be left out of order silently.
template <class ExecSpace, class KeyView>
void sort_keys(const ExecSpace& space, const KeyView& keys, int key_bits) {
  static_assert(std::is_same_v<typename KeyView::value_type, std::uint64_t> && KeyView::rank == 1,
                "strata::sort_keys: keys must be a writable rank-1 View of std::uint64_t");
  STRATA_REQUIRE(key_bits >= 0 && key_bits <= 64,
                 "sort_keys: key_bits = " + std::to_string(key_bits) + " is not between 0 and 64");
  const std::size_t n = keys.extent(0);
  if (n < 2) return;
  std::uint64_t above = 0;
  Kokkos::parallel_reduce("strata::sort_keys::check_key_bits", Kokkos::RangePolicy<ExecSpace>(space, 0, n),
                          Impl::KeyBitsAbove<KeyView>{keys, key_bits}, Kokkos::BOr<std::uint64_t>(above));
  STRATA_REQUIRE(above == 0, "sort_keys: a key has bits set above key_bits = " + std::to_string(key_bits));
  if constexpr (runs_on_host<ExecSpace>) {
    Impl::radix_sort_on_host(space, keys, key_bits, Impl::sort_chunks(space, n));
  } else {
    space.fence();
    Kokkos::sort(keys);
  }
}

}  // namespace strata

// The sort on the library's default space and device (core/explicit_instances.hpp), compiled once in
// core/sort_keys_eti.cpp: the HiSparse conversion and the leaf bins' column orders sort such keys, and
// the device sort's instantiation cost every translation unit that multiplies HiSparse matrices.
#define STRATA_SORT_KEYS_ETI(EXTERN)                                                                   \
  EXTERN template void ::strata::sort_keys<::strata::Impl::eti::exec,                                  \
                                           Kokkos::View<std::uint64_t*, ::strata::Impl::eti::device>>( \
      const ::strata::Impl::eti::exec&, const Kokkos::View<std::uint64_t*, ::strata::Impl::eti::device>&, int);
STRATA_SORT_KEYS_ETI(extern)
