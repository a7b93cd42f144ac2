// The requester half of an RC queue pair: ibv_post_send turns each work request into one frame
// on the queue pair's link, and the responder's in-order ACK/NAK frames complete them. A send
// completes only once the peer has handled it, so RC ordering and remote errors are real.
#include <cerrno>

#include "core.h"

namespace plinth::rdma_fabric {
namespace {

constexpr uint64_t kMaxMessage = 1ULL << 31;

bool OpcodeFor(ibv_wr_opcode op, ibv_wc_opcode* wc_op) {
  switch (op) {
    case IBV_WR_SEND:
    case IBV_WR_SEND_WITH_IMM:
      *wc_op = IBV_WC_SEND;
      return true;
    case IBV_WR_RDMA_WRITE:
    case IBV_WR_RDMA_WRITE_WITH_IMM:
      *wc_op = IBV_WC_RDMA_WRITE;
      return true;
    default:
      return false;
  }
}

// Whether the local SGE names a region of the queue pair's PD that covers it.
bool LocalSgeValid(const Qp* qp, const ibv_sge& sge) {
  if (sge.length == 0) return true;
  Mr* mr = FindMr(sge.lkey);
  if (mr == nullptr || mr->ibv.pd != qp->ibv.pd) return false;
  auto base = reinterpret_cast<uintptr_t>(mr->ibv.addr);
  return sge.addr >= base && sge.addr - base <= mr->ibv.length &&
         sge.length <= mr->ibv.length - (sge.addr - base);
}

void Complete(Qp* qp, uint64_t wr_id, ibv_wc_opcode opcode, ibv_wc_status status,
              uint32_t byte_len) {
  ibv_wc wc{};
  wc.wr_id = wr_id;
  wc.status = status;
  wc.opcode = opcode;
  wc.byte_len = byte_len;
  wc.qp_num = qp->ibv.qp_num;
  CqPush(From<Cq>(qp->ibv.send_cq), wc);
}

// Posts one work request; returns 0 or the errno ibv_post_send reports for it.
int PostOne(Qp* qp, const ibv_send_wr* wr) {
  ibv_wc_opcode wc_op;
  if (!OpcodeFor(wr->opcode, &wc_op)) return EINVAL;
  if (wr->num_sge < 0 || static_cast<uint32_t>(wr->num_sge) > qp->cap.max_send_sge) return EINVAL;
  if (qp->ibv.state == IBV_QPS_ERR) {
    Complete(qp, wr->wr_id, wc_op, IBV_WC_WR_FLUSH_ERR, 0);
    return 0;
  }
  if (qp->ibv.state != IBV_QPS_RTS || qp->link == nullptr) return EINVAL;
  if (qp->outstanding.size() >= qp->cap.max_send_wr) return ENOMEM;
  uint64_t total = 0;
  for (int i = 0; i < wr->num_sge; ++i) total += wr->sg_list[i].length;
  if (total > kMaxMessage) return EINVAL;
  bool is_inline = (wr->send_flags & IBV_SEND_INLINE) != 0;
  if (is_inline && total > qp->cap.max_inline_data) return EINVAL;
  if (!is_inline) {
    for (int i = 0; i < wr->num_sge; ++i) {
      if (LocalSgeValid(qp, wr->sg_list[i])) continue;
      Complete(qp, wr->wr_id, wc_op, IBV_WC_LOC_PROT_ERR, 0);
      fabric_qp_flush(&qp->ibv);
      return 0;
    }
  }
  FrameHeader h{};
  bool is_send = wc_op == IBV_WC_SEND;
  h.type = is_send ? kFrameSend : kFrameWrite;
  if (wr->opcode == IBV_WR_SEND_WITH_IMM || wr->opcode == IBV_WR_RDMA_WRITE_WITH_IMM) {
    h.flags |= kFlagImm;
    h.imm = wr->imm_data;
  }
  if (qp->rnr_retry >= 7) h.flags |= kFlagRnrForever;
  h.len = static_cast<uint32_t>(total);
  if (!is_send) {
    h.raddr = wr->wr.rdma.remote_addr;
    h.rkey = wr->wr.rdma.rkey;
  }
  LinkAppend(qp->link, &h, sizeof h);
  for (int i = 0; i < wr->num_sge; ++i) {
    const ibv_sge& sge = wr->sg_list[i];
    LinkAppend(qp->link, reinterpret_cast<const void*>(sge.addr), sge.length);
  }
  bool signaled = qp->sq_sig_all || (wr->send_flags & IBV_SEND_SIGNALED);
  qp->outstanding.push_back(SendEntry{wr->wr_id, wc_op, h.len, signaled});
  if (is_send) {
    Count(kSendsPosted);
    Count(kBytesSent, total);
  } else {
    Count((h.flags & kFlagImm) ? kWritesWithImmPosted : kWritesPosted);
    Count(kBytesWritten, total);
  }
  return 0;
}

}  // namespace

int PostSend(ibv_qp* ibv, ibv_send_wr* wr, ibv_send_wr** bad_wr) {
  Qp* qp = From<Qp>(ibv);
  std::lock_guard<std::mutex> lock(TheFabric().mu);
  int rc = 0;
  for (; wr != nullptr; wr = wr->next) {
    rc = PostOne(qp, wr);
    if (rc != 0) {
      *bad_wr = wr;
      break;
    }
  }
  if (qp->link != nullptr) LinkFlush(qp->link);
  return rc;
}

// The responder handled the oldest "n" requests.
void QpAcked(Qp* qp, uint32_t n) {
  while (n-- > 0 && !qp->outstanding.empty()) {
    SendEntry e = qp->outstanding.front();
    qp->outstanding.pop_front();
    if (e.signaled) Complete(qp, e.wr_id, e.opcode, IBV_WC_SUCCESS, e.byte_len);
  }
}

// The responder refused the oldest request: it completes with "status" (signaled or not), and
// the queue pair moves to the error state, flushing the rest.
void QpNaked(Qp* qp, ibv_wc_status status) {
  if (qp->outstanding.empty()) return;
  SendEntry e = qp->outstanding.front();
  qp->outstanding.pop_front();
  Complete(qp, e.wr_id, e.opcode, status, 0);
  fabric_qp_flush(&qp->ibv);
}

}  // namespace plinth::rdma_fabric
