#include <strata/core/matrix_files.hpp>

#include <strata/core/error.hpp>

#include <algorithm>
#include <filesystem>

namespace strata {

std::vector<std::string> matrix_files_in(const std::string& dir) {
  if (!std::filesystem::is_directory(dir)) throw ArgumentError("matrix directory '" + dir + "' is not a directory");
  std::vector<std::string> files;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    if (entry.path().filename().string().find(".mtx") != std::string::npos) files.push_back(entry.path().string());
  }
  std::sort(files.begin(), files.end());
  return files;
}

}  // namespace strata
