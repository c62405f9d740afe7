#pragma once
// The HiSparse matrix: a shared, append-only device pool of nodes plus a small
// per-handle state (root reference, transpose flag, scale factor). Copies of a
// handle share the pool; transpose() and scale() change only the handle, and
// local edits append new nodes to the same pool (copy-on-write sub-trees).
#include <strata/core/device_buffer.hpp>
#include <strata/core/error.hpp>
#include <strata/core/index.hpp>
#include <strata/core/value_traits.hpp>
#include <strata/formats/hisparse/hisparse_layout.hpp>

#include <algorithm>
#include <memory>
#include <string>

namespace strata {

namespace hisparse {

// The node pool shared by every matrix derived from one conversion. Nodes below
// used_bytes are never modified; growing moves the words to a larger View, which
// every sharing matrix sees because it holds the storage, not the View.
template <class Device>
struct PoolStorage {
  Kokkos::View<std::uint64_t*, Device> words;  // unmanaged: `owner` keeps them (core/device_buffer.hpp)
  std::shared_ptr<void> owner;
  offset_type used_bytes = 0;

  // New words (zeroed) in place of the old ones, which are released when no copy of their owner is left.
  void allocate(std::size_t count, const std::string& label = "strata::hisparse::pool") {
    auto buffer = allocate_device_buffer<std::uint64_t, Device>(count, label, true);
    words = buffer.view;
    owner = std::move(buffer.owner);
  }
};

// Makes room for `bytes` more after used_bytes in the shared pool (at least doubling it; the new
// words are zero); every matrix holding the storage sees the moved words. Local edits append
// their nodes there, strata::add each level's nodes.
template <class Device>
void reserve_pool(PoolStorage<Device>& storage, offset_type bytes) {
  const std::size_t needed = static_cast<std::size_t>((storage.used_bytes + bytes) / 8);
  if (needed <= storage.words.extent(0)) return;
  PoolStorage<Device> grown;
  grown.allocate(std::max(needed, 2 * storage.words.extent(0)));
  const std::size_t used = static_cast<std::size_t>(storage.used_bytes / 8);
  Kokkos::deep_copy(Kokkos::subview(grown.words, std::make_pair(std::size_t(0), used)),
                    Kokkos::subview(storage.words, std::make_pair(std::size_t(0), used)));
  storage.words = grown.words;
  storage.owner = std::move(grown.owner);
}

// What a kernel needs, trivially copyable and passed by value.
template <class Value, class Device>
struct HiSparseRef {
  Kokkos::View<const std::uint64_t*, Device, Kokkos::MemoryTraits<Kokkos::Unmanaged>> pool;
  offset_type root = 0;
  int levels = 1;
  int log2_block = 7;

  KOKKOS_INLINE_FUNCTION const unsigned char* bytes() const {
    return reinterpret_cast<const unsigned char*>(pool.data());
  }
  KOKKOS_INLINE_FUNCTION std::uint32_t count(offset_type ref) const {
    return *reinterpret_cast<const std::uint32_t*>(bytes() + offset_of(ref));
  }
};

}  // namespace hisparse

template <class Value, class Device>
class HiSparseMatrix {
 public:
  static_assert(is_supported_value<Value>::value, "HiSparseMatrix: unsupported value type");
  using value_type = Value;
  using device_type = Device;
  using execution_space = typename Device::execution_space;
  using storage_type = hisparse::PoolStorage<Device>;
  using ref_type = hisparse::HiSparseRef<Value, Device>;

  HiSparseMatrix() = default;
  HiSparseMatrix(std::shared_ptr<storage_type> storage, hisparse::offset_type root, index_type rows, index_type cols,
                 int log2_block, index_type nnz)
      : storage_(std::move(storage)),
        root_(root),
        rows_(rows),
        cols_(cols),
        log2_block_(log2_block),
        levels_(hisparse::tree_levels(rows, cols, log2_block)),
        nnz_(nnz) {}

  // Logical dimensions, after the transpose flag.
  index_type num_rows() const { return transposed_ ? cols_ : rows_; }
  index_type num_cols() const { return transposed_ ? rows_ : cols_; }
  // Dimensions of the stored content, before the transpose flag.
  index_type stored_rows() const { return rows_; }
  index_type stored_cols() const { return cols_; }
  index_type nnz() const { return nnz_; }
  int log2_block() const { return log2_block_; }
  index_type block_size() const { return index_type(1) << log2_block_; }
  int levels() const { return levels_; }
  hisparse::offset_type root() const { return root_; }

  bool transposed() const { return transposed_; }
  const Value& scale_factor() const { return scale_; }
  // O(1): only this handle's state changes; the content stays shared.
  void transpose() { transposed_ = !transposed_; }
  void scale(const Value& s) { scale_ = scale_ * s; }

  const std::shared_ptr<storage_type>& storage() const { return storage_; }
  // Bytes of the pool this matrix's tree lives in (shared with matrices derived from it).
  hisparse::offset_type pool_bytes() const { return storage_ ? storage_->used_bytes : 0; }

  ref_type ref() const {
    ref_type r;
    if (storage_) r.pool = storage_->words;
    r.root = root_;
    r.levels = levels_;
    r.log2_block = log2_block_;
    return r;
  }

 private:
  std::shared_ptr<storage_type> storage_;
  hisparse::offset_type root_ = 0;
  index_type rows_ = 0;
  index_type cols_ = 0;
  int log2_block_ = 7;
  int levels_ = 1;
  index_type nnz_ = 0;
  bool transposed_ = false;
  Value scale_ = value_from<Value>(1.0, 0.0);
};

}  // namespace strata
