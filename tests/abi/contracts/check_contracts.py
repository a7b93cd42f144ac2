#!/usr/bin/env python3
"""Checks the contract comments of the plugin C ABI (plinth/abi/*.h under an include dir).

Rules (docs: STYLE.md "Comments", plinth/plugin.h):
  - a function pointer field or typedef states OWNERSHIP and THREAD in its comment: the
    comment right before it (nothing but a newline between) or a trailing comment on its lines;
    a field typed by such a typedef (plinth_command_fn handler) may leave them to the typedef;
  - every field of a struct with a body carries "since M.N" in that comment;
  - a struct starts with "uint32_t struct_size", or its own comment says "no struct_size"
    (the structs frozen as array elements).

Usage: check_contracts.py INCLUDE_DIR. Prints one line per problem and exits 1, or prints
"contracts: N functions, M structs checked" and exits 0. Standard library only.
"""

import glob
import os
import re
import sys

SINCE = re.compile(r"\bsince \d+\.\d+\b")
IDENT = re.compile(r"[A-Za-z_]\w*")
NUMBER = re.compile(r"[0-9A-Za-z_.]+")


class Comment:
    def __init__(self, text, start, end, line_style):
        self.text, self.start, self.end, self.line_style = text, start, end, line_style


class Decl:
    """One declaration (up to ';'), or the head of a struct (up to '{')."""

    def __init__(self):
        self.tokens = []  # (text, line)
        self.before = None  # the Comment right before it
        self.trailing = []  # comments on its lines after its first token

    def comment(self):
        parts = [self.before.text] if self.before else []
        return " ".join(parts + [c.text for c in self.trailing])

    def line(self):
        return self.tokens[0][1]

    def words(self):
        return [t for t, _ in self.tokens]


class Struct:
    def __init__(self, head):
        self.head = head
        self.fields = []
        words = head.words()
        i = words.index("struct") if "struct" in words else words.index("union")
        self.tag = words[i + 1] if i + 1 < len(words) and IDENT.fullmatch(words[i + 1]) else None
        self.name = self.tag or "<anonymous struct>"


def lex(text):
    """Yields ("comment", Comment), ("token", text, line) and ("directive", line)."""
    i, n, line = 0, len(text), 1
    at_line_start = True
    in_directive = False
    while i < n:
        c = text[i]
        if c == "\n":
            line += 1
            i += 1
            at_line_start = True
            in_directive = False
            continue
        if c in " \t\r\f\v":
            i += 1
            continue
        if c == "\\" and i + 1 < n and text[i + 1] == "\n":
            line += 1
            i += 2
            continue
        if text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            body = text[i:j]
            start = line
            line += body.count("\n")
            if not in_directive:
                yield ("comment", Comment(body, start, line, False))
            i = j
            continue
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            if not in_directive:
                yield ("comment", Comment(text[i:j], line, line, True))
            i = j
            continue
        if at_line_start and c == "#":
            in_directive = True
            yield ("directive", line)
        at_line_start = False
        if in_directive:
            i += 1
            continue
        if c in "\"'":
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == "\\" else 1
            yield ("token", text[i : j + 1], line)
            i = j + 1
            continue
        m = IDENT.match(text, i)
        if m:
            yield ("token", m.group(0), line)
            i = m.end()
            continue
        if c.isdigit():
            m = NUMBER.match(text, i)
            yield ("token", m.group(0), line)
            i = m.end()
            continue
        yield ("token", c, line)
        i += 1


def merge_line_comments(items):
    """Joins runs of // comments on consecutive lines into one comment."""
    pending = None
    for item in items:
        if item[0] == "comment" and item[1].line_style:
            c = item[1]
            if pending and pending.end + 1 == c.start:
                pending = Comment(pending.text + "\n" + c.text, pending.start, c.end, True)
                continue
            if pending:
                yield ("comment", pending)
            pending = c
            continue
        if pending:
            yield ("comment", pending)
            pending = None
        yield item
    if pending:
        yield ("comment", pending)


def parse(text):
    """Returns (structs, typedefs): every struct with a body, every file-scope typedef Decl."""
    structs, typedefs = [], []
    scopes = []  # Struct, or "extern"/"block"
    cur = Decl()
    last = None  # (Decl or Struct head, line of its last token): owner of trailing comments
    pending = None  # the latest comment not trailing anything
    closing = None  # Struct whose '}' was seen; its declarators run to ';'

    def attach_before(decl, first_line):
        if pending and pending.end >= first_line - 1:
            decl.before = pending

    for item in merge_line_comments(lex(text)):
        kind = item[0]
        if kind == "directive":
            pending, last = None, None
            continue
        if kind == "comment":
            c = item[1]
            if cur.tokens:
                cur.trailing.append(c)
            elif last is not None and c.start == last[1]:
                last[0].trailing.append(c)
            else:
                pending = c
            continue
        _, tok, line = item
        if not cur.tokens and tok not in ("{", "}", ";"):
            attach_before(cur, line)
            pending = None
        if tok == "{":
            words = cur.words()
            if words[:1] == ["extern"]:
                scopes.append("extern")
            elif "struct" in words or "union" in words:
                s = Struct(cur)
                scopes.append(s)
                last = (cur, line)
            else:
                scopes.append("block")
            cur = Decl()
            continue
        if tok == "}":
            scope = scopes.pop() if scopes else None
            if isinstance(scope, Struct):
                if cur.tokens:
                    scope.fields.append(cur)
                closing = scope
            cur = Decl()
            last = None
            continue
        if tok == ";":
            if not cur.tokens and closing is None:
                continue
            cur.tokens.append((tok, line))
            scope = scopes[-1] if scopes else None
            if closing is not None:
                names = [t for t, _ in cur.tokens if IDENT.fullmatch(t)]
                if names and names[-1] != "typedef":
                    closing.name = names[-1]
                structs.append(closing)
                closing = None
            elif isinstance(scope, Struct):
                scope.fields.append(cur)
            elif scope in (None, "extern") and cur.words()[:1] == ["typedef"]:
                typedefs.append(cur)
            last = (cur, line)
            cur = Decl()
            continue
        cur.tokens.append((tok, line))
    return structs, typedefs


def function_name(decl):
    """The declared name when decl declares a function pointer (or function type), else None."""
    w = decl.words()
    for i in range(len(w) - 3):
        if w[i] == "(" and w[i + 1] == "*" and IDENT.fullmatch(w[i + 2]) and w[i + 3] == ")":
            return w[i + 2]
    if w[:1] == ["typedef"] and "(" in w:
        i = w.index("(")
        if i > 0 and IDENT.fullmatch(w[i - 1]):
            return w[i - 1]
    return None


def field_name(decl):
    w = [t for t in decl.words() if t != ";"]
    if "[" in w:
        w = w[: w.index("[")]
    names = [t for t in w if IDENT.fullmatch(t)]
    return names[-1] if names else "?"


def check(parsed):
    """parsed: [(display path, structs, typedefs)]. Returns (problems, functions, structs)."""
    problems, functions, nstructs = [], 0, 0
    fn_typedefs = {}  # a function pointer typedef's name -> its comment
    for _, _, typedefs in parsed:
        for t in typedefs:
            fn = function_name(t)
            if fn:
                fn_typedefs[fn] = t.comment()

    def need_contract(display, decl, what, inherited=""):
        nonlocal functions
        functions += 1
        text = decl.comment() + " " + inherited
        for word in ("OWNERSHIP", "THREAD"):
            if word not in text:
                problems.append("%s:%d: %s: comment lacks %s" % (display, decl.line(), what, word))

    for display, structs, typedefs in parsed:
        nstructs += len(structs)
        for s in structs:
            first = [t for t in s.fields[0].words() if t != ";"] if s.fields else []
            if first != ["uint32_t", "struct_size"] and "no struct_size" not in s.head.comment():
                problems.append(
                    "%s:%d: struct %s: first field is not uint32_t struct_size and its comment "
                    "does not say \"no struct_size\"" % (display, s.head.line(), s.name))
            for fld in s.fields:
                fn = function_name(fld)
                name = "%s.%s" % (s.name, fn or field_name(fld))
                if not SINCE.search(fld.comment()):
                    problems.append("%s:%d: field %s: comment lacks a \"since M.N\" marker"
                                    % (display, fld.line(), name))
                if fn:
                    need_contract(display, fld, "function pointer field " + name)
                    continue
                # A field typed by a function pointer typedef: the typedef's comment counts.
                typed = [t for t in fld.words() if t in fn_typedefs]
                if typed:
                    need_contract(display, fld, "function pointer field %s (%s)" % (name, typed[0]),
                                  fn_typedefs[typed[0]])
        for t in typedefs:
            fn = function_name(t)
            if fn:
                need_contract(display, t, "function pointer typedef " + fn)
    return problems, functions, nstructs


def main(argv):
    if len(argv) != 2:
        sys.stderr.write("usage: check_contracts.py INCLUDE_DIR\n")
        return 2
    root = argv[1]
    headers = sorted(glob.glob(os.path.join(root, "plinth", "abi", "*.h")))
    if not headers:
        sys.stderr.write("contracts: no headers under %s/plinth/abi\n" % root)
        return 1
    parsed = []
    for path in headers:
        with open(path, encoding="utf-8") as f:
            structs, typedefs = parse(f.read())
        parsed.append((path, structs, typedefs))
    problems, functions, structs = check(parsed)
    for p in problems:
        print(p)
    if problems:
        print("contracts: %d problems" % len(problems))
        return 1
    print("contracts: %d functions, %d structs checked" % (functions, structs))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
