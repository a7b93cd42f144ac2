"""The exact-prefix check: every frozen baseline of the current major must be a prefix of the
current header. abi.py calls check() once with every baseline.

Python finds what is missing by name (a removed struct, field, typedef or constant). Everything
about layout and types is left to the C++ compiler on the target: one generated translation unit
includes each frozen header inside its own namespace (v1_N) and the current header at global
scope, and static_asserts offsets, sizes, types and constant values. Each assertion's message is
"ABI#<n>", which maps back to a sentence naming the struct and field. No offset is hard-coded.
"""

import os
import re
import subprocess
from pathlib import Path

import headers

# Maps a type of a baseline to the current one: fundamental types stay, pointers, cv, arrays and
# function types map part by part, each struct by a generated specialization (below).
_MAP_TEMPLATES = r"""
namespace plinth_abi_gate {
template <class T> struct Map { using type = T; };
template <class T> using MapT = typename Map<T>::type;
template <class T> struct Map<T*> { using type = MapT<T>*; };
template <class T> struct Map<const T> { using type = const MapT<T>; };
template <class T> struct Map<volatile T> { using type = volatile MapT<T>; };
template <class T> struct Map<const volatile T> { using type = const volatile MapT<T>; };
template <class T, size_t N> struct Map<T[N]> { using type = MapT<T>[N]; };
template <class T, size_t N> struct Map<const T[N]> { using type = const MapT<T>[N]; };
template <class T> struct Map<T[]> { using type = MapT<T>[]; };
template <class R, class... A> struct Map<R(A...)> { using type = MapT<R>(MapT<A>...); };
template <class R, class... A> struct Map<R(A..., ...)> { using type = MapT<R>(MapT<A>..., ...); };
template <class A, class B> constexpr bool SameValue(A a, B b) {
  const bool a_neg = a < A(0), b_neg = b < B(0);
  return a_neg == b_neg && (a_neg ? intmax_t(a) == intmax_t(b) : uintmax_t(a) == uintmax_t(b));
}
template <class A, class B> constexpr bool NotLess(A now, B was) {
  return !(was < B(0)) ? (!(now < A(0)) && uintmax_t(now) >= uintmax_t(was))
                       : (now < A(0) ? intmax_t(now) >= intmax_t(was) : true);
}
template <class A, class B> constexpr bool SameType = std::is_same_v<std::remove_cv_t<A>, B>;
}  // namespace plinth_abi_gate
"""


class _Unit:
    """Collects the translation unit's text and what each ABI#<n> assertion means."""

    def __init__(self):
        self.lines, self.meaning, self.failures = [], {}, []

    def check(self, condition, sentence, values=""):
        """Adds static_assert(condition). values formats the two sides of a failed comparison
        when the compiler reports them ("{0}": left, "{1}": right)."""
        n = len(self.meaning)
        self.meaning[n] = (sentence, values)
        self.lines.append(f'static_assert({condition}, "ABI#{n}");')

    def fail(self, sentence):
        self.failures.append(sentence)


def check(current, include_dir, baselines, current_minor, work_dir):
    """Checks every baseline (list of (label "1.0", minor, header Path, Abi)) against current
    (an Abi read from include_dir). Returns a list of failure sentences (empty: it passed)."""
    unit = _Unit()
    unit.lines += [f"#include {inc}" for inc in _system_includes(current, baselines)]
    unit.lines += ["#include <type_traits>", _MAP_TEMPLATES]
    for label, minor, header, old in baselines:
        ns = "v" + label.replace(".", "_")
        _include_baseline(unit, ns, header, old)
    unit.lines.append('#include "plinth/plugin.h"')
    unit.lines.append("namespace plinth_abi_gate {")
    for label, minor, header, old in baselines:
        ns = "v" + label.replace(".", "_")
        _map_structs(unit, ns, old, current)
        _check_structs(unit, ns, label, minor, current_minor, old, current)
        _check_typedefs(unit, ns, label, old, current)
        _check_constants(unit, ns, label, minor, current_minor, old, current)
    unit.lines.append("}  // namespace plinth_abi_gate")
    return unit.failures + _compile(unit, include_dir, work_dir)


def _system_includes(current, baselines):
    found = list(current.system_includes)
    for _, _, _, old in baselines:
        found += old.system_includes
    return list(dict.fromkeys(found))


def _include_baseline(unit, ns, header, old):
    """Includes a frozen header inside namespace ns, captures its integer constants as
    ns::k_<NAME>, then #undefs every macro it defined so the current header starts clean."""
    renamed = {name: f"{ns}_{name}" for name in old.functions}
    unit.lines += [f"#define {name} {alias}" for name, alias in renamed.items()]
    unit.lines += [f"namespace {ns} {{", f'#include "{Path(header).resolve()}"']
    unit.lines += [f"constexpr auto k_{name} = ({name});" for name in old.integer_constants()]
    unit.lines.append(f"}}  // namespace {ns}")
    unit.lines += [f"#undef {name}" for name in list(old.macros) + list(renamed)]


def _map_structs(unit, ns, old, current):
    for tag in old.structs:
        if tag in current.structs:
            unit.lines.append(f"template <> struct Map<{ns}::{tag}> {{ using type = ::{tag}; }};")
        else:
            unit.fail(f"{old.display(tag)}: removed (struct {tag} is not in the current header)")


def _check_structs(unit, ns, label, minor, current_minor, old, current):
    for tag, was in old.structs.items():
        now = current.structs.get(tag)
        if was.fields is None or now is None:
            continue
        name = old.display(tag)
        if now.fields is None:
            unit.fail(f"{name}: no longer defined (only declared) in the current header")
            continue
        for f in was.fields:
            g = now.field(f.name)
            if g is None:
                unit.fail(f"{name}.{f.name}: removed or renamed (was field #{f.index}: `{f.decl}`)")
                continue
            moved = f" (was field #{f.index}, now #{g.index})" if f.index != g.index else ""
            unit.check(f"offsetof({ns}::{tag}, {f.name}) == offsetof(::{tag}, {f.name})",
                       f"{name}.{f.name}: offset changed{moved}: a field before it was "
                       "inserted, removed, reordered or resized", "was {0}, now {1}")
            what = "signature" if "(*" in f.decl.replace(" ", "") else "type"
            unit.check(f"std::is_same_v<MapT<decltype({ns}::{tag}::{f.name})>, "
                       f"decltype(::{tag}::{f.name})>",
                       f"{name}.{f.name}: {what} changed: was `{f.decl}`, now `{g.decl}`")
        _check_growth(unit, ns, label, minor, current_minor, tag, name, was, now)


def _check_growth(unit, ns, label, minor, current_minor, tag, name, was, now):
    """Same minor: nothing may be added, not even into tail padding. Newer minor: each new field
    must start at or after the baseline's size, or the host's struct_size test cannot tell that
    an older plugin's struct lacks it. A struct without a leading struct_size cannot grow."""
    old_names = {f.name for f in was.fields}
    added = [g for g in now.fields if g.name not in old_names]
    versioned = bool(was.fields) and was.fields[0].name == "struct_size"
    if current_minor == minor or not versioned:
        why = (f"current PLINTH_ABI_MINOR is still {minor}, as in baseline {label}"
               if current_minor == minor else
               "it has no leading struct_size, so it can never grow (an array element)")
        for g in added:
            unit.fail(f"{name}.{g.name}: added, but {why}: `{g.decl}`")
        unit.check(f"sizeof({ns}::{tag}) == sizeof(::{tag})",
                   f"{name}: sizeof differs from baseline {label}, but {why}",
                   "was {0}, now {1}")
        return
    unit.check(f"sizeof(::{tag}) >= sizeof({ns}::{tag})",
               f"{name}: smaller than in baseline {label}", "now {0}, was {1}")
    for g in added:
        unit.check(f"offsetof(::{tag}, {g.name}) >= sizeof({ns}::{tag})",
                   f"{name}.{g.name}: added after {label} but starts inside {label}'s "
                   f"sizeof({name}) (in its padding), where a {label} struct_size already covers "
                   "it: the other side cannot tell it is absent; place it at or past that size",
                   "offset {0}, sizeof {1}")


def _check_typedefs(unit, ns, label, old, current):
    for tname, decl in old.typedefs.items():
        if tname not in current.typedefs:
            unit.fail(f"typedef {tname}: removed (was `{decl}`)")
            continue
        unit.check(f"std::is_same_v<MapT<{ns}::{tname}>, ::{tname}>",
                   f"typedef {tname}: changed: was `{decl}`, now `{current.typedefs[tname]}`")
    for fname, decl in old.functions.items():
        if fname not in current.functions:
            unit.fail(f"function {fname}: removed (was `{decl}`)")
            continue
        unit.check(f"std::is_same_v<MapT<decltype({ns}::{ns}_{fname})>, decltype(::{fname})>",
                   f"function {fname}: signature changed: was `{decl}`, "
                   f"now `{current.functions[fname]}`")


def _check_constants(unit, ns, label, minor, current_minor, old, current):
    was_ints, now_ints = old.integer_constants(), current.integer_constants()
    for cname, value in was_ints.items():
        if cname == "PLINTH_ABI_MINOR" or old.depends_on(cname, "PLINTH_ABI_MINOR"):
            continue
        if cname not in now_ints:
            now = current.macros.get(cname)
            unit.fail(f"constant {cname}: removed or no longer an integer (was {value}"
                      + (f", now {now.value})" if now else ")"))
        elif cname.endswith("_COUNT"):
            unit.check(f"NotLess(({cname}), {ns}::k_{cname})",
                       f"constant {cname}: shrank (was {value}, now {now_ints[cname]}); "
                       "a _COUNT may only grow")
        else:
            unit.check(f"SameValue(({cname}), {ns}::k_{cname})",
                       f"constant {cname}: value changed (was {value}, now {now_ints[cname]})")
            unit.check(f"SameType<decltype({ns}::k_{cname}), decltype(({cname}))>",
                       f"constant {cname}: type changed (was {value}, now {now_ints[cname]})")
    for cname, macro in old.macros.items():
        now = current.macros.get(cname)
        if macro.value.startswith('"') and now and now.value != macro.value:
            unit.fail(f"constant {cname}: changed (was {macro.value}, now {now.value})")
    if current_minor == minor:
        for cname in now_ints:
            if cname not in old.macros and not current.depends_on(cname, "PLINTH_ABI_MINOR"):
                unit.fail(f"constant {cname}: not in baseline {label}, but current "
                          f"PLINTH_ABI_MINOR is still {minor}: bump the minor")


def _compile(unit, include_dir, work_dir):
    """Compiles the unit (syntax only) and turns failed assertions into sentences."""
    source = Path(work_dir) / "prefix_check.cc"
    source.write_text("\n".join(unit.lines) + "\n")
    cxx = headers.compilers()[1]
    version = subprocess.run(cxx + ["--version"], capture_output=True, text=True).stdout
    limit = "-ferror-limit=0" if "clang" in version else "-fmax-errors=0"
    cmd = cxx + ["-std=c++17", "-fsyntax-only", "-w", limit, f"-I{include_dir}", str(source)]
    proc = subprocess.run(cmd, capture_output=True, text=True, env={**os.environ, "LC_ALL": "C"})
    if proc.returncode == 0:
        return []
    failures, seen, lines = [], set(), proc.stderr.splitlines()
    for i, line in enumerate(lines):
        m = re.search(r"ABI#(\d+)", line)
        if not m or m.group(1) in seen:
            continue
        seen.add(m.group(1))
        sentence, values = unit.meaning[int(m.group(1))]
        failures.append(sentence + _values(lines[i + 1:i + 4], values))
    if not failures:
        failures.append(f"the prefix check did not compile ({' '.join(cmd)}):\n{proc.stderr}")
    return failures


def _values(following, values):
    """The two sides of a failed comparison from the compiler's note (gcc gives them), as
    " (was 16, now 24)"; "" when there is none."""
    for line in following:
        m = re.search(r"(?:reduces to|evaluates to) .\(?(\d+) (?:==|>=) (\d+)\)?.", line)
        if m and values:
            return " (" + values.format(m.group(1), m.group(2)) + ")"
    return ""
