// Collects the reply items the core sends for one command into a Reply tree (the core has
// already made them one complete reply). Main thread.
#ifndef PLINTH_FAKEHOST_REPLY_BUILDER_H
#define PLINTH_FAKEHOST_REPLY_BUILDER_H

#include <cstdint>
#include <plinth/fakehost.hpp>
#include <string>
#include <utility>
#include <vector>

namespace plinth::fakehost {

class ReplyBuilder {
 public:
  // Adds one item. An aggregate's children are the next `children` items (2n for a map of n
  // pairs); a negative count is taken as 0.
  void Add(Reply item, int64_t children = 0);
  // Moves the single complete top-level reply into *out. Returns false with a description in
  // *problem when there is none, more than one, or an aggregate is incomplete.
  bool Finish(Reply* out, std::string* problem);
  // Moves the oldest complete top-level reply into *out when no aggregate is open. Returns
  // false when there is none.
  bool TakeComplete(Reply* out);

 private:
  std::vector<Reply> top_;
  std::vector<std::pair<Reply*, int64_t>> open_;  // open aggregates and children still due
};

// The text redis-cli shows for a double: the shortest form that reads back as v.
std::string FormatDouble(double v);

}  // namespace plinth::fakehost

#endif  // PLINTH_FAKEHOST_REPLY_BUILDER_H
