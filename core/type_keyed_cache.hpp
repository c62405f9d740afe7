#pragma once
// One object per type, created on first request: lets a handle own state whose
// type depends on the vectors it is later called with (Kokkos Kernels' SpMV
// handles are typed on x and y).
#include <map>
#include <memory>
#include <typeindex>
#include <utility>

namespace strata {

class TypeKeyedCache {
 public:
  template <class T, class... Args>
  T& get(Args&&... args) {
    std::shared_ptr<void>& slot = items_[std::type_index(typeid(T))];
    if (!slot) slot = std::make_shared<T>(std::forward<Args>(args)...);
    return *static_cast<T*>(slot.get());
  }

 private:
  std::map<std::type_index, std::shared_ptr<void>> items_;
};

}  // namespace strata
