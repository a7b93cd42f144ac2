// plinth/value_type.hpp - header-only C++17 helper that registers a plugin's value type.
//
// A type plugin keeps each value as one payload object of its own class T. ValueTypeSpec fills
// the plinth_type_spec_t whose callbacks forward to T and to the type's RDB functions, so a
// plugin writes no per-callback glue; ValueType registers that spec and keeps the id the host
// gave it. Nothing here adds ABI. Same thread rules as plugin.h.
#ifndef PLINTH_VALUE_TYPE_HPP
#define PLINTH_VALUE_TYPE_HPP

#include <cstddef>
#include <cstdint>
#include <plinth/plugin.hpp>
#include <type_traits>
#include <utility>

#pragma GCC visibility push(hidden)
namespace plinth::sdk {
namespace detail {

// Which optional members a payload class has (each is used when present).
template <typename T, typename = void>
struct HasMemoryUsage : std::false_type {};
template <typename T>
struct HasMemoryUsage<T, std::void_t<decltype(std::declval<const T&>().MemoryUsage())>>
    : std::true_type {};
template <typename T, typename = void>
struct HasEncodingName : std::false_type {};
template <typename T>
struct HasEncodingName<T, std::void_t<decltype(std::declval<const T&>().EncodingName())>>
    : std::true_type {};
template <typename T, typename = void>
struct HasFreeEffort : std::false_type {};
template <typename T>
struct HasFreeEffort<T, std::void_t<decltype(std::declval<const T&>().FreeEffort())>>
    : std::true_type {};
template <typename T, typename = void>
struct HasClone : std::false_type {};
template <typename T>
struct HasClone<T, std::void_t<decltype(std::declval<const T&>().Clone())>> : std::true_type {};

// A raw pointer as it is; a smart pointer (std::unique_ptr) released.
template <typename P>
void* ReleasePayload(P p) {
  if constexpr (std::is_pointer_v<P>) {
    return p;
  } else {
    return p.release();
  }
}

// The spec's callbacks for payload class T. None lets an exception out into the host.
template <typename T>
struct PayloadHooks {
  static const T& Of(const void* p) { return *static_cast<const T*>(p); }
  static void Free(void* p) noexcept { delete static_cast<T*>(p); }
  static size_t MemoryUsage(const void* p) noexcept { return Of(p).MemoryUsage(); }
  static const char* Encoding(const void* p) noexcept { return Of(p).EncodingName(); }
  static size_t FreeEffort(const void* p) noexcept { return Of(p).FreeEffort(); }
  static void* Copy(const void* p) noexcept {
    try {
      if constexpr (HasClone<T>::value) {
        return ReleasePayload(Of(p).Clone());
      } else {
        return new T(Of(p));
      }
    } catch (...) {
      return nullptr;
    }
  }
};

// rdb_save over Save: int32_t or bool Save(const T&, plinth_rdb_io_t*), or the C signature.
template <typename T, auto Save>
int32_t SaveHook(const void* p, plinth_rdb_io_t* io) noexcept {
  try {
    if constexpr (std::is_invocable_v<decltype(Save), const T&, plinth_rdb_io_t*>) {
      auto rc = Save(*static_cast<const T*>(p), io);
      if constexpr (std::is_same_v<decltype(rc), bool>) return rc ? PLINTH_OK : PLINTH_ERR;
      return static_cast<int32_t>(rc);
    } else {
      auto rc = Save(p, io);
      if constexpr (std::is_same_v<decltype(rc), bool>) return rc ? PLINTH_OK : PLINTH_ERR;
      return static_cast<int32_t>(rc);
    }
  } catch (...) {
    return PLINTH_ERR;
  }
}

// rdb_load over Load(uint32_t rdb_type, plinth_rdb_io_t*) returning T*, void* or a
// std::unique_ptr<T>.
template <auto Load>
void* LoadHook(uint32_t rdb_type, plinth_rdb_io_t* io) noexcept {
  try {
    return ReleasePayload(Load(rdb_type, io));
  } catch (...) {
    return nullptr;
  }
}

}  // namespace detail

// The spec of a value type named name (what TYPE answers) whose payloads are T objects the
// plugin allocates with new. Fills: free_payload (delete), copy (T::Clone() returning T* or
// std::unique_ptr<T>, else T's copy constructor; NULL to the host when it throws),
// memory_usage, encoding and free_effort from T::MemoryUsage(), T::EncodingName() and
// T::FreeEffort() where T has them (NULL where not), and rdb_save, rdb_load and rdb_type from
// Save, Load and rdb_type. Save is `int32_t or bool (const T&, plinth_rdb_io_t*)` or rdb_save's
// own signature; Load is `(uint32_t rdb_type, plinth_rdb_io_t*)` returning T*, void* or
// std::unique_ptr<T>; an exception from either becomes PLINTH_ERR or NULL. Pass nullptr for
// both, and rdb_type 0, for a type that is not persisted. Every other field (visit, a custom
// encoding) the caller sets on the result. OWNERSHIP: name must outlive the spec (a literal).
// THREAD: any; the callbacks follow plugin.h's rules.
template <typename T, auto Save, auto Load>
constexpr plinth_type_spec_t ValueTypeSpec(const char* name, uint32_t rdb_type) {
  using Hooks = detail::PayloadHooks<T>;
  static_assert(detail::HasClone<T>::value || std::is_copy_constructible_v<T>,
                "a payload class needs Clone() or a copy constructor (the spec's copy)");
  plinth_type_spec_t t{};
  t.struct_size = sizeof t;
  t.name = name;
  t.free_payload = &Hooks::Free;
  t.copy = &Hooks::Copy;
  if constexpr (detail::HasMemoryUsage<T>::value) t.memory_usage = &Hooks::MemoryUsage;
  if constexpr (detail::HasEncodingName<T>::value) t.encoding = &Hooks::Encoding;
  if constexpr (detail::HasFreeEffort<T>::value) t.free_effort = &Hooks::FreeEffort;
  if constexpr (!std::is_null_pointer_v<decltype(Save)>) t.rdb_save = &detail::SaveHook<T, Save>;
  if constexpr (!std::is_null_pointer_v<decltype(Load)>) t.rdb_load = &detail::LoadHook<Load>;
  t.rdb_type = rdb_type;
  return t;
}

// A value type of this plugin: its spec and, once registered, the id the host gave it. Meant
// as one namespace-scope object per type (constant-initialized from a constexpr spec).
class ValueType {
 public:
  constexpr explicit ValueType(const plinth_type_spec_t& spec) : spec_(spec) {}
  ValueType(const ValueType&) = delete;
  ValueType& operator=(const ValueType&) = delete;

  // The spec given to the host. THREAD: any.
  const plinth_type_spec_t& spec() const { return spec_; }
  // The type id (>= 16) type_register returned; 0 before Register or after a refusal.
  // THREAD: any once init is over.
  uint32_t id() const { return id_; }
  // Registers the spec with the host (which copies it). Returns false when the host refused it
  // (a taken name or rdb_type). THREAD: main, the plugin's init only.
  bool Register() {
    id_ = Api().type_register(Host::self, &spec_);
    return id_ != 0;
  }

 private:
  plinth_type_spec_t spec_;
  uint32_t id_ = 0;
};

}  // namespace plinth::sdk
#pragma GCC visibility pop

#endif  // PLINTH_VALUE_TYPE_HPP
