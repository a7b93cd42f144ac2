// A client that dies in the middle of a request: connects over RDMA to 127.0.0.1:<port>,
// sends the start of a SET whose 8 MB value never comes whole (3 MiB of it, across buffer
// refreshes), then kills itself with SIGKILL, as a crashed peer would. Exit 1 when it cannot
// connect. For plugin_test.cc, which cannot fork once its own fabric threads run.
#include <signal.h>

#include <cstdio>
#include <cstdlib>
#include <string>

#include "rdma/client.h"

int main(int argc, char** argv) {
  if (argc != 2) return 2;
  plinth::rdma::RdmaClient client;
  std::string error;
  if (!client.Connect("127.0.0.1", std::atoi(argv[1]), {}, &error)) {
    std::fprintf(stderr, "dying_client: %s\n", error.c_str());
    return 1;
  }
  std::string partial = "*3\r\n$3\r\nSET\r\n$4\r\nhalf\r\n$8000000\r\n";
  partial += std::string(3 << 20, 'x');
  if (!client.SendAll(partial)) return 1;
  raise(SIGKILL);
  return 1;
}
