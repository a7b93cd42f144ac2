#include "common/child_error.h"

#include <sys/mman.h>

#include <cstring>

namespace plinth::common {

ChildError::~ChildError() {
  if (buf_) munmap(buf_, kSize);
}

bool ChildError::Prepare() {
  if (!buf_) {
    void* p = mmap(nullptr, kSize, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) return false;
    buf_ = static_cast<char*>(p);
  }
  buf_[0] = '\0';
  return true;
}

void ChildError::Set(const std::string& why) {
  if (!buf_) return;
  const size_t n = why.size() < kSize - 1 ? why.size() : kSize - 1;
  for (size_t i = 0; i < n; ++i) {
    const unsigned char ch = static_cast<unsigned char>(why[i]);
    buf_[i] = ch < 0x20 || ch == 0x7f ? '?' : why[i];
  }
  buf_[n] = '\0';
}

std::string ChildError::Get() const { return buf_ ? std::string(buf_, strnlen(buf_, kSize)) : ""; }

}  // namespace plinth::common
