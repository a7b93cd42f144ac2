#!/usr/bin/env python3
"""Checks how plugin code spells its includes and what it links.

Every plugin target and plugin test has one include root, plugins/, so a plugin header is
spelled from there ("hash/options.h", "common/rdb/reader.h") and a spelling names one file.
A plugin uses only its own folder, plugins/common and the SDK (<plinth/...>): it includes no
other plugin's header and links no other plugin's library.

  include_spelling_test.py [--root DIR]   checks the tree at DIR (default: this repository)
  include_spelling_test.py --self-test    checks that each rule catches a seeded violation

Exits 0 when the tree follows the rules, 1 with one line per violation otherwise.
"""

import argparse
import os
import re
import sys
import tempfile

SOURCE_EXTS = (".c", ".cc", ".h", ".hpp")
INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]')
TARGET_DEF = re.compile(r"\b(?:add_library|add_executable)\(\s*([A-Za-z0-9_.+-]+)")
PLUGIN_DEF = re.compile(r"\bplinth_add_plugin\(\s*NAME\s+([A-Za-z0-9_]+)")
INCLUDE_DIRS = re.compile(r"\btarget_include_directories\(([^)]*)\)", re.S)
ROOT_TARGET = "plinth_plugin_includes"


def source_files(root, top):
    for d, dirs, files in os.walk(os.path.join(root, top)):
        dirs.sort()
        for name in sorted(files):
            if name.endswith(SOURCE_EXTS):
                yield os.path.relpath(os.path.join(d, name), root)


def cmake_files(root, top):
    for d, dirs, files in os.walk(os.path.join(root, top)):
        dirs.sort()
        if "CMakeLists.txt" in files:
            yield os.path.relpath(os.path.join(d, "CMakeLists.txt"), root)


def plugin_of(path):
    """The plugin folder a path under plugins/ or tests/plugins/ belongs to."""
    parts = path.split("/")
    return parts[1] if parts[0] == "plugins" else parts[2]


def strip_comments(text):
    return "\n".join(line.split("#", 1)[0] for line in text.splitlines())


def check_includes(root, path, by_suffix):
    problems = []
    in_plugin = path.startswith("plugins/")
    owner = plugin_of(path)
    with open(os.path.join(root, path), encoding="utf-8", errors="replace") as f:
        lines = f.readlines()
    for number, line in enumerate(lines, 1):
        m = INCLUDE.match(line)
        if not m:
            continue
        quote, spelled = m.group(1), m.group(2)
        where = f"{path}:{number}: \"{spelled}\""
        from_root = os.path.isfile(os.path.join(root, "plugins", spelled))
        if quote == "<":
            if spelled.startswith("plinth/"):
                continue
            if from_root or spelled.split("/")[-1] in by_suffix and any(
                    p.endswith("/" + spelled) for p in by_suffix[spelled.split("/")[-1]]):
                problems.append(f"{where} names a plugin header with <>; spell it \"...\" from "
                                "plugins/")
            continue
        beside = os.path.normpath(os.path.join(os.path.dirname(path), spelled))
        if os.path.isfile(os.path.join(root, beside)):
            if in_plugin or beside.startswith("plugins/"):
                problems.append(f"{where} is found beside the file ({beside}); spell plugin "
                                "headers from plugins/")
            elif from_root:
                problems.append(f"{where} names both {beside} and plugins/{spelled}")
            continue
        if from_root:
            first = spelled.split("/")[0]
            if in_plugin and first not in (owner, "common"):
                problems.append(f"{where}: plugin '{owner}' includes plugin '{first}'; move "
                                "what they share to plugins/common")
            continue
        name = spelled.split("/")[-1]
        matches = [p for p in by_suffix.get(name, []) if p.endswith("/" + spelled)]
        if matches:
            problems.append(f"{where} names {matches[0]}; spell it from plugins/")
    return problems


def check_cmake(root):
    problems = []
    defined = {}  # target -> plugin folder that defines it
    for path in cmake_files(root, "plugins"):
        with open(os.path.join(root, path), encoding="utf-8") as f:
            text = strip_comments(f.read())
        for name in TARGET_DEF.findall(text):
            defined[name] = plugin_of(path)
        for name in PLUGIN_DEF.findall(text):
            defined["plinth_" + name] = plugin_of(path)
    for top in ("plugins", "tests/plugins"):
        for path in cmake_files(root, top):
            with open(os.path.join(root, path), encoding="utf-8") as f:
                text = strip_comments(f.read())
            owner = plugin_of(path)
            for call in INCLUDE_DIRS.findall(text):
                args = call.split()
                if (top == "plugins" and args[:1] == [ROOT_TARGET] and
                        args[1:] == ["INTERFACE", "${PROJECT_SOURCE_DIR}/plugins"]):
                    continue
                if "CMAKE_CURRENT_SOURCE_DIR" in call or "plugins" in call:
                    problems.append(f"{path}: target_include_directories({call.strip()}) adds a "
                                    f"second root; link {ROOT_TARGET} instead")
            if top != "plugins" or owner == "common":
                continue
            for token in set(re.findall(r"[A-Za-z0-9_.+-]+", text)):
                other = defined.get(token)
                if other and other not in (owner, "common"):
                    problems.append(f"{path}: plugin '{owner}' uses {token} of plugin '{other}'; "
                                    "move what they share to plugins/common")
    return problems


def check(root):
    by_suffix = {}
    for path in source_files(root, "plugins"):
        by_suffix.setdefault(os.path.basename(path), []).append(path)
    problems = []
    for top in ("plugins", "tests/plugins"):
        for path in source_files(root, top):
            problems += check_includes(root, path, by_suffix)
    return problems + check_cmake(root)


def write(root, path, text):
    full = os.path.join(root, path)
    os.makedirs(os.path.dirname(full), exist_ok=True)
    with open(full, "w", encoding="utf-8") as f:
        f.write(text)


def self_test():
    """Seeds one violation of each rule into a small tree and checks that each is reported."""
    good = {
        "plugins/common/CMakeLists.txt":
            "add_library(plinth_plugin_includes INTERFACE)\n"
            "target_include_directories(plinth_plugin_includes INTERFACE "
            "${PROJECT_SOURCE_DIR}/plugins)\nadd_library(plinth_common STATIC options.cc)\n",
        "plugins/common/options.h": "",
        "plugins/a/CMakeLists.txt": "add_library(plinth_a_core STATIC x.cc)\n",
        "plugins/a/options.h": "",
        "plugins/a/x.cc": '#include "a/options.h"\n#include "common/options.h"\n'
                          "#include <plinth/plugin.hpp>\n#include <vector>\n",
        "plugins/b/CMakeLists.txt": "add_library(plinth_b_core STATIC y.cc)\n",
        "plugins/b/lib/z.h": "",
        "tests/plugins/a/fixture.h": "",
        "tests/plugins/a/x_test.cc": '#include "fixture.h"\n#include "a/options.h"\n',
    }
    seeded = {
        "beside": ("plugins/a/y.cc", '#include "options.h"\n'),
        "plugin 'a' includes plugin 'b'": ("plugins/a/z.cc", '#include "b/lib/z.h"\n'),
        "with <>": ("plugins/a/w.cc", "#include <z.h>\n"),
        "spell it from plugins/": ("tests/plugins/a/y_test.cc", '#include "lib/z.h"\n'),
        "uses plinth_b_core": ("plugins/a/CMakeLists.txt",
                               "add_library(plinth_a_core STATIC x.cc)\n"
                               "target_link_libraries(plinth_a_core PUBLIC plinth_b_core)\n"),
        "second root": ("plugins/b/CMakeLists.txt",
                        "add_library(plinth_b_core STATIC y.cc)\n"
                        "target_include_directories(plinth_b_core PUBLIC "
                        "${CMAKE_CURRENT_SOURCE_DIR})\n"),
    }
    failures = 0
    with tempfile.TemporaryDirectory() as root:
        for path, text in good.items():
            write(root, path, text)
        if check(root):
            print("self-test: a clean tree is reported:", *check(root), sep="\n  ")
            failures += 1
    for needle, (path, text) in seeded.items():
        with tempfile.TemporaryDirectory() as root:
            for p, t in good.items():
                write(root, p, t)
            write(root, path, text)
            problems = check(root)
            if not any(needle in p for p in problems):
                print(f"self-test: '{needle}' in {path} is not reported; got {problems}")
                failures += 1
    return 1 if failures else 0


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", default=os.path.join(os.path.dirname(__file__), "..", "..",
                                                       ".."))
    parser.add_argument("--self-test", action="store_true")
    args = parser.parse_args()
    if args.self_test:
        return self_test()
    problems = check(os.path.abspath(args.root))
    for p in problems:
        print(p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
