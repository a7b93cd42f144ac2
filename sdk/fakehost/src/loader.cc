// Loading a plugin into the fake host: the same checks as the real loader, in the same order
// and with the same stages (entry, abi, descriptor, init), then init with rollback on failure.
// Main thread.
#include <cstddef>
#include <string>

#include "internal.h"

namespace plinth::fakehost {
namespace {

// The part of the descriptor a host reads before trusting struct_size: up to abi_minor.
constexpr size_t kDescriptorHead =
    offsetof(plinth_plugin_descriptor_t, abi_minor) + sizeof(uint32_t);

// [a-z0-9_-]{1,32}
bool ValidPluginName(const char* s) {
  size_t n = 0;
  for (; s[n]; ++n) {
    const char c = s[n];
    if (n >= 32 || !((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '-'))
      return false;
  }
  return n > 0;
}

std::string Version(uint32_t major, uint32_t minor) {
  return std::to_string(major) + "." + std::to_string(minor);
}

}  // namespace

bool FakeHost::Impl::FailLoad(std::string_view path, std::string_view stage,
                              std::string_view reason) {
  load_error =
      "plugin " + std::string(path) + ": " + std::string(stage) + ": " + std::string(reason);
  Log(nullptr, PLINTH_LOG_WARNING, load_error);
  return false;
}

bool FakeHost::Impl::LoadDescriptor(const plinth_plugin_descriptor_t* d, std::string_view path) {
  load_error.clear();
  if (!d) return FailLoad(path, "entry", PLINTH_ENTRY_SYMBOL " returned NULL");
  if (d->struct_size < kDescriptorHead)
    return FailLoad(path, "descriptor",
                    "descriptor too short (" + std::to_string(d->struct_size) + " bytes)");
  if (d->abi_major != PLINTH_ABI_MAJOR || d->abi_minor > PLINTH_ABI_MINOR)
    return FailLoad(path, "abi",
                    "plugin ABI " + Version(d->abi_major, d->abi_minor) + ", host ABI " +
                        Version(PLINTH_ABI_MAJOR, PLINTH_ABI_MINOR) +
                        (d->abi_major != PLINTH_ABI_MAJOR ? " (major differs)"
                                                          : " (plugin needs a newer host)"));
  if (d->struct_size < sizeof(plinth_plugin_descriptor_t))
    return FailLoad(path, "descriptor",
                    "descriptor too short (" + std::to_string(d->struct_size) + " bytes, ABI " +
                        Version(PLINTH_ABI_MAJOR, 0) + " needs " +
                        std::to_string(sizeof(plinth_plugin_descriptor_t)) + ")");
  auto rec = std::make_unique<PluginRec>();
  if (!CopySpec(d, &rec->desc))
    return FailLoad(path, "descriptor", "unknown non-zero fields past the known descriptor");
  const plinth_plugin_descriptor_t& desc = rec->desc;
  for (void* r : desc.reserved)
    if (r) return FailLoad(path, "descriptor", "reserved fields must be NULL");
  if (!desc.name) return FailLoad(path, "descriptor", "name is NULL");
  if (!ValidPluginName(desc.name))
    return FailLoad(path, "descriptor",
                    "invalid name '" + std::string(desc.name) + "' (want [a-z0-9_-]{1,32})");
  if (!desc.init) return FailLoad(path, "descriptor", "init is NULL");
  for (const auto& p : plugins)
    if (p->name == desc.name)
      return FailLoad(path, "descriptor",
                      "duplicate name '" + p->name + "' (already loaded from " + p->path + ")");

  rec->host = this;
  rec->name = desc.name;
  rec->path = std::string(path);
  PluginRec* p = rec.get();
  p->in_init = true;
  loading = p;
  const int32_t rc = desc.init(reinterpret_cast<plinth_plugin_t*>(p), &table);
  loading = nullptr;
  p->in_init = false;
  if (rc != PLINTH_OK) {
    Rollback(p);
    failed.push_back(std::move(rec));
    std::string reason = "init returned an error";
    if (!p->last_warning.empty()) reason += ": " + p->last_warning;
    return FailLoad(path, "init", reason);
  }
  plugins.push_back(std::move(rec));
  return true;
}

}  // namespace plinth::fakehost
