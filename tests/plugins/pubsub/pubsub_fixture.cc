// The pub/sub command test fixture (see pubsub_fixture.h).
#include "pubsub_fixture.h"

extern "C" const plinth_plugin_descriptor_t* plinth_plugin_entry_v1(void);

namespace plinth::pubsub::test {

Fixture::Fixture() {
  REQUIRE_MESSAGE(host.Load(&plinth_plugin_entry_v1, "pubsub.so"), host.LoadError());
  for (const char* name : {"keys", "connection"}) {
    REQUIRE_MESSAGE(host.LoadFile(std::string(PLINTH_TEST_PLUGIN_DIR) + "/" + name + ".so"),
                    host.LoadError());
  }
}

std::string Fixture::RunAs(uint64_t client, const Argv& argv) {
  std::optional<fakehost::Reply> r = host.CallAs(client, argv);
  return r ? Show(*r) : "(blocked)";
}

Lines Fixture::Taken(uint64_t client) {
  Lines out;
  for (const fakehost::Reply& r : host.TakeReplies(client)) out.push_back(Show(r));
  return out;
}

Lines Fixture::Propagated() {
  Lines out;
  for (const fakehost::PropagatedCommand& p : host.Propagated()) {
    std::string line;
    for (const std::string& a : p.argv) line += (line.empty() ? "" : " ") + a;
    out.push_back(line);
  }
  host.ClearPropagated();
  return out;
}

std::string Fixture::Show(const fakehost::Reply& r) {
  using fakehost::ReplyType;
  switch (r.type) {
    case ReplyType::kPush:
    case ReplyType::kArray:
    case ReplyType::kSet:
    case ReplyType::kMap: {
      std::string out = r.type == ReplyType::kPush ? ">" : "*";
      for (const fakehost::Reply& e : r.elements) out += " " + Show(e);
      return out;
    }
    case ReplyType::kNull:
    case ReplyType::kNullArray:
      return "nil";
    case ReplyType::kInteger:
    case ReplyType::kBool:
      return std::to_string(r.integer);
    default:
      return r.str;
  }
}

}  // namespace plinth::pubsub::test
