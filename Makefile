# zlib-turbo build driver
#
#   make              fetch and verify zlib 1.3.2, build the pristine tree
#                     (build/zlib-1.3.2) and the patched tree (build/zlib-turbo)
#                     with the same CC and CFLAGS, then run a short side-by-side
#                     speed demo
#   make check        the test suite (tools/check.sh, one script per step in
#                     tools/check/); last line "N passed, N failed, N skipped"
#   make check-cross  zlib-turbo for seven targets (x86-64, 32-bit x86, arm64,
#                     ARMv5 armel, ppc64le, s390x, riscv64; cross compilers
#                     and qemu-user) against pristine zlib: levels 0-9,
#                     damaged-stream inflate, checksums and threaded deflate
#                     call by call, zlib's example and minigzip
#                     (tools/check/cross.sh; each target a step, SKIP
#                     without its toolchain; CROSS_TARGETS="arm64 s390x"
#                     for fewer)
#   make check-quick  the edit-test loop (under 3 minutes): series, docs,
#                     interface, the differential suite on a sample, tables,
#                     checksums, the level switch
#   make check-fresh  make and make check on a fresh Debian 12 root with only
#                     the README's install line (tools/check/fresh.sh; root)
#   make check-windows  the same for 64-bit Windows (mingw-w64, its threads,
#                     run under wine)
#   make check-clients  real programs from Debian (CPython, git, libpng's
#                     pngtest, pngcrush, Pillow, pigz, Perl) run on each
#                     library through LD_LIBRARY_PATH: the same bytes, and
#                     their speed (tools/check/clients.sh; several minutes)
#   make check-variants  zlib's build variants (ZLIB_DEBUG, INFLATE_STRICT,
#                     NO_GZIP..., -O0..-Os, gcc and clang, SIMD, UBSan, ASan,
#                     valgrind): both trees built the same way, compared by a
#                     subset of the differential suite (tools/check/variants.sh;
#                     long; VARIANTS="name ..." for some, JOBS=N)
#   make fuzz         the differential fuzzers (turbo/tests/fuzz/run.sh), one
#                     after the other: TARGETS="inflate deflate" (default:
#                     every turbo/tests/fuzz/fuzz_*.c), TIME=60 seconds each,
#                     JOBS=1 processes at once
#   make refresh      turn commits made in build/zlib-turbo back into src/ and
#                     patches/
#   make reset-tree   throw build/zlib-turbo away and make it again from
#                     src/ and patches/
#   make install      install the patched library (PREFIX=/usr/local, DESTDIR)
#   make dist         zlib-turbo-$(VERSION).tar.gz: the patched tree + turbo/
#   make deb          Debian packages from that tarball (packaging/debian/,
#                     tools/deb.sh): zlib1g and zlib1g-dev (zlib-turbo under
#                     Debian's names, a version above Debian's) and zturbo;
#                     build/deb/*.deb and lintian's report build/deb/lintian.txt
#   make check-deb    those packages on a throwaway Debian 12 root made with
#                     mmdebstrap (root, network): swapped in for zlib1g,
#                     common programs run, swapped back (tools/check/deb.sh)
#   make bench        the full benchmark on ../shared/corpus (build/speed.txt and
#                     its summary; record a run in turbo/results/ by hand)
#   make bench-threads  threaded deflate: pristine zlib against zlib-turbo at
#                     1, 2, 4, 8, 16 threads, levels 4 6 9, both output modes,
#                     mixed + canterbury+calgary, 5 rounds (about 11 minutes
#                     on 2 quiet cores; BENCH_ARGS="--quick" for a smoke test,
#                     options in turbo/bench/threads_bench.sh); the table and
#                     build/threads.txt, build/threads.tsv
#   make bench-optimal  levels 10-12 against pristine zlib 9, libdeflate 12
#                     and zopfli: bytes and MB/s per corpus set (canterbury,
#                     calgary, large, mixed); LIBDEFLATE=DIR (made by
#                     turbo/bench/build_libdeflate.sh, outside the repository;
#                     skipped without it), ZOPFLI=PATH (default: zopfli on
#                     PATH), BENCH_ARGS (e.g. "--quick" or "--sets=canterbury
#                     --compressors=zlib,turbo"; options in
#                     turbo/bench/optimal_bench.sh); build/optimal.txt, .tsv
#   make version      print zlib-turbo's version (src/zturbo.h's
#                     ZLIB_TURBO_VERSION, the only place it is written)
#
# CC and CFLAGS are passed to zlib's ./configure for both trees; with CFLAGS
# unset, configure chooses zlib's default (-O3).  ZLIB_TARBALL=FILE or
# ZLIB_SRC=DIR name the zlib 1.3.2 to use (see upstream/fetch.sh).

VERSION := $(shell sed -n 's/^\#define ZLIB_TURBO_VERSION "\(.*\)"/\1/p' src/zturbo.h)
PREFIX ?= /usr/local
DESTDIR ?=
B = build
REF = $(B)/zlib-1.3.2
TUR = $(B)/zlib-turbo
SRC = $(B)/src/zlib-1.3.2
SHELL = /bin/sh

export ZLIB_TARBALL ZLIB_SRC

# what configure is given; a change reconfigures both trees
CONF_ENV = CC="$(CC)" $(if $(strip $(CFLAGS)),CFLAGS="$(CFLAGS)")

.PHONY: all build demo check check-quick check-fresh check-cross check-windows check-variants check-clients fuzz refresh reset-tree install dist deb check-deb \
        bench bench-threads bench-optimal version clean distclean FORCE

all: build demo

build: $(REF)/libz.a $(TUR)/libz.a

# --- the verified upstream sources -------------------------------------------
$(B)/stamp-fetch: upstream/fetch.sh upstream/zlib-1.3.2.sha256
	rm -rf $(SRC)
	sh upstream/fetch.sh $(SRC)
	touch $@

# --- configuration shared by both trees --------------------------------------
$(B)/flags: FORCE
	@mkdir -p $(B)
	@echo '$(CONF_ENV)' >$@.new
	@if cmp -s $@ $@.new; then rm $@.new; else mv $@.new $@; fi

# --- the pristine tree -------------------------------------------------------
$(B)/stamp-ref: $(B)/stamp-fetch $(B)/flags
	rm -rf $(REF)
	cp -a $(SRC) $(REF)
	cd $(REF) && $(CONF_ENV) ./configure >/dev/null
	touch $@

$(REF)/libz.a: $(B)/stamp-ref
	$(MAKE) -C $(REF) -s all >/dev/null
	@touch $@

# --- the patched tree: upstream + src/ + patches/ ----------------------------
# tools/mktree.sh rebuilds it only when src/ or patches/ changed, and never
# over commits or edits not yet refreshed into patches/
$(B)/stamp-tree: $(B)/stamp-fetch FORCE
	@sh tools/mktree.sh $(SRC) $(TUR)
	@id=$$(cat $(TUR)/.git/zt-inputs); \
	 if [ "$$(cat $@ 2>/dev/null)" != "$$id" ] || \
	    [ ! -f $(TUR)/configure.log ]; then echo "$$id" >$@; fi

$(B)/stamp-tur: $(B)/stamp-tree $(B)/flags
	cd $(TUR) && $(CONF_ENV) ./configure >/dev/null
	touch $@

# always run zlib's make: edits made in the tree are rebuilt at once
$(TUR)/libz.a: $(B)/stamp-tur FORCE
	$(MAKE) -C $(TUR) -s all >/dev/null

demo: build
	@bash turbo/bench/demo.sh $(REF) $(TUR)

check: build
	@sh tools/check.sh

CROSS_TARGETS ?= x86-64 m32 arm64 armel ppc64le s390x riscv64
check-cross: build
	@sh tools/check.sh $(addprefix cross-,$(CROSS_TARGETS))

check-windows: build
	@sh tools/check.sh cross-win64 windows-cmake

# real programs from Debian on pristine zlib and on zlib-turbo, bytes and
# speed compared (tools/check/clients.sh; several minutes)
check-clients: build
	@sh tools/check.sh clients

# one line per variant as it ends (fd 3), the step's log in build/check/
check-variants: build
	@VARIANTS_TTY=1 sh tools/check.sh variants 3>&1

TARGETS ?= $(patsubst turbo/tests/fuzz/fuzz_%.c,%,$(wildcard turbo/tests/fuzz/fuzz_*.c))
TIME ?= 60
JOBS ?= 1
fuzz: build
	@for t in $(TARGETS); do \
	    TIME=$(TIME) JOBS=$(JOBS) sh turbo/tests/fuzz/run.sh $$t $(SRC) \
	        $(TUR) || exit 1; \
	done

refresh:
	sh tools/refresh.sh $(TUR)

reset-tree:
	rm -rf $(TUR) $(B)/stamp-tree $(B)/stamp-tur
	$(MAKE) build

install: build
	cd $(TUR) && $(CONF_ENV) ./configure --prefix="$(PREFIX)" >/dev/null
	$(MAKE) -C $(TUR) -s all >/dev/null
	$(MAKE) -C $(TUR) install DESTDIR="$(DESTDIR)"
	cd $(TUR) && $(CONF_ENV) ./configure >/dev/null

dist: build
	@[ -n "$(VERSION)" ] || { echo "no ZLIB_TURBO_VERSION in src/zturbo.h" >&2; exit 1; }
	sh tools/dist.sh $(TUR) zlib-turbo-$(VERSION)

deb: dist
	@sh tools/deb.sh $(VERSION)

check-deb: deb
	@sh tools/check/deb.sh $(VERSION)

# the edit-test loop, under 3 minutes on 2 cores: the series and the docs,
# the interface, the differential suite on a sample, the table and checksum
# checks, the level switch (tools/check.sh names each step)
check-quick: build
	@sh tools/check.sh patch-series docs interface build-differential-suite \
	    differential-sample checksums-exhaustive inflate-table-same \
	    crc32-fold-constants max-level

# make and make check on a fresh Debian 12 root (mmdebstrap minbase) with only
# the README's install line (tools/check/fresh.sh; root, about 40 minutes)
check-fresh:
	@sh tools/check/fresh.sh

bench: build
	@mkdir -p turbo/results
	bash turbo/bench/run_speed.sh $(REF) $(TUR) ../shared/corpus/canterbury \
	    ../shared/corpus/calgary ../shared/corpus/large ../shared/corpus/mixed \
	    >$(B)/speed.txt
	python3 turbo/bench/summarize.py $(B)/speed.txt

BENCH_ARGS ?=
bench-threads: build
	bash turbo/bench/threads_bench.sh --out=$(B)/threads $(BENCH_ARGS)

LIBDEFLATE ?=
ZOPFLI ?=
bench-optimal: build
	bash turbo/bench/optimal_bench.sh --out=$(B)/optimal \
	    $(if $(LIBDEFLATE),--libdeflate=$(LIBDEFLATE)) \
	    $(if $(ZOPFLI),--zopfli=$(ZOPFLI)) $(BENCH_ARGS)

version:
	@echo $(VERSION)

clean:
	-$(MAKE) -C $(REF) clean >/dev/null 2>&1
	-$(MAKE) -C $(TUR) clean >/dev/null 2>&1
	rm -rf $(B)/tests $(B)/bench $(B)/check

distclean:
	rm -rf $(B) zlib-turbo-*.tar.gz

FORCE:
