"""Reads the differential command script (commands.txt; its head documents the format) into
sections of steps. Pure parsing, no sockets: run.py executes the steps."""

import re

ESCAPES = {"r": b"\r", "n": b"\n", "t": b"\t", "0": b"\0", "\\": b"\\", '"': b'"', "'": b"'",
           "a": b"\a", "b": b"\b"}


class Step:
    """One line of a section: a command (args, marks) or a directive (sleep, conn)."""

    def __init__(self, lineno, kind, args=(), marks=None, raw=None):
        self.lineno = lineno
        self.kind = kind  # "cmd", "inline", "sleep", "conn"
        self.args = list(args)
        self.marks = marks or {}
        self.raw = raw

    def text(self):
        if self.kind == "inline":
            return "(inline) " + repr(self.raw)
        parts = []
        for a in self.args:
            shown = repr(a)[2:-1] if isinstance(a, bytes) else str(a)
            if len(shown) > 60:
                shown = shown[:40] + "...(%d bytes)" % len(a)
            parts.append(shown if shown and " " not in shown else '"%s"' % shown)
        return " ".join(parts)


class Section:
    def __init__(self, name, requires, lineno):
        self.name = name
        self.requires = requires
        self.lineno = lineno
        self.steps = []


def tokenize(line, lineno):
    """Splits a line like a shell: spaces separate, quoted parts join the token they touch,
    '#' at a token start begins a comment. Returns a list of bytes."""
    tokens, cur, have, i, n = [], bytearray(), False, 0, len(line)
    while i < n:
        c = line[i]
        if c in " \t":
            if have:
                tokens.append(bytes(cur))
                cur, have = bytearray(), False
            i += 1
        elif c == "#" and not have:
            break
        elif c == '"':
            i += 1
            have = True
            while True:
                if i >= n:
                    raise SyntaxError("line %d: unbalanced double quote" % lineno)
                c = line[i]
                if c == '"':
                    i += 1
                    break
                if c == "\\":
                    e = line[i + 1:i + 2]
                    if e == "x":
                        cur += bytes([int(line[i + 2:i + 4], 16)])
                        i += 4
                        continue
                    if e not in ESCAPES:
                        raise SyntaxError("line %d: unknown escape \\%s" % (lineno, e))
                    cur += ESCAPES[e]
                    i += 2
                    continue
                cur += c.encode()
                i += 1
        elif c == "'":
            end = line.find("'", i + 1)
            if end < 0:
                raise SyntaxError("line %d: unbalanced single quote" % lineno)
            cur += line[i + 1:end].encode()
            have = True
            i = end + 1
        else:
            cur += c.encode()
            have = True
            i += 1
    if have:
        tokens.append(bytes(cur))
    return tokens


REP = re.compile(rb"^=rep:(\d+):(.*)$", re.S)


def expand(token):
    """=rep:N:TEXT becomes TEXT repeated N times; other tokens stay."""
    m = REP.match(token)
    return m.group(2) * int(m.group(1)) if m else token


def parse_marks(tokens, lineno):
    marks = {}
    while tokens and tokens[0].startswith(b"!"):
        name, _, value = tokens.pop(0)[1:].decode().partition("=")
        if name == "range":
            lo, _, hi = value.partition("..")
            value = (int(lo), int(hi))
        elif name not in ("sort", "type", "has", "hello", "scan", "ignore"):
            raise SyntaxError("line %d: unknown mark !%s" % (lineno, name))
        marks[name] = value
    return marks


def load(path):
    """Returns the list of Sections in the script at path."""
    sections = []
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    for lineno, line in enumerate(lines, 1):
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        if stripped.startswith("@section"):
            words = stripped.split()
            requires = []
            for w in words[2:]:
                if w.startswith("requires="):
                    requires = [p for p in w[len("requires="):].split(",") if p]
            sections.append(Section(words[1], requires, lineno))
            continue
        if not sections:
            raise SyntaxError("line %d: command before the first @section" % lineno)
        steps = sections[-1].steps
        if stripped.startswith("@sleep"):
            steps.append(Step(lineno, "sleep", [float(stripped.split()[1])]))
        elif stripped.startswith("@conn"):
            steps.append(Step(lineno, "conn", [stripped.split()[1]]))
        elif stripped.startswith("!inline "):
            steps.append(Step(lineno, "inline", raw=stripped[len("!inline "):].encode()))
        else:
            tokens = tokenize(stripped, lineno)
            marks = parse_marks(tokens, lineno)
            if not tokens:
                raise SyntaxError("line %d: marks without a command" % lineno)
            steps.append(Step(lineno, "cmd", [expand(t) for t in tokens], marks))
    return sections
