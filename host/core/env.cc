// The ports' default behaviour where one has any beyond a constant (env.h).
#include "host/core/env.h"

#include <functional>

#include "host/core/session.h"

namespace plinth::host {

Session* ClientDirectory::FindSession(uint64_t id) {
  Session* found = nullptr;
  ForEachSession([&](Session& s) {
    if (s.id == id) found = &s;
  });
  return found;
}

}  // namespace plinth::host
