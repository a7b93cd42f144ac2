// Queue pair lifecycle (create, modify, query, destroy), the receive queue and the flush to the
// error state. Only RC queue pairs exist; rdma_cm connects them (fabric_link_attach_qp).
#include <cerrno>
#include <cstring>

#include "core.h"

namespace plinth::rdma_fabric {
namespace {

constexpr uint32_t kMaxWr = 16384;
constexpr uint32_t kMaxSge = 32;
constexpr uint32_t kMaxInline = 1024;

ibv_wc FlushWc(const Qp* qp, uint64_t wr_id, ibv_wc_opcode opcode) {
  ibv_wc wc{};
  wc.wr_id = wr_id;
  wc.status = IBV_WC_WR_FLUSH_ERR;
  wc.opcode = opcode;
  wc.qp_num = qp->ibv.qp_num;
  return wc;
}

}  // namespace

int PostRecv(ibv_qp* ibv, ibv_recv_wr* wr, ibv_recv_wr** bad_wr) {
  Qp* qp = From<Qp>(ibv);
  std::lock_guard<std::mutex> lock(TheFabric().mu);
  for (; wr != nullptr; wr = wr->next) {
    if (wr->num_sge < 0 || static_cast<uint32_t>(wr->num_sge) > qp->cap.max_recv_sge) {
      *bad_wr = wr;
      return EINVAL;
    }
    if (qp->ibv.state == IBV_QPS_ERR) {
      // Like real providers: a receive posted to a queue pair in error flushes at once.
      CqPush(From<Cq>(qp->ibv.recv_cq), FlushWc(qp, wr->wr_id, IBV_WC_RECV));
      continue;
    }
    if (qp->recvs.size() >= qp->cap.max_recv_wr) {
      *bad_wr = wr;
      return ENOMEM;
    }
    RecvEntry entry{wr->wr_id, std::vector<ibv_sge>(wr->sg_list, wr->sg_list + wr->num_sge)};
    qp->recvs.push_back(std::move(entry));
  }
  if (qp->link != nullptr && !qp->link->waiting.empty()) QpDeliverWaiting(qp->link);
  return 0;
}

}  // namespace plinth::rdma_fabric

using namespace plinth::rdma_fabric;

extern "C" {

void fabric_qp_flush(struct ibv_qp* ibv) {
  Qp* qp = From<Qp>(ibv);
  qp->ibv.state = IBV_QPS_ERR;
  Cq* send_cq = From<Cq>(qp->ibv.send_cq);
  for (const SendEntry& e : qp->outstanding) CqPush(send_cq, FlushWc(qp, e.wr_id, e.opcode));
  qp->outstanding.clear();
  Cq* recv_cq = From<Cq>(qp->ibv.recv_cq);
  for (const RecvEntry& r : qp->recvs) CqPush(recv_cq, FlushWc(qp, r.wr_id, IBV_WC_RECV));
  qp->recvs.clear();
  if (qp->link != nullptr) qp->link->waiting.clear();
}

struct ibv_qp* ibv_create_qp(struct ibv_pd* pd, struct ibv_qp_init_attr* attr) {
  if (pd == nullptr || attr == nullptr || attr->send_cq == nullptr || attr->recv_cq == nullptr) {
    errno = EINVAL;
    return nullptr;
  }
  if (attr->qp_type != IBV_QPT_RC || attr->srq != nullptr) {
    errno = EOPNOTSUPP;
    return nullptr;
  }
  ibv_qp_cap& cap = attr->cap;
  if (cap.max_send_wr > kMaxWr || cap.max_recv_wr > kMaxWr || cap.max_send_sge > kMaxSge ||
      cap.max_recv_sge > kMaxSge || cap.max_inline_data > kMaxInline) {
    errno = EINVAL;
    return nullptr;
  }
  if (cap.max_inline_data < 64) cap.max_inline_data = 64;
  auto* qp = new Qp();
  qp->cap = cap;
  qp->sq_sig_all = attr->sq_sig_all != 0;
  qp->ibv.context = pd->context;
  qp->ibv.qp_context = attr->qp_context;
  qp->ibv.pd = pd;
  qp->ibv.send_cq = attr->send_cq;
  qp->ibv.recv_cq = attr->recv_cq;
  qp->ibv.state = IBV_QPS_RESET;
  qp->ibv.qp_type = IBV_QPT_RC;
  pthread_mutex_init(&qp->ibv.mutex, nullptr);
  pthread_cond_init(&qp->ibv.cond, nullptr);
  std::lock_guard<std::mutex> lock(TheFabric().mu);
  From<Cq>(attr->send_cq)->qps++;
  From<Cq>(attr->recv_cq)->qps++;
  qp->ibv.qp_num = TheFabric().next_qpn++ & 0xffffff;
  qp->ibv.handle = qp->ibv.qp_num;
  return &qp->ibv;
}

int ibv_destroy_qp(struct ibv_qp* ibv) {
  Qp* qp = From<Qp>(ibv);
  {
    std::lock_guard<std::mutex> lock(TheFabric().mu);
    if (qp->link != nullptr) {
      qp->link->waiting.clear();
      qp->link->qp = nullptr;
    }
    From<Cq>(qp->ibv.send_cq)->qps--;
    From<Cq>(qp->ibv.recv_cq)->qps--;
  }
  pthread_mutex_destroy(&ibv->mutex);
  pthread_cond_destroy(&ibv->cond);
  delete qp;
  return 0;
}

int ibv_modify_qp(struct ibv_qp* ibv, struct ibv_qp_attr* attr, int attr_mask) {
  Qp* qp = From<Qp>(ibv);
  std::lock_guard<std::mutex> lock(TheFabric().mu);
  if (attr_mask & IBV_QP_RNR_RETRY) qp->rnr_retry = attr->rnr_retry;
  if (attr_mask & IBV_QP_STATE) {
    if (attr->qp_state == IBV_QPS_ERR) {
      fabric_qp_flush(ibv);
    } else if (attr->qp_state == IBV_QPS_RESET) {
      qp->outstanding.clear();
      qp->recvs.clear();
      qp->ibv.state = IBV_QPS_RESET;
    } else if (qp->ibv.state != IBV_QPS_ERR) {
      qp->ibv.state = attr->qp_state;
    }
  }
  return 0;
}

int ibv_query_qp(struct ibv_qp* ibv, struct ibv_qp_attr* attr, int, struct ibv_qp_init_attr* init) {
  Qp* qp = From<Qp>(ibv);
  std::lock_guard<std::mutex> lock(TheFabric().mu);
  std::memset(attr, 0, sizeof *attr);
  attr->qp_state = qp->ibv.state;
  attr->cur_qp_state = qp->ibv.state;
  attr->path_mtu = IBV_MTU_4096;
  attr->qp_access_flags = IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ;
  attr->cap = qp->cap;
  attr->max_rd_atomic = 1;
  attr->max_dest_rd_atomic = 1;
  attr->timeout = 14;
  attr->retry_cnt = 7;
  attr->rnr_retry = qp->rnr_retry;
  attr->port_num = 1;
  if (init != nullptr) {
    std::memset(init, 0, sizeof *init);
    init->qp_context = qp->ibv.qp_context;
    init->send_cq = qp->ibv.send_cq;
    init->recv_cq = qp->ibv.recv_cq;
    init->cap = qp->cap;
    init->qp_type = IBV_QPT_RC;
    init->sq_sig_all = qp->sq_sig_all;
  }
  return 0;
}

}  // extern "C"
