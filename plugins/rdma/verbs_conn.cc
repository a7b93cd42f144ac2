// The verbs side of one RDMA connection: resources, receive slots, posting and CQ polling.
#include "rdma/verbs_conn.h"

#include <arpa/inet.h>
#include <fcntl.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>

namespace plinth::rdma {
namespace {

constexpr uint32_t kSignalEvery = VerbsConn::kQueueDepth / 2;
// Data writes leave this many send slots to control messages (keepalive, refresh, replies).
constexpr uint32_t kCtlReserve = 16;
constexpr size_t kPage = 4096;
constexpr size_t kCtlBytes = VerbsConn::kQueueDepth * (kCtlSize + VerbsConn::kMaxRawSend);

int64_t NowMs() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

char* AllocPages(size_t len) {
  void* p = nullptr;
  if (posix_memalign(&p, kPage, (len + kPage - 1) / kPage * kPage) != 0) return nullptr;
  return static_cast<char*>(p);
}

std::string Errno(const char* what) { return std::string(what) + ": " + std::strerror(errno); }

}  // namespace

std::unique_ptr<VerbsConn> VerbsConn::Create(rdma_cm_id* id, const ConnConfig& config,
                                             Counters* counters, std::string* error) {
  std::unique_ptr<VerbsConn> c(new VerbsConn(id, config, counters));
  if (!c->Setup(error)) {
    c->id_ = nullptr;  // the caller still owns the id: it rejects and destroys it
    return nullptr;
  }
  return c;
}

bool VerbsConn::Setup(std::string* error) {
  ibv_context* verbs = id_->verbs;
  if (verbs == nullptr) return *error = "the id has no device", false;
  if ((pd_ = ibv_alloc_pd(verbs)) == nullptr) return *error = Errno("ibv_alloc_pd"), false;
  if ((channel_ = ibv_create_comp_channel(verbs)) == nullptr) {
    return *error = Errno("ibv_create_comp_channel"), false;
  }
  const int flags = fcntl(channel_->fd, F_GETFL);
  if (flags < 0 || fcntl(channel_->fd, F_SETFL, flags | O_NONBLOCK) < 0) {
    return *error = Errno("completion channel O_NONBLOCK"), false;
  }
  cq_ = ibv_create_cq(verbs, 2 * kQueueDepth, this, channel_, config_.comp_vector);
  if (cq_ == nullptr) return *error = Errno("ibv_create_cq"), false;
  if (ibv_req_notify_cq(cq_, 0) != 0) return *error = Errno("ibv_req_notify_cq"), false;
  ibv_qp_init_attr attr{};
  attr.send_cq = cq_;
  attr.recv_cq = cq_;
  attr.qp_type = IBV_QPT_RC;
  attr.cap.max_send_wr = kQueueDepth;
  attr.cap.max_recv_wr = kQueueDepth;
  attr.cap.max_send_sge = 1;
  attr.cap.max_recv_sge = 1;
  if (rdma_create_qp(id_, pd_, &attr) != 0) return *error = Errno("rdma_create_qp"), false;
  qp_created_ = true;
  rx_ = AllocPages(config_.rx_size);
  ctl_ = AllocPages(kCtlBytes);
  if (rx_ == nullptr || ctl_ == nullptr) return *error = "out of memory for buffers", false;
  rx_mr_ = ibv_reg_mr(pd_, rx_, config_.rx_size,
                      IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_READ | IBV_ACCESS_REMOTE_WRITE);
  ctl_mr_ = ibv_reg_mr(pd_, ctl_, kCtlBytes, IBV_ACCESS_LOCAL_WRITE);
  if (rx_mr_ == nullptr || ctl_mr_ == nullptr) return *error = Errno("ibv_reg_mr"), false;
  for (uint32_t slot = 0; slot < kQueueDepth; ++slot) {
    if (!PostRecv(slot)) return *error = Errno("ibv_post_recv"), false;
  }
  engine_ = std::make_unique<Engine>(this, rx_, config_.rx_size, reinterpret_cast<uint64_t>(rx_),
                                     rx_mr_->rkey, config_.fault);
  return true;
}

VerbsConn::~VerbsConn() {
  if (id_ != nullptr && established_.load(std::memory_order_acquire) &&
      !disconnected_.load(std::memory_order_acquire)) {
    rdma_disconnect(id_);
  }
  if (qp_created_) rdma_destroy_qp(id_);
  if (cq_ != nullptr) ibv_destroy_cq(cq_);
  if (channel_ != nullptr) ibv_destroy_comp_channel(channel_);
  for (ibv_mr* mr : {rx_mr_, ctl_mr_, tx_mr_}) {
    if (mr != nullptr) ibv_dereg_mr(mr);
  }
  if (pd_ != nullptr) ibv_dealloc_pd(pd_);
  if (id_ != nullptr) rdma_destroy_id(id_);
  std::free(rx_);
  std::free(ctl_);
  std::free(tx_);
}

bool VerbsConn::Accept() {
  rdma_conn_param param{};
  param.responder_resources = 1;
  param.initiator_depth = 1;
  param.retry_count = 5;
  param.rnr_retry_count = 7;
  return rdma_accept(id_, &param) == 0;
}

bool VerbsConn::StartIfEstablished() {
  if (started_ || !established_.load(std::memory_order_acquire)) return true;
  started_ = true;
  if (engine_->Start(NowMs())) return true;
  Fail("sending RegisterXferMemory failed");
  return false;
}

bool VerbsConn::TakeChannelEvents() {
  unsigned taken = 0;
  bool failed = false;
  for (;;) {
    ibv_cq* cq = nullptr;
    void* ctx = nullptr;
    if (ibv_get_cq_event(channel_, &cq, &ctx) == 0) {
      ++taken;
      continue;
    }
    failed = errno != EAGAIN && errno != EWOULDBLOCK;
    break;
  }
  if (taken > 0) ibv_ack_cq_events(cq_, taken);
  // Re-armed before the owner polls, so a completion after that poll raises a new event.
  return !failed && ibv_req_notify_cq(cq_, 0) == 0;
}

bool VerbsConn::PostRecv(uint32_t slot) {
  ibv_sge sge{reinterpret_cast<uint64_t>(ctl_ + slot * kCtlSize), kCtlSize, ctl_mr_->lkey};
  ibv_recv_wr wr{};
  wr.wr_id = slot;
  wr.sg_list = &sge;
  wr.num_sge = 1;
  ibv_recv_wr* bad = nullptr;
  return ibv_post_recv(id_->qp, &wr, &bad) == 0;
}

bool VerbsConn::Repost(uint64_t slot) {
  if (slot >= kQueueDepth) return false;
  return !config_.repost_receives || PostRecv(static_cast<uint32_t>(slot));
}

bool VerbsConn::PostSend(ibv_send_wr* wr) {
  if (outstanding_ >= kQueueDepth - 1) return false;
  if (++unsignaled_ >= kSignalEvery) {
    wr->send_flags |= IBV_SEND_SIGNALED;
    wr->wr_id = unsignaled_;
    unsignaled_ = 0;
  }
  ibv_send_wr* bad = nullptr;
  if (ibv_post_send(id_->qp, wr, &bad) != 0) return false;
  ++outstanding_;
  return true;
}

bool VerbsConn::Connect(uint8_t rnr_retry) {
  rdma_conn_param param{};
  param.responder_resources = 1;
  param.initiator_depth = 1;
  param.retry_count = 7;
  param.rnr_retry_count = rnr_retry;
  return rdma_connect(id_, &param) == 0;
}

bool VerbsConn::SendRaw(const void* data, uint32_t len) {
  if (len > kMaxRawSend) return false;
  char* slot = ctl_ + kQueueDepth * kCtlSize + (ctl_sent_++ % kQueueDepth) * kMaxRawSend;
  std::memcpy(slot, data, len);
  ibv_sge sge{reinterpret_cast<uint64_t>(slot), len, ctl_mr_->lkey};
  ibv_send_wr wr{};
  wr.opcode = IBV_WR_SEND;
  wr.sg_list = &sge;
  wr.num_sge = 1;
  return PostSend(&wr);
}

bool VerbsConn::SendCtl(const uint8_t msg[kCtlSize]) { return SendRaw(msg, kCtlSize); }

bool VerbsConn::WriteWithImm(uint64_t remote_addr, uint32_t rkey, const char* data, uint32_t len) {
  ibv_sge sge{reinterpret_cast<uint64_t>(data), len, tx_mr_->lkey};
  ibv_send_wr wr{};
  wr.opcode = IBV_WR_RDMA_WRITE_WITH_IMM;
  wr.imm_data = htonl(len);
  wr.sg_list = &sge;
  wr.num_sge = 1;
  wr.wr.rdma.remote_addr = remote_addr;
  wr.wr.rdma.rkey = rkey;
  return PostSend(&wr);
}

bool VerbsConn::PollCq(bool* got_recv) {
  ibv_wc wc[32];
  for (;;) {
    const int n = ibv_poll_cq(cq_, 32, wc);
    if (n < 0) return Fail("ibv_poll_cq failed"), false;
    for (int i = 0; i < n; ++i) {
      const ibv_wc& w = wc[i];
      if (w.status == IBV_WC_WR_FLUSH_ERR && error_.empty()) {
        // Flushed with no error before it: the peer disconnected, a close and not a fault.
        broken_ = true;
        disconnected_.store(true, std::memory_order_release);
        return false;
      }
      if (w.status != IBV_WC_SUCCESS) {
        return Fail(std::string("completion error: ") + ibv_wc_status_str(w.status)), false;
      }
      switch (w.opcode) {
        case IBV_WC_RECV: {
          const auto* msg = reinterpret_cast<const uint8_t*>(ctl_ + w.wr_id * kCtlSize);
          if (w.wr_id >= kQueueDepth || !engine_->OnControl(msg, w.byte_len)) {
            return Fail("bad control message"), false;
          }
          *got_recv = true;
          if (!Repost(w.wr_id)) return Fail("ibv_post_recv"), false;
          break;
        }
        case IBV_WC_RECV_RDMA_WITH_IMM:
          if (!engine_->OnData(ntohl(w.imm_data), w.byte_len)) {
            return Fail("the peer wrote past the RX buffer"), false;
          }
          *got_recv = true;
          if (!Repost(w.wr_id)) return Fail("ibv_post_recv"), false;
          break;
        default:  // a signaled send: wr_id counts the requests it completes
          outstanding_ -= std::min<uint32_t>(outstanding_, static_cast<uint32_t>(w.wr_id));
          break;
      }
    }
    if (n < 32) return true;
  }
}

bool VerbsConn::EnsureStaging(uint32_t len) {
  if (tx_len_ >= len) return true;
  // Every earlier write landed: the peer refreshed its buffer only after consuming them all.
  if (tx_mr_ != nullptr) ibv_dereg_mr(tx_mr_);
  std::free(tx_);
  tx_mr_ = nullptr;
  tx_len_ = 0;
  if ((tx_ = AllocPages(len)) == nullptr) return false;
  if ((tx_mr_ = ibv_reg_mr(pd_, tx_, len, IBV_ACCESS_LOCAL_WRITE)) == nullptr) return false;
  tx_len_ = len;
  return true;
}

int64_t VerbsConn::Fail(const std::string& why) {
  if (!broken_) {
    broken_ = true;
    error_ = why;
    counters_->errors.fetch_add(1, std::memory_order_relaxed);
  }
  return PLINTH_IO_ERROR;
}

int64_t VerbsConn::Read(char* buf, size_t len) {
  bool got = false;
  if (!broken_ && !TakeChannelEvents()) return Fail("the completion channel failed");
  if (broken_ || !PollCq(&got) || !StartIfEstablished()) {
    return error_.empty() ? 0 : PLINTH_IO_ERROR;  // a disconnect reads as EOF
  }
  if (started_ && keepalive_due_.exchange(false, std::memory_order_relaxed)) {
    const uint64_t before = ctl_sent_;
    if (!engine_->Tick(NowMs())) return Fail("keepalive send failed");
    if (ctl_sent_ != before) counters_->keepalives.fetch_add(1, std::memory_order_relaxed);
  }
  const std::string_view r = engine_->Readable();
  if (r.empty()) {
    return disconnected_.load(std::memory_order_acquire) ? 0 : PLINTH_IO_AGAIN;
  }
  const size_t n = std::min(len, r.size());
  std::memcpy(buf, r.data(), n);
  const uint64_t refreshes = engine_->refreshes_sent();
  if (!engine_->Consume(n)) return Fail("buffer refresh send failed");
  if (engine_->refreshes_sent() != refreshes) {
    counters_->refreshes.fetch_add(1, std::memory_order_relaxed);
  }
  counters_->bytes_in.fetch_add(n, std::memory_order_relaxed);
  return static_cast<int64_t>(n);
}

int64_t VerbsConn::Writev(const plinth_iovec_t* iov, int32_t iovcnt, bool* kick) {
  *kick = false;
  if (broken_) return PLINTH_IO_ERROR;
  if (!PollCq(kick) || !StartIfEstablished()) return PLINTH_IO_ERROR;
  if (!engine_->Writable() || outstanding_ >= kQueueDepth - kCtlReserve) {
    return PLINTH_IO_AGAIN;
  }
  if (!EnsureStaging(engine_->peer_len())) return Fail("out of memory for the staging buffer");
  char* dst = tx_ + engine_->tx_offset();
  const size_t room = engine_->WriteRoom();
  size_t n = 0;
  for (int32_t i = 0; i < iovcnt && n < room; ++i) {
    const size_t take = std::min(iov[i].len, room - n);
    std::memcpy(dst + n, iov[i].base, take);
    n += take;
  }
  if (n == 0) return 0;
  const int64_t w = engine_->Write(dst, n);
  if (w < 0) return Fail("RDMA write post failed");
  counters_->bytes_out.fetch_add(static_cast<uint64_t>(w), std::memory_order_relaxed);
  counters_->writes.fetch_add(1, std::memory_order_relaxed);
  return w;
}

}  // namespace plinth::rdma
