// The notify-keyspace-events option's text: Redis's flag letters to PLINTH_NOTIFY_* class bits
// and back to Redis's normalised form (what CONFIG GET shows). Pure.
#ifndef PLINTH_PUBSUB_NOTIFY_FLAGS_H
#define PLINTH_PUBSUB_NOTIFY_FLAGS_H

#include <cstdint>
#include <string>
#include <string_view>

namespace plinth::pubsub {

// The classes 'A' stands for: g$lshzxetd (not K, E, m or n), as in Redis 7.0.
inline constexpr uint32_t kNotifyAll =
    0x4u | 0x8u | 0x10u | 0x20u | 0x40u | 0x80u | 0x100u | 0x200u | 0x400u | 0x2000u;

// The error text (without "ERR ...") Redis gives for a letter it does not know.
inline constexpr std::string_view kInvalidNotifyFlags =
    "Invalid event class character. Use 'Ag$lshzxeKEtmdn'.";

// Parses Redis's letters (K E g $ l s h z x e t m n d A, case-sensitive, repeats allowed; ""
// is no events) into *flags. Returns false on any other byte, leaving *flags unchanged.
bool ParseNotifyFlags(std::string_view text, uint32_t* flags);

// Redis 7.0's text for flags: "A" when every class of 'A' is set (then 'n' is not shown, as
// Redis 7.0 does), otherwise the class letters in the order g$lshzxetdn; then K, E and m.
std::string NotifyFlagsText(uint32_t flags);

}  // namespace plinth::pubsub

#endif  // PLINTH_PUBSUB_NOTIFY_FLAGS_H
