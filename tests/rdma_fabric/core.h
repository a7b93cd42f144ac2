// Internal state of the fabric's libibverbs.so.1: the verbs objects behind the public structs
// and the process-wide registry. Every field is guarded by the fabric lock (Fabric::mu) unless
// its comment says otherwise; the public structs are always the first member, so a pointer the
// application holds converts back with reinterpret_cast.
#ifndef PLINTH_TESTS_RDMA_FABRIC_CORE_H_
#define PLINTH_TESTS_RDMA_FABRIC_CORE_H_

#include <infiniband/verbs.h>

#include <cstdint>
#include <deque>
#include <mutex>
#include <unordered_map>
#include <vector>

#include "fabric_private.h"
#include "wire.h"

namespace plinth::rdma_fabric {

struct Cq;

struct Pd {
  ibv_pd ibv;
};

struct Mr {
  ibv_mr ibv;
  uint64_t iova;  // the address remote peers use for byte 0 of the region
  int access;
};

struct CompChannel {
  ibv_comp_channel ibv;  // ibv.fd: EFD_SEMAPHORE eventfd, one count per queued event
  std::deque<Cq*> events;
  int cqs = 0;  // CQs bound to it
};

struct Cq {
  ibv_cq ibv;
  std::deque<ibv_wc> wcs;
  size_t capacity = 0;
  bool armed = false;
  uint64_t events_reported = 0;
  uint64_t events_acked = 0;
  int qps = 0;  // queue pairs using it (for send or receive)
};

struct SendEntry {
  uint64_t wr_id;
  ibv_wc_opcode opcode;
  uint32_t byte_len;
  bool signaled;
};

struct RecvEntry {
  uint64_t wr_id;
  std::vector<ibv_sge> sges;
};

struct Link;

struct Qp {
  ibv_qp ibv;
  ibv_qp_cap cap{};
  bool sq_sig_all = false;
  uint8_t rnr_retry = 7;
  std::deque<SendEntry> outstanding;  // posted, not yet acknowledged, oldest first
  std::deque<RecvEntry> recvs;        // posted receives, oldest first
  Link* link = nullptr;
};

struct Link {
  uint64_t token = 0;
  int fd = -1;
  bool open = true;          // socket not yet closed
  bool closing = false;      // closed by its owner: drain "out", then close
  bool out_watched = false;  // EPOLLOUT requested
  bool refusing = false;     // sent a NAK: later requests are dropped
  int refs = 0;              // owner + progress thread registration
  const fabric_link_ops* ops = nullptr;
  void* arg = nullptr;
  Qp* qp = nullptr;
  std::vector<uint8_t> in;  // received bytes; the first in_len are unparsed
  size_t in_len = 0;
  std::vector<uint8_t> out;
  size_t out_off = 0;
  uint32_t pending_acks = 0;
  std::deque<std::vector<uint8_t>> waiting;  // whole frames held until a receive is posted
};

// The process-wide registry.
struct Fabric {
  std::mutex mu;
  int epfd = -1;
  int wake_fd = -1;
  bool progress_started = false;
  uint64_t next_token = 1;
  struct Watch {
    Link* link;  // or, when null, a plain readable callback
    void (*cb)(void*);
    void* arg;
    int fd;
  };
  std::unordered_map<uint64_t, Watch> watches;
  std::unordered_map<uint32_t, Mr*> mrs;  // by key (lkey == rkey)
  uint32_t next_key = 0x100;
  uint32_t next_qpn = 0x11;
};

// The registry, created on first use and never destroyed (the progress thread may still run
// while the process exits). Any thread.
Fabric& TheFabric();

// Starts the progress thread if it is not running. Lock held.
void EnsureProgressThread();

// Adds "events" (EPOLLIN/EPOLLOUT) interest for "token"/"fd". Lock held.
void WatchLink(Link* link, uint32_t events);

// Looks a memory region up by key; null when unknown. Lock held.
Mr* FindMr(uint32_t key);

// Appends a completion to "cq" and signals its channel if the CQ is armed. Lock held.
void CqPush(Cq* cq, const ibv_wc& wc);

// Appends "n" bytes to the link's output and writes what the socket takes now. Lock held.
void LinkAppend(Link* link, const void* data, size_t n);
void LinkFlush(Link* link);

// Handles one queue-pair frame that arrived on "link" (the responder and requester halves).
// Lock held.
void QpHandleFrame(Link* link, const FrameHeader& h, const uint8_t* body);

// Requester half: the responder handled the oldest "n" requests / refused the oldest one with
// "status" (which errors the queue pair). Lock held.
void QpAcked(Qp* qp, uint32_t n);
void QpNaked(Qp* qp, ibv_wc_status status);

// Sends the acknowledgements gathered while handling frames. Lock held.
void QpSendAcks(Link* link);

// Handles readiness of a link's socket on the progress thread. Lock held.
void LinkReady(Link* link, uint32_t events);

// The inline verbs of a context's ops table. Each takes the fabric lock.
int PollCq(ibv_cq* cq, int num_entries, ibv_wc* wc);
int ReqNotifyCq(ibv_cq* cq, int solicited_only);
int PostSend(ibv_qp* qp, ibv_send_wr* wr, ibv_send_wr** bad_wr);
int PostRecv(ibv_qp* qp, ibv_recv_wr* wr, ibv_recv_wr** bad_wr);

// Delivers requests held for want of a posted receive, now that one may be there. Lock held.
void QpDeliverWaiting(Link* link);

// Counters of the stats file (stats.cc). Any thread.
enum Counter {
  kConnectionsEstablished = FABRIC_CONNECTIONS_ESTABLISHED,
  kConnectRejected = FABRIC_CONNECT_REJECTED,
  kDisconnects = FABRIC_DISCONNECTS,
  kSendsPosted = FABRIC_COUNTER_LIMIT_CM,
  kWritesPosted,
  kWritesWithImmPosted,
  kBytesSent,
  kBytesWritten,
  kRecvCompletions,
  kSendCompletions,
  kErrors,
  kFlushed,
  kRnrWaits,
  kCqOverruns,
  kCounterCount
};
void Count(Counter counter, uint64_t n = 1);

// Rewrites the stats file if RDMA_FABRIC_STATS_DIR is set. Any thread.
void WriteStatsFile();

template <typename T, typename I>
T* From(I* ibv) {
  return reinterpret_cast<T*>(ibv);
}

}  // namespace plinth::rdma_fabric

#endif  // PLINTH_TESTS_RDMA_FABRIC_CORE_H_
