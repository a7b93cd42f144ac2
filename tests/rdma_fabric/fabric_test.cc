// The fabric's queue pairs between two ids of one process: SEND/RECV, RDMA WRITE WITH IMM, the
// remote and local errors, RNR, queue limits and the channel fds' non-blocking behaviour.
#include <doctest/doctest.h>
#include <poll.h>

#include <cerrno>
#include <cstring>

#include "fabric_pair.h"

using plinth::rdma_fabric::EndForTest;
using plinth::rdma_fabric::PairForTest;

namespace {

// No completion arrives within "ms".
bool Quiet(EndForTest* end, int ms = 200) {
  ibv_wc wc{};
  return !end->WaitWc(&wc, ms);
}

}  // namespace

TEST_CASE("rdma fabric: one device whose context answers the query verbs") {
  int n = 0;
  ibv_device** list = ibv_get_device_list(&n);
  REQUIRE(list != nullptr);
  CHECK(n == 1);
  CHECK(std::strcmp(ibv_get_device_name(list[0]), "fabric0") == 0);
  ibv_context* ctx = ibv_open_device(list[0]);
  ibv_free_device_list(list);
  REQUIRE(ctx != nullptr);
  ibv_device_attr attr{};
  CHECK(ibv_query_device(ctx, &attr) == 0);
  CHECK(attr.max_qp_wr >= 1024);
  CHECK(attr.max_cqe >= 2048);
  ibv_port_attr port{};
  CHECK(ibv_query_port(ctx, 1, &port) == 0);
  CHECK(port.state == IBV_PORT_ACTIVE);
  CHECK(std::strcmp(ibv_wc_status_str(IBV_WC_REM_ACCESS_ERR), "remote access error") == 0);
  CHECK(ibv_close_device(ctx) == 0);
}

TEST_CASE("rdma fabric: a SEND completes the peer's receive with its byte length") {
  PairForTest pair;
  REQUIRE(pair.Connect());
  std::memcpy(pair.client->buf + 8192, "hello fabric", 12);
  REQUIRE(pair.client->Post(IBV_WR_SEND, 77, 8192, 12) == 0);
  ibv_wc wc{};
  REQUIRE(pair.server->WaitWc(&wc));
  CHECK(wc.status == IBV_WC_SUCCESS);
  CHECK(wc.opcode == IBV_WC_RECV);
  CHECK(wc.byte_len == 12);
  CHECK(wc.wr_id == 0);
  CHECK(wc.qp_num == pair.server->id->qp->qp_num);
  CHECK((wc.wc_flags & IBV_WC_WITH_IMM) == 0);
  CHECK(std::memcmp(pair.server->buf, "hello fabric", 12) == 0);
  REQUIRE(pair.client->WaitWc(&wc));
  CHECK(wc.status == IBV_WC_SUCCESS);
  CHECK(wc.opcode == IBV_WC_SEND);
  CHECK(wc.wr_id == 77);
  // Unsignaled: delivered, but no completion on the sender.
  REQUIRE(pair.client->Post(IBV_WR_SEND, 78, 8192, 5, 0, 0, 0, 0) == 0);
  REQUIRE(pair.server->WaitWc(&wc));
  CHECK(wc.byte_len == 5);
  CHECK(Quiet(pair.client.get()));
  // Inline data comes from the WR at post time, not from a registered region.
  char inline_data[4] = {'a', 'b', 'c', 'd'};
  ibv_sge sge{reinterpret_cast<uintptr_t>(inline_data), 4, 0};
  ibv_send_wr wr{};
  wr.sg_list = &sge;
  wr.num_sge = 1;
  wr.opcode = IBV_WR_SEND;
  wr.send_flags = IBV_SEND_INLINE | IBV_SEND_SIGNALED;
  ibv_send_wr* bad = nullptr;
  REQUIRE(ibv_post_send(pair.client->id->qp, &wr, &bad) == 0);
  REQUIRE(pair.server->WaitWc(&wc));
  CHECK(wc.byte_len == 4);
  CHECK(std::memcmp(pair.server->buf + 512, "abcd", 4) == 0);
}

TEST_CASE("rdma fabric: WRITE_WITH_IMM lands in registered memory and completes with the imm") {
  PairForTest pair;
  REQUIRE(pair.Connect());
  for (int i = 0; i < 1000; ++i) pair.client->buf[4096 + i] = static_cast<uint8_t>(i * 7);
  uint64_t raddr = reinterpret_cast<uintptr_t>(pair.server->buf) + 20000;
  REQUIRE(pair.client->Post(IBV_WR_RDMA_WRITE_WITH_IMM, 5, 4096, 1000, htonl(1000), raddr,
                            pair.server->mr->rkey) == 0);
  ibv_wc wc{};
  REQUIRE(pair.server->WaitWc(&wc));
  CHECK(wc.status == IBV_WC_SUCCESS);
  CHECK(wc.opcode == IBV_WC_RECV_RDMA_WITH_IMM);
  CHECK((wc.wc_flags & IBV_WC_WITH_IMM) != 0);
  CHECK(wc.imm_data == htonl(1000));
  CHECK(wc.byte_len == 1000);
  CHECK(std::memcmp(pair.server->buf + 20000, pair.client->buf + 4096, 1000) == 0);
  REQUIRE(pair.client->WaitWc(&wc));
  CHECK(wc.status == IBV_WC_SUCCESS);
  CHECK(wc.opcode == IBV_WC_RDMA_WRITE);
  // A plain RDMA WRITE consumes no receive.
  REQUIRE(pair.client->Post(IBV_WR_RDMA_WRITE, 6, 4096, 100, 0, raddr + 5000,
                            pair.server->mr->rkey) == 0);
  REQUIRE(pair.client->WaitWc(&wc));
  CHECK(wc.status == IBV_WC_SUCCESS);
  CHECK(std::memcmp(pair.server->buf + 25000, pair.client->buf + 4096, 100) == 0);
  CHECK(Quiet(pair.server.get()));
}

TEST_CASE("rdma fabric: a write to a bad rkey is REM_ACCESS_ERR and errors the queue pair") {
  PairForTest pair;
  REQUIRE(pair.Connect());
  uint64_t raddr = reinterpret_cast<uintptr_t>(pair.server->buf);
  uint32_t rkey = pair.server->mr->rkey;
  SUBCASE("unknown rkey") {
    REQUIRE(pair.client->Post(IBV_WR_RDMA_WRITE_WITH_IMM, 1, 0, 64, 0, raddr, rkey ^ 0x5500) == 0);
  }
  SUBCASE("out of bounds") {
    REQUIRE(pair.client->Post(IBV_WR_RDMA_WRITE_WITH_IMM, 1, 0, 64, 0,
                              raddr + pair.server->buf_len - 32, rkey) == 0);
  }
  // Followed by one more request, which must be flushed.
  REQUIRE(pair.client->Post(IBV_WR_SEND, 2, 0, 8) == 0);
  ibv_wc wc{};
  REQUIRE(pair.client->WaitWc(&wc));
  CHECK(wc.wr_id == 1);
  CHECK(wc.status == IBV_WC_REM_ACCESS_ERR);
  REQUIRE(pair.client->WaitWc(&wc));
  CHECK(wc.status == IBV_WC_WR_FLUSH_ERR);
  CHECK(pair.client->id->qp->state == IBV_QPS_ERR);
}

TEST_CASE("rdma fabric: a region without remote write access refuses RDMA writes") {
  PairForTest pair;
  REQUIRE(pair.Connect());
  int access = IBV_ACCESS_LOCAL_WRITE;  // an int: the header's macro mixes enum types
  ibv_mr* ro = ibv_reg_mr(pair.server->pd, pair.server->buf, 4096, access);
  REQUIRE(ro != nullptr);
  REQUIRE(pair.client->Post(IBV_WR_RDMA_WRITE, 9, 0, 64, 0,
                            reinterpret_cast<uintptr_t>(pair.server->buf), ro->rkey) == 0);
  ibv_wc wc{};
  REQUIRE(pair.client->WaitWc(&wc));
  CHECK(wc.status == IBV_WC_REM_ACCESS_ERR);
  ibv_dereg_mr(ro);
}

TEST_CASE("rdma fabric: a bad local lkey completes LOC_PROT_ERR") {
  PairForTest pair;
  REQUIRE(pair.Connect());
  ibv_sge sge{reinterpret_cast<uintptr_t>(pair.client->buf), 16, pair.client->mr->lkey + 1};
  ibv_send_wr wr{};
  wr.wr_id = 3;
  wr.sg_list = &sge;
  wr.num_sge = 1;
  wr.opcode = IBV_WR_SEND;
  wr.send_flags = IBV_SEND_SIGNALED;
  ibv_send_wr* bad = nullptr;
  REQUIRE(ibv_post_send(pair.client->id->qp, &wr, &bad) == 0);
  ibv_wc wc{};
  REQUIRE(pair.client->WaitWc(&wc));
  CHECK(wc.wr_id == 3);
  CHECK(wc.status == IBV_WC_LOC_PROT_ERR);
}

TEST_CASE("rdma fabric: a SEND larger than the posted receive is LOC_LEN_ERR on the receiver") {
  PairForTest pair;
  REQUIRE(pair.Connect());
  REQUIRE(pair.client->Post(IBV_WR_SEND, 4, 0, 300) == 0);  // receives are 256 bytes
  ibv_wc wc{};
  REQUIRE(pair.server->WaitWc(&wc));
  CHECK(wc.status == IBV_WC_LOC_LEN_ERR);
  CHECK(wc.wr_id == 0);
  REQUIRE(pair.server->WaitWc(&wc));
  CHECK(wc.status == IBV_WC_WR_FLUSH_ERR);  // the other 7 receives
  REQUIRE(pair.client->WaitWc(&wc));
  CHECK(wc.wr_id == 4);
  CHECK(wc.status == IBV_WC_REM_INV_REQ_ERR);
}

TEST_CASE("rdma fabric: RNR with rnr_retry_count 0 fails with RNR_RETRY_EXC_ERR") {
  PairForTest pair;
  REQUIRE(pair.Connect(7, 0, 8, 0));  // the client's requests: rnr 0; the server posts nothing
  REQUIRE(pair.client->Post(IBV_WR_SEND, 1, 0, 10) == 0);
  ibv_wc wc{};
  REQUIRE(pair.client->WaitWc(&wc));
  CHECK(wc.status == IBV_WC_RNR_RETRY_EXC_ERR);
  CHECK(pair.client->id->qp->state == IBV_QPS_ERR);
}

TEST_CASE("rdma fabric: RNR with rnr_retry_count 7 delivers in order once receives are posted") {
  PairForTest pair;
  REQUIRE(pair.Connect(7, 7, 8, 0));
  std::memcpy(pair.client->buf, "first", 5);
  std::memcpy(pair.client->buf + 100, "second", 6);
  REQUIRE(pair.client->Post(IBV_WR_SEND, 1, 0, 5) == 0);
  REQUIRE(pair.client->Post(IBV_WR_SEND, 2, 100, 6) == 0);
  CHECK(Quiet(pair.client.get()));
  CHECK(Quiet(pair.server.get()));
  REQUIRE(pair.server->PostRecv(10, 0, 256) == 0);
  ibv_wc wc{};
  REQUIRE(pair.server->WaitWc(&wc));
  CHECK(wc.wr_id == 10);
  CHECK(wc.byte_len == 5);
  CHECK(std::memcmp(pair.server->buf, "first", 5) == 0);
  REQUIRE(pair.client->WaitWc(&wc));
  CHECK(wc.wr_id == 1);
  CHECK(Quiet(pair.client.get()));  // the second still waits
  REQUIRE(pair.server->PostRecv(11, 256, 256) == 0);
  REQUIRE(pair.server->WaitWc(&wc));
  CHECK(wc.byte_len == 6);
  REQUIRE(pair.client->WaitWc(&wc));
  CHECK(wc.wr_id == 2);
}

TEST_CASE("rdma fabric: posting past max_send_wr or max_recv_wr fails with ENOMEM") {
  PairForTest pair;
  REQUIRE(pair.Connect(7, 7, 16, 0));  // the client's 16 receives fill its receive queue
  CHECK(pair.client->PostRecv(99, 0, 16) == ENOMEM);
  for (int i = 0; i < 16; ++i) REQUIRE(pair.client->Post(IBV_WR_SEND, i, 0, 8) == 0);
  CHECK(pair.client->Post(IBV_WR_SEND, 16, 0, 8) == ENOMEM);
}

TEST_CASE("rdma fabric: channel fds poll readable only with events and say EAGAIN when empty") {
  PairForTest pair;
  REQUIRE(pair.Connect());
  rdma_cm_event* ev = nullptr;
  errno = 0;
  CHECK(rdma_get_cm_event(pair.client_channel, &ev) == -1);
  CHECK(errno == EAGAIN);
  ibv_cq* cq = nullptr;
  void* ctx = nullptr;
  errno = 0;
  CHECK(ibv_get_cq_event(pair.server->comp, &cq, &ctx) == -1);
  CHECK(errno == EAGAIN);
  // The server's CQ is armed (Setup): one completion gives exactly one event.
  REQUIRE(pair.client->Post(IBV_WR_SEND, 1, 0, 8) == 0);
  REQUIRE(pair.client->Post(IBV_WR_SEND, 2, 0, 8) == 0);
  pollfd p{pair.server->comp->fd, POLLIN, 0};
  REQUIRE(poll(&p, 1, 5000) == 1);
  REQUIRE(ibv_get_cq_event(pair.server->comp, &cq, &ctx) == 0);
  CHECK(cq == pair.server->cq);
  CHECK(ctx == pair.server.get());
  ibv_ack_cq_events(cq, 1);
  ibv_wc wc[4];
  int got = 0;
  for (int spins = 0; got < 2 && spins < 1000; ++spins) {
    got += ibv_poll_cq(cq, 4, wc + got);
    if (got < 2) poll(nullptr, 0, 1);
  }
  CHECK(got == 2);
  CHECK(ibv_get_cq_event(pair.server->comp, &cq, &ctx) == -1);  // not re-armed: no event
  CHECK(errno == EAGAIN);
  CHECK(ibv_destroy_cq(cq) == EBUSY);  // its queue pair still uses it
}
