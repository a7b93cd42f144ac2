// rdma_getaddrinfo and the small rdma_cm queries: addresses resolve through the libc resolver
// (numeric hosts in practice) into one rdma_addrinfo for an RC queue pair in RDMA_PS_TCP.
#include <netdb.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>

#include "cm.h"

using namespace plinth::rdma_fabric;

namespace {

sockaddr* CopyAddr(const sockaddr* addr, socklen_t len) {
  auto* copy = static_cast<sockaddr*>(calloc(1, sizeof(sockaddr_storage)));
  if (copy != nullptr) std::memcpy(copy, addr, len);
  return copy;
}

}  // namespace

extern "C" {

int rdma_getaddrinfo(const char* node, const char* service, const struct rdma_addrinfo* hints,
                     struct rdma_addrinfo** res) {
  int flags = hints != nullptr ? hints->ai_flags : 0;
  addrinfo want{};
  want.ai_family = hints != nullptr ? hints->ai_family : AF_UNSPEC;
  want.ai_socktype = SOCK_STREAM;
  if (flags & RAI_PASSIVE) want.ai_flags |= AI_PASSIVE;
  if (flags & RAI_NUMERICHOST) want.ai_flags |= AI_NUMERICHOST;
  addrinfo* found = nullptr;
  int rc = getaddrinfo(node, service, &want, &found);
  if (rc != 0 || found == nullptr) {
    errno = rc == EAI_SYSTEM ? errno : EADDRNOTAVAIL;
    return -1;
  }
  auto* ai = static_cast<rdma_addrinfo*>(calloc(1, sizeof(rdma_addrinfo)));
  sockaddr* addr = CopyAddr(found->ai_addr, found->ai_addrlen);
  if (ai == nullptr || addr == nullptr) {
    free(ai);
    free(addr);
    freeaddrinfo(found);
    errno = ENOMEM;
    return -1;
  }
  ai->ai_flags = flags;
  ai->ai_family = found->ai_family;
  ai->ai_qp_type = hints != nullptr && hints->ai_qp_type != 0 ? hints->ai_qp_type : IBV_QPT_RC;
  ai->ai_port_space =
      hints != nullptr && hints->ai_port_space != 0 ? hints->ai_port_space : RDMA_PS_TCP;
  if (flags & RAI_PASSIVE) {
    ai->ai_src_addr = addr;
    ai->ai_src_len = found->ai_addrlen;
  } else {
    ai->ai_dst_addr = addr;
    ai->ai_dst_len = found->ai_addrlen;
  }
  freeaddrinfo(found);
  *res = ai;
  return 0;
}

void rdma_freeaddrinfo(struct rdma_addrinfo* res) {
  while (res != nullptr) {
    rdma_addrinfo* next = res->ai_next;
    free(res->ai_src_addr);
    free(res->ai_dst_addr);
    free(res->ai_src_canonname);
    free(res->ai_dst_canonname);
    free(res->ai_route);
    free(res->ai_connect);
    free(res);
    res = next;
  }
}

struct ibv_context** rdma_get_devices(int* num_devices) {
  auto** list = static_cast<ibv_context**>(calloc(2, sizeof(ibv_context*)));
  if (list == nullptr) return nullptr;
  list[0] = fabric_default_context();
  if (num_devices != nullptr) *num_devices = list[0] != nullptr ? 1 : 0;
  return list;
}

void rdma_free_devices(struct ibv_context** list) { free(list); }

__be16 rdma_get_src_port(struct rdma_cm_id* id) {
  return htons(AddrPort(&id->route.addr.src_addr));
}

__be16 rdma_get_dst_port(struct rdma_cm_id* id) {
  return htons(AddrPort(&id->route.addr.dst_addr));
}

}  // extern "C"
