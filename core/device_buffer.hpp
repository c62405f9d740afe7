#pragma once
// Device memory that a format allocates and releases while the host goes on.
//
// Kokkos's CUDA allocations are cudaMalloc and cudaFree, and cudaFree waits until the device is
// idle (Kokkos 4.6's stream-ordered option, KOKKOS_ENABLE_IMPL_CUDA_MALLOC_ASYNC, fences before
// and after its cudaFreeAsync). On the H100 an allocation and its release cost 20-120 us each
// (Nsight Systems, docs/PERFORMANCE.md): more than all the kernels of a small DCSR update step
// or a small HiSparse addition, which allocate a pool each. On CUDA these buffers come from a
// stream-ordered memory pool of Strata's (core/cuda/device_buffer_cuda.hpp); elsewhere they are
// Kokkos Views.
//
// A buffer is a View that does not own its memory and the owner that does: the memory lives
// while a copy of the owner does. Containers keep the owner beside the Views they cut from the
// buffer, and kernels take the Views by value, as with managed Views.
#include <strata/core/error.hpp>

#include <Kokkos_Core.hpp>

#include <cstddef>
#include <limits>
#include <memory>
#include <string>
#include <type_traits>

namespace strata {

// Untyped device bytes and what keeps them alive.
struct DeviceBytes {
  void* data = nullptr;
  std::shared_ptr<void> owner;
};

// The portable allocation: a Kokkos View of bytes, owned through a shared_ptr to the View.
template <class MemorySpace>
struct device_buffer_impl {
  static DeviceBytes allocate(std::size_t bytes, const std::string& label, bool zeroed) {
    using bytes_view = Kokkos::View<unsigned char*, MemorySpace>;
    auto view = std::make_shared<bytes_view>(
        zeroed ? bytes_view(label, bytes) : bytes_view(Kokkos::view_alloc(Kokkos::WithoutInitializing, label), bytes));
    return {view->data(), view};
  }
};

// n values of T in the memory space of Device (a Kokkos device type or memory space).
template <class T, class Device>
struct DeviceBuffer {
  Kokkos::View<T*, Device> view;  // unmanaged: `owner` keeps the memory
  std::shared_ptr<void> owner;
};

// Allocates n values of T, zeroed or not. A failed allocation is a strata::Error naming `label`
// and the bytes requested; nothing else is touched.
template <class T, class Device>
DeviceBuffer<T, Device> allocate_device_buffer(std::size_t n, const std::string& label, bool zeroed) {
  static_assert(std::is_trivially_destructible<T>::value, "allocate_device_buffer: T is never destroyed");
  using memory_space = typename Kokkos::View<T*, Device>::memory_space;
  if (n == 0) return {};
  STRATA_REQUIRE(n <= std::numeric_limits<std::size_t>::max() / sizeof(T),
                 label + ": " + std::to_string(n) + " values of " + std::to_string(sizeof(T)) +
                     " bytes exceed the address space");
  DeviceBytes b;
  try {
    b = device_buffer_impl<memory_space>::allocate(n * sizeof(T), label, zeroed);
  } catch (const Error&) {
    throw;
  } catch (const std::exception& e) {
    throw Error(label + ": device allocation of " + std::to_string(n * sizeof(T)) + " bytes failed: " + e.what());
  }
  return {Kokkos::View<T*, Device>(static_cast<T*>(b.data), n), std::move(b.owner)};
}

}  // namespace strata

#if defined(KOKKOS_ENABLE_CUDA)
#include <strata/core/cuda/device_buffer_cuda.hpp>
#endif
