// INFO rendering: the host's sections (server, clients, memory, stats, cpu, keyspace, plugins,
// commandstats, errorstats) and the sections plugins registered. Main thread only.
#pragma once

#include <plinth/plugin.h>

#include <string>
#include <string_view>

struct plinth_info {
  std::string* out;
};

namespace plinth::host {

// Appends one INFO line, "name:value" and the line end. Every INFO field the host writes goes
// through these.
void InfoLine(std::string* out, std::string_view name, std::string_view value);
void InfoLine(std::string* out, std::string_view name, int64_t value);
void InfoField(plinth_info_t* info, const char* name, const char* value, size_t len);
void InfoFieldInt(plinth_info_t* info, const char* name, int64_t value);
// Bytes as INFO's *_human fields print them: "812B", "1.50K", "100.00M", "2.00G".
std::string HumanBytes(int64_t bytes);

}  // namespace plinth::host
