// A client connection and its path through the shell, in explicit stages: read into the query
// buffer → parse into a batch (each request's argv stays valid until it has run) → execute in
// the core → reply items → encode into the output queue (the client's reply sink) → writev
// before the loop next polls. Main thread in this version; the stages are the seams where IO
// threads will take over reading, parsing, encoding and writing.
#pragma once

#include <plinth/plugin.h>
#include <uv.h>

#include <cstdint>
#include <deque>
#include <string>
#include <string_view>
#include <vector>

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

// Encodes the core's reply items into the client's output queue.
struct ClientSink : ReplySink {
  explicit ClientSink(Client* c);
  Client* client;
};

struct Client {
  explicit Client(Shell* s) : shell(s) {}
  Shell* shell;
  Session session;
  ClientSink sink{this};
  int32_t transport_id = -1;
  Transport* transport = nullptr;
  void* conn = nullptr;
  int fd = -1;
  uv_poll_t poll{};
  int poll_events = 0;
  std::string peer, local;
  uint32_t conn_flags = 0;
  void* proto_session = nullptr;

  char* qbuf = nullptr;
  size_t qlen = 0, qcap = 0, qpos = 0;
  size_t need = 0;  // total bytes the request being parsed needs, 0 if unknown
  Batch batch;

  std::deque<OutSeg> out;
  size_t out_bytes = 0;
  int64_t soft_limit_since = 0;
  bool in_pending_writes = false;
  bool closed = false;  // being torn down; no more IO
  int64_t ctime_ms = 0;
};

// Creates a client for an accepted connection and starts reading. Returns nullptr (the
// connection closed) when its protocol state cannot be allocated. Main thread.
Client* ClientCreate(Shell& s, int32_t transport_id, void* conn, int fd, const char* peer,
                     const char* local, uint32_t flags);
// Tears the client down now (stops polling, closes the connection, frees output). Safe to call
// while one of its commands runs: then the rest of its batch is dropped. Main thread.
void ClientClose(Client* c);
// Writes as much pending output as the connection takes. Returns false when c was closed.
bool ClientWrite(Client* c);
// Frees every pending output segment (releasing references). Main thread.
void ClientFreeOutput(Client* c);
// Sets the poll events (UV_READABLE, UV_WRITABLE) c waits for.
void ClientSetPollEvents(Client* c, int events);
// Formats the CLIENT LIST line of c (no trailing newline).
std::string ClientDescribe(const Client* c);
// Enforces the output buffer limits after new output. Returns false when c was closed.
bool ClientCheckOutputLimits(Client* c);
// The grow callback of plinth_outbuf_t for host-owned (malloc) buffers.
int32_t ClientGrowOut(plinth_outbuf_t* ob, size_t min_free);

}  // namespace plinth::host
