// The string verbs: short names for completion statuses, async events, node types and port
// states, for logs. Any thread.
#include <infiniband/verbs.h>

namespace {

template <size_t N>
const char* Lookup(const char* const (&names)[N], unsigned i) {
  return i < N ? names[i] : "unknown";
}

}  // namespace

extern "C" {

const char* ibv_wc_status_str(enum ibv_wc_status status) {
  static const char* const kNames[] = {
      "success",
      "local length error",
      "local QP operation error",
      "local EE context operation error",
      "local protection error",
      "work request flushed",
      "memory window bind error",
      "bad response",
      "local access error",
      "remote invalid request",
      "remote access error",
      "remote operation error",
      "transport retries exceeded",
      "RNR retries exceeded",
      "local RDD violation",
      "remote invalid RD request",
      "aborted",
      "invalid EE context number",
      "invalid EE context state",
      "fatal error",
      "response timeout",
      "general error",
      "tag matching error",
      "tag matching rendezvous pending",
  };
  return Lookup(kNames, static_cast<unsigned>(status));
}

const char* ibv_event_type_str(enum ibv_event_type event) {
  static const char* const kNames[] = {
      "CQ error",
      "QP fatal error",
      "QP invalid request error",
      "QP access error",
      "communication established",
      "send queue drained",
      "path migrated",
      "path migration error",
      "device fatal error",
      "port active",
      "port error",
      "LID changed",
      "P_Key changed",
      "SM changed",
      "SRQ error",
      "SRQ limit reached",
      "QP last WQE reached",
      "client reregister",
      "GID changed",
      "WQ fatal error",
  };
  return Lookup(kNames, static_cast<unsigned>(event));
}

const char* ibv_node_type_str(enum ibv_node_type node_type) {
  switch (node_type) {
    case IBV_NODE_CA:
      return "channel adapter";
    case IBV_NODE_SWITCH:
      return "switch";
    case IBV_NODE_ROUTER:
      return "router";
    case IBV_NODE_RNIC:
      return "RDMA NIC";
    default:
      return "unknown";
  }
}

const char* ibv_port_state_str(enum ibv_port_state port_state) {
  static const char* const kNames[] = {"nop", "down", "init", "armed", "active", "active defer"};
  return Lookup(kNames, static_cast<unsigned>(port_state));
}

}  // extern "C"
