// A client connection and its path through the shell, in explicit stages: read into the query
// buffer → parse into a batch (each request's argv stays valid until it has run) → execute in
// the core → reply items → encode into the output queue (the client's reply sink) → writev
// before the loop next polls. Reading with parsing, and writing, run on an IO thread when the
// IO threads are active (io_threads.h), inline on the main thread otherwise; everything else
// is main-thread only.
#pragma once

#include <plinth/plugin.h>
#include <uv.h>

#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <deque>
#include <string>
#include <string_view>
#include <vector>

#include "host/core/env.h"
#include "host/core/session.h"

namespace plinth::host {

struct Transport;
class Shell;
struct Client;

// One piece of pending output: bytes the host owns, or a reference released after writing.
struct OutSeg {
  char* data = nullptr;
  size_t len = 0;
  size_t cap = 0;  // 0 for a reference
  size_t sent = 0;
  plinth_release_fn release = nullptr;
  void* release_arg = nullptr;
};

// The bytes of a string value that a segment has room reserved for: the thread that writes the
// segment copies them in just before writev (ClientWriteOutput), so with IO threads the main
// thread never touches them.
struct OutFill {
  OutSeg* seg;  // stable: a deque keeps references to the elements it does not erase
  size_t off;
  const plinth_value_t* value;  // one reference, dropped once copied
};

// The requests parsed from one read, waiting to run: argv arrays side by side. Arguments
// point into the query buffer (which does not move until the batch has run) or, when the
// parser built them in its own storage (inline commands), into copies held here.
struct Batch {
  struct Request {
    uint32_t first;
    int32_t argc;
  };
  std::vector<Request> requests;
  std::vector<const char*> argv;
  std::vector<size_t> argvlen;
  std::deque<std::string> copies;
  std::string error;  // a protocol error after the parsed requests ("" if none)
  void Clear();
};

constexpr int kMaxIov = 64;
// The event bit the shell adds to a connection's PLINTH_CONN_* events when conn_released moved.
constexpr uint32_t kConnReleasedEvent = 0x100;

// The IO job a client has in flight. There is at most one; while it runs, the main thread
// leaves alone what it owns: a read owns the query buffer, the batch and the parser state; a
// write owns the output segments it covers (new output goes into segments after them).
enum class ClientIo : uint8_t { kIdle, kRead, kWrite };

// A read: its inputs, set on the main thread, and what it found, applied there after.
struct ReadJob {
  enum Status : uint8_t { kAgain, kData, kClosed, kNoMemory, kOverLimit };
  bool authed = false;      // in: parse as an authenticated client
  bool parse = true;        // in: parse what was read (not while the client is blocked)
  int64_t query_limit = 0;  // in: client-query-buffer-limit
  Status status = kAgain;   // out
  uint64_t bytes = 0;       // out: bytes read
};

// A write: the iovecs taken from the output queue, and how writev answered.
struct WriteJob {
  plinth_iovec_t iov[kMaxIov];
  int32_t iovcnt = 0;
  size_t total = 0;    // bytes the iovecs hold
  size_t covered = 0;  // output segments the iovecs point into (the first ones of the queue)
  std::vector<OutFill> fills;  // in: those of the covered segments, done before writev
  uint64_t bytes = 0;          // out: bytes writev took
  int64_t status = 0;          // out: 0 all taken, PLINTH_IO_AGAIN, or PLINTH_IO_ERROR
  bool yielded = false;        // out: stopped after a turn's bytes (status 0, more to write)
};

// A written segment a PLINTH_TRANSPORT_HOLDS_BUFFERS transport may still read: freed once the
// transport released the bytes up to end.
struct RetiredSeg {
  OutSeg seg;
  uint64_t end;
};

// Encodes the core's reply items into the client's output queue.
struct ClientSink : ReplySink {
  explicit ClientSink(Client* c);
  Client* client;
};

// The connection a client came on: its transport, how the loop learns it is ready, and what
// was known of it at accept.
struct ClientConn {
  int32_t transport_id = -1;
  Transport* transport = nullptr;
  void* handle = nullptr;  // the transport's connection (the conn its calls take)
  plinth_conn host_conn;   // the transport's handle for conn_notify / conn_released
  int fd = -1;             // -1: the transport notifies instead (no poll handle)
  // The transport reports writability (fd -1 or PLINTH_TRANSPORT_POLL_READ_ONLY): reads drain,
  // writes wait for PLINTH_CONN_WRITABLE, and fd (if any) is polled for reading only.
  bool notifies_writable = false;
  uv_poll_t poll{};
  int poll_events = 0;  // UV_READABLE / UV_WRITABLE wanted (polled, or awaited from notify)
  std::string peer, local;
  uint32_t flags = 0;  // the PLINTH_CONN_* flags the transport gave at accept (LOCAL)
  void* proto_session = nullptr;
};

// The query buffer and what was parsed from it: bytes [pos, len) of buf are unparsed.
struct QueryBuffer {
  char* buf = nullptr;
  size_t len = 0, cap = 0, pos = 0;
  size_t need = 0;  // total bytes the request being parsed needs, 0 if unknown
  Batch batch;
};

// The output queue: the segments waiting to be written, and what was written.
struct OutputQueue {
  std::deque<OutSeg> segs;
  std::vector<OutFill> fills;  // in segs that no write covers yet, in order
  size_t bytes = 0;
  int64_t soft_limit_since = 0;
  uint64_t written = 0;            // bytes writev took, ever
  std::deque<RetiredSeg> retired;  // written, not yet released by the transport
};

// Where the client stands: the shell's queues it is on, and its life cycle.
struct ClientState {
  bool in_pending_writes = false;
  bool in_yielded_writes = false;
  bool in_unblocked = false;  // on ClientTable::unblocked
  bool resume_input = false;  // unblocked while a read was in flight: run its input after it
  bool closed = false;        // being torn down; no more IO
  // No more output: the protocol failed to encode a reply, or the client is closing.
  bool no_output = false;
  bool close_asap = false;   // on ClientTable::to_close: closed once no command runs (ClientClose)
  bool ever_authed = false;  // authenticated once: the small unauthenticated limit is off
  int64_t ctime_ms = 0;
};

// The client's IO job, and the connection's events on their way to the main thread: notified
// by the transport from any thread, or put off while a job is in flight.
struct IoState {
  ClientIo job = ClientIo::kIdle;
  int thread = 0;  // the IO thread that last served it (0: the main thread)
  ReadJob rd;
  WriteJob wr;
  uint32_t deferred_events = 0;       // notified while a job was in flight (main)
  std::atomic<uint32_t> notified{0};  // PLINTH_CONN_* not yet handled (any thread)
  std::atomic<uint64_t> released{0};  // conn_released's total (any thread)
};

// A client connection: the core's session, the reply sink, and the shell's records of it.
struct Client {
  explicit Client(Shell* s) : shell(s) {}
  // The query buffer goes last: a command closed under (ClientCloseNow) still reads its
  // arguments there until it returns; a Client is deleted only from the loop.
  ~Client() { std::free(query.buf); }
  Client(const Client&) = delete;
  Client& operator=(const Client&) = delete;
  Shell* shell;
  Session session;
  ClientSink sink{this};
  ClientConn conn;
  QueryBuffer query;
  OutputQueue out;
  ClientState state;
  IoState io;
};

// Creates a client for an accepted connection and starts reading. Returns nullptr (the
// connection closed) when its protocol state cannot be allocated. Main thread.
Client* ClientCreate(Shell& s, int32_t transport_id, void* conn, int fd, const char* peer,
                     const char* local, uint32_t flags);
// Tears the client down (stops polling, closes the connection, frees output, tells the plugins):
// at once, or when its IO job comes back. While a command runs (Dispatch::Executing: the client's
// own, whose arguments are in use, or another's that may be walking a list of clients) it only
// schedules the close (ClientCloseAsync); the rest of the client's batch and its output are
// dropped either way. Main thread.
void ClientClose(Client* c);
// ClientClose without the check: even while a command runs (Shell::Stop, which shuts down
// inside SHUTDOWN). The running client's arguments stay valid (~Client frees them). Main
// thread.
void ClientCloseNow(Client* c);
// Schedules c's close for when no command runs (WritePass::CloseDeferred): from now on c runs
// nothing more, reads nothing and gets no output, but its state (arguments, subscriptions)
// stays valid for whatever is using it. Main thread.
void ClientCloseAsync(Client* c);
// The rest of ClientClose once no IO job is in flight. Main thread.
void ClientFinishClose(Client* c);
// The connection is readable: reads (on an IO thread or inline), parses and runs. Main thread.
void ClientReadable(Client* c);
// ClientReadable on this thread, never an IO thread (ServeWhileBusy). Main thread.
void ClientReadInline(Client* c);
// Stages 1 and 2: reads what the connection has (all of it when the transport notifies) and
// parses it into the batch, as c->io.rd says; fills c->io.rd. THREAD: the thread c's job runs on.
void ClientReadInput(Client* c);
// Applies a finished read: limits, statistics, then runs the batch and queues the output.
// Main thread.
void ClientApplyRead(Client* c);
// A blocked client got its reply: queues it and runs the requests that waited behind the
// blocking one (after its read job, if one is in flight). Main thread.
void ClientResume(Client* c);
// Writes pending output: hands it to an IO thread, or writes inline. Main thread.
void ClientFlushOutput(Client* c);
// Writes pending output on this thread now, without first delivering the stream's pending
// batch (ServeWhileBusy: a busy command's effects are not complete yet). Main thread.
void ClientWriteInline(Client* c);
// Fills c->io.wr from the output queue. Returns false when there is nothing to write. Main.
bool ClientPrepareWrite(Client* c);
// Runs c->io.wr's writev calls. THREAD: the thread c's job runs on.
void ClientWriteOutput(Client* c);
// Applies a finished write to the output queue and the poll events (the caller writes again
// when c->io.wr.status is 0 and output remains). Returns false when c was closed. Main thread.
bool ClientApplyWrite(Client* c);
// Handles PLINTH_CONN_* events (from conn_notify) and releases (conn_released). Main thread.
void ClientHandleEvents(Client* c, uint32_t events);
// Queues c to be written before the loop next polls. Main thread.
void ClientQueueWrite(Client* c);
// Queues c to write its next turn after the loop next polls (it yielded with the connection
// still taking bytes). Main thread.
void ClientQueueYieldedWrite(Client* c);
// Frees every pending output segment (releasing references). Main thread.
void ClientFreeOutput(Client* c);
// Frees one segment's buffer, or releases its reference. Main thread.
void ClientFreeSeg(OutSeg& seg);
// Sets the poll events (UV_READABLE, UV_WRITABLE) c waits for.
void ClientSetPollEvents(Client* c, int events);
// Formats the CLIENT LIST line of c (no trailing newline).
std::string ClientDescribe(const Client* c);
// Appends raw bytes (client_write_raw) to c's output. False when memory ran out. Main thread.
bool ClientAppendRaw(Client* c, const char* data, size_t len);
// The output a client that has never authenticated may have pending, where authentication is
// required: past it the client is closed (Valkey and Redis since CVE-2025-21605), so one that
// pipelines commands and never reads cannot pile up -NOAUTH replies.
constexpr size_t kUnauthOutputLimit = size_t{16} * 1024;
// Enforces the output buffer limits (of c's class: normal, pubsub or replica; the small fixed
// one of an unauthenticated client) after new output. Past one, c is scheduled to close
// (ClientCloseAsync: a push or a reply may come from inside a command or a plugin's delivery
// loop) and this returns false. Main thread.
bool ClientCheckOutputLimits(Client* c);
// The grow callback of plinth_outbuf_t for host-owned (malloc) buffers.
int32_t ClientGrowOut(plinth_outbuf_t* ob, size_t min_free);

}  // namespace plinth::host
