// Loader messages: a plugin a host refuses is reported as "plugin <path>: <stage>: <reason>",
// with the same stage and reason whichever host refused it (docs/abi.md section 6). The fake
// host's text is FakeHost::LoadError(); the server's is its log line, from a run with
// --no-default-plugins. The fixtures are tests/abi's, one broken .so per rule.
#include <plinth/plugin.h>

#include "case_support.h"

namespace plinth::hostapi {
namespace {

std::string Abi(int major, int minor) {
  return std::to_string(major) + "." + std::to_string(minor);
}

}  // namespace

HOSTAPI_CASE("loader: a plugin of another ABI major is refused at stage abi") {
  const std::string path = FixturePath("wrong_major");
  LoadOutcome out = T::Load({path});
  CHECK(out.error == "plugin " + path + ": abi: plugin ABI " + Abi(PLINTH_ABI_MAJOR + 1, 0) +
                         ", host ABI " + Abi(PLINTH_ABI_MAJOR, PLINTH_ABI_MINOR) +
                         " (major differs)");
}

HOSTAPI_CASE("loader: a plugin of a newer ABI minor is refused at stage abi") {
  const std::string path = FixturePath("newer_minor");
  LoadOutcome out = T::Load({path});
  CHECK(out.error == "plugin " + path + ": abi: plugin ABI " +
                         Abi(PLINTH_ABI_MAJOR, PLINTH_ABI_MINOR + 1) + ", host ABI " +
                         Abi(PLINTH_ABI_MAJOR, PLINTH_ABI_MINOR) + " (plugin needs a newer host)");
}

HOSTAPI_CASE("loader: a descriptor with a NULL name is refused at stage descriptor") {
  const std::string path = FixturePath("null_name");
  LoadOutcome out = T::Load({path});
  CHECK(out.error == "plugin " + path + ": descriptor: name is NULL");
}

HOSTAPI_CASE("loader: an invalid plugin name is refused at stage descriptor") {
  const std::string path = FixturePath("invalid_name");
  LoadOutcome out = T::Load({path});
  CHECK(out.error ==
        "plugin " + path + ": descriptor: invalid name 'Bad Name!' (want [a-z0-9_-]{1,32})");
}

HOSTAPI_CASE("loader: a second plugin of the same name is refused at stage descriptor") {
  const std::string first = FixturePath("dup_a"), second = FixturePath("dup_b");
  LoadOutcome out = T::Load({first, second});
  CHECK(out.error == "plugin " + second +
                         ": descriptor: duplicate name 'abi_dup' (already loaded from " + first +
                         ")");
}

HOSTAPI_CASE("loader: a failing init is refused at stage init after the plugin's own reason") {
  const std::string path = FixturePath("init_fails");
  LoadOutcome out = T::Load({path});
  CHECK(out.error == "plugin " + path +
                         ": init: init returned an error: abi_rollback: cannot reach the backend");
  CHECK(out.log.find("abi_rollback: cannot reach the backend") != std::string::npos);
}

}  // namespace plinth::hostapi
