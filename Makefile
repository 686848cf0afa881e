# isolde: GNU Make build. The core needs only libc and pthreads; an
# optional driver is enabled when pkg-config finds its library (SQLite,
# libpq for PostgreSQL, libmariadb for MariaDB and MySQL, libcurl for
# etcd), and so is
# reading gzip histories (zlib); only
# such libraries are linked and listed in isolde.pc.
CC       ?= cc
BUILD    ?= build
PREFIX   ?= /usr/local
VERSION  := 0.1.0
OPT      ?= -O2 -g
WARN     := -std=c17 -Wall -Wextra -Werror -Wno-unused-parameter -Wvla -Wshadow -Wstrict-prototypes \
            -Wmissing-prototypes
CPPFLAGS += -Iinclude -Ilib -I$(BUILD)/gen -D_DEFAULT_SOURCE -D_POSIX_C_SOURCE=200809L
CFLAGS   += $(OPT) $(WARN) -fPIC -fvisibility=hidden -pthread
LDLIBS   += -lpthread -lm

# Optional libraries, found by pkg-config (PKG_CONFIG=false: a build with none).
PKG_CONFIG ?= pkg-config
have = $(shell $(PKG_CONFIG) --exists $(1) 2>/dev/null && echo yes)
ifeq ($(call have,zlib),yes)
  CPPFLAGS += -DISO_HAVE_ZLIB $(shell pkg-config --cflags zlib)
  LDLIBS   += $(shell pkg-config --libs zlib)
endif
ifeq ($(call have,sqlite3),yes)
  CPPFLAGS += -DISO_HAVE_SQLITE $(shell pkg-config --cflags sqlite3)
  LDLIBS   += $(shell pkg-config --libs sqlite3)
endif
ifeq ($(call have,libpq),yes)
  CPPFLAGS += -DISO_HAVE_LIBPQ $(shell pkg-config --cflags libpq)
  LDLIBS   += $(shell pkg-config --libs libpq)
endif
ifeq ($(call have,libmariadb),yes)
  CPPFLAGS += -DISO_HAVE_MARIADB $(shell pkg-config --cflags libmariadb)
  LDLIBS   += $(shell pkg-config --libs libmariadb)
endif
# Graphviz's libgvc draws -d's cycle pictures as SVG (DOT alone without it),
# its dot layout and core renderer linked in as built-in plugins.
ifeq ($(call have,libgvc),yes)
  GVC_PLUGINS := $(shell pkg-config --variable=libdir libgvc)/graphviz
  CPPFLAGS += -DISO_HAVE_GVC $(shell pkg-config --cflags libgvc)
  LDLIBS   += $(shell pkg-config --libs libgvc) -L$(GVC_PLUGINS) -lgvplugin_dot_layout -lgvplugin_core \
              -Wl,-rpath,$(GVC_PLUGINS)
endif
ifeq ($(call have,libcurl),yes)
  CPPFLAGS += -DISO_HAVE_CURL $(shell pkg-config --cflags libcurl)
  LDLIBS   += $(shell pkg-config --libs libcurl)
endif
CMOCKA_LIBS := $(shell pkg-config --libs cmocka 2>/dev/null || echo -lcmocka)

# Sources per component, bottom up (docs/ARCHITECTURE.md): the checker is
# everything a check needs and builds with libc and pthreads alone (what a
# WebAssembly build takes); the runner adds generators, the simulated
# database and the drivers.
CORE_SRC     := $(sort $(wildcard lib/core/*.c))
HISTORY_SRC  := $(sort $(wildcard lib/history/*.c))
GRAPH_SRC    := $(sort $(wildcard lib/graph/*.c))
RESULT_SRC   := $(sort $(wildcard lib/result/*.c))
REPORT_SRC   := $(sort $(wildcard lib/report/*.c))
ELLE_SRC     := $(sort $(wildcard lib/elle/*.c lib/elle/*/*.c))
LINEAR_SRC   := $(sort $(wildcard lib/linear/*.c))
JEPSEN_SRC   := $(sort $(wildcard lib/jepsen/*.c))
CHECK_SRC    := $(sort $(wildcard lib/check/*.c))
CHECKER_SRC  := $(CORE_SRC) $(HISTORY_SRC) $(GRAPH_SRC) $(RESULT_SRC) $(REPORT_SRC) \
                $(ELLE_SRC) $(LINEAR_SRC) $(JEPSEN_SRC) $(CHECK_SRC)
CHECKER_HDR  := $(wildcard $(addsuffix *.h,$(sort $(dir $(CHECKER_SRC)))))
GEN_SRC      := $(sort $(wildcard lib/gen/*.c))
SIM_SRC      := $(sort $(wildcard lib/sim/*.c))
RECORD_SRC   := $(sort $(wildcard lib/record/*.c))
NEMESIS_SRC  := $(sort $(wildcard lib/nemesis/*.c))
RUN_SRC      := $(sort $(wildcard lib/run/*.c lib/run/drivers/*.c))
RUNNER_SRC   := $(GEN_SRC) $(SIM_SRC) $(RECORD_SRC) $(NEMESIS_SRC) $(RUN_SRC)
LIB_SRC  := $(CHECKER_SRC) $(RUNNER_SRC)
CLI_SRC  := $(sort $(wildcard src/*.c))
# Unit tests mirror lib/'s folders: tests/unit/<folder>/test_x.c builds to
# $(BUILD)/tests/unit/<folder>/test_x (tests/run-unit.sh runs them by path).
TEST_SRC := $(sort $(shell find tests/unit -name 'test_*.c' 2>/dev/null))
TEST_HDR := $(wildcard tests/unit/*.h)
TOOL_SRC := $(sort $(wildcard tests/tools/*.c bench/*.c))
# The brute-force oracle (tests/tools/oracle/, one program of several files).
ORACLE_SRC := $(sort $(wildcard tests/tools/oracle/*.c))
# Fuzz targets (fuzz/): every source but replay.c is linked into the
# libFuzzer binary (make fuzz); replay.c's main() runs the same targets on
# files, for make check (tests/fuzz-replay.sh).
FUZZ_SRC := $(sort $(wildcard fuzz/*.c))
FUZZ_TARGET_SRC := $(filter-out fuzz/replay.c,$(FUZZ_SRC))
LIB_OBJ  := $(LIB_SRC:%.c=$(BUILD)/%.o)
CHECKER_OBJ := $(CHECKER_SRC:%.c=$(BUILD)/checker/%.o)
CLI_OBJ  := $(CLI_SRC:%.c=$(BUILD)/%.o)
TESTS    := $(TEST_SRC:%.c=$(BUILD)/%)
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
        fuzz bench install clean deps test-deps print-pkgs browser-deps playground
all: $(BUILD)/isolde $(BUILD)/dist/libisolde.a $(BUILD)/libisolde.so $(BUILD)/isolde.pc $(BUILD)/isolde.1

$(BUILD)/%.o: %.c $(FLAGS_STAMP)
	@mkdir -p $(@D)
	$(call say,CC,$<)
	$(Q)$(CC) $(CPPFLAGS) $(CFLAGS) -MMD -MP -c $< -o $@

# Every object, for the unit tests and benchmarks (which use internals).
$(BUILD)/libisolde.a: $(LIB_OBJ)
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
web/isolde-wasm.js: $(CHECKER_SRC) $(CHECKER_HDR) web/isolde_wasm.c $(BUILD)/gen/viewer_js.h include/isolde.h Makefile
	@command -v $(EMCC) >/dev/null || sh tools/deps.sh emscripten
	$(call say,EMCC,$@)
	$(Q)NODE_PATH=/usr/share/nodejs $(EMCC) -Iinclude -Ilib -I$(BUILD)/gen -D_DEFAULT_SOURCE -D_POSIX_C_SOURCE=200809L \
	    $(WARN) $(EMCC_FLAGS) -o $@ $(CHECKER_SRC) web/isolde_wasm.c

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
# They run from the repository root and find their data there (tests/data,
# tests/fixtures).
$(BUILD)/tests/unit/%: tests/unit/%.c $(BUILD)/libisolde.a $(TEST_HDR)
	@mkdir -p $(@D)
	$(call say,TEST,$@)
	$(Q)$(CC) $(CPPFLAGS) -Itests/unit $(CFLAGS) -fvisibility=default -o $@ $< $(BUILD)/libisolde.a $(LDFLAGS) $(LDLIBS) $(CMOCKA_LIBS)

$(BUILD)/tests/tools/%: tests/tools/%.c $(wildcard tests/tools/*.h) $(BUILD)/libisolde.a
	@mkdir -p $(@D)
	$(call say,CC,$@)
	$(Q)$(CC) $(CPPFLAGS) -Itests $(CFLAGS) -o $@ $< $(BUILD)/libisolde.a $(LDFLAGS) $(LDLIBS)

$(BUILD)/tests/tools/oracle/oracle: $(ORACLE_SRC) tests/tools/oracle/oracle.h $(BUILD)/libisolde.a
	@mkdir -p $(@D)
	$(call say,CC,$@)
	$(Q)$(CC) $(CPPFLAGS) $(CFLAGS) -o $@ $(ORACLE_SRC) $(BUILD)/libisolde.a $(LDFLAGS) $(LDLIBS)

$(BUILD)/bench/%: bench/%.c $(BUILD)/libisolde.a
	@mkdir -p $(@D)
	$(call say,CC,$@)
	$(Q)$(CC) $(CPPFLAGS) $(CFLAGS) -o $@ $< $(BUILD)/libisolde.a $(LDFLAGS) $(LDLIBS)

$(BUILD)/fuzz/replay: $(FUZZ_SRC) fuzz/fuzz.h $(BUILD)/libisolde.a
	@mkdir -p $(@D)
	$(call say,CC,$@)
	$(Q)$(CC) $(CPPFLAGS) $(CFLAGS) -o $@ $(FUZZ_SRC) $(BUILD)/libisolde.a $(LDFLAGS) $(LDLIBS)

# Built by make fuzz only, with FUZZ_OPT.
$(BUILD)/fuzz/isolde-fuzz: $(FUZZ_TARGET_SRC) fuzz/fuzz.h $(BUILD)/libisolde.a
	@mkdir -p $(@D)
	$(call say,CC,$@)
	$(Q)$(CC) $(CPPFLAGS) $(CFLAGS) -fsanitize=fuzzer -o $@ $(FUZZ_TARGET_SRC) $(BUILD)/libisolde.a \
	    $(LDFLAGS) $(LDLIBS)

tests: $(TESTS) $(TOOLS) $(BUILD)/isolde

# What the build and the tests need on any machine.
BASE_PKGS := build-essential pkg-config libcmocka-dev libsqlite3-dev zlib1g-dev libgraphviz-dev python3

deps:
	@sh tools/deps.sh $(BASE_PKGS)

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

# deps first, then a fresh make: pkg-config sees what deps installed.
demo: deps
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

# make check: what the tests need (as root on Debian; anyone else gets the
# tests that can run, and "skipped: why" for the rest), the build, the suite.
check: test-deps
	$(MAKE) all tests
	@sh tests/run-all.sh $(BUILD)

test-deps:
	@echo "make check: installs what is missing (as root on Debian: ~2 GB, ~5 min the first time), builds," \
	      "then runs every suite (~6 min on 2 cores; it starts PostgreSQL, MariaDB and etcd on loopback," \
	      "a 3-node Galera cluster as root, and headless chromium)"
	@sh tools/deps.sh $(BASE_PKGS)
	@sh tools/deps.sh --optional "the tests of PostgreSQL, MariaDB, Galera and etcd" $(SERVER_PKGS)
	@sh tools/deps.sh --optional "the browser tests" $(BROWSER_PKGS)
	@sh tools/npm-deps.sh --optional

# The whole suite under ASan and UBSan, in build-san (build-san-clang when
# CC is clang: `make sanitize CC=clang` is sanitize-clang).
SAN_BUILD ?= build-san$(if $(findstring clang,$(notdir $(CC))),-clang)
sanitize: test-deps
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
	install -m 644 include/isolde.h $(DESTDIR)$(PREFIX)/include/isolde.h
	install -m 644 $(VERSION_H) $(DESTDIR)$(PREFIX)/include/isolde_version.h
	$(MAKE_PC) > $(DESTDIR)$(PREFIX)/lib/pkgconfig/isolde.pc

clean:
	rm -rf build build-san build-san-clang build-fuzz

-include $(LIB_OBJ:.o=.d) $(CLI_OBJ:.o=.d) $(CHECKER_OBJ:.o=.d)
