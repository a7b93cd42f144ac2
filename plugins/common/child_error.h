// The reason a forked child (an AOF rewrite, a replication snapshot) failed, carried to the
// parent through a small shared anonymous mapping (the child writes it before _exit, the parent
// reads it after reaping), so the parent can log it and show it in INFO. Main thread and the
// forked child.
#ifndef PLINTH_COMMON_CHILD_ERROR_H
#define PLINTH_COMMON_CHILD_ERROR_H

#include <string>

namespace plinth::common {

class ChildError {
 public:
  ChildError() = default;
  ~ChildError();
  ChildError(const ChildError&) = delete;
  ChildError& operator=(const ChildError&) = delete;

  // Before the fork: maps the buffer once and empties it. false when mmap failed (the reason
  // is then lost, the rewrite still runs).
  bool Prepare();
  // In the child: records why it fails, on one line (control bytes, a key's name among them,
  // become '?'), truncated to the buffer.
  void Set(const std::string& why);
  // In the parent, after reaping: the child's reason, or "" when it left none.
  std::string Get() const;

 private:
  static constexpr size_t kSize = 512;
  char* buf_ = nullptr;
};

}  // namespace plinth::common

#endif  // PLINTH_COMMON_CHILD_ERROR_H
