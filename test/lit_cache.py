# The lit suites' result cache: a test that passed is not run again while
# nothing it can read has changed. A rerun of the suites after a change to the
# shim, a doc or one test then runs only what the change reaches, as the
# scanner's own result cache does for a project (issue 24, section 4).
#
# What a test's key covers (all of it must be equal for a cached pass):
#   - the test file, and any other lit test file it names (%S/..., %srcroot/...);
#   - every other file of the source tree (git ls-files, tracked and untracked,
#     not ignored), except the lit test files (each enters its own key) and the
#     paths in NOT_READ below, which no lit test reads: the C++ that is built
#     into the binaries (the binaries themselves are hashed), the shim's
#     sources and tests, the docs (the rule help reaches the tests embedded in
#     the scanner), and the CTest-only tests;
#   - the content of every file that an environment value of the test's
#     configuration names (clang-tidy, the plugin, clangd, FileCheck, clang++:
#     what test/check-wrapguard.py and the LSP clients run), and of every file
#     named by a substitution the test uses (%wrapguard, %plugin, %python...):
#     a change to the scanner reruns the tests that run it, not the check's
#     suite;
#   - the lit parameters, the available features, the environment, Python's
#     version and Debian's package database (/var/lib/dpkg/status: an upgraded
#     clang, libstdc++ or LibTorch changes every key).
# test/lit-cache/check-cache.py tests all of this, and fails when a lit test
# starts reading what NOT_READ leaves out, or runs a program of the build by
# its name on PATH instead of through a substitution or the environment.
#
# Only a pass is kept, one key per test (the cache holds as many entries as
# there are tests); a failure, an unsupported test or an expected failure is
# run every time. WRAPGUARD_TEST_CACHE=0 in the environment, or
# --param wrapguard_test_cache=0, runs every test.
import hashlib
import json
import os
import re
import subprocess
import sys

import lit.formats
import lit.Test

# Reported in lit's summary beside "Passed".
CACHED = lit.Test.ResultCode("CACHED", "Passed before, inputs unchanged", False)

# Source paths (prefixes, relative to the source root) that no lit test reads.
NOT_READ = (
    "docs/",
    "shim/src/",
    "test/shim/",
    "test/unit/",
    "test/install/",
    "test/layers/",
    "test/bench/",
    "test/dogfood.py",
    "test/CMakeLists.txt",
    "README.md",
)
# C++ sources of the built tools: they reach the tests as the binaries, which
# are hashed; a change that leaves every binary as it was (a comment) reruns
# nothing.
NOT_READ_BUILT = re.compile(r"^(checker|tools/wrapguard[^/]*)/.*\.(cpp|h)$")

# Set by lit to a folder of its own for each run.
TEMP_VARS = ("TMP", "TMPDIR", "TEMP", "TEMPDIR")

# lit test files: what config.suffixes take in the lit folders, Inputs/ aside.
LIT_DIRS = ("test/checkers/", "test/scanner/", "test/clangd/")
LIT_SUFFIXES = (".cpp", ".test")


def is_lit_test(rel):
    return (rel.startswith(LIT_DIRS) and rel.endswith(LIT_SUFFIXES)
            and "/Inputs/" not in rel)


def source_files(src_root):
    """The source tree's files as git sees them (tracked and untracked, not
    ignored); every file under the root when it is not a git checkout."""
    try:
        out = subprocess.run(
            ["git", "-C", src_root, "ls-files", "-z", "--cached", "--others",
             "--exclude-standard"], check=True, capture_output=True).stdout
        names = sorted(set(n.decode() for n in out.split(b"\0") if n))
    except (OSError, subprocess.CalledProcessError):
        names = []
        for d, subdirs, files in os.walk(src_root):
            subdirs[:] = [s for s in subdirs if s not in (".git", "build")]
            names += [os.path.relpath(os.path.join(d, f), src_root) for f in files]
        names.sort()
    return names


def is_read(rel):
    return not (rel.startswith(NOT_READ) or NOT_READ_BUILT.match(rel)
                or is_lit_test(rel))


# Memos for this process: lit sends each test to its worker pickled, with its
# configuration and format, so they cannot live on the format object.
_file_hashes = {}
_config_keys = {}


def file_hash(path):
    """sha256 of a file's content, remembered by (path, size, mtime) for this
    process; a missing file hashes as such."""
    try:
        st = os.stat(path)
    except OSError:
        return "missing"
    memo = (path, st.st_size, st.st_mtime_ns)
    if memo not in _file_hashes:
        h = hashlib.sha256()
        with open(path, "rb") as f:
            for block in iter(lambda: f.read(1 << 20), b""):
                h.update(block)
        _file_hashes[memo] = h.hexdigest()
    return _file_hashes[memo]


def sources_key(src_root):
    h = hashlib.sha256()
    for rel in source_files(src_root):
        if is_read(rel):
            h.update(("%s %s\n" % (rel, file_hash(os.path.join(src_root, rel)))).encode())
    return h.hexdigest()


def used_files(text, substitutions):
    """The files named by the substitutions a test uses (%wrapguard, %plugin,
    ...), and by those their values use in turn. A key is a prefix match
    (%wrapguard_clangd counts %wrapguard too): more, never fewer."""
    used, todo = set(), [text]
    while todo:
        t = todo.pop()
        for k, v in substitutions:
            if k not in used and k in t:
                used.add(k)
                todo.append(v)
    return named_files([v for k, v in substitutions if k in used])


def named_files(values):
    """The existing files that a list of strings (commands, paths, options
    such as --load=PATH) names."""
    files = set()
    for v in values:
        for token in re.split(r"[\s=%s]+" % re.escape(os.pathsep), v):
            if token.startswith("/") and os.path.isfile(token):
                files.add(os.path.realpath(token))
    return sorted(files)


def referenced_tests(text, test_dir, src_root):
    """The other lit test files a test names: %S/<path> and %srcroot/<path>."""
    refs = set()
    for base, rel in re.findall(r"(%S|%srcroot)/([\w./+-]+)", text):
        path = os.path.normpath(os.path.join(test_dir if base == "%S" else src_root, rel))
        if os.path.isfile(path) and is_lit_test(os.path.relpath(path, src_root)):
            refs.add(path)
    return sorted(refs)


def enabled(lit_config):
    flag = lit_config.params.get("wrapguard_test_cache",
                                 os.environ.get("WRAPGUARD_TEST_CACHE", "1"))
    return flag not in ("0", "off", "no", "false")


class CachedShTest(lit.formats.ShTest):
    """lit's ShTest with a pass kept per test under cache_dir."""

    def __init__(self, cache_dir, src_root, base_key):
        super().__init__(execute_external=False)
        self.cache_dir = cache_dir
        self.src_root = src_root
        self.base_key = base_key

    def config_key(self, config, lit_config):
        """What the test's folder configuration makes of the tools that every
        test may run (the files its environment names), memoized for this
        process by the configuration's content."""
        subst = [list(s) for s in config.substitutions]
        # lit points the temporary-folder variables at a new folder each run.
        env = sorted((k, v) for k, v in config.environment.items() if k not in TEMP_VARS)
        desc = json.dumps([subst, env, sorted(config.available_features),
                           sorted(lit_config.params.items())], sort_keys=True)
        if desc not in _config_keys:
            h = hashlib.sha256(desc.encode())
            for path in named_files([v for _, v in env]):
                h.update(("%s %s\n" % (path, file_hash(path))).encode())
            _config_keys[desc] = h.hexdigest()
        return _config_keys[desc]

    def test_key(self, test, lit_config):
        path = test.getSourcePath()
        with open(path, "rb") as f:
            data = f.read()
        text = data.decode("utf-8", "replace")
        h = hashlib.sha256()
        h.update(self.base_key.encode())
        h.update(self.config_key(test.config, lit_config).encode())
        h.update(("%s %s\n" % (path, hashlib.sha256(data).hexdigest())).encode())
        for ref in referenced_tests(text, os.path.dirname(path), self.src_root):
            h.update(("%s %s\n" % (ref, file_hash(ref))).encode())
        for tool in used_files(text, test.config.substitutions):
            h.update(("%s %s\n" % (tool, file_hash(tool))).encode())
        return h.hexdigest()

    def stamp(self, test):
        name = "/".join(test.path_in_suite).replace("/", "__")
        return os.path.join(self.cache_dir, name)

    def execute(self, test, lit_config):
        if not enabled(lit_config):
            return super().execute(test, lit_config)
        key = self.test_key(test, lit_config)
        stamp = self.stamp(test)
        try:
            with open(stamp) as f:
                if f.read().strip() == key:
                    return lit.Test.Result(CACHED, "passed before with key %s\n" % key)
        except OSError:
            pass
        result = super().execute(test, lit_config)
        if result.code == lit.Test.PASS:
            os.makedirs(self.cache_dir, exist_ok=True)
            tmp = "%s.%d" % (stamp, os.getpid())
            with open(tmp, "w") as f:
                f.write(key + "\n")
            os.replace(tmp, stamp)
        elif os.path.exists(stamp):
            os.remove(stamp)
        return result


def base_key(config):
    """The part of every key that does not depend on the test's folder."""
    h = hashlib.sha256()
    h.update(sys.version.encode())
    h.update(file_hash("/var/lib/dpkg/status").encode())
    h.update(sources_key(config.wrapguard_src_root).encode())
    return h.hexdigest()
