#include <cctype>

#include "snapshot/archive.h"

namespace wisp::snapshot {

namespace {

struct Parser {
  const std::string& s;
  size_t i = 0;
  std::string error;
  int depth = 0;

  void ws() {
    while (i < s.size() && std::isspace(static_cast<unsigned char>(s[i]))) ++i;
  }
  bool fail(const std::string& m) {
    if (error.empty()) error = m + " at offset " + std::to_string(i);
    return false;
  }
  bool literal(const char* word) {
    size_t n = std::strlen(word);
    if (s.compare(i, n, word) != 0) return fail(std::string("expected ") + word);
    i += n;
    return true;
  }
  bool string(std::string* out) {
    if (s[i] != '"') return fail("expected a string");
    ++i;
    while (i < s.size() && s[i] != '"') {
      if (s[i] == '\\') {
        if (++i >= s.size()) break;
        char c = s[i];
        out->push_back(c == 'n' ? '\n' : c == 't' ? '\t' : c);  // only what our writer emits
      } else {
        out->push_back(s[i]);
      }
      ++i;
    }
    if (i >= s.size()) return fail("unterminated string");
    ++i;
    return true;
  }
  bool value(JsonValue* v) {
    if (++depth > 64) return fail("nested too deeply");
    ws();
    if (i >= s.size()) return fail("unexpected end");
    char c = s[i];
    bool ok = true;
    if (c == '{') {
      v->kind = JsonValue::Object;
      ++i;
      ws();
      if (i < s.size() && s[i] == '}') {
        ++i;
      } else {
        for (;;) {
          ws();
          std::string key;
          if (!string(&key)) return false;
          ws();
          if (i >= s.size() || s[i] != ':') return fail("expected ':'");
          ++i;
          if (!value(&v->members[key])) return false;
          ws();
          if (i < s.size() && s[i] == ',') { ++i; continue; }
          if (i < s.size() && s[i] == '}') { ++i; break; }
          return fail("expected ',' or '}'");
        }
      }
    } else if (c == '[') {
      v->kind = JsonValue::Array;
      ++i;
      ws();
      if (i < s.size() && s[i] == ']') {
        ++i;
      } else {
        for (;;) {
          v->items.emplace_back();
          if (!value(&v->items.back())) return false;
          ws();
          if (i < s.size() && s[i] == ',') { ++i; continue; }
          if (i < s.size() && s[i] == ']') { ++i; break; }
          return fail("expected ',' or ']'");
        }
      }
    } else if (c == '"') {
      v->kind = JsonValue::String;
      ok = string(&v->text);
    } else if (c == 't') {
      v->kind = JsonValue::Bool;
      v->boolean = true;
      ok = literal("true");
    } else if (c == 'f') {
      v->kind = JsonValue::Bool;
      ok = literal("false");
    } else if (c == 'n') {
      ok = literal("null");
    } else if (c == '-' || (c >= '0' && c <= '9')) {
      v->kind = JsonValue::Number;
      size_t start = i;
      while (i < s.size() && (std::isdigit(static_cast<unsigned char>(s[i])) || s[i] == '-' || s[i] == '+' || s[i] == '.' || s[i] == 'e' || s[i] == 'E')) ++i;
      v->text = s.substr(start, i - start);
    } else {
      return fail(std::string("unexpected character '") + c + "'");
    }
    --depth;
    return ok;
  }
};

}  // namespace

bool parseJson(const std::string& text, JsonValue* out, std::string* error) {
  Parser p{text, 0, {}, 0};
  bool ok = p.value(out);
  if (ok) {
    p.ws();
    if (p.i != text.size()) ok = p.fail("trailing characters");
  }
  if (!ok && error) *error = p.error;
  return ok;
}

}  // namespace wisp::snapshot
