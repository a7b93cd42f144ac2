// Inline argument splitting: a small state machine over one line, quote-aware.
#include "resp/inline_args.h"

namespace plinth::resp {
namespace {

// isspace() in the C locale, without the locale lookup.
bool IsSpace(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

char EscapedChar(char c) {
  switch (c) {
    case 'n':
      return '\n';
    case 'r':
      return '\r';
    case 't':
      return '\t';
    case 'b':
      return '\b';
    case 'a':
      return '\a';
    default:
      return c;
  }
}

// Reads one argument starting at line[*i] (not whitespace) into store. On return *i is past
// the argument. Returns false on unbalanced quotes.
bool ReadArg(const char* line, size_t n, size_t* i, std::string* store) {
  size_t p = *i;
  enum { kPlain, kDouble, kSingle } mode = kPlain;
  for (;;) {
    if (mode == kPlain) {
      if (p == n) break;
      const char c = line[p];
      // Only these end a plain word; \v and \f are skipped between words but kept inside one,
      // as Redis does.
      if (c == ' ' || c == '\t' || c == '\n' || c == '\r') break;
      if (c == '"') {
        mode = kDouble;
      } else if (c == '\'') {
        mode = kSingle;
      } else {
        store->push_back(c);
      }
      p++;
      continue;
    }
    if (p == n) return false;  // the quote never closes
    const char c = line[p];
    if (mode == kDouble) {
      if (c == '\\' && p + 3 < n && line[p + 1] == 'x' && HexValue(line[p + 2]) >= 0 &&
          HexValue(line[p + 3]) >= 0) {
        store->push_back(static_cast<char>(HexValue(line[p + 2]) * 16 + HexValue(line[p + 3])));
        p += 4;
        continue;
      }
      if (c == '\\' && p + 1 < n) {
        store->push_back(EscapedChar(line[p + 1]));
        p += 2;
        continue;
      }
    } else {
      if (c == '\\' && p + 1 < n && line[p + 1] == '\'') {
        store->push_back('\'');
        p += 2;
        continue;
      }
    }
    if (c == (mode == kDouble ? '"' : '\'')) {
      // The closing quote ends the argument and must be followed by a space or the end.
      if (p + 1 < n && !IsSpace(line[p + 1])) return false;
      p++;
      break;
    }
    store->push_back(c);
    p++;
  }
  *i = p;
  return true;
}

}  // namespace

bool SplitInlineArgs(const char* line, size_t n, std::string* store, std::vector<size_t>* offsets,
                     std::vector<size_t>* lengths) {
  size_t i = 0;
  for (;;) {
    while (i < n && IsSpace(line[i])) i++;
    if (i == n) return true;
    const size_t start = store->size();
    if (!ReadArg(line, n, &i, store)) return false;
    offsets->push_back(start);
    lengths->push_back(store->size() - start);
  }
}

}  // namespace plinth::resp
