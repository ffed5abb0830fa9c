# lit configuration shared by test/checkers (the clang-tidy check) and
# test/scanner (the standalone scanner). Run through CTest, which passes the
# build's lit.site.cfg.py as the parameter wrapguard_site_config.
#
# The parameter wrapguard_stdlib (libstdc++, the default, or libc++) picks the
# C++ standard library the tests' code is analysed and compiled against: CTest
# runs test/checkers once with each (lit-checkers, lit-checkers-libcxx).
# A check test whose code uses no callable, smart pointer, optional or
# container of the C++ library (at most its C headers, std::nullptr_t or an
# exception type) says UNSUPPORTED: libcxx: the second run would analyse the
# same code the same way.
# With libc++, -stdlib=libc++ is appended to every compile command that
# test/check-wrapguard.py runs (clang-tidy and the clang++ check of the fixed
# file), and %stdlib_flags expands to it for RUN lines that build their own
# commands.
#
# A test that passed is not run again while nothing it reads has changed
# (test/lit_cache.py; WRAPGUARD_TEST_CACHE=0 runs every test).
import os
import shutil
import sys


if not hasattr(config, "wrapguard_obj_root"):
    site = lit_config.params.get("wrapguard_site_config")
    if not site:
        lit_config.fatal("run lit through ctest, or pass --param wrapguard_site_config=BUILD/test/lit.site.cfg.py")
    lit_config.load_config(config, site)
else:
    config.name = "wrapguard"
    config.suffixes = [".cpp", ".test"]
    config.excludes = ["Inputs"]
    config.test_source_root = os.path.dirname(__file__)
    config.test_exec_root = os.path.join(config.wrapguard_obj_root, "test")

    stdlib = lit_config.params.get("wrapguard_stdlib", "libstdc++")
    if stdlib not in ("libstdc++", "libc++"):
        lit_config.fatal("wrapguard_stdlib must be libstdc++ or libc++, not '%s'" % stdlib)
    stdlib_flags = "-stdlib=libc++" if stdlib == "libc++" else ""
    if stdlib == "libc++":
        config.name = "wrapguard-libc++"
        # Its own Output folders, so that CTest can run both runs at once.
        config.test_exec_root = os.path.join(config.wrapguard_obj_root, "test-libc++")
        config.available_features.add("libcxx")
    else:
        config.available_features.add("libstdcxx")

    # A pass is kept per test in the build folder, and the test is not run
    # again while nothing it can read has changed (test/lit_cache.py).
    sys.path.insert(0, os.path.dirname(__file__))
    import lit_cache
    config.test_format = lit_cache.CachedShTest(
        cache_dir=os.path.join(config.test_exec_root, "lit-cache"),
        src_root=config.wrapguard_src_root, base_key=lit_cache.base_key(config))

    tools = config.llvm_tools_dir
    config.environment["PATH"] = os.pathsep.join(
        [tools, os.path.join(config.wrapguard_obj_root, "bin"), config.environment.get("PATH", "")])
    # Tests must not depend on the user's terminal or locale.
    config.environment["LC_ALL"] = "C.UTF-8"
    config.environment.pop("TERM", None)

    src = config.wrapguard_src_root
    node_bin = os.path.join(config.wrapguard_obj_root, "node", "node_modules", ".bin")
    config.substitutions.extend([
        ("%check_wrapguard", "%s %s" % (config.python_executable,
                                        os.path.join(src, "test", "check-wrapguard.py"))),
        ("%clang_tidy", config.clang_tidy),
        ("%clangxx", config.clangxx),
        ("%plugin", config.wrapguard_plugin),
        ("%wrapguard", config.wrapguard_scanner),
        ("%shim_include", os.path.join(src, "shim", "include")),
        ("%sarif_validate", os.path.join(node_bin, "sarif-multitool") + " validate"),
        ("%python", config.python_executable),
        ("%srcroot", src),
        ("%stdlib_flags", stdlib_flags),
    ])
    # test/check-wrapguard.py (%check_wrapguard) finds its tools here.
    config.environment["WRAPGUARD_CLANG_TIDY"] = config.clang_tidy
    config.environment["WRAPGUARD_PLUGIN"] = config.wrapguard_plugin
    config.environment["WRAPGUARD_FILECHECK"] = config.filecheck
    config.environment["WRAPGUARD_CLANGXX"] = config.clangxx
    config.environment["WRAPGUARD_SHIM_INCLUDE"] = os.path.join(src, "shim", "include")
    config.environment["WRAPGUARD_STDLIB_FLAGS"] = stdlib_flags
    # Tests that parse LibTorch's headers (REQUIRES: libtorch) are UNSUPPORTED
    # in the libc++ run: Debian's libtorch-dev is built against libstdc++ (its
    # API passes std::string, std::vector, std::function), so code built with
    # -stdlib=libc++ cannot link with it, and analysing such code would test
    # a build that cannot exist.
    if os.path.isdir("/usr/include/torch/csrc/api/include") and stdlib == "libstdc++":
        config.available_features.add("libtorch")
