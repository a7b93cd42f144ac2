// Test helpers over the verbs and rdma_cm API (fabric_harness.h).
#include "fabric_harness.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <poll.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <string>

namespace plinth::rdma_fabric {
namespace {

void SetNonBlocking(int fd) { fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK); }

}  // namespace

rdma_event_channel* CreateChannelForTest() {
  rdma_event_channel* channel = rdma_create_event_channel();
  if (channel != nullptr) SetNonBlocking(channel->fd);
  return channel;
}

int WaitEventForTest(rdma_event_channel* channel, rdma_cm_id** id, int* status,
                     rdma_cm_id** listen_id, int timeout_ms) {
  pollfd p{channel->fd, POLLIN, 0};
  if (poll(&p, 1, timeout_ms) <= 0) return -1;
  rdma_cm_event* ev = nullptr;
  if (rdma_get_cm_event(channel, &ev) != 0) return -1;
  int type = ev->event;
  if (id != nullptr) *id = ev->id;
  if (status != nullptr) *status = ev->status;
  if (listen_id != nullptr) *listen_id = ev->listen_id;
  rdma_ack_cm_event(ev);
  return type;
}

bool EndForTest::Setup(rdma_cm_id* cm_id, uint32_t max_wr, size_t len, int access) {
  id = cm_id;
  if (id->verbs == nullptr) return false;
  pd = ibv_alloc_pd(id->verbs);
  comp = ibv_create_comp_channel(id->verbs);
  if (pd == nullptr || comp == nullptr) return false;
  SetNonBlocking(comp->fd);
  cq = ibv_create_cq(id->verbs, static_cast<int>(2 * max_wr), this, comp, 0);
  if (cq == nullptr || ibv_req_notify_cq(cq, 0) != 0) return false;
  ibv_qp_init_attr attr{};
  attr.send_cq = cq;
  attr.recv_cq = cq;
  attr.qp_type = IBV_QPT_RC;
  attr.cap.max_send_wr = max_wr;
  attr.cap.max_recv_wr = max_wr;
  attr.cap.max_send_sge = 1;
  attr.cap.max_recv_sge = 1;
  if (rdma_create_qp(id, pd, &attr) != 0) return false;
  buf_len = len;
  buf = static_cast<uint8_t*>(aligned_alloc(4096, (len + 4095) / 4096 * 4096));
  if (buf == nullptr) return false;
  mr = ibv_reg_mr(pd, buf, len, access);
  return mr != nullptr;
}

EndForTest::~EndForTest() {
  if (id != nullptr && id->qp != nullptr) rdma_destroy_qp(id);
  if (mr != nullptr) ibv_dereg_mr(mr);
  free(buf);
  if (cq != nullptr) ibv_destroy_cq(cq);
  if (comp != nullptr) ibv_destroy_comp_channel(comp);
  if (pd != nullptr) ibv_dealloc_pd(pd);
  if (id != nullptr) rdma_destroy_id(id);
}

int EndForTest::PostRecv(uint64_t wr_id, size_t off, size_t len) {
  ibv_sge sge{reinterpret_cast<uintptr_t>(buf + off), static_cast<uint32_t>(len), mr->lkey};
  ibv_recv_wr wr{};
  wr.wr_id = wr_id;
  wr.sg_list = &sge;
  wr.num_sge = 1;
  ibv_recv_wr* bad = nullptr;
  return ibv_post_recv(id->qp, &wr, &bad);
}

int EndForTest::Post(ibv_wr_opcode opcode, uint64_t wr_id, size_t off, size_t len, uint32_t imm,
                     uint64_t raddr, uint32_t rkey, unsigned flags) {
  ibv_sge sge{reinterpret_cast<uintptr_t>(buf + off), static_cast<uint32_t>(len), mr->lkey};
  ibv_send_wr wr{};
  wr.wr_id = wr_id;
  wr.sg_list = &sge;
  wr.num_sge = 1;
  wr.opcode = opcode;
  wr.send_flags = flags;
  wr.imm_data = imm;
  wr.wr.rdma.remote_addr = raddr;
  wr.wr.rdma.rkey = rkey;
  ibv_send_wr* bad = nullptr;
  return ibv_post_send(id->qp, &wr, &bad);
}

bool EndForTest::WaitWc(ibv_wc* wc, int timeout_ms) {
  auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
  for (;;) {
    if (ibv_poll_cq(cq, 1, wc) == 1) return true;
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) return false;
    // The channel way, as applications do it: wait for the fd, take and ack the event, re-arm.
    pollfd p{comp->fd, POLLIN, 0};
    if (poll(&p, 1, static_cast<int>(left.count())) > 0) {
      ibv_cq* ev_cq = nullptr;
      void* ctx = nullptr;
      if (ibv_get_cq_event(comp, &ev_cq, &ctx) == 0) {
        ibv_ack_cq_events(ev_cq, 1);
        ibv_req_notify_cq(ev_cq, 0);
      }
    }
  }
}

bool StartConnectForTest(rdma_event_channel* channel, EndForTest* client, uint16_t port,
                         uint8_t rnr, int recvs) {
  rdma_cm_id* id = nullptr;
  if (rdma_create_id(channel, &id, nullptr, RDMA_PS_TCP) != 0) return false;
  client->id = id;
  rdma_addrinfo hints{};
  hints.ai_port_space = RDMA_PS_TCP;
  rdma_addrinfo* ai = nullptr;
  std::string service = std::to_string(port);
  if (rdma_getaddrinfo("127.0.0.1", service.c_str(), &hints, &ai) != 0) return false;
  int rc = rdma_resolve_addr(id, nullptr, ai->ai_dst_addr, 1000);
  rdma_freeaddrinfo(ai);
  if (rc != 0 || WaitEventForTest(channel) != RDMA_CM_EVENT_ADDR_RESOLVED) return false;
  if (rdma_resolve_route(id, 1000) != 0) return false;
  if (WaitEventForTest(channel) != RDMA_CM_EVENT_ROUTE_RESOLVED) return false;
  if (!client->Setup(id)) return false;
  for (int i = 0; i < recvs; ++i) {
    if (client->PostRecv(static_cast<uint64_t>(i), static_cast<size_t>(i) * 256, 256) != 0)
      return false;
  }
  rdma_conn_param param{};
  param.responder_resources = 1;
  param.initiator_depth = 1;
  param.retry_count = 7;
  param.rnr_retry_count = rnr;
  return rdma_connect(id, &param) == 0;
}

}  // namespace plinth::rdma_fabric
