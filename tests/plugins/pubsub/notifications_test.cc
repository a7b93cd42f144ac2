// Keyspace notifications in the fake host: the notify-keyspace-events option, the
// __keyspace@<db>__ and __keyevent@<db>__ message formats, class filtering, and the generic
// events the keys plugin raises, heard by a pattern subscriber.
#include "pubsub_fixture.h"

namespace plinth::pubsub::test {
namespace {

// A fixture with client 2 subscribed to every notification channel.
struct Listening : Fixture {
  explicit Listening(const char* flags) {
    std::string error;
    REQUIRE_MESSAGE(host.SetOption("notify-keyspace-events", flags, &error), error);
    sub = host.AddClient();
    RunAs(sub, {"PSUBSCRIBE", "__key*__:*"});
  }
  // Messages client 2 got since the last call, as "channel payload".
  Lines Heard() {
    Lines out;
    for (const fakehost::Reply& r : host.TakeReplies(sub)) {
      REQUIRE(r.elements.size() == 4);
      out.push_back(r.elements[2].str + " " + r.elements[3].str);
    }
    return out;
  }
  uint64_t sub = 0;
};

TEST_CASE("pubsub notify-keyspace-events: defaults to no events and is mutable") {
  Fixture f;
  CHECK(f.host.GetOption("notify-keyspace-events") == std::string());
  std::string error;
  CHECK(f.host.SetOption("notify-keyspace-events", "KEA", &error));
  CHECK(f.host.GetOption("notify-keyspace-events").has_value());
  CHECK(f.host.SetOption("notify-keyspace-events", "", &error));
}

TEST_CASE("pubsub notify-keyspace-events: an unknown letter is refused with Redis's text") {
  Fixture f;
  std::string error;
  CHECK(f.host.SetOption("notify-keyspace-events", "Kg", &error));
  CHECK_FALSE(f.host.SetOption("notify-keyspace-events", "Kq", &error));
  CHECK(error == "Invalid event class character. Use 'Ag$lshzxeKEtmdn'.");
  CHECK(f.host.GetOption("notify-keyspace-events") == std::string("Kg"));
}

TEST_CASE("pubsub notifications: keyspace and keyevent messages for a generic event") {
  Listening f("KEg");
  f.host.PutString("k", "v");
  CHECK(f.Run({"DEL", "k"}) == "1");
  CHECK(f.Heard() == Lines{"__keyspace@0__:k del", "__keyevent@0__:del k"});
}

TEST_CASE("pubsub notifications: K alone or E alone publishes one of the two") {
  SUBCASE("K") {
    Listening f("Kg");
    f.host.PutString("k", "v");
    f.Run({"DEL", "k"});
    CHECK(f.Heard() == Lines{"__keyspace@0__:k del"});
  }
  SUBCASE("E") {
    Listening f("Eg");
    f.host.PutString("k", "v");
    f.Run({"DEL", "k"});
    CHECK(f.Heard() == Lines{"__keyevent@0__:del k"});
  }
}

TEST_CASE("pubsub notifications: a class that is off publishes nothing") {
  Listening f("KE$");
  f.host.PutString("k", "v");
  f.Run({"DEL", "k"});
  CHECK(f.Heard().empty());
  Listening g("g");  // no K or E: classes alone publish nothing
  g.host.PutString("k", "v");
  g.Run({"DEL", "k"});
  CHECK(g.Heard().empty());
}

TEST_CASE("pubsub notifications: the database index is in the channel name") {
  Listening f("KEA");
  f.host.PutString("k", "v", 5);
  f.Run({"SELECT", "5"});
  f.Run({"DEL", "k"});
  CHECK(f.Heard() == Lines{"__keyspace@5__:k del", "__keyevent@5__:del k"});
}

TEST_CASE("pubsub notifications: MOVE and COPY DB report the other database") {
  Listening f("KEA");
  f.host.PutString("k", "v");
  CHECK(f.Run({"MOVE", "k", "3"}) == "1");
  CHECK(f.Heard() == Lines{"__keyspace@0__:k move_from", "__keyevent@0__:move_from k",
                           "__keyspace@3__:k move_to", "__keyevent@3__:move_to k"});
  f.Run({"SELECT", "3"});
  CHECK(f.Run({"COPY", "k", "c", "DB", "7"}) == "1");
  CHECK(f.Heard() == Lines{"__keyspace@7__:c copy_to", "__keyevent@7__:copy_to c"});
  CHECK(f.host.CurrentDb() == 3);  // the call's database is back
  CHECK(f.Run({"DEL", "k"}) == "1");
  CHECK(f.Heard() == Lines{"__keyspace@3__:k del", "__keyevent@3__:del k"});
}

TEST_CASE("pubsub notifications: the new class reports created keys") {
  Listening f("Kn");
  f.host.PutString("a", "v");
  f.Run({"COPY", "a", "b"});
  CHECK(f.Heard() == Lines{"__keyspace@0__:b new"});
}

TEST_CASE("pubsub notifications: a channel subscriber of one key hears only that key") {
  Fixture f;
  std::string error;
  REQUIRE(f.host.SetOption("notify-keyspace-events", "KEA", &error));
  const uint64_t s = f.host.AddClient();
  f.RunAs(s, {"SUBSCRIBE", "__keyspace@0__:watched"});
  f.host.PutString("watched", "v");
  f.host.PutString("other", "v");
  f.Run({"EXPIRE", "watched", "100"});
  f.Run({"EXPIRE", "other", "100"});
  f.Run({"PERSIST", "watched"});
  CHECK(f.Taken(s) == Lines{"> message __keyspace@0__:watched expire",
                            "> message __keyspace@0__:watched persist"});
}

TEST_CASE("pubsub notifications: a RESP3 client hears its own command's events before the reply") {
  Fixture f;
  std::string error;
  REQUIRE(f.host.SetOption("notify-keyspace-events", "Eg", &error));
  f.host.SetProtocol(3);
  f.host.SetClientProtocol(1, 3);
  f.Run({"SUBSCRIBE", "__keyevent@0__:del"});
  f.host.PutString("k", "v");
  CHECK(f.Run({"DEL", "k"}) == "1");
  CHECK(f.Taken() == Lines{"> message __keyevent@0__:del k"});
}

TEST_CASE("pubsub notifications: binary keys are published as they are") {
  Listening f("Kg");
  const std::string key("a\0b", 3);
  f.host.PutString(key, "v");
  f.Run({"DEL", key});
  CHECK(f.Heard() == Lines{"__keyspace@0__:" + key + " del"});
}

}  // namespace
}  // namespace plinth::pubsub::test
