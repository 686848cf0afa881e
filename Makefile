# isolde: GNU Make build. The core needs only libc and pthreads; each
# optional feature is a library found by pkg-config (below: FEATURES), and
# only such libraries are linked and listed in isolde.pc. The build ends
# with one line naming the features it has, those WITHOUT left out and
# those not found.
#
#   make                  what is installed decides the optional features
#   make WITHOUT=curl,gvc those left out whatever is installed (all: every one)
#   make DEVELOPER=1      warnings are errors (CI; whoever changes the code)
CC       ?= cc
BUILD    ?= build
PREFIX   ?= /usr/local
VERSION  := 0.2.0
OPT      ?= -O2 -g
# Warnings are errors for developers only: a user's newer compiler, with a
# warning this code has never met, still builds it.
WARN     := -std=c17 -Wall -Wextra -Wno-unused-parameter -Wvla -Wshadow -Wstrict-prototypes \
            -Wmissing-prototypes
ifneq ($(filter-out 0,$(DEVELOPER)),)
  WARN   += -Werror
endif
CPPFLAGS += -Iinclude -Ilib -I$(BUILD)/gen -D_DEFAULT_SOURCE -D_POSIX_C_SOURCE=200809L
CFLAGS   += $(OPT) $(WARN) -fPIC -fvisibility=hidden -pthread
LDLIBS   += -lpthread -lm

# The optional features, by the names WITHOUT takes, each with its
# pkg-config package, the macro the code tests and the Debian package that
# has it:
#   zlib     gzip histories read          sqlite   the SQLite driver
#   libpq    the PostgreSQL driver        mariadb  the MariaDB / MySQL driver
#   gvc      -d's cycle pictures as SVG   curl     the etcd driver
#   cadical  the SAT solver of lib/solve/ (exact serializability and snapshot
#            isolation when version orders are unknown)
# Graphviz's libgvc comes with its dot layout and core renderer linked in
# as built-in plugins. CaDiCaL (Debian's libcadical-dev: a static C++
# library and ccadical.h, no .pc file) is found by compiling and linking a
# call to it instead (test_cadical). PKG_CONFIG=false finds none, as
# WITHOUT=all does.
FEATURES    := zlib sqlite libpq mariadb gvc curl cadical
PKG_CONFIG  ?= pkg-config
pc_zlib     := zlib
pc_sqlite   := sqlite3
pc_libpq    := libpq
pc_mariadb  := libmariadb
pc_gvc      := libgvc
pc_curl     := libcurl
def_zlib    := ZLIB
def_sqlite  := SQLITE
def_libpq   := LIBPQ
def_mariadb := MARIADB
def_gvc     := GVC
def_curl    := CURL
def_cadical := CADICAL
deb_zlib    := zlib1g-dev
deb_sqlite  := libsqlite3-dev
deb_libpq   := libpq-dev
deb_mariadb := libmariadb-dev
deb_gvc     := libgraphviz-dev
deb_curl    := libcurl4-openssl-dev
deb_cadical := libcadical-dev
libs_cadical := -lcadical -lstdc++ -lm
comma       := ,
WITHOUT_ASKED := $(subst $(comma), ,$(WITHOUT))
ifneq ($(filter-out all $(FEATURES),$(WITHOUT_ASKED)),)
  $(error WITHOUT=$(WITHOUT): no feature $(filter-out all $(FEATURES),$(WITHOUT_ASKED)) (the features: $(FEATURES); or all))
endif
have = $(shell $(PKG_CONFIG) --exists $(1) 2>/dev/null && echo yes)
# A feature without a .pc file: a program that calls it compiles and links
# (with PKG_CONFIG=false, as every other feature, it is not looked for).
test_cadical = $(if $(filter false,$(PKG_CONFIG)),,$(shell printf '#include <ccadical.h>\nint main(void) { \
    ccadical_release(ccadical_init()); return 0; }\n' | $(CC) -x c - -o /dev/null $(libs_cadical) 2>/dev/null && echo yes))
found = $(if $(pc_$(1)),$(call have,$(pc_$(1))),$(test_$(1)))
LEFT_OUT  := $(if $(filter all,$(WITHOUT_ASKED)),$(FEATURES),$(filter $(WITHOUT_ASKED),$(FEATURES)))
FOUND     := $(strip $(foreach f,$(filter-out $(LEFT_OUT),$(FEATURES)),$(if $(call found,$(f)),$(f))))
NOT_FOUND := $(filter-out $(FOUND) $(LEFT_OUT),$(FEATURES))
ifneq ($(filter gvc,$(FOUND)),)
  libs_gvc := -L$(shell $(PKG_CONFIG) --variable=libdir libgvc)/graphviz -lgvplugin_dot_layout -lgvplugin_core \
              -Wl,-rpath,$(shell $(PKG_CONFIG) --variable=libdir libgvc)/graphviz
endif
FEATURE_CPPFLAGS := $(foreach f,$(FOUND),-DISO_HAVE_$(def_$(f)) $(if $(pc_$(f)),$(shell $(PKG_CONFIG) --cflags $(pc_$(f)))))
FEATURE_LIBS     := $(foreach f,$(FOUND),$(if $(pc_$(f)),$(shell $(PKG_CONFIG) --libs $(pc_$(f)))) $(libs_$(f)))
CPPFLAGS += $(FEATURE_CPPFLAGS)
LDLIBS   += $(FEATURE_LIBS)
# The line after the build: what it has, and how to change that.
FEATURE_LINE := features: $(or $(FOUND),none)$(if $(LEFT_OUT),; left out (WITHOUT): $(LEFT_OUT))$(if \
    $(NOT_FOUND),; not found: $(NOT_FOUND) ($(foreach f,$(NOT_FOUND),$(deb_$(f))): make deps as root installs \
    them; WITHOUT=$(subst $() ,$(comma),$(strip $(LEFT_OUT) $(NOT_FOUND))) leaves them out))
# cmocka, for the unit tests only.
HAVE_CMOCKA := $(shell pkg-config --exists cmocka 2>/dev/null && echo yes)
CMOCKA_LIBS := $(shell pkg-config --libs cmocka 2>/dev/null)
CMOCKA_WHY  := skipped: the unit tests, no cmocka (libcmocka-dev: make deps as root installs it)

# Sources per component, bottom up (docs/ARCHITECTURE.md): the checker is
# everything a check needs and builds with libc and pthreads alone (what a
# WebAssembly build takes); the runner adds generators, the simulated
# database and the drivers.
CORE_SRC     := $(sort $(wildcard lib/core/*.c))
HISTORY_SRC  := $(sort $(wildcard lib/history/*.c))
GRAPH_SRC    := $(sort $(wildcard lib/graph/*.c))
SOLVE_SRC    := $(sort $(wildcard lib/solve/*.c))
RESULT_SRC   := $(sort $(wildcard lib/result/*.c))
REPORT_SRC   := $(sort $(wildcard lib/report/*.c))
ELLE_SRC     := $(sort $(wildcard lib/elle/*.c lib/elle/*/*.c))
LINEAR_SRC   := $(sort $(wildcard lib/linear/*.c))
JEPSEN_SRC   := $(sort $(wildcard lib/jepsen/*.c))
CHECK_SRC    := $(sort $(wildcard lib/check/*.c))
CHECKER_SRC  := $(CORE_SRC) $(HISTORY_SRC) $(GRAPH_SRC) $(SOLVE_SRC) $(RESULT_SRC) $(REPORT_SRC) \
                $(ELLE_SRC) $(LINEAR_SRC) $(JEPSEN_SRC) $(CHECK_SRC)
CHECKER_HDR  := $(wildcard $(addsuffix *.h,$(sort $(dir $(CHECKER_SRC)))))
TXN_SRC      := $(sort $(wildcard lib/txn/*.c))
GEN_SRC      := $(sort $(wildcard lib/gen/*.c))
SIM_SRC      := $(sort $(wildcard lib/sim/*.c))
RECORD_SRC   := $(sort $(wildcard lib/record/*.c))
NEMESIS_SRC  := $(sort $(wildcard lib/nemesis/*.c))
RUN_SRC      := $(sort $(wildcard lib/run/*.c lib/run/drivers/*.c))
RUNNER_SRC   := $(TXN_SRC) $(GEN_SRC) $(SIM_SRC) $(RECORD_SRC) $(NEMESIS_SRC) $(RUN_SRC)
LIB_SRC  := $(CHECKER_SRC) $(RUNNER_SRC)
CLI_SRC  := $(sort $(wildcard src/*.c))
# Unit tests mirror lib/'s folders: tests/unit/<folder>/test_x.c builds to
# $(BUILD)/tests/unit/<folder>/test_x (tests/run-unit.sh runs them by path).
TEST_SRC := $(sort $(shell find tests/unit -name 'test_*.c' 2>/dev/null))
TEST_HDR := $(wildcard tests/unit/*.h tests/unit/*/*.h tests/tools/case.h)
TOOL_SRC := $(sort $(wildcard tests/tools/*.c bench/*.c))
# The brute-force oracle (tests/tools/oracle/, one program of several files).
ORACLE_SRC := $(sort $(wildcard tests/tools/oracle/*.c))
# Fuzz targets (fuzz/): every source but replay.c is linked into the
# libFuzzer binary (make fuzz); replay.c's main() runs the same targets on
# files, for make check (tests/fuzz-replay.sh).
FUZZ_SRC := $(sort $(wildcard fuzz/*.c))
FUZZ_TARGET_SRC := $(filter-out fuzz/replay.c,$(FUZZ_SRC))
LIB_OBJ  := $(LIB_SRC:%.c=$(BUILD)/%.o)
# Test hooks (iso_alloc_fail_after and its kin, ISOLDE_HUB_MIN) are
# compiled in only with -DISO_TESTING: the sources that hold some are built
# a second time with it, and the archive of internals that the unit tests,
# the test tools, the fuzz targets and the benchmarks link takes those
# objects; nothing shipped (the CLI, dist/libisolde.a, libisolde.so) has
# them. $(BUILD)/tests/isolde is the CLI with them, for the CLI tests that
# set ISOLDE_HUB_MIN.
TESTING     := -DISO_TESTING
TESTING_SRC := $(shell grep -l ISO_TESTING $(LIB_SRC))
TESTING_OBJ := $(TESTING_SRC:%.c=$(BUILD)/testing/%.o)
INTERNAL_OBJ := $(filter-out $(TESTING_SRC:%.c=$(BUILD)/%.o),$(LIB_OBJ)) $(TESTING_OBJ)
CHECKER_OBJ := $(CHECKER_SRC:%.c=$(BUILD)/checker/%.o)
CLI_OBJ  := $(CLI_SRC:%.c=$(BUILD)/%.o)
TESTS    := $(if $(HAVE_CMOCKA),$(TEST_SRC:%.c=$(BUILD)/%))
TOOLS    := $(TOOL_SRC:%.c=$(BUILD)/%) $(BUILD)/fuzz/replay $(BUILD)/tests/tools/oracle/oracle

# Quiet by default; `make V=1` shows the commands.
ifeq ($(V),1)
  Q :=
  say = @true
else
  Q := @
  say = @printf '  %-6s %s\n' $(1) $(2)
endif

# What BUILD's objects and programs were made with (git's GIT-CFLAGS): when
# it changes -- a library installed or removed since, other flags -- the
# file is rewritten and everything is made again, so a build never keeps an
# object compiled without a feature it now links (or the other way round).
FLAGS_STAMP := $(BUILD)/.flags
FLAGS_NOW   := $(CC) $(CPPFLAGS) $(CFLAGS) $(OPT) $(LDFLAGS) $(LDLIBS)
ifneq ($(FLAGS_NOW),$(file < $(FLAGS_STAMP)))
  $(shell mkdir -p $(BUILD))
  $(file > $(FLAGS_STAMP),$(FLAGS_NOW))
endif

# The public header's version block, isolde_version.h (SQLite's VERSION
# block: the string, and MAJOR * 1000000 + MINOR * 1000 + PATCH), made from
# VERSION into $(BUILD)/gen and installed beside isolde.h; written again only
# when it changes. The soname follows the major version.
VERSION_H := $(BUILD)/gen/isolde_version.h
SOMAJOR   := $(word 1,$(subst ., ,$(VERSION)))
VERSION_N := $(shell echo $(VERSION) | awk -F. '{ print $$1 * 1000000 + $$2 * 1000 + $$3 }')
define VERSION_TEXT
/* isolde_version.h -- made by the Makefile from its VERSION; do not edit. */
#ifndef ISOLDE_VERSION_H
#define ISOLDE_VERSION_H
#define ISOLDE_VERSION "$(VERSION)"
#define ISOLDE_VERSION_NUMBER $(VERSION_N)
#endif
endef
ifneq ($(VERSION_TEXT),$(file < $(VERSION_H)))
  $(shell mkdir -p $(BUILD)/gen)
  $(file > $(VERSION_H),$(VERSION_TEXT))
endif

.PHONY: all lib checker tests demo check unit cli-tests conformance crosscheck sanitize sanitize-clang \
        fuzz bench install clean deps deps-if-root print-pkgs browser-deps playground
all: $(BUILD)/isolde $(BUILD)/dist/libisolde.a $(BUILD)/libisolde.so $(BUILD)/isolde.pc $(BUILD)/isolde.1 \
     $(BUILD)/features
	@echo '  $(FEATURE_LINE)'

# The features this build has, for the tests (tests/clilib.sh's have_feature).
$(BUILD)/features: $(FLAGS_STAMP)
	@echo '$(FOUND)' > $@

$(BUILD)/%.o: %.c $(FLAGS_STAMP)
	@mkdir -p $(@D)
	$(call say,CC,$<)
	$(Q)$(CC) $(CPPFLAGS) $(CFLAGS) -MMD -MP -c $< -o $@

$(BUILD)/testing/%.o: %.c $(FLAGS_STAMP)
	@mkdir -p $(@D)
	$(call say,CC,$@)
	$(Q)$(CC) $(CPPFLAGS) $(TESTING) $(CFLAGS) -MMD -MP -c $< -o $@

# Every object, the test hooks' among them, for the unit tests, the test
# tools, the fuzz targets and the benchmarks (which use internals).
$(BUILD)/libisolde.a: $(INTERNAL_OBJ)
	@rm -f $@
	$(call say,AR,$@)
	$(Q)ar rcs $@ $^

# The static library installed and linked by the CLI: one relocatable
# object whose internal (hidden) symbols are made local, so that only the
# isolde_* API is visible to a program and nothing clashes with its own
# names (or libisofs's iso_*).
$(BUILD)/dist/libisolde.a: $(LIB_OBJ)
	@mkdir -p $(@D)
	@rm -f $@
	$(call say,AR,$@)
	$(Q)$(LD) -r -o $(BUILD)/dist/isolde.o $^ && objcopy --localize-hidden $(BUILD)/dist/isolde.o
	$(Q)ar rcs $@ $(BUILD)/dist/isolde.o

# The checker alone, built without the optional libraries' flags: proof that
# it needs nothing but libc and pthreads (and never forks or runs a process).
CHECKER_FORBIDDEN := fork execv execvp execl waitpid socketpair sqlite3_open_v2 PQconnectdb mysql_init \
                     curl_easy_init
checker: $(BUILD)/libisolde-checker.a
	@bad=$$(nm -u $< | awk '{print $$2}' | grep -x -E '$(subst $(eval) ,|,$(CHECKER_FORBIDDEN))' | sort -u); \
	if [ -n "$$bad" ]; then echo "checker: uses $$bad"; exit 1; fi; echo "  checker $<"

$(BUILD)/checker/%.o: %.c $(FLAGS_STAMP)
	@mkdir -p $(@D)
	$(call say,CC,$<)
	$(Q)$(CC) -Iinclude -Ilib -I$(BUILD)/gen -D_DEFAULT_SOURCE -D_POSIX_C_SOURCE=200809L \
	    $(CFLAGS) -MMD -MP -c $< -o $@

# The report viewer (web/viewer.js, shared with the playground) as a C
# string for report/page.c; it must never hold "</script" (it is inlined
# in a script element).
$(BUILD)/gen/viewer_js.h: web/viewer.js
	@mkdir -p $(@D)
	$(call say,GEN,$@)
	$(Q)if grep -qi '</script' $<; then echo "$<: holds </script" >&2; exit 1; fi
	$(Q){ echo '/* generated from $< by the Makefile */'; echo 'static const char iso_viewer_js[] ='; \
	  sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/?/\\?/g' -e 's/^/"/' -e 's/$$/\\n"/' $<; echo ';'; } > $@.tmp
	$(Q)mv $@.tmp $@
$(BUILD)/lib/report/page.o $(BUILD)/checker/lib/report/page.o: $(BUILD)/gen/viewer_js.h

# The playground (web/index.html): the checker and web/isolde_wasm.c
# compiled to WebAssembly by emscripten (Debian's package, offline), one
# file with the wasm inside, loaded from disk with no server; the page it
# shows is the report --html writes, viewer and all.
EMCC       ?= emcc
EMCC_FLAGS := -O2 -sSINGLE_FILE=1 -sALLOW_MEMORY_GROWTH=1 -sMODULARIZE=1 -sEXPORT_NAME=IsoldeModule \
              -sEXPORTED_FUNCTIONS=_isolde_web_check,_malloc,_free \
              -sEXPORTED_RUNTIME_METHODS=ccall,UTF8ToString,stringToUTF8,lengthBytesUTF8,getValue
playground: web/isolde-wasm.js
# It is made from web/viewer.js, whose C string any BUILD's gen/ holds (an
# order-only prerequisite: a BUILD made since does not make it again), and
# written whole under another name, then renamed: two suites (make check,
# make sanitize) that make it at once leave one whole file.
web/isolde-wasm.js: $(CHECKER_SRC) $(CHECKER_HDR) web/isolde_wasm.c web/viewer.js include/isolde.h include/isolde_run.h Makefile \
                    | $(BUILD)/gen/viewer_js.h
	@command -v $(EMCC) >/dev/null || sh tools/deps.sh emscripten
	$(call say,EMCC,$@)
	$(Q)NODE_PATH=/usr/share/nodejs $(EMCC) -Iinclude -Ilib -I$(BUILD)/gen -D_DEFAULT_SOURCE -D_POSIX_C_SOURCE=200809L \
	    $(WARN) $(EMCC_FLAGS) -o $@.$$$$.js $(CHECKER_SRC) web/isolde_wasm.c && \
	    mv $@.$$$$.js $@

$(BUILD)/libisolde-checker.a: $(CHECKER_OBJ)
	@rm -f $@
	$(call say,AR,$@)
	$(Q)ar rcs $@ $^

$(BUILD)/libisolde.so: $(LIB_OBJ) $(FLAGS_STAMP)
	$(call say,LD,$@)
	$(Q)$(CC) -shared -Wl,-soname,libisolde.so.$(SOMAJOR) $(CFLAGS) -o $@ $(LIB_OBJ) $(LDFLAGS) $(LDLIBS)

$(BUILD)/isolde: $(CLI_OBJ) $(BUILD)/dist/libisolde.a $(FLAGS_STAMP)
	$(call say,LD,$@)
	$(Q)$(CC) $(CFLAGS) -o $@ $(CLI_OBJ) $(BUILD)/dist/libisolde.a $(LDFLAGS) $(LDLIBS)

# isolde.pc for PREFIX. A program linked against the shared library finds
# it through the rpath the .pc gives, where PREFIX is not /usr (the
# loader's own directory), so no LD_LIBRARY_PATH is needed.
PC_RPATH = $(if $(filter /usr,$(PREFIX)),,-Wl,-rpath,$${libdir} )
MAKE_PC  = sed -e 's|@PREFIX@|$(PREFIX)|g' -e 's|@VERSION@|$(VERSION)|g' -e 's|@LIBS@|$(LDLIBS)|g' \
               -e 's|@RPATH@|$(PC_RPATH)|g' isolde.pc.in
$(BUILD)/isolde.pc: isolde.pc.in Makefile $(FLAGS_STAMP)
	@mkdir -p $(@D)
	$(Q)$(MAKE_PC) > $@

# The man page, made by the binary from the option tables --help prints.
$(BUILD)/isolde.1: $(BUILD)/isolde
	$(call say,MAN,$@)
	$(Q)$(BUILD)/isolde --man > $@

# Unit tests may use internal headers (lib/); they link the static library.
# They run from the repository root and find their data there (tests/data).
$(BUILD)/tests/unit/%: tests/unit/%.c $(BUILD)/libisolde.a $(TEST_HDR)
	@mkdir -p $(@D)
	$(call say,TEST,$@)
	$(Q)$(CC) $(CPPFLAGS) $(TESTING) -Itests/unit $(CFLAGS) -fvisibility=default -o $@ $< $(BUILD)/libisolde.a $(LDFLAGS) \
	    $(LDLIBS) $(CMOCKA_LIBS)

$(BUILD)/tests/tools/%: tests/tools/%.c $(wildcard tests/tools/*.h) $(BUILD)/libisolde.a
	@mkdir -p $(@D)
	$(call say,CC,$@)
	$(Q)$(CC) $(CPPFLAGS) $(TESTING) -Itests $(CFLAGS) -o $@ $< $(BUILD)/libisolde.a $(LDFLAGS) $(LDLIBS)

$(BUILD)/tests/tools/oracle/oracle: $(ORACLE_SRC) tests/tools/oracle/oracle.h $(BUILD)/libisolde.a
	@mkdir -p $(@D)
	$(call say,CC,$@)
	$(Q)$(CC) $(CPPFLAGS) $(TESTING) $(CFLAGS) -o $@ $(ORACLE_SRC) $(BUILD)/libisolde.a $(LDFLAGS) $(LDLIBS)

$(BUILD)/bench/%: bench/%.c $(BUILD)/libisolde.a
	@mkdir -p $(@D)
	$(call say,CC,$@)
	$(Q)$(CC) $(CPPFLAGS) $(CFLAGS) -o $@ $< $(BUILD)/libisolde.a $(LDFLAGS) $(LDLIBS)

$(BUILD)/fuzz/replay: $(FUZZ_SRC) fuzz/fuzz.h $(BUILD)/libisolde.a
	@mkdir -p $(@D)
	$(call say,CC,$@)
	$(Q)$(CC) $(CPPFLAGS) $(TESTING) $(CFLAGS) -o $@ $(FUZZ_SRC) $(BUILD)/libisolde.a $(LDFLAGS) $(LDLIBS)

# Built by make fuzz only, with FUZZ_OPT.
$(BUILD)/fuzz/isolde-fuzz: $(FUZZ_TARGET_SRC) fuzz/fuzz.h $(BUILD)/libisolde.a
	@mkdir -p $(@D)
	$(call say,CC,$@)
	$(Q)$(CC) $(CPPFLAGS) $(TESTING) $(CFLAGS) -fsanitize=fuzzer -o $@ $(FUZZ_TARGET_SRC) $(BUILD)/libisolde.a \
	    $(LDFLAGS) $(LDLIBS)

$(BUILD)/tests/isolde: $(CLI_OBJ) $(BUILD)/libisolde.a
	@mkdir -p $(@D)
	$(call say,LD,$@)
	$(Q)$(CC) $(CFLAGS) -o $@ $(CLI_OBJ) $(BUILD)/libisolde.a $(LDFLAGS) $(LDLIBS)

# Without cmocka the unit tests are not built: BUILD/tests/unit/SKIPPED
# says why, and tests/run-unit.sh says skipped.
UNIT_SKIPPED := $(BUILD)/tests/unit/SKIPPED
tests: $(TESTS) $(TOOLS) $(BUILD)/isolde $(BUILD)/tests/isolde $(BUILD)/features
	@mkdir -p $(dir $(UNIT_SKIPPED))
	@$(if $(HAVE_CMOCKA),rm -f $(UNIT_SKIPPED),echo '$(CMOCKA_WHY)' | tee $(UNIT_SKIPPED))

# What the build and the tests need on any machine.
BASE_PKGS := build-essential pkg-config libcmocka-dev libsqlite3-dev zlib1g-dev libgraphviz-dev libcadical-dev python3

# make deps: what the build and every test need (BASE_PKGS, SERVER_PKGS,
# BROWSER_PKGS, npm's playwright-core), installed as root on Debian, one
# visible step each (tools/deps.sh); anyone else is told what is missing,
# and it fails.
deps:
	@sh tools/deps.sh $(BASE_PKGS) $(SERVER_PKGS) $(BROWSER_PKGS)
	@sh tools/npm-deps.sh

# What the browser tests (tests/cli/t6100-*) need: Debian's chromium, node
# and emscripten (the playground), and npm's playwright-core
# (tests/browser/package-lock.json, pinned to a version that runs on Debian
# 12's Node 18), which never downloads a browser (tools/npm-deps.sh, which
# installs Debian's npm where nodejs came without it); without them the
# tests say "skipped" (and fail under CI=true).
BROWSER_PKGS := chromium nodejs emscripten
browser-deps:
	@sh tools/deps.sh $(BROWSER_PKGS)
	@sh tools/npm-deps.sh

# What the build needs first, then a fresh make: pkg-config sees what was
# installed.
demo:
	@sh tools/deps.sh $(BASE_PKGS)
	@$(MAKE) --no-print-directory all
	@sh tools/demo.sh $(BUILD)/isolde

unit: tests
	@sh tests/run-unit.sh $(BUILD)

# What the driver tests need: the servers (tests/servers/ starts them) and
# the client libraries the drivers link; curl for the test of isolde serve.
SERVER_PKGS := libpq-dev libmariadb-dev postgresql-15 mariadb-server mariadb-client openssl iproute2 curl \
               libcurl4-openssl-dev etcd-server etcd-client

# Every package any target installs, for .ci/run's one apt-get line.
print-pkgs:
	@echo $(BASE_PKGS) $(SERVER_PKGS) $(CLANG_PKGS) $(BROWSER_PKGS)

# make check: make deps first where it can install (as root on Debian),
# then the build and every suite (~6 min on 2 cores; it starts PostgreSQL,
# MariaDB and etcd on loopback, a 3-node Galera cluster as root, and
# headless chromium). Anyone else installs nothing: the tests that can run
# do, and each other says skipped, why, and how to enable it.
check: deps-if-root
	$(MAKE) all tests
	@sh tests/run-all.sh $(BUILD)

deps-if-root:
	@if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	    echo "make $(MAKECMDGOALS): make deps first (~2 GB, ~5 min the first time)"; \
	    $(MAKE) --no-print-directory deps; \
	else \
	    echo "make $(MAKECMDGOALS): installing nothing (not root on Debian; make deps as root installs what is missing)"; \
	    sh tools/deps.sh --optional "the tests that need them" $(BASE_PKGS) $(SERVER_PKGS) $(BROWSER_PKGS); \
	    sh tools/npm-deps.sh --optional; \
	fi

# The whole suite under ASan and UBSan, in build-san (build-san-clang when
# CC is clang: `make sanitize CC=clang` is sanitize-clang).
SAN_BUILD ?= build-san$(if $(findstring clang,$(notdir $(CC))),-clang)
sanitize: deps-if-root
	$(MAKE) BUILD=$(SAN_BUILD) OPT='-O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all' \
	        LDFLAGS='-fsanitize=address,undefined' all tests
	@ISOLDE_SANITIZE=1 sh tests/run-all.sh $(SAN_BUILD)

# clang's UBSan sees what gcc's does not (NULL + 0, for one): the same suite
# built with clang. CLANG_PKGS: clang and its sanitizer / libFuzzer runtime.
CLANG_PKGS := clang libclang-rt-dev
sanitize-clang:
	@sh tools/deps.sh $(BASE_PKGS) $(CLANG_PKGS)
	@$(MAKE) --no-print-directory sanitize CC=clang

# libFuzzer targets (fuzz/fuzz.h lists them; isolde-fuzz -list), built with
# clang and ASan+UBSan in FUZZ_BUILD, each run for FUZZ_TIME seconds in turn
# over its corpus (FUZZ_BUILD/fuzz/corpus/TARGET, kept between runs) and the
# seeds (fuzz/seeds.sh: the fixtures, tests/data, examples, ../shared/corpus).
# FUZZ_TARGETS='read-edn check-kv' runs some, FUZZ_JOBS=2 two at a time; FUZZ_TIMEOUT (s), FUZZ_RSS_MB
# and FUZZ_MAX_LEN (bytes) bound each input (fuzz/run.sh). Fails, naming the
# input, when a target crashes; copy the input into
# tests/fuzz-regressions/TARGET/ and make check replays it
# (tests/fuzz-replay.sh).
FUZZ_CC      ?= clang
FUZZ_BUILD   ?= build-fuzz
FUZZ_TIME    ?= 60
FUZZ_JOBS    ?= 1
FUZZ_TARGETS ?=
FUZZ_OPT     := -O1 -g -fsanitize=fuzzer-no-link,address,undefined -fno-omit-frame-pointer \
                -fno-sanitize-recover=all
fuzz:
	@sh tools/deps.sh $(BASE_PKGS) $(CLANG_PKGS)
	@sh fuzz/run.sh probe $(FUZZ_CC) $(FUZZ_BUILD)
	@$(MAKE) --no-print-directory CC=$(FUZZ_CC) BUILD=$(FUZZ_BUILD) OPT='$(FUZZ_OPT)' \
	        LDFLAGS='-fsanitize=address,undefined' $(FUZZ_BUILD)/fuzz/isolde-fuzz
	@sh fuzz/seeds.sh $(FUZZ_BUILD)/fuzz/seeds
	@FUZZ_JOBS=$(FUZZ_JOBS) sh fuzz/run.sh run $(FUZZ_BUILD) $(FUZZ_TIME) $(FUZZ_TARGETS)

bench: all tests
	@BASELINE="$(BASELINE)" SCALE="$(SCALE)" sh bench/run.sh $(BUILD)

install: all
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/lib/pkgconfig $(DESTDIR)$(PREFIX)/include \
	    $(DESTDIR)$(PREFIX)/share/man/man1
	install -m 755 $(BUILD)/isolde $(DESTDIR)$(PREFIX)/bin/isolde
	install -m 644 $(BUILD)/isolde.1 $(DESTDIR)$(PREFIX)/share/man/man1/isolde.1
	install -m 644 $(BUILD)/dist/libisolde.a $(DESTDIR)$(PREFIX)/lib/libisolde.a
	install -m 755 $(BUILD)/libisolde.so $(DESTDIR)$(PREFIX)/lib/libisolde.so.$(SOMAJOR)
	ln -sf libisolde.so.$(SOMAJOR) $(DESTDIR)$(PREFIX)/lib/libisolde.so
	install -m 644 include/isolde.h include/isolde_run.h $(DESTDIR)$(PREFIX)/include/
	install -m 644 $(VERSION_H) $(DESTDIR)$(PREFIX)/include/isolde_version.h
	$(MAKE_PC) > $(DESTDIR)$(PREFIX)/lib/pkgconfig/isolde.pc

clean:
	rm -rf build build-san build-san-clang build-fuzz

-include $(LIB_OBJ:.o=.d) $(CLI_OBJ:.o=.d) $(CHECKER_OBJ:.o=.d) $(TESTING_OBJ:.o=.d)
