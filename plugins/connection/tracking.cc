// Client-side caching's tables, after Redis 7.0's tracking.c: the key table (key name ->
// clients that read it; a key is forgotten once invalidated, whatever the database), the
// prefix table of BCAST clients, and each client's pending invalidations of its own writes.
#include "connection/tracking.h"

#include <algorithm>
#include <plinth/text.hpp>
#include <utility>

#include "common/subcommand.h"

namespace plinth::connection {

namespace {

// Whether one of a and b starts with the other (Redis's stringCheckPrefix).
bool Overlap(std::string_view a, std::string_view b) {
  const size_t n = std::min(a.size(), b.size());
  return a.substr(0, n) == b.substr(0, n);
}

std::string OverlapError(std::string_view p, std::string_view with, const char* what) {
  return "ERR Prefix '" + std::string(p) + "' overlaps with " + what + " '" + std::string(with) +
         "'. Prefixes for a single client must not overlap.";
}

}  // namespace

std::string ParseTrackingOptions(const std::vector<std::string_view>& args,
                                 const std::function<bool(uint64_t)>& exists,
                                 TrackingOptions* out) {
  for (size_t j = 0; j < args.size(); ++j) {
    const bool more = j + 1 < args.size();
    const std::string_view a = args[j];
    if (text::EqualsNoCase(a, "redirect") && more) {
      if (out->redirect != 0) return "ERR A client can only redirect to a single other client";
      int64_t id = 0;
      if (!text::ParseInt64(args[++j], &id)) return std::string(errors::kNotInteger);
      if (id <= 0 || !exists(static_cast<uint64_t>(id)))
        return "ERR The client ID you want redirect to does not exist";
      out->redirect = static_cast<uint64_t>(id);
    } else if (text::EqualsNoCase(a, "bcast")) {
      out->bcast = true;
    } else if (text::EqualsNoCase(a, "optin")) {
      out->optin = true;
    } else if (text::EqualsNoCase(a, "optout")) {
      out->optout = true;
    } else if (text::EqualsNoCase(a, "noloop")) {
      out->noloop = true;
    } else if (text::EqualsNoCase(a, "prefix") && more) {
      out->prefixes.emplace_back(args[++j]);
    } else {
      return std::string(errors::kSyntax);
    }
  }
  return "";
}

std::string Tracker::Enable(uint64_t id, const TrackingOptions& o) {
  ClientTracking& t = clients_[id];
  if (!o.bcast && !o.prefixes.empty()) return "ERR PREFIX option requires BCAST mode to be enabled";
  if (t.on && t.bcast != o.bcast)
    return "ERR You can't switch BCAST mode on/off before disabling tracking for this client, "
           "and then re-enabling it with a different mode.";
  if (o.bcast && (o.optin || o.optout)) return "ERR OPTIN and OPTOUT are not compatible with BCAST";
  if (o.optin && o.optout) return "ERR You can't specify both OPTIN mode and OPTOUT mode";
  if ((o.optin && t.optout) || (o.optout && t.optin))
    return "ERR You can't switch OPTIN/OPTOUT mode before disabling tracking for this client, "
           "and then re-enabling it with a different mode.";
  if (o.bcast) {
    for (size_t i = 0; i < o.prefixes.size(); ++i) {
      for (const std::string& have : t.prefixes)
        if (Overlap(have, o.prefixes[i]))
          return OverlapError(o.prefixes[i], have, "an existing prefix");
      for (size_t j = i + 1; j < o.prefixes.size(); ++j)
        if (Overlap(o.prefixes[i], o.prefixes[j]))
          return OverlapError(o.prefixes[i], o.prefixes[j], "another provided prefix");
    }
  }
  if (!t.on) tracking_++;
  t.on = true;
  t.broken_redirect = false;
  t.redirect = o.redirect;
  t.bcast = o.bcast;
  t.optin = o.optin;
  t.optout = o.optout;
  t.noloop = o.noloop;
  if (o.bcast) {
    // Re-enabling adds prefixes to those the client follows (Redis).
    std::vector<std::string> add = o.prefixes;
    if (add.empty()) add.emplace_back();
    for (std::string& p : add) {
      prefixes_[p].clients.insert(id);
      t.prefixes.insert(std::move(p));
    }
  }
  return "";
}

void Tracker::Disable(uint64_t id) {
  auto it = clients_.find(id);
  if (it == clients_.end()) return;
  ClientTracking& t = it->second;
  for (const std::string& p : t.prefixes) {
    auto pit = prefixes_.find(p);
    if (pit == prefixes_.end()) continue;
    pit->second.clients.erase(id);
    if (pit->second.clients.empty()) prefixes_.erase(pit);
  }
  t.prefixes.clear();
  if (t.on) tracking_--;
  t.on = t.bcast = t.optin = t.optout = t.noloop = t.caching = t.broken_redirect = false;
  t.redirect = 0;
}

void Tracker::Forget(uint64_t id) {
  Disable(id);
  auto it = clients_.find(id);
  if (it == clients_.end()) return;
  if (!it->second.pending.empty()) pending_--;
  clients_.erase(it);
}

std::string Tracker::Caching(uint64_t id, std::string_view arg) {
  auto it = clients_.find(id);
  if (it == clients_.end() || !it->second.on)
    return "ERR CLIENT CACHING can be called only when the client is in tracking mode with OPTIN "
           "or OPTOUT mode enabled";
  ClientTracking& t = it->second;
  if (text::EqualsNoCase(arg, "yes")) {
    if (!t.optin)
      return "ERR CLIENT CACHING YES is only valid when tracking is enabled in OPTIN mode.";
  } else if (text::EqualsNoCase(arg, "no")) {
    if (!t.optout)
      return "ERR CLIENT CACHING NO is only valid when tracking is enabled in OPTOUT mode.";
  } else {
    return std::string(errors::kSyntax);
  }
  t.caching = true;
  return "";
}

const ClientTracking* Tracker::Find(uint64_t id) const {
  auto it = clients_.find(id);
  return it == clients_.end() ? nullptr : &it->second;
}

bool Tracker::WantsKeys(uint64_t id) const {
  const ClientTracking* t = Find(id);
  if (!t || !t->on || t->bcast) return false;
  return !((t->optin && !t->caching) || (t->optout && t->caching));
}

void Tracker::Remember(uint64_t id, std::string_view key) {
  std::vector<uint64_t>& readers = table_[std::string(key)];
  if (std::find(readers.begin(), readers.end(), id) == readers.end()) readers.push_back(id);
}

void Tracker::CommandDone(uint64_t id, const CommandFacts& f) {
  auto it = clients_.find(id);
  if (it == clients_.end() || f.nested) return;
  ClientTracking& t = it->second;
  // EXEC's own commands are not nested: MULTI .. EXEC brackets them.
  if (f.name == "multi") {
    t.in_multi = true;
  } else if (f.name == "exec" || f.name == "discard" || f.name == "reset") {
    t.in_multi = false;
  }
  if (t.in_multi) return;
  if (f.name != "client") t.caching = false;  // CLIENT CACHING holds for the next command
  SendPending(id, t);
}

void Tracker::Deliver(uint64_t id, ClientTracking& t, std::optional<std::string> key) {
  if (!key) return sink_->Send(id, t, nullptr);
  const std::vector<std::string> keys{std::move(*key)};
  sink_->Send(id, t, &keys);
}

void Tracker::SendPending(uint64_t id, ClientTracking& t) {
  if (t.pending.empty()) return;
  std::vector<std::optional<std::string>> due = std::exchange(t.pending, {});
  pending_--;
  for (std::optional<std::string>& key : due) Deliver(id, t, std::move(key));
}

void Tracker::KeyChanged(std::string_view key, uint64_t writer) {
  for (auto& [prefix, state] : prefixes_)
    if (key.substr(0, prefix.size()) == prefix) state.keys[std::string(key)] = writer;
  auto it = table_.find(std::string(key));
  if (it == table_.end()) return;
  std::vector<uint64_t> readers = std::move(it->second);
  table_.erase(it);
  InvalidateReaders(std::move(readers), std::string(key), writer);
}

size_t Tracker::Evict(size_t max, size_t effort) {
  size_t done = 0;
  for (; max > 0 && table_.size() > max && done < effort; ++done) {
    auto it = table_.begin();
    std::string key = it->first;
    std::vector<uint64_t> readers = std::move(it->second);
    table_.erase(it);
    InvalidateReaders(std::move(readers), key, 0);
  }
  return done;
}

void Tracker::InvalidateReaders(std::vector<uint64_t> readers, const std::string& key,
                                uint64_t writer) {
  for (uint64_t id : readers) {
    auto cit = clients_.find(id);
    if (cit == clients_.end()) continue;
    ClientTracking& t = cit->second;
    // A client that switched to BCAST since it read the key hears of it by prefix only.
    if (!t.on || t.bcast || (t.noloop && id == writer)) continue;
    if (id == writer) {
      if (t.pending.empty()) pending_++;
      t.pending.emplace_back(key);
    } else {
      Deliver(id, t, key);
    }
  }
}

void Tracker::Flushed(uint64_t writer) {
  for (auto& [id, t] : clients_) {
    if (!t.on) continue;
    if (id == writer) {
      if (t.pending.empty()) pending_++;
      t.pending.emplace_back(std::nullopt);
    } else {
      sink_->Send(id, t, nullptr);
    }
  }
  table_.clear();
}

void Tracker::Broadcast() {
  for (auto& [prefix, state] : prefixes_) {
    if (state.keys.empty()) continue;
    const auto changed = std::exchange(state.keys, {});
    std::vector<std::string> all;
    for (const auto& [key, writer] : changed) all.push_back(key);
    for (uint64_t id : state.clients) {
      ClientTracking& t = clients_[id];
      if (!t.noloop) {
        sink_->Send(id, t, &all);
        continue;
      }
      std::vector<std::string> others;  // NOLOOP: not the keys it changed itself
      for (const auto& [key, writer] : changed)
        if (writer != id) others.push_back(key);
      if (!others.empty()) sink_->Send(id, t, &others);
    }
  }
}

}  // namespace plinth::connection
