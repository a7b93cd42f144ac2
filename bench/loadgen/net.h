// Socket helpers of the load generator: connecting, and filling the server with keys before a
// run. Blocking calls, used only outside the timed loop.
#pragma once

#include <initializer_list>
#include <string>
#include <string_view>

namespace plinth::loadgen {

// A connected TCP socket to host:port with TCP_NODELAY, or -1 with *err.
int Connect(const std::string& host, int port, std::string* err);

// The name of key i: "key:%012d", the form redis-benchmark -r uses.
std::string KeyName(int i);

// Appends a RESP command of args (multibulk form) to out.
void AppendCommand(std::string* out, std::initializer_list<std::string_view> args);

// Stores keys 0..keys-1 with values of value_size bytes through fd (pipelined SETs in batches).
// Returns false with *err when the connection fails or a SET is refused.
bool Preload(int fd, int keys, int value_size, std::string* err);

}  // namespace plinth::loadgen
