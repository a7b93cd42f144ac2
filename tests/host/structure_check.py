#!/usr/bin/env python3
"""Structure checks of the host (docs/architecture.md):

1. No class under host/ has more than 12 public members. A class is a `class`, or a `struct`
   with member functions; a plain `struct` of data fields is a record and is not counted.
   Public members are the member functions (overloads count once), data members, and nested
   types declared in the public part; constructors, destructors, operators and deleted
   functions are not counted.
2. host/core/api/ mirrors sdk/include/plinth/abi/: one <name>.cc for each <name>.h, and no
   other file.

The classes still over the limit are listed, with their counts, in structure_backlog.txt: such a
class may shrink but not grow, and a class not listed may not go over. Exit status 1 with one
line per finding."""
import os
import re
import sys

LIMIT = 12


def strip(text):
    text = re.sub(r"//[^\n]*", "", text)
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    text = re.sub(r'"(?:\\.|[^"\\\n])*"', '""', text)
    text = re.sub(r"'(?:\\.|[^'\\\n])'", "''", text)
    return re.sub(r"^\s*#[^\n]*", "", text, flags=re.M)


def body_end(text, i):
    """Index after the brace block that opens at text[i] == '{'."""
    depth = 0
    for j in range(i, len(text)):
        if text[j] == "{":
            depth += 1
        elif text[j] == "}":
            depth -= 1
            if depth == 0:
                return j + 1
    return len(text)


HEAD = re.compile(r"\b(class|struct)\s+(?:__attribute__\(\([^)]*\)\)\s*)?(\w+)\s*(?:final\s*)?"
                  r"(?::[^{;]*)?\{")


def members(body, name, kind):
    """(public member names, has_functions) of a class body (without its braces)."""
    public = kind == "struct"
    names, functions = set(), False
    i, start = 0, 0
    while i < len(body):
        c = body[i]
        m = re.match(r"(public|private|protected)\s*:(?!:)", body[i:])
        if m and body[start:i].strip() == "":
            public = m.group(1) == "public"
            i += m.end()
            start = i
            continue
        if c == "{":
            end = body_end(body, i)
            decl = body[start:i]
            if re.search(r"\b(class|struct|union|enum)\b[^;()]*$", decl):
                # a nested type: counts as one member; its own body is checked on its own
                nm = re.search(r"\b(?:class|struct|union|enum)\s+(?:class\s+)?(\w+)", decl)
                if public and nm:
                    names.add(nm.group(1))
                i = end
                rest = re.match(r"\s*(\w+)?\s*;", body[i:])
                if rest:
                    if public and rest.group(1):
                        names.add(rest.group(1))
                    i += rest.end()
                start = i
                continue
            # a function body or a brace initializer
            i = end
            if re.search(r"\)\s*(const)?\s*(noexcept)?\s*(override)?\s*(->[^{]*)?$|\)\s*:[^;]*$",
                         decl.strip()) or re.search(r"\)\s*(const|noexcept|override|\s)*$",
                                                     decl.strip()):
                add(decl, name, public, names)
                functions = functions or is_function(decl)
                start = i
            continue
        if c == ";":
            decl = body[start:i]
            if decl.strip():
                add(decl, name, public, names)
                functions = functions or is_function(decl)
            start = i + 1
        i += 1
    return names, functions


def is_function(decl):
    d = re.sub(r"\{[^{}]*\}", "", decl)
    d = re.sub(r"=[^;]*$", "", d) if "(" not in d.split("=")[0] else d
    return bool(re.search(r"\w\s*\(", d.split("=")[0])) and not d.strip().startswith(
        ("using", "friend", "static_assert"))


def add(decl, cls, public, names):
    if not public:
        return
    d = " ".join(decl.split())
    if d.startswith(("friend", "static_assert")):
        return
    if d.startswith("using "):
        names.add(d.split()[1].split("=")[0])
        return
    if "= delete" in d or re.search(r"\boperator\b", d):
        return  # deleted functions and operators are not counted
    head = d.split("=")[0] if "(" not in d.split("=")[0] else d
    m = re.search(r"(~?\w+|operator\s*\S+?)\s*\(", head)
    if m and is_function(d):
        fn = m.group(1)
        if fn in (cls, "~" + cls, "explicit"):
            return
        names.add(fn)
        return
    # data members: possibly several names ("int a, b;"), array bounds, initializers
    d = re.sub(r"\{[^}]*\}", "", head)
    d = re.sub(r"\[[^\]]*\]", "", d)
    for part in d.split(","):
        w = re.findall(r"\w+", part.split("=")[0])
        if w:
            names.add(w[-1])


def classes(text):
    for m in HEAD.finditer(text):
        kind, name = m.group(1), m.group(2)
        prefix = text[max(0, m.start() - 20):m.start()]
        if re.search(r"enum\s*$", prefix):
            continue
        open_at = m.end() - 1
        end = body_end(text, open_at)
        yield kind, name, text[open_at + 1:end - 1]


def backlog(root):
    """{(path, class): count} of the classes known to be over the limit."""
    out = {}
    path = os.path.join(root, "tests/host/structure_backlog.txt")
    for line in open(path, encoding="utf-8"):
        line = line.split("#")[0].split()
        if len(line) == 3:
            out[(line[0], line[1])] = int(line[2])
    return out


def check_members(root):
    found, known = [], backlog(root)
    for base, _, files in os.walk(os.path.join(root, "host")):
        for f in sorted(files):
            if not f.endswith((".h", ".cc")):
                continue
            path = os.path.join(base, f)
            text = strip(open(path, encoding="utf-8").read())
            for kind, name, body in classes(text):
                names, functions = members(body, name, kind)
                if kind == "struct" and not functions:
                    continue  # a record
                rel = os.path.relpath(path, root)
                allowed = known.pop((rel, name), LIMIT)
                if allowed > LIMIT and len(names) <= LIMIT:
                    found.append("%s: %s %s is within the limit now: take it off "
                                 "structure_backlog.txt" % (rel, kind, name))
                elif len(names) > LIMIT and len(names) <= allowed:
                    print("backlog: %s: %s %s has %d public members (to be split)" % (
                        rel, kind, name, len(names)))
                elif len(names) > LIMIT:
                    found.append("%s: %s %s has %d public members (limit %d): %s" % (
                        os.path.relpath(path, root), kind, name, len(names), LIMIT,
                        " ".join(sorted(names))))
    found += ["%s: %s: listed in structure_backlog.txt but gone or renamed" % (p, c)
              for (p, c) in known]
    return found


def check_api_mirror(root):
    abi = os.path.join(root, "sdk/include/plinth/abi")
    api = os.path.join(root, "host/core/api")
    want = {f[:-2] for f in os.listdir(abi) if f.endswith(".h")}
    have = {f[:-3] for f in os.listdir(api) if f.endswith(".cc")} if os.path.isdir(api) else set()
    other = {f for f in os.listdir(api) if not f.endswith(".cc")} if os.path.isdir(api) else set()
    found = ["host/core/api/%s.cc: missing (mirrors sdk/include/plinth/abi/%s.h)" % (n, n)
             for n in sorted(want - have)]
    found += ["host/core/api/%s.cc: no sdk/include/plinth/abi/%s.h to mirror" % (n, n)
              for n in sorted(have - want)]
    found += ["host/core/api/%s: only <abi header>.cc files belong here" % f for f in sorted(other)]
    return found


def self_test():
    """The checks find what they are for, in a small tree made for it: a class one member over,
    a listed class that grew, a listed one now within the limit, an api/ file with no header
    and a header with no api/ file; records and operators are not counted."""
    import tempfile
    root = tempfile.mkdtemp(prefix="structure-")
    for d in ("host/core/api", "sdk/include/plinth/abi", "tests/host"):
        os.makedirs(os.path.join(root, d))

    def write(path, text):
        with open(os.path.join(root, path), "w", encoding="utf-8") as f:
            f.write(text)

    def cls(name, n, kind="class"):
        body = "".join("  void F%d();\n" % i for i in range(n))
        return "%s %s {\n public:\n%s  %s& operator=(const %s&);\n private:\n  int a_;\n};\n" % (
            kind, name, body, name, name)

    write("host/core/x.h", cls("Over", LIMIT + 1) + cls("Grew", 15) + cls("Fits", 3) +
          "struct Record { int a, b, c, d, e, f, g, h, i, j, k, l, m, n; };\n")
    write("tests/host/structure_backlog.txt", "host/core/x.h Grew 14\nhost/core/x.h Fits 20\n")
    write("sdk/include/plinth/abi/a.h", "")
    write("sdk/include/plinth/abi/b.h", "")
    write("host/core/api/a.cc", "")
    write("host/core/api/c.cc", "")
    found = check_members(root) + check_api_mirror(root)
    want = ["class Over has 13", "class Grew has 15", "class Fits is within the limit",
            "api/b.cc: missing", "api/c.cc: no sdk"]
    missing = [w for w in want if not any(w in f for f in found)]
    extra = [f for f in found if not any(w in f for w in want)]
    for line in missing:
        print("self-test: not found: %s" % line)
    for line in extra:
        print("self-test: unexpected: %s" % line)
    print("self-test: %s" % ("ok" if not missing and not extra else "FAILED"))
    return 1 if missing or extra else 0


def main():
    if sys.argv[1:2] == ["--self-test"]:
        return self_test()
    root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "../..")
    found = check_members(root) + check_api_mirror(root)
    for line in found:
        print(line)
    print("structure: %d finding(s)" % len(found))
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
