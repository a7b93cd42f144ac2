// A listener and one connection through it, both ends in this process, for the fabric's tests.
#ifndef PLINTH_TESTS_RDMA_FABRIC_FABRIC_PAIR_H_
#define PLINTH_TESTS_RDMA_FABRIC_FABRIC_PAIR_H_

#include <arpa/inet.h>

#include <memory>

#include "fabric_harness.h"

namespace plinth::rdma_fabric {

struct PairForTest {
  rdma_event_channel* server_channel = CreateChannelForTest();
  rdma_event_channel* client_channel = CreateChannelForTest();
  rdma_cm_id* listener = nullptr;
  uint16_t port = 0;
  std::unique_ptr<EndForTest> server = std::make_unique<EndForTest>();
  std::unique_ptr<EndForTest> client = std::make_unique<EndForTest>();

  ~PairForTest() {
    client.reset();
    server.reset();
    if (listener != nullptr) rdma_destroy_id(listener);
    if (client_channel != nullptr) rdma_destroy_event_channel(client_channel);
    if (server_channel != nullptr) rdma_destroy_event_channel(server_channel);
  }

  // Listens on 127.0.0.1 with a port the fabric picks.
  bool Listen() {
    if (server_channel == nullptr || client_channel == nullptr) return false;
    if (rdma_create_id(server_channel, &listener, nullptr, RDMA_PS_TCP) != 0) return false;
    sockaddr_in sin{};
    sin.sin_family = AF_INET;
    sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (rdma_bind_addr(listener, reinterpret_cast<sockaddr*>(&sin)) != 0) return false;
    if (rdma_listen(listener, 8) != 0) return false;
    port = ntohs(reinterpret_cast<sockaddr_in*>(rdma_get_local_addr(listener))->sin_port);
    return port != 0;
  }

  // Listens, connects, accepts and waits for ESTABLISHED on both ends. The client's QP retries
  // RNR "accept_rnr" times and the server's "connect_rnr" times (the IB CM's rule).
  bool Connect(uint8_t connect_rnr = 7, uint8_t accept_rnr = 7, int client_recvs = 8,
               int server_recvs = 8) {
    if (!Listen()) return false;
    if (!StartConnectForTest(client_channel, client.get(), port, connect_rnr, client_recvs))
      return false;
    rdma_cm_id* child = nullptr;
    rdma_cm_id* listen_id = nullptr;
    if (WaitEventForTest(server_channel, &child, nullptr, &listen_id) !=
        RDMA_CM_EVENT_CONNECT_REQUEST)
      return false;
    if (listen_id != listener || !server->Setup(child)) return false;
    for (int i = 0; i < server_recvs; ++i) {
      if (server->PostRecv(static_cast<uint64_t>(i), static_cast<size_t>(i) * 256, 256) != 0)
        return false;
    }
    rdma_conn_param param{};
    param.responder_resources = 1;
    param.initiator_depth = 1;
    param.rnr_retry_count = accept_rnr;
    if (rdma_accept(child, &param) != 0) return false;
    return WaitEventForTest(client_channel) == RDMA_CM_EVENT_ESTABLISHED &&
           WaitEventForTest(server_channel) == RDMA_CM_EVENT_ESTABLISHED;
  }
};

}  // namespace plinth::rdma_fabric

#endif  // PLINTH_TESTS_RDMA_FABRIC_FABRIC_PAIR_H_
