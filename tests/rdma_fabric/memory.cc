// Protection domains and memory regions. A region's lkey and rkey are the same key, looked up
// in the process's registry when a local SGE or a remote request names it. Any thread.
#include <cerrno>
#include <cstdint>

#include "core.h"

#undef ibv_reg_mr
#undef ibv_reg_mr_iova

using namespace plinth::rdma_fabric;

namespace {

ibv_mr* RegisterMr(ibv_pd* pd, void* addr, size_t length, uint64_t iova, int access) {
  if (pd == nullptr || (addr == nullptr && length > 0)) {
    errno = EINVAL;
    return nullptr;
  }
  // As the verbs spec demands: remote write or atomic access needs local write.
  if ((access & (IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_ATOMIC)) &&
      !(access & IBV_ACCESS_LOCAL_WRITE)) {
    errno = EINVAL;
    return nullptr;
  }
  Fabric& f = TheFabric();
  std::lock_guard<std::mutex> lock(f.mu);
  uint32_t key;
  do {
    key = f.next_key;
    f.next_key += 0x101;  // keys are not small consecutive numbers a buggy peer hits by luck
  } while (key == 0 || f.mrs.count(key) != 0);
  auto* mr = new Mr();
  mr->ibv.context = pd->context;
  mr->ibv.pd = pd;
  mr->ibv.addr = addr;
  mr->ibv.length = length;
  mr->ibv.handle = key;
  mr->ibv.lkey = key;
  mr->ibv.rkey = key;
  mr->iova = iova;
  mr->access = access;
  f.mrs[key] = mr;
  return &mr->ibv;
}

}  // namespace

extern "C" {

struct ibv_pd* ibv_alloc_pd(struct ibv_context* context) {
  auto* pd = new Pd();
  pd->ibv.context = context;
  return &pd->ibv;
}

int ibv_dealloc_pd(struct ibv_pd* pd) {
  delete From<Pd>(pd);
  return 0;
}

struct ibv_mr* ibv_reg_mr(struct ibv_pd* pd, void* addr, size_t length, int access) {
  return RegisterMr(pd, addr, length, reinterpret_cast<uintptr_t>(addr), access);
}

struct ibv_mr* ibv_reg_mr_iova(struct ibv_pd* pd, void* addr, size_t length, uint64_t iova,
                               int access) {
  return RegisterMr(pd, addr, length, iova, access);
}

struct ibv_mr* ibv_reg_mr_iova2(struct ibv_pd* pd, void* addr, size_t length, uint64_t iova,
                                unsigned int access) {
  return RegisterMr(pd, addr, length, iova, static_cast<int>(access));
}

int ibv_dereg_mr(struct ibv_mr* ibv) {
  Fabric& f = TheFabric();
  std::lock_guard<std::mutex> lock(f.mu);
  f.mrs.erase(ibv->lkey);
  delete From<Mr>(ibv);
  return 0;
}

}  // extern "C"
