// INFO and TIME. INFO text is rendered by the host one section at a time and sent as a bulk
// string (RESP2) or a "txt" verbatim string (RESP3), like Redis. Main thread.
#include <string>

#include "server/handlers.h"
#include "server/server_args.h"

namespace plinth::server {

using sdk::Api;

std::vector<std::string_view> ArgsFrom(const Call& c, int from) {
  std::vector<std::string_view> out;
  for (int i = from; i < c.argc(); ++i) out.push_back(c.arg(i));
  return out;
}

void ReplyHelp(const Call& c, std::initializer_list<std::string_view> lines) {
  c.Array(static_cast<int64_t>(lines.size()));
  for (std::string_view l : lines) c.Simple(l);
}

namespace {

std::string Render(const Call& c, std::string_view section) {
  std::string text;
  auto emit = [](void* arg, const char* data, size_t len) {
    static_cast<std::string*>(arg)->append(data, len);
  };
  Api().info_render(c.raw(), section.data(), section.size(), emit, &text);
  return text;
}

}  // namespace

void Info(Call& c) {
  std::vector<std::string> sections = InfoSections(ArgsFrom(c, 1));
  std::string text;
  if (sections.empty()) text = Render(c, "");
  for (const std::string& s : sections) {
    std::string part = Render(c, s);
    if (part.empty()) continue;
    // Sections are separated by one empty line, as in a single multi-section render.
    if (!text.empty()) text += "\r\n";
    text += part;
  }
  c.Verbatim("txt", text);
}

void Time(Call& c) {
  int64_t us = Api().time_us(plinth::sdk::Host::self);
  c.Array(2);
  c.Bulk(std::to_string(us / 1000000));
  c.Bulk(std::to_string(us % 1000000));
}

}  // namespace plinth::server
