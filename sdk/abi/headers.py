"""Reads the plugin C ABI out of a header: its structs and their fields, typedefs, function
declarations and macros. abi.py calls it for the current header and for each frozen baseline.

The header goes through the C++ compiler's preprocessor (-E -dD, so the conditionals a C++ plugin
sees are applied and the #defines stay in place); only text from non-system files is kept. The
declarations are then split by a small parser that knows the regular shape of plugin.h: one
field per declaration, function pointers written `ret (*name)(args)`, no nested structs.
"""

import os
import re
import shlex
import subprocess
from dataclasses import dataclass, field


class AbiError(Exception):
    """The header cannot be read (a preprocessor error, a declaration the parser refuses)."""


@dataclass
class Field:
    name: str
    decl: str  # the declaration, whitespace collapsed: "int32_t arity"
    index: int


@dataclass
class Struct:
    tag: str
    fields: list = None  # list[Field]; None for a struct that is only declared (a handle)

    def field(self, name):
        return next((f for f in self.fields or [] if f.name == name), None)


@dataclass
class Macro:
    name: str
    value: str
    function_like: bool


@dataclass
class Abi:
    structs: dict = field(default_factory=dict)    # tag -> Struct
    typedefs: dict = field(default_factory=dict)   # name -> declaration text
    struct_typedefs: dict = field(default_factory=dict)  # typedef name -> tag
    functions: dict = field(default_factory=dict)  # name -> declaration text
    macros: dict = field(default_factory=dict)     # name -> Macro
    system_includes: list = field(default_factory=list)

    def display(self, tag):
        """The name a reader knows a struct by: its typedef, else "struct tag"."""
        names = sorted(n for n, t in self.struct_typedefs.items() if t == tag)
        return names[0] if names else "struct " + tag

    def int_value(self, name):
        macro = self.macros.get(name)
        text = macro.value.strip("() ") if macro else ""
        if not re.fullmatch(r"\d+", text):
            raise AbiError(f"{name} must be #defined as a plain number (found {text!r})")
        return int(text)

    def version(self):
        return self.int_value("PLINTH_ABI_MAJOR"), self.int_value("PLINTH_ABI_MINOR")

    def integer_constants(self):
        """Object-like macros whose value is an integer constant expression: literals, operators
        and other such macros. Returns {name: value text}."""
        known = {}
        candidates = {m.name: m.value for m in self.macros.values()
                      if not m.function_like and m.value}
        changed = True
        while changed:
            changed = False
            for name, value in candidates.items():
                if name in known:
                    continue
                words = re.findall(r"[A-Za-z_]\w*", re.sub(r"\b\d\w*", "", value))
                if re.fullmatch(r"[\w\s()+\-~*/%<>|&^!]+", value) and re.search(r"\d", value) \
                        and all(w in known for w in words):
                    known[name] = value
                    changed = True
        return known

    def depends_on(self, name, target):
        """Whether macro name's value refers, directly or through other macros, to target."""
        seen, todo = set(), [name]
        while todo:
            macro = self.macros.get(todo.pop())
            if not macro or macro.name in seen:
                continue
            seen.add(macro.name)
            words = set(re.findall(r"[A-Za-z_]\w*", macro.value))
            if target in words:
                return True
            todo.extend(words)
        return False


def compilers():
    """The C and C++ compilers to use: $CC / $CXX, else cc / c++ (each may carry arguments)."""
    return (shlex.split(os.environ.get("CC") or "cc"),
            shlex.split(os.environ.get("CXX") or "c++"))


def preprocess(header, include_dirs=()):
    """Runs the C++ preprocessor over header. Returns (text of non-system files, -dD lines of
    non-system files, system includes) in source order."""
    cxx = compilers()[1]
    cmd = cxx + ["-x", "c++", "-std=c++17", "-E", "-dD"] + [f"-I{d}" for d in include_dirs]
    proc = subprocess.run(cmd + [str(header)], capture_output=True, text=True)
    if proc.returncode != 0:
        raise AbiError(f"preprocessing {header} failed:\n{proc.stderr}")
    text, directives, keep = [], [], False
    for line in proc.stdout.splitlines():
        marker = re.match(r'#\s*(\d+)\s+"(.*)"(.*)$', line)
        if marker:
            name, flags = marker.group(2), marker.group(3).split()
            keep = not name.startswith("<") and "3" not in flags
            continue
        if keep:
            (directives if line.startswith("#") else text).append(line)
    system = re.findall(r'^\s*#\s*include\s*(<[^>]+>)', _read_all_sources(header, include_dirs), re.M)
    return "\n".join(text), directives, list(dict.fromkeys(system))


def _read_all_sources(header, include_dirs):
    """The text of header and every quoted include it reaches (for its <system> includes)."""
    import pathlib
    out, todo, seen = [], [pathlib.Path(header)], set()
    while todo:
        path = todo.pop()
        if path in seen or not path.is_file():
            continue
        seen.add(path)
        body = path.read_text()
        out.append(body)
        for inc in re.findall(r'^\s*#\s*include\s*"([^"]+)"', body, re.M):
            todo.extend(pathlib.Path(d) / inc for d in [path.parent, *include_dirs])
    return "\n".join(out)


def read_abi(header, include_dirs=()):
    """Parses header (and what it includes from include_dirs) into an Abi."""
    text, directives, system = preprocess(header, include_dirs)
    abi = Abi(system_includes=system)
    for line in directives:
        d = re.match(r"#\s*define\s+(\w+)(\([^)]*\))?\s?(.*)$", line)
        u = re.match(r"#\s*undef\s+(\w+)", line)
        if d:
            abi.macros[d.group(1)] = Macro(d.group(1), d.group(3).strip(), bool(d.group(2)))
        elif u:
            abi.macros.pop(u.group(1), None)
    for decl in _split_top_level(_strip_attributes(text)):
        _add_declaration(abi, decl)
    return abi


def _strip_attributes(text):
    """Removes __attribute__((...)) (PLINTH_EXPORT expanded) with balanced parentheses."""
    out, i = [], 0
    for m in re.finditer(r"__attribute__\s*\(", text):
        if m.start() < i:
            continue
        out.append(text[i:m.start()])
        depth, j = 0, m.end() - 1
        while j < len(text):
            depth += {"(": 1, ")": -1}.get(text[j], 0)
            j += 1
            if depth == 0:
                break
        i = j
    out.append(text[i:])
    return "".join(out)


def _split_top_level(text):
    """Splits text into top-level declarations at ';' outside braces and parentheses, leaving
    out the extern "C" { ... } wrappers."""
    text = re.sub(r'extern\s*"C"\s*\{', "\x01", text)
    text = re.sub(r'extern\s*"C"', " ", text)
    decls, cur, stack, parens = [], [], [], 0
    for ch in text:
        if ch == "\x01":
            stack.append("extern")
            continue
        if ch == "}" and stack and stack[-1] == "extern":
            stack.pop()
            continue
        if ch == "{":
            stack.append("{")
        elif ch == "}":
            stack.pop()
        elif ch in "()":
            parens += 1 if ch == "(" else -1
        if ch == ";" and "{" not in stack and parens == 0:
            decls.append(" ".join("".join(cur).split()))
            cur = []
        else:
            cur.append(ch)
    if "".join(cur).strip():
        raise AbiError(f"unterminated declaration: {' '.join(''.join(cur).split())[:200]}")
    return [d for d in decls if d]


def _declared_name(decl):
    """The name a declaration declares: inside "(*name)" for a function pointer, else the last
    identifier before any array bounds or bit-field width."""
    m = re.search(r"\(\s*\*\s*(\w+)\s*\)", decl)
    if m:
        return m.group(1)
    bare = re.sub(r"(\s*\[[^\]]*\])+\s*$", "", re.sub(r"\s*:\s*\d+\s*$", "", decl))
    m = re.search(r"(\w+)\s*$", bare)
    if not m:
        raise AbiError(f"cannot find the name declared by: {decl}")
    return m.group(1)


def _parse_fields(tag, body):
    fields = []
    for part in _split_top_level(body):
        if re.search(r"\b(struct|union|enum)\s*(\w+\s*)?\{", part) or "{" in part:
            raise AbiError(f"struct {tag}: nested struct, union or enum is not supported: {part}")
        depth = 0
        for ch in part:
            depth += {"(": 1, ")": -1}.get(ch, 0)
            if ch == "," and depth == 0:
                raise AbiError(f"struct {tag}: one field per declaration, please: {part}")
        fields.append(Field(_declared_name(part), part, len(fields)))
    return fields


def _add_declaration(abi, decl):
    for tag in re.findall(r"\bstruct\s+(\w+)", decl):
        abi.structs.setdefault(tag, Struct(tag))
    m = re.fullmatch(r"(typedef\s+)?struct\s+(\w+)\s*\{(.*)\}\s*(\w+)?", decl, re.S)
    if m:
        abi.structs[m.group(2)].fields = _parse_fields(m.group(2), m.group(3))
        if m.group(1) and m.group(4):
            abi.struct_typedefs[m.group(4)] = m.group(2)
            abi.typedefs[m.group(4)] = f"typedef struct {m.group(2)} {m.group(4)}"
        return
    if re.match(r"(typedef\s+)?(union|enum)\b", decl):
        raise AbiError(f"unions and enums have no place in the ABI: {decl[:120]}")
    m = re.fullmatch(r"typedef\s+struct\s+(\w+)\s+(\w+)", decl)
    if m:
        abi.struct_typedefs[m.group(2)] = m.group(1)
        abi.typedefs[m.group(2)] = decl
    elif decl.startswith("typedef "):
        abi.typedefs[_declared_name(decl)] = decl
    elif re.fullmatch(r"struct\s+\w+", decl):
        pass
    elif "(" in decl:
        m = re.match(r"[^(]*?(\w+)\s*\(", decl)
        abi.functions[m.group(1)] = decl
    else:
        raise AbiError(f"unexpected declaration (a variable?) in the ABI: {decl[:120]}")
