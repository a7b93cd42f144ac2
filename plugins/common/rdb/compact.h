// The compact blobs RDB values may be stored as: ziplist, listpack, intset and zipmap. The
// decoders check every length and offset against the blob (they parse untrusted files) and
// turn a blob into its plain element list; the encoders build the listpacks and intsets the
// writer emits. Pure functions, any thread.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace plinth::rdb {

// Each decoder appends the blob's elements to *out in order (integers as decimal text) and
// returns true, or returns false with *error saying what is malformed (*out then holds a
// prefix). Zipmap elements alternate field and value.
bool DecodeZiplist(std::string_view blob, std::vector<std::string>* out, std::string* error);
bool DecodeListpack(std::string_view blob, std::vector<std::string>* out, std::string* error);
bool DecodeIntset(std::string_view blob, std::vector<std::string>* out, std::string* error);
bool DecodeZipmap(std::string_view blob, std::vector<std::string>* out, std::string* error);

// True when s is the canonical decimal text of an int64 (no sign on zero, no leading zeros,
// no spaces, no '+'), the strings Redis stores as integers; *v gets the value.
bool ParseCanonicalInt(std::string_view s, int64_t* v);

// Builds a listpack one element at a time; canonical integer text is stored as an integer,
// as Redis does.
class ListpackBuilder {
 public:
  void Append(std::string_view element);
  void AppendInt(int64_t v);
  size_t count() const { return count_; }
  // The listpack's size once finished (header, entries, terminator).
  size_t bytes() const { return entries_.size() + 7; }
  // The finished listpack. The builder is empty afterwards.
  std::string Finish();

 private:
  void AddEntry(const char* enc, size_t enc_len, std::string_view payload);

  std::string entries_;
  size_t count_ = 0;
};

// The intset holding values (sorted and deduplicated here) in the narrowest encoding.
std::string EncodeIntset(std::vector<int64_t> values);

}  // namespace plinth::rdb
