#pragma once
// HiSparse SpMV as a tree walk on the dynamic scheduler (scheduler/): one
// function per node type. An inner node emits its children, routed by node
// type and entry count (1, <= 32, > 32) to queues of 1, 32 and 256 threads per
// item; a leaf multiplies its entries (hisparse_leaf.hpp) and adds into y with
// atomics. Items carry the block origin and depth, so nothing is computed per
// product beforehand. The transpose flag swaps the coordinates a leaf
// multiplies with, so A^T costs what A costs.
// Kernels are named functors, not extended lambdas: see docs/BACKENDS.md, "Extended lambdas".
#include <strata/algorithms/spmv/hisparse_entry.hpp>
#include <strata/algorithms/spmv/hisparse_leaf.hpp>
#include <strata/formats/hisparse/hisparse_matrix.hpp>
#include <strata/scheduler/host_driven.hpp>
#include <strata/scheduler/persistent.hpp>

#include <memory>
#include <vector>

namespace strata::Impl {

// One node to process: its reference, its block origin (stored orientation),
// its depth (0 = root) and its entry count (read once, when it was emitted).
struct HiSparseWorkItem {
  hisparse::offset_type ref = 0;
  index_type row0 = 0;
  index_type col0 = 0;
  std::int32_t depth = 0;
  std::uint32_t count = 0;
};

namespace hisparse_queues {
using scheduler::any_count;
using scheduler::Bin;
using scheduler::QueueRole;
template <std::uint32_t Type, QueueRole Role>
using One = Bin<Type, 1, 1, 1, Role>;
template <std::uint32_t Type, QueueRole Role>
using Warp = Bin<Type, 2, 32, 32, Role>;
template <std::uint32_t Type, QueueRole Role>
using Block = Bin<Type, 33, any_count, 256, Role>;
constexpr QueueRole inner = QueueRole::produces;
constexpr QueueRole leaf = QueueRole::final;
using namespace hisparse;

// Dense nodes hold up to d*d slots: a block each, whatever their count.
using SpmvQueues = scheduler::QueueSet<
    HiSparseWorkItem,                                                                               //
    Bin<inner_dense, 1, any_count, 256, inner>,                                                     //
    One<inner_coo1, inner>, Warp<inner_coo1, inner>, Block<inner_coo1, inner>,                      //
    One<inner_coo2, inner>, Warp<inner_coo2, inner>, Block<inner_coo2, inner>,                      //
    One<inner_coo4, inner>, Warp<inner_coo4, inner>, Block<inner_coo4, inner>,                      //
    Bin<leaf_dense, 1, any_count, 256, leaf>,                                                       //
    One<leaf_coo1, leaf>, Warp<leaf_coo1, leaf>, Block<leaf_coo1, leaf>,                            //
    One<leaf_coo2, leaf>, Warp<leaf_coo2, leaf>, Block<leaf_coo2, leaf>,                            //
    One<leaf_coo4, leaf>, Warp<leaf_coo4, leaf>, Block<leaf_coo4, leaf>>;
}  // namespace hisparse_queues

// An inner node's part of every walk: emit its children, each with its block
// origin, depth and entry count.
template <class Value, class Device, class Threads, class Out>
KOKKOS_INLINE_FUNCTION void hisparse_emit_children(const hisparse::HiSparseRef<Value, Device>& R,
                                                   const HiSparseWorkItem& item, const Threads& threads,
                                                   const Out& out) {
  using namespace hisparse;
  const NodeType t = type_of(item.ref);
  const unsigned char* node = R.bytes() + offset_of(item.ref);
  const int b = R.log2_block;
  const std::uint32_t d = 1u << b;
  const offset_type payload = payload_offset(t, item.count, b, sizeof(Value));
  const int shift = b * (R.levels - 1 - item.depth);
  const auto emit = [&](std::uint32_t lr, std::uint32_t lc, offset_type child) {
    const HiSparseWorkItem c{child, item.row0 + (index_type(lr) << shift), item.col0 + (index_type(lc) << shift),
                             item.depth + 1, R.count(child)};
    out.emit(c, type_of(child), c.count);
  };
  if (t == inner_dense) {
    threads.for_each(d * d, [&](const std::uint32_t slot) {
      const offset_type child = *reinterpret_cast<const offset_type*>(node + payload + slot * sizeof(offset_type));
      if (child != 0) emit(slot / d, slot % d, child);
    });
  } else {
    threads.for_each(item.count, [&](const std::uint32_t k) {
      emit(node[node_header_bytes + 2 * k], node[node_header_bytes + 2 * k + 1],
           *reinterpret_cast<const offset_type*>(node + payload + k * sizeof(offset_type)));
    });
  }
}

// The walk without the products: how many items each queue receives in one
// product, so that the persistent launcher's queues are sized beforehand.
template <class Value, class Device>
struct HiSparseCountingWalk {
  hisparse::HiSparseRef<Value, Device> R;

  template <class Threads, class Out>
  KOKKOS_INLINE_FUNCTION void operator()(int, const HiSparseWorkItem& item, const Threads& threads,
                                         const Out& out) const {
    if (!hisparse::is_leaf(hisparse::type_of(item.ref))) hisparse_emit_children(R, item, threads, out);
  }
};

template <class ExecSpace, class Value, class Device, class XView, class YView>
struct HiSparseSpmvWalk {
  hisparse::HiSparseRef<Value, Device> R;
  HiSparseEntryProduct<ExecSpace, Value, XView, YView> entry;

  template <class Threads, class Out>
  KOKKOS_INLINE_FUNCTION void operator()(int, const HiSparseWorkItem& item, const Threads& threads,
                                         const Out& out) const {
    if (!hisparse::is_leaf(hisparse::type_of(item.ref))) {
      hisparse_emit_children(R, item, threads, out);
      return;
    }
    hisparse_leaf_product(R, entry, item.ref, item.row0, item.col0, item.count, threads);
  }
};

template <class ExecSpace>
using HiSparseSpmvLauncher = scheduler::HostDrivenLauncher<hisparse_queues::SpmvQueues, ExecSpace>;
template <class ExecSpace>
using HiSparsePersistentLauncher = scheduler::PersistentLauncher<hisparse_queues::SpmvQueues, ExecSpace>;

// Entries (or children) of A's root node, read from the device pool: what
// routes the seed item. Zero for an empty matrix.
template <class Value, class Device>
std::uint32_t hisparse_root_count(const HiSparseMatrix<Value, Device>& A) {
  if (A.root() == 0) return 0;
  const auto word = Kokkos::subview(A.storage()->words, hisparse::offset_of(A.root()) / sizeof(std::uint64_t));
  std::uint64_t header = 0;
  Kokkos::deep_copy(Kokkos::View<std::uint64_t, Kokkos::HostSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>>(&header),
                    word);
  return static_cast<std::uint32_t>(header & 0xffffffffu);  // the node header: uint32 count, then zero
}

template <class Value, class Device>
std::vector<scheduler::Seed<HiSparseWorkItem>> hisparse_root_seed(const HiSparseMatrix<Value, Device>& A,
                                                                  std::uint32_t root_count) {
  std::vector<scheduler::Seed<HiSparseWorkItem>> seeds;
  if (A.root() != 0 && root_count != 0) {
    seeds.push_back({HiSparseWorkItem{A.root(), 0, 0, 0, root_count}, hisparse::type_of(A.root()), root_count});
  }
  return seeds;
}

// A launcher whose queues hold one product's items (persistent, controller:
// items are consumed while the walk still emits, so queues cannot grow during
// a run): one counting walk on the host-driven launcher says how many each
// queue receives.
template <class Launcher, class ExecSpace, class Value, class Device>
std::shared_ptr<Launcher> hisparse_reserved_launcher(const ExecSpace& space, const HiSparseMatrix<Value, Device>& A,
                                                     std::uint32_t root_count) {
  auto launcher = std::make_shared<Launcher>();
  HiSparseSpmvLauncher<ExecSpace> counting;
  const auto report = counting.run(space, hisparse_root_seed(A, root_count), HiSparseCountingWalk<Value, Device>{A.ref()});
  typename Launcher::Counts needed{};
  for (int q = 0; q < hisparse_queues::SpmvQueues::size; ++q) {
    needed[q] = static_cast<std::uint32_t>(report.items[q]);
  }
  launcher->reserve(needed);
  return launcher;
}

// y += alpha * op(A) x (y already scaled by beta), walking the tree from the
// root, whose entry count the caller read once (hisparse_root_count), on
// any launcher.
template <class ExecSpace, class Launcher, class Value, class Device, class XView, class YView>
scheduler::ScheduleReport hisparse_scheduled_product(const ExecSpace& space, Launcher& launcher,
                                                     const HiSparseMatrix<Value, Device>& A, std::uint32_t root_count,
                                                     bool transpose, bool conjugate, Value alpha, const XView& x,
                                                     const YView& y) {
  return launcher.run(space, hisparse_root_seed(A, root_count),
                      HiSparseSpmvWalk<ExecSpace, Value, Device, XView, YView>{
                          A.ref(), HiSparseEntryProduct<ExecSpace, Value, XView, YView>{alpha, conjugate, transpose, x, y}});
}

}  // namespace strata::Impl
