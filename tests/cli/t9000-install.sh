#!/bin/sh
# `make install PREFIX=...` installs a library, header (and its version
# block, made from the Makefile's VERSION), pkg-config file,
# binary and man page: a program builds and links against it (static and
# shared; the shared one runs without LD_LIBRARY_PATH), isolde.pc lists
# only libraries isolde links for a reason, and `man isolde` shows every
# option the commands' --help lists (both come from the same tables).
. tests/clilib.sh "$@"

cat >"$tmp/use.c" <<'C'
#include <isolde.h>
#include <string.h>
int main(void)
{
    const char *h = "{:type :ok, :process 0, :value [[:append :x 1] [:r :y [1]]]}\n"
                    "{:type :ok, :process 1, :value [[:append :y 1] [:r :x [1]]]}\n";
    isolde_history *hist; isolde_result *r; isolde_error err; isolde_check_opts o;
    if (isolde_version_number() != ISOLDE_VERSION_NUMBER || strcmp(isolde_version(), ISOLDE_VERSION)) return 9;
    if (isolde_history_read_mem("mem", h, strlen(h), NULL, &hist, &err)) return 10;
    isolde_check_opts_init(&o);
    o.models = "read-committed";
    if (isolde_check(hist, &o, &r, &err)) return 11;
    int v = isolde_result_validity(r);
    int g1c = isolde_result_instance_count(r, "G1c") == 1;
    isolde_result_free(r);
    isolde_history_free(hist);
    return v == ISOLDE_INVALID && g1c ? 0 : 12;
}
C
export PKG_CONFIG_PATH="$tmp/prefix/lib/pkgconfig"
san=""; [ -n "${ISOLDE_SANITIZE:-}" ] && san="-fsanitize=address,undefined" # a sanitized library

# The README's order, make demo then make check, adds libraries between two
# builds in one BUILD: everything generated from the build's flags is made
# again (a new library in LDLIBS is a flags change, as a library installed
# since would be), isolde.pc among it (its stale Libs.private once failed
# the README's C example with undefined references).
test_case "a build's isolde.pc is made again when the flags it lists change" <<'T'
make -s BUILD="$tmp/pcbuild" "$tmp/pcbuild/isolde.pc"
not grep -q -- '-lisolde_test_extra' "$tmp/pcbuild/isolde.pc"
make -s BUILD="$tmp/pcbuild" LDLIBS='-lpthread -lm -lisolde_test_extra' "$tmp/pcbuild/isolde.pc"
grep -q -- '-lisolde_test_extra' "$tmp/pcbuild/isolde.pc"
T

test_case "make install PREFIX=... succeeds" <<'T'
make -s BUILD="$build" install PREFIX="$tmp/prefix"
T

for f in bin/isolde lib/libisolde.a lib/libisolde.so include/isolde.h include/isolde_run.h include/isolde_version.h lib/pkgconfig/isolde.pc share/man/man1/isolde.1; do
    test_case "make install installs $f" 'test -e "$tmp/prefix/$f"'
done

# The test hooks (core/alloc.h's iso_alloc_fail_*, graph.c's ISOLDE_HUB_MIN)
# are compiled in only with -DISO_TESTING: what is installed has none.
test_case "what make install installs holds no test hook" <<'T'
for f in bin/isolde lib/libisolde.a lib/libisolde.so.0; do
    not grep -q -e ISOLDE_HUB_MIN -e iso_alloc_fail_after "$tmp/prefix/$f"
done
grep -q ISOLDE_HUB_MIN "$build/tests/isolde" # the CLI the tests build has them
T

test_case "a program built against the installed libisolde.a checks a history" <<'T'
cc $san -o "$tmp/use-static" "$tmp/use.c" $(pkg-config --cflags isolde) "$tmp/prefix/lib/libisolde.a" $(pkg-config --libs-only-other --static isolde) $(pkg-config --static --libs isolde | sed 's/-lisolde//')
"$tmp/use-static"
T

test_case "a program linked against the installed libisolde.so checks a history, without LD_LIBRARY_PATH" <<'T'
cc $san -o "$tmp/use-shared" "$tmp/use.c" $(pkg-config --cflags --libs isolde)
env -u LD_LIBRARY_PATH "$tmp/use-shared"
ldd "$tmp/use-shared" | grep -q "libisolde.so.0 => $tmp/prefix/lib/libisolde.so.0"
T

test_case "isolde.pc lists only the libraries isolde links (libpq, libmariadb and libcurl only with their drivers, libcadical only when built with it; zlib reads gzip histories, libgvc draws SVG)" <<'T'
libs=$(sed -n 's/^Libs.private: //p' "$tmp/prefix/lib/pkgconfig/isolde.pc")
"$isolde" run --help >"$tmp/backends"
pq=$(grep -c '^postgres:' "$tmp/backends" || true)
my=$(grep -c '^mysql:' "$tmp/backends" || true)
et=$(grep -c '^etcd:' "$tmp/backends" || true)
sat=$("$isolde" --version | grep -c '^features:.* cadical' || true)
for l in $libs; do
    case "$l:$sat" in -lcadical:1|-lstdc++:1) continue ;; esac # CaDiCaL, lib/solve's (C++: its runtime too)
    case "$l:$pq:$my:$et" in
    -lgvc:*|-lcgraph:*|-lcdt:*|-lgvplugin_dot_layout:*|-lgvplugin_core:*|-L*/graphviz:*|-Wl,-rpath,*/graphviz:*) ;; # libgvc: -d's SVG
    -lpthread:*|-lm:*|-lsqlite3:*|-lz:*|-lpq:1:*|-lmariadb:*:1:*|-lcurl:*:*:1|-L*:*:1:*) ;;
    *) echo "isolde.pc lists $l (postgres driver: $pq, mysql driver: $my, etcd driver: $et)"; false ;;
    esac
done
T

# Every option of every command's --help, in the man page's roff (where
# minus signs are written \-), and in what man shows of it when there is man.
for cmd in check run repair models serve; do "$isolde" $cmd --help; done | grep -o -- '--[a-z][a-z-]*' | sort -u >"$tmp/opts"
test_case "the installed man page has every option of every command's --help" <<'T'
sed 's/\\-/-/g' "$tmp/prefix/share/man/man1/isolde.1" >"$tmp/man.roff"
grep -q '^\.TH ISOLDE 1' "$tmp/man.roff"
while read -r opt; do
    grep -q -- "$opt" "$tmp/man.roff" || { echo "the man page lacks $opt"; false; }
done <"$tmp/opts"
grep -q -- '--abort-rate' "$tmp/man.roff"
T

if command -v man >/dev/null; then
    test_case "man isolde shows the installed man page" <<'T'
MANPATH="$tmp/prefix/share/man" MANWIDTH=200 man isolde >"$tmp/man.txt" 2>"$tmp/man.err"
grep -q 'isolde check \[options\] FILE' "$tmp/man.txt"
grep -q -- '--max-examples N' "$tmp/man.txt"
T
else
    test_skip "man isolde shows the installed man page" "no man"
fi

test_case "the installed isolde runs" <<'T'
"$tmp/prefix/bin/isolde" --version >/dev/null
T

finish
