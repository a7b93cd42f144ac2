// One RDMA connection's verbs resources and its data path: the protection domain, completion
// channel, CQ and RC queue pair of an rdma_cm id, the registered RX buffer, the control-message
// slots and the staging buffer writes are copied into, driven by the protocol engine
// (engine.h). The adapter is thin: it posts what the engine asks and feeds the engine the
// completions it polls. Wire facts: ../shared/design/RDMA.md.
//
// THREAD: Create, Accept, OnEstablished and the destructor run on the main thread; Read,
// Writev and TakeChannelEvents on the thread the host runs the connection's IO on (one at a
// time, never overlapping).
#pragma once

#include <infiniband/verbs.h>
#include <plinth/plugin.h>
#include <rdma/rdma_cma.h>

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>

#include "rdma/engine.h"

namespace plinth::rdma {

// Process-wide figures for INFO, bumped by every connection (relaxed; any thread).
struct Counters {
  std::atomic<uint64_t> bytes_in{0}, bytes_out{0}, writes{0}, keepalives{0}, refreshes{0};
  std::atomic<uint64_t> errors{0};  // connections closed by a transport or protocol error
};

struct ConnConfig {
  uint32_t rx_size = 1 << 20;   // this side's RX buffer
  int comp_vector = 0;          // the CQ's completion vector
  Fault fault = Fault::kNone;   // a deliberate protocol mistake (tests only)
  bool repost_receives = true;  // false: a peer that overruns (tests only)
};

class VerbsConn final : public Wire {
 public:
  // Work requests each queue holds (send and receive); the CQ holds both.
  static constexpr uint32_t kQueueDepth = 1024;

  // Sets up the resources of an id from a CONNECT_REQUEST and posts every receive slot (before
  // accept, as the wire facts ask). nullptr with a reason in *error when a verbs call failed;
  // the caller then rejects the id. OWNERSHIP: the result owns the id from then on (the
  // destructor destroys it); counters must outlive it.
  static std::unique_ptr<VerbsConn> Create(rdma_cm_id* id, const ConnConfig& config,
                                           Counters* counters, std::string* error);
  // Disconnects if still connected and frees every resource, the id included. Main thread,
  // with nobody in Read, Writev or TakeChannelEvents.
  ~VerbsConn() override;
  VerbsConn(const VerbsConn&) = delete;
  VerbsConn& operator=(const VerbsConn&) = delete;

  // rdma_accept with the parameters real peers use. false: failed (the caller rejects).
  bool Accept();
  // rdma_connect as a client (after ROUTE_RESOLVED), with the retry counts real clients use
  // unless rnr_retry says otherwise (7: retry for ever). false: failed.
  bool Connect(uint8_t rnr_retry = 7);
  // Sends len raw bytes (at most kMaxRawSend) as one SEND, bypassing the codec: tests that
  // send malformed control messages. THREAD: the IO thread.
  bool SendRaw(const void* data, uint32_t len);
  static constexpr uint32_t kMaxRawSend = 64;
  // RDMA_CM_EVENT_ESTABLISHED. The next Read or Writev tells the peer about the RX buffer (a
  // post from the IO thread, which owns the queue pair's send accounting). THREAD: main.
  void OnEstablished() { established_.store(true, std::memory_order_release); }
  // The peer disconnected (RDMA_CM_EVENT_DISCONNECTED or an error event): reads return EOF
  // once the received bytes are consumed. THREAD: main.
  void OnDisconnected() { disconnected_.store(true, std::memory_order_release); }
  // Takes and acknowledges every pending CQ event of the channel and re-arms the CQ (Read does
  // it first). false: the channel failed.
  bool TakeChannelEvents();
  // Asks the next Read to send a keepalive when one is due. THREAD: any.
  void KeepaliveDue() { keepalive_due_.store(true, std::memory_order_relaxed); }

  // The host's read: takes the channel's events, polls the CQ, then copies up to len received
  // bytes. Returns the count, 0 at EOF, PLINTH_IO_AGAIN or PLINTH_IO_ERROR.
  int64_t Read(char* buf, size_t len);
  // The host's writev: polls the CQ, then copies what fits of the buffers into the staging
  // buffer and posts one RDMA WRITE WITH IMM. Returns bytes taken, PLINTH_IO_AGAIN (the peer's
  // buffer is full or unknown, or the send queue is) or PLINTH_IO_ERROR. *kick: receive
  // completions were consumed, so the caller must report the connection readable itself (no
  // channel event will come for them).
  int64_t Writev(const plinth_iovec_t* iov, int32_t iovcnt, bool* kick);

  rdma_cm_id* id() const { return id_; }
  int channel_fd() const { return channel_ != nullptr ? channel_->fd : -1; }
  // Why the connection broke ("" while it works). THREAD: the IO thread, or main after it.
  const std::string& error() const { return error_; }

 private:
  VerbsConn(rdma_cm_id* id, const ConnConfig& config, Counters* counters)
      : id_(id), config_(config), counters_(counters) {}

  bool Setup(std::string* error);
  // Sends RegisterXferMemory once the connection is established. false: broken.
  bool StartIfEstablished();
  bool SendCtl(const uint8_t msg[kCtlSize]) override;
  bool WriteWithImm(uint64_t remote_addr, uint32_t rkey, const char* data, uint32_t len) override;
  bool PostSend(ibv_send_wr* wr);
  bool PostRecv(uint32_t slot);
  // Posts a completed receive slot again (unless config_ says not to). false: failed.
  bool Repost(uint64_t slot);
  // Polls the CQ until empty, feeding the engine. *got_recv: a receive completed. false: an
  // error completion or a protocol error (error_ says which), or the peer disconnected (error_
  // stays empty).
  bool PollCq(bool* got_recv);
  bool EnsureStaging(uint32_t len);
  int64_t Fail(const std::string& why);

  rdma_cm_id* id_;
  ConnConfig config_;
  Counters* counters_;
  ibv_pd* pd_ = nullptr;
  ibv_comp_channel* channel_ = nullptr;
  ibv_cq* cq_ = nullptr;
  bool qp_created_ = false;
  char* rx_ = nullptr;  // RX buffer, page aligned, the peer writes into it
  // kQueueDepth receive slots of kCtlSize bytes, then kQueueDepth send slots of kMaxRawSend.
  char* ctl_ = nullptr;
  char* tx_ = nullptr;  // staging buffer laid out like the peer's RX buffer
  uint32_t tx_len_ = 0;
  ibv_mr* rx_mr_ = nullptr;
  ibv_mr* ctl_mr_ = nullptr;
  ibv_mr* tx_mr_ = nullptr;
  std::unique_ptr<Engine> engine_;
  // Send queue accounting: posted and not known complete, and posted since the last signaled
  // request (a signaled completion's wr_id says how many requests it completes).
  uint32_t outstanding_ = 0, unsignaled_ = 0;
  uint64_t ctl_sent_ = 0;
  bool started_ = false;  // RegisterXferMemory sent (IO thread)
  bool broken_ = false;
  std::atomic<bool> established_{false};
  std::atomic<bool> disconnected_{false};
  std::atomic<bool> keepalive_due_{false};
  std::string error_;
};

}  // namespace plinth::rdma
