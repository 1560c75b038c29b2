#!/usr/bin/env python3
"""The Spack package (packaging/spack/g500/package.py) against the CMake build: it parses (Python
ast, without Spack), depends on every library CMake finds or fetches, at least at the version
CMake pins, on CMake at the version CMakeLists.txt requires, and has the variants its cmake_args
use. A library added to the build without the package failing here is a test failure."""
import ast
import os
import re
import sys
import unittest

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
PACKAGE = os.path.join(ROOT, "packaging", "spack", "g500", "package.py")

# CMake package name -> Spack package name (None: provided by the compiler).
SPACK_NAME = {"MPI": "mpi", "OpenMP": None, "fmt": "fmt", "CLI11": "cli11", "nlohmann_json": "nlohmann-json",
              "GTest": "googletest"}


def cmake_files():
    for folder, _, files in os.walk(ROOT):
        parts = os.path.relpath(folder, ROOT).split(os.sep)
        if parts[0].startswith("build") or parts[0] == ".git" or "_deps" in parts:  # build trees, fetched sources
            continue
        for name in files:
            if name == "CMakeLists.txt" or name.endswith(".cmake"):
                yield os.path.join(folder, name)


def cmake_packages():
    """{CMake package: pinned version or None} of every find_package and g500_dependency."""
    found = {}
    for path in cmake_files():
        with open(path) as f:
            text = re.sub(r"#[^\n]*", "", f.read())
        for name, version in re.findall(r"\bfind_package\(\s*(\w+)(?:\s+(\d[\d.]*))?", text):
            if name != "${package}":
                found.setdefault(name, version or None)
        for _, package, version in re.findall(r"\bg500_dependency\(\s*(\w+)\s+(\w+)\s+([\d.]+)", text):
            found[package] = version
    return found


def package_calls(tree, function):
    calls = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == function:
            calls.append(node)
    return calls


class SpackPackage(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        with open(PACKAGE) as f:
            cls.source = f.read()
        cls.tree = ast.parse(cls.source, PACKAGE)
        cls.depends = {}
        for call in package_calls(cls.tree, "depends_on"):
            spec = call.args[0].value
            name = re.match(r"[\w-]+", spec).group(0)
            version = re.search(r"@([\d.]+)", spec)
            cls.depends[name] = version.group(1) if version else None

    def test_is_a_cmake_package(self):
        classes = [n for n in self.tree.body if isinstance(n, ast.ClassDef)]
        self.assertEqual([c.name for c in classes], ["G500"])
        self.assertEqual([b.id for b in classes[0].bases], ["CMakePackage"])
        self.assertIn("cmake_args", [f.name for f in classes[0].body if isinstance(f, ast.FunctionDef)])

    def test_names_every_library_of_the_build(self):
        packages = cmake_packages()
        self.assertTrue({"MPI", "OpenMP", "fmt", "CLI11", "nlohmann_json", "GTest"} <= set(packages), packages)
        for cmake_name, version in packages.items():
            self.assertIn(cmake_name, SPACK_NAME, f"CMake uses {cmake_name}: add it to package.py and SPACK_NAME")
            spack_name = SPACK_NAME[cmake_name]
            if spack_name is None:
                continue
            self.assertIn(spack_name, self.depends, f"package.py does not depend on {spack_name} ({cmake_name})")
            if version:
                self.assertEqual(self.depends[spack_name], version,
                                 f"{spack_name}: CMake pins {version}, package.py asks for {self.depends[spack_name]}")

    def test_cmake_version_matches(self):
        with open(os.path.join(ROOT, "CMakeLists.txt")) as f:
            required = re.search(r"cmake_minimum_required\(VERSION ([\d.]+)", f.read()).group(1)
        self.assertEqual(self.depends.get("cmake"), required)

    def test_variants_reach_cmake(self):
        variants = {call.args[0].value for call in package_calls(self.tree, "variant")}
        self.assertEqual(variants, {"native", "tests"})
        self.assertIn('define_from_variant("BUILD_TESTING", "tests")', self.source)
        self.assertIn('satisfies("~native")', self.source)
        self.assertIn('define("G500_ARCH_FLAGS", "")', self.source)
        self.assertIn('define("G500_FETCH_DEPENDENCIES", False)', self.source)


if __name__ == "__main__":
    unittest.main(argv=sys.argv[:1], verbosity=1)
