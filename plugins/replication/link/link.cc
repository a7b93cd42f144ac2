// The replica's link thread: connect, handshake, PSYNC, full sync payload or +CONTINUE, then the
// stream cut into commands. Everything it learns goes to the main thread as loop_post tasks
// that hold the Impl alive and check "stopped" there, so ~Link drops what is still queued.
#include "replication/link/link.h"

#include <fcntl.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <cctype>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <mutex>
#include <plinth/plugin.hpp>
#include <string_view>
#include <thread>

#include "replication/link/snapshot_receiver.h"
#include "replication/link/stream_parser.h"
#include "replication/link/wire_io.h"

namespace plinth::replication {

namespace {

constexpr size_t kReadChunk = 64 * 1024;

bool StartsWith(const std::string& s, const char* prefix) {
  return s.compare(0, std::strlen(prefix), prefix) == 0;
}

std::string Quoted(const std::string& line) { return "\"" + line.substr(0, 128) + "\""; }

// A replication id as primaries send it: 40 letters or digits. Anything else (a CR, a space,
// another length) would reach INFO, our PSYNC and our sub-replicas' +FULLRESYNC lines.
bool ValidReplId(std::string_view id) {
  if (id.size() != 40) return false;
  for (const char c : id)
    if (!std::isalnum(static_cast<unsigned char>(c))) return false;
  return true;
}

}  // namespace

struct Link::Impl : std::enable_shared_from_this<Impl> {
  Impl(plinth_plugin_t* s, LinkConfig c, LinkEvents e)
      : self(s), config(std::move(c)), events(std::move(e)) {}
  ~Impl() {
    for (int fd : wake) {
      if (fd >= 0) close(fd);
    }
  }

  void Run();
  std::string Session();
  std::string Call(const std::vector<std::string>& argv, std::string* reply);
  std::string Handshake();
  std::string FullSync(const std::string& reply);
  std::string Stream(uint64_t start);
  void SendAck(uint64_t offset);
  bool FlushLocked(std::string* bytes);  // false: blocked or failed
  void Post(std::function<void()> fn);

  // One posted event: keeps the Impl alive until it ran or was dropped.
  struct Task {
    std::shared_ptr<Impl> impl;
    std::function<void()> fn;
  };
  plinth_plugin_t* self;
  const LinkConfig config;
  const LinkEvents events;
  // Set by ~Link on the main thread, where tasks run: a task that sees it does nothing.
  std::atomic<bool> stopped{false};
  int wake[2] = {-1, -1};  // a pipe: ~Link writes to wake[1] to end any wait
  std::thread thread;
  // Link thread only.
  int sock = -1;
  std::string in;  // bytes read and not consumed yet
  std::unique_ptr<char[]> chunk;
  // Guards the fields below: the socket as Ack sees it, and every send after the handshake.
  std::mutex mu;
  int ack_fd = -1;          // the socket while the stream phase lasts, else -1
  std::string pending_ack;  // the unsent tail of an ack the socket took only in part
  std::string ack_error;    // why an ack failed (the thread then reports it)
};

void Link::Impl::Post(std::function<void()> fn) {
  auto* task = new Task{shared_from_this(), std::move(fn)};
  plinth_task_fn run = [](void* arg) {
    std::unique_ptr<Task> t(static_cast<Task*>(arg));
    if (!t->impl->stopped.load()) t->fn();
  };
  if (sdk::Api().loop_post(self, run, task) != PLINTH_OK) delete task;  // shutting down: drop
}

void Link::Impl::Run() {
  std::string reason = Session();
  {
    std::lock_guard<std::mutex> lock(mu);
    ack_fd = -1;
    if (!ack_error.empty()) reason = ack_error;
  }
  if (sock >= 0) close(sock);
  if (!stopped.load()) {
    Post([this, reason] {
      if (events.down) events.down(reason);
    });
  }
}

std::string Link::Impl::Call(const std::vector<std::string>& argv, std::string* reply) {
  WireIo io(wake[0], config.timeout_ms);
  std::string reason = io.WriteAll(sock, EncodeCommand(argv));
  if (reason.empty()) reason = io.ReadLine(sock, &in, reply);
  return reason.empty() ? "" : argv[0] + ": " + reason;
}

std::string Link::Impl::Handshake() {
  std::string reply;
  std::string reason = Call({"PING"}, &reply);
  if (!reason.empty()) return reason;
  const bool auth = !config.password.empty();
  if (reply != "+PONG" && !(auth && StartsWith(reply, "-NOAUTH"))) return "PING: " + reply;
  if (auth) {
    std::vector<std::string> argv = {"AUTH"};
    if (!config.user.empty()) argv.push_back(config.user);
    argv.push_back(config.password);
    if (!(reason = Call(argv, &reply)).empty()) return reason;
    if (reply != "+OK") return "AUTH: " + reply;
  }
  // Like a Redis replica, tolerate a primary that does not know these REPLCONFs, but not one
  // that still wants a password.
  const std::vector<std::vector<std::string>> confs = {
      {"REPLCONF", "listening-port", std::to_string(config.listening_port)},
      {"REPLCONF", "capa", "eof", "capa", "psync2"}};
  for (const auto& argv : confs) {
    if (!(reason = Call(argv, &reply)).empty()) return reason;
    if (StartsWith(reply, "-NOAUTH")) return "REPLCONF: " + reply;
  }
  return "";
}

std::string Link::Impl::Session() {
  WireIo io(wake[0], config.timeout_ms);
  std::string reason = io.Connect(config.host, config.port, &sock);
  if (!reason.empty()) return reason;
  if (!(reason = Handshake()).empty()) return reason;
  std::vector<std::string> psync_argv = {"PSYNC", config.replid, std::to_string(config.offset)};
  if (config.failover) psync_argv.push_back("FAILOVER");
  const std::string psync = EncodeCommand(psync_argv);
  if (!(reason = io.WriteAll(sock, psync)).empty()) return "PSYNC: " + reason;
  Post([this] {
    if (events.syncing) events.syncing();
  });
  std::string reply;
  if (!(reason = io.ReadLine(sock, &in, &reply)).empty()) return "PSYNC: " + reason;
  if (StartsWith(reply, "+FULLRESYNC ")) return FullSync(reply);
  if (reply == "+CONTINUE" || StartsWith(reply, "+CONTINUE ")) {
    // PSYNC asked for byte config.offset; the replica's offset is the byte before it.
    if (config.offset < 1) return "protocol error: +CONTINUE to a full sync request";
    // As Redis, an id that is not one leaves ours as it was.
    const std::string id = reply.size() > 10 ? reply.substr(10) : std::string();
    const std::string replid = ValidReplId(id) ? id : config.replid;
    Post([this, replid] {
      if (events.partial_sync) events.partial_sync(replid);
    });
    return Stream(static_cast<uint64_t>(config.offset - 1));
  }
  return "PSYNC refused: " + Quoted(reply);
}

std::string Link::Impl::FullSync(const std::string& reply) {
  // "+FULLRESYNC <replid> <offset>"
  const size_t id_at = std::strlen("+FULLRESYNC ");
  const size_t space = reply.find(' ', id_at);
  uint64_t offset = 0;
  const char* end = reply.data() + reply.size();
  if (space == std::string::npos ||
      !ValidReplId(std::string_view(reply).substr(id_at, space - id_at)) ||
      std::from_chars(reply.data() + space + 1, end, offset).ptr != end) {
    return "protocol error: bad reply to PSYNC " + Quoted(reply);
  }
  const std::string replid = reply.substr(id_at, space - id_at);
  // The primary accepted PSYNC: a first progress says so before the payload (FAILOVER's old
  // primary ends its failover here, as Redis does at +FULLRESYNC).
  Post([this] {
    if (events.progress) events.progress(0, -1);
  });
  WireIo io(wake[0], config.timeout_ms);
  SnapshotReceiver receiver(&io, sock, &in, [this](uint64_t read, int64_t total) {
    Post([this, read, total] {
      if (events.progress) events.progress(read, total);
    });
  });
  bool eof_mark = false;
  std::string reason = receiver.Receive(config.rdb_path, &eof_mark);
  if (!reason.empty()) return reason;
  Post([this, replid, offset] {
    if (events.full_sync) events.full_sync(replid, offset);
  });
  return Stream(offset);
}

std::string Link::Impl::Stream(uint64_t start) {
  {
    std::lock_guard<std::mutex> lock(mu);
    ack_fd = sock;
  }
  // A Redis 7 primary that streamed the snapshot diskless holds the stream back until the
  // replica's first ACK (Redis replicas send it right after loading): send it now. Harmless
  // after a sized payload or a +CONTINUE.
  SendAck(start);
  StreamParser parser(start);
  WireIo io(wake[0], config.timeout_ms);
  std::string held;
  held.swap(in);
  std::string_view bytes = held;
  for (;;) {
    std::vector<StreamCommand> commands;
    std::string error;
    const bool ok = parser.Feed(bytes, &commands, &error);
    if (!commands.empty()) {
      Post([this, commands = std::move(commands)]() mutable {
        if (events.commands) events.commands(std::move(commands));
      });
    }
    if (!ok) return error;
    size_t n = 0;
    std::string reason = io.ReadSome(sock, chunk.get(), kReadChunk, &n);
    if (!reason.empty()) return reason;
    bytes = std::string_view(chunk.get(), n);
  }
}

bool Link::Impl::FlushLocked(std::string* bytes) {
  while (!bytes->empty()) {
    const ssize_t n = send(ack_fd, bytes->data(), bytes->size(), MSG_NOSIGNAL | MSG_DONTWAIT);
    if (n > 0) {
      bytes->erase(0, static_cast<size_t>(n));
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) return false;
    ack_error = std::string("write ack to primary: ") + std::strerror(errno);
    // Wake the thread: its read fails, and it reports ack_error.
    shutdown(ack_fd, SHUT_RDWR);
    ack_fd = -1;
    return false;
  }
  return true;
}

void Link::Impl::SendAck(uint64_t offset) {
  std::lock_guard<std::mutex> lock(mu);
  if (ack_fd < 0) return;
  // Never blocks: an ack the socket has no room for is dropped (the next carries a later
  // offset), but one it took in part is finished first, so the primary never sees a torn one.
  if (!pending_ack.empty() && !FlushLocked(&pending_ack)) return;
  const std::string value = std::to_string(offset);
  std::string ack = "*3\r\n$8\r\nREPLCONF\r\n$3\r\nACK\r\n$" + std::to_string(value.size()) +
                    "\r\n" + value + "\r\n";
  const size_t size = ack.size();
  if (!FlushLocked(&ack) && ack_fd >= 0 && ack.size() < size) pending_ack = std::move(ack);
}

Link::Link(plinth_plugin_t* self, LinkConfig config, LinkEvents events)
    : impl_(std::make_shared<Impl>(self, std::move(config), std::move(events))) {
  Impl* impl = impl_.get();
  impl->chunk = std::make_unique<char[]>(kReadChunk);
  if (pipe2(impl->wake, O_CLOEXEC | O_NONBLOCK) != 0) {
    // No wake pipe, no thread: report it like any other failure.
    const std::string reason = std::string("link: pipe: ") + std::strerror(errno);
    impl->Post([impl, reason] {
      if (impl->events.down) impl->events.down(reason);
    });
    return;
  }
  impl->thread = std::thread([impl] { impl->Run(); });
}

Link::~Link() {
  impl_->stopped.store(true);
  if (impl_->wake[1] >= 0) {
    const char byte = 1;
    [[maybe_unused]] ssize_t n = write(impl_->wake[1], &byte, 1);
  }
  if (impl_->thread.joinable()) impl_->thread.join();
}

void Link::Ack(uint64_t offset) { impl_->SendAck(offset); }

}  // namespace plinth::replication
