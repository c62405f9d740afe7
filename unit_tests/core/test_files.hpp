#pragma once
// Files for tests: a temporary directory removed with its contents, and gzip
// data built by hand so tests can compress arbitrary, even malformed, text.
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <string>
#include <system_error>
#include <vector>

#include <unistd.h>

// Whether this test binary (and so the build it tests) runs under AddressSanitizer,
// whose shadow memory rules out address-space limits.
#if defined(__SANITIZE_ADDRESS__)
#define STRATA_TEST_UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define STRATA_TEST_UNDER_ASAN 1
#endif
#endif
#ifndef STRATA_TEST_UNDER_ASAN
#define STRATA_TEST_UNDER_ASAN 0
#endif

namespace strata::test {

inline bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

inline std::uint32_t crc32_of(const std::string& bytes) {
  std::uint32_t crc = 0xffffffffu;
  for (const char byte : bytes) {
    crc ^= static_cast<unsigned char>(byte);
    for (int bit = 0; bit < 8; ++bit) crc = (crc >> 1) ^ (0xedb88320u & (0u - (crc & 1u)));
  }
  return ~crc;
}

inline void append_little_endian32(std::string& out, std::uint32_t value) {
  for (int shift = 0; shift < 32; shift += 8) out += static_cast<char>((value >> shift) & 0xffu);
}

// One gzip member of uncompressed ("stored") deflate blocks.
inline std::string gzip_stored(const std::string& content) {
  std::string out("\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\xff", 10);
  std::size_t position = 0;
  do {
    const std::size_t length = std::min<std::size_t>(65535, content.size() - position);
    const bool final_block = position + length == content.size();
    out += static_cast<char>(final_block ? 1 : 0);
    out += static_cast<char>(length & 0xffu);
    out += static_cast<char>((length >> 8) & 0xffu);
    out += static_cast<char>(~length & 0xffu);
    out += static_cast<char>((~length >> 8) & 0xffu);
    out.append(content, position, length);
    position += length;
  } while (position < content.size());
  append_little_endian32(out, crc32_of(content));
  append_little_endian32(out, static_cast<std::uint32_t>(content.size()));
  return out;
}

inline std::string read_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

// A fresh directory under the system temporary directory, removed with its
// contents when the test ends.
class TemporaryDirectory {
 public:
  TemporaryDirectory() {
    static int counter = 0;
    std::random_device entropy;
    path_ = std::filesystem::temp_directory_path() / ("strata_test_" + std::to_string(getpid()) + "_" +
                                                      std::to_string(counter++) + "_" + std::to_string(entropy()));
    std::filesystem::create_directories(path_);
  }
  ~TemporaryDirectory() {
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
  }
  TemporaryDirectory(const TemporaryDirectory&) = delete;
  TemporaryDirectory& operator=(const TemporaryDirectory&) = delete;

  std::string path() const { return path_.string(); }
  std::string file(const std::string& name) const { return (path_ / name).string(); }

  std::string write_text(const std::string& name, const std::string& content) const {
    const std::string target = file(name);
    std::ofstream out(target, std::ios::binary);
    out << content;
    return target;
  }

  std::string write_gzip(const std::string& name, const std::string& content) const {
    return write_text(name, gzip_stored(content));
  }

  // Names of files left in the directory, to check that no temporary file survives.
  std::vector<std::string> listing() const {
    std::vector<std::string> names;
    for (const std::filesystem::directory_entry& entry : std::filesystem::directory_iterator(path_)) {
      names.push_back(entry.path().filename());
    }
    return names;
  }

 private:
  std::filesystem::path path_;
};

}  // namespace strata::test
