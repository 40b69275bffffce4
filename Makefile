# dpfda -- the README's commands.
#   make test   install test dependencies, build + install dpfda, run testthat
#   make demo   reproduce the papers' figures into reproduce/
#   make check  R CMD build + R CMD check --as-cran
#   make bench  timings against the packages a user would use instead
SHELL   := /bin/bash
R       ?= R
RSCRIPT ?= Rscript
LIB     := $(CURDIR)/.Rlib
PKG     := dpfda
VERSION := $(shell sed -n 's/^Version: *//p' DESCRIPTION)
TARBALL := $(PKG)_$(VERSION).tar.gz
export R_LIBS := $(LIB):$(R_LIBS)
export NOT_CRAN ?= true
NPROC   := $(shell nproc 2>/dev/null || echo 1)
# dpfda's C files compiled NPROC at a time where R CMD INSTALL runs (install-lib, check-build)
PARMAKE := MAKEFLAGS=-j$(NPROC)

.PHONY: test test-run protect-audit test-suite demo check check-ci check-build check-ci-run bench site sanitize valgrind fuzz install install-lib deps-system deps-system-demo deps-imports deps-test deps-check deps-demo deps-bench deps-site clean

$(LIB):
	mkdir -p $(LIB)

$(TARBALL): $(shell find R src -type f -not -name '*.o' -not -name '*.so') DESCRIPTION NAMESPACE
	$(R) CMD build --no-build-vignettes --no-manual .

# The project library .Rlib/ (what make test, demo and bench load).
install-lib: deps-imports $(TARBALL)
	$(PARMAKE) $(R) CMD INSTALL --library=$(LIB) $(TARBALL)

# For users: build the tarball with its vignettes and install it into the
# default library, so library(dpfda) and vignette(package = "dpfda") work in
# any R session.
install: deps-check
	rm -rf build-install && mkdir -p build-install
	cd build-install && $(R) CMD build --no-manual $(CURDIR)
	R_LIBS= $(RSCRIPT) tools/install-user.R build-install/$(TARBALL)
	rm -rf build-install

# System packages (Debian names), installed with apt-get where missing:
#   libcurl4-openssl-dev, libssl-dev, libxml2-dev
#                 curl/openssl/xml2 (fda through fds and httr, chromote, roxygen2)
#   chromium      the explorer's browser tests and the demo's screenshots (chromote)
#   qpdf          R CMD check --as-cran compacts the vignettes' PDFs
#   r-cran-gsl    diffpriv (the Bernstein peer) imports gsl, whose CRAN
#                 version needs R >= 4.5; Debian's build matches R 4.2
#   postgresql, libpq-dev
#                 the throwaway PostgreSQL server of the engine tests
#                 (tools/pg-test.sh) and the client library RPostgres builds on
#   r-cran-lubridate r-cran-timechange r-cran-hms r-cran-plogr
#                 RPostgres's imports, prebuilt (Debian's versions suffice;
#                 R installs a newer one from CRAN into .Rlib/ where one
#                 does not), which saves their compilation
#   r-cran-*      (SYSDEPS_R) the compiled and the large parts of the
#                 Suggests' dependency tree, prebuilt for this R. They only
#                 save build time: tools/install-deps.R keeps one where its
#                 version meets what every package of the tree asks, and
#                 installs CRAN's version into .Rlib/ where it does not.
SYSDEPS_R := $(addprefix r-cran-,stringi rcpp httpuv sass later rsqlite dplyr dbplyr dbi \
  ggplot2 ks mclust kernlab openssl curl isoband farver colorspace gmp desolve pracma \
  mvtnorm checkmate zoo tidyr purrr tidyselect shiny bslib promises knitr markdown xfun \
  yaml htmltools fastmap cachem memoise scales stringr pcapp locfit fnn multicool \
  commonmark sourcetools xtable zip)
SYSDEPS_DEMO := libcurl4-openssl-dev libssl-dev libxml2-dev chromium
SYSDEPS_PG := postgresql libpq-dev r-cran-lubridate r-cran-timechange r-cran-hms r-cran-plogr
SYSDEPS := $(SYSDEPS_DEMO) qpdf r-cran-gsl $(SYSDEPS_PG) $(SYSDEPS_R)
deps-system:
	bash tools/install-system-deps.sh $(SYSDEPS)

deps-system-demo:
	bash tools/install-system-deps.sh $(SYSDEPS_DEMO) $(SYSDEPS_R)

# R packages, installed into .Rlib/ from getOption("repos") (CRAN as fallback),
# read from DESCRIPTION: its Imports always, and the Suggests each target uses
# (tools/install-deps.R refuses a name DESCRIPTION does not suggest).
DEMO_SUGGESTS  := markdown,mvtnorm,MASS,KernSmooth,lgrdata,shiny,chromote,callr,httpuv
BENCH_SUGGESTS := mvtnorm,MASS,KernSmooth,DBI,dplyr,dbplyr,RSQLite,RPostgres
BENCH_PEERS    := mvnfast bench
deps-imports: $(LIB)
	$(RSCRIPT) tools/install-deps.R --imports

# diffpriv: the Bernstein mechanism's reference implementation, compared in
# the tests where it loads (not a dependency of dpfda, so not in DESCRIPTION)
TEST_PEERS := diffpriv
deps-test: deps-system
	$(RSCRIPT) tools/install-deps.R --imports --suggests=all $(TEST_PEERS)

deps-check: deps-test

deps-demo: deps-system-demo
	$(RSCRIPT) tools/install-deps.R --imports --suggests=$(DEMO_SUGGESTS)

deps-bench:
	bash tools/install-system-deps.sh $(SYSDEPS_PG) $(SYSDEPS_R)
	$(RSCRIPT) tools/install-deps.R --imports --suggests=$(BENCH_SUGGESTS) $(BENCH_PEERS)

# The suite runs with a throwaway PostgreSQL server (tools/pg-test.sh: a
# cluster in a temporary directory on a unix socket there, stopped and removed
# afterwards, also when tests fail; the suite's exit status is kept).
# The test files run in TEST_JOBS R processes at once (default: one per core; tools/run-tests.R).
TEST_JOBS ?= $(NPROC)
test: deps-test install-lib
	$(MAKE) test-run

# The static PROTECT audit and the suite, against the project library as it is (after install-lib).
test-run: protect-audit test-suite

# The static audit of the PROTECT discipline of the C entry points (tools/protect-audit.R).
protect-audit:
	$(RSCRIPT) tools/protect-audit.R > protect-audit.log || { cat protect-audit.log; exit 1; }

# The suite alone (CI runs the audit beside it, with the check: .ci/run).
test-suite:
	DPFDA_TEST_JOBS=$(TEST_JOBS) bash tools/pg-test.sh $(RSCRIPT) tools/run-tests.R

# The papers' figures and tables into reproduce/ (a quick version in a few
# minutes); FULL=1 runs every figure at the papers' scale and the benchmarks.
FULL ?= 0
demo: deps-demo install-lib
	DPFDA_DEMO_FULL=$(FULL) $(RSCRIPT) tools/reproduce.R

# The incoming checks (new-submission note, remote URL look-ups) and the
# time-server look-up need the internet beyond CRAN; the PDF manual needs
# pdflatex, which is checked only where it is installed. Anything but
# "Status: OK" (an error, a warning or a note) fails.
check: deps-check
	rm -rf check && mkdir -p check
	cd check && $(R) CMD build --no-manual $(CURDIR)
	cd check && _R_CHECK_CRAN_INCOMING_=false _R_CHECK_FUTURE_FILE_TIMESTAMPS_=false _R_CHECK_SYSTEM_CLOCK_=false \
	  $(R) CMD check --as-cran $$(command -v pdflatex >/dev/null || echo --no-manual) $(TARBALL)
	$(RSCRIPT) tools/check-status.R check/$(PKG).Rcheck/00check.log

# What CI runs beside `make test` (.ci/run): the same check without running
# the test suite a second time (make test runs it against the same sources),
# without --as-cran, whose extras (the examples under R_CHECK_CONSTANTS, four
# times slower, and a second code-usage pass) cost about 70 s of CPU beside
# the tests, and without building and checking the vignettes (--ignore-vignettes
# on a tarball built with --no-build-vignettes): building them installs the
# package once more and runs their code, about 95 s of CPU on the 2 cores the
# suite shares, which put CI at the 15-minute limit (916 s on 2026-11-30).
# `make check` (--as-cran, with the vignettes) runs all of it, and so does
# `make install`. CI runs it beside the tests (the suite writes nothing into
# the source tree that R CMD build copies).
check-build: deps-check
	rm -rf check && mkdir -p check
	cd check && $(PARMAKE) $(R) CMD build --no-manual --no-build-vignettes $(CURDIR)

check-ci-run:
	cd check && _R_CHECK_CRAN_INCOMING_=false _R_CHECK_FUTURE_FILE_TIMESTAMPS_=false _R_CHECK_SYSTEM_CLOCK_=false \
	  $(R) CMD check --no-tests --ignore-vignettes $$(command -v pdflatex >/dev/null || echo --no-manual) \
	  $(TARBALL)
	$(RSCRIPT) tools/check-status.R check/$(PKG).Rcheck/00check.log

check-ci: check-build
	$(MAKE) check-ci-run

# Every bench/ script in turn (bench/summary.R: each in its own R process),
# then one table of all ratios against their peers or floors. The output of
# each script and the table are kept in reproduce/bench.txt, which the demo
# report shows.
bench: deps-bench install-lib
	mkdir -p reproduce bench/summary-logs
	rm -f bench/summary-logs/*.log
	bash tools/pg-test.sh $(RSCRIPT) bench/summary.R > bench/summary-logs/ratios.txt
	for f in bench/summary-logs/bench-*.log; do echo "== $$(basename $$f .log).R"; cat $$f; done > reproduce/bench.txt
	{ echo "== all ratios (bench/summary.R)"; cat bench/summary-logs/ratios.txt; } >> reproduce/bench.txt
	cat reproduce/bench.txt

# Random bad arguments for every export, in child R processes (FUZZ_N calls).
FUZZ_N ?= 20000
fuzz: deps-test install-lib
	$(RSCRIPT) tools/fuzz.R $(FUZZ_N)

# The suite against a build with AddressSanitizer + UBSan (the runtimes are
# preloaded into an uninstrumented R; leaks are left to `make valgrind`).
SAN_LIB := $(CURDIR)/.Rlib-san
SAN_ENV := LD_PRELOAD="$$(gcc -print-file-name=libasan.so) $$(gcc -print-file-name=libubsan.so)" \
  ASAN_OPTIONS=detect_leaks=0:abort_on_error=1:allocator_may_return_null=1 \
  UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 DPFDA_NO_TIMING=1
sanitize: deps-test $(TARBALL)
	mkdir -p $(SAN_LIB)
	R_MAKEVARS_USER=$(CURDIR)/tools/Makevars.sanitize $(R) CMD INSTALL --preclean --no-test-load \
	  --library=$(SAN_LIB) $(TARBALL)
	$(SAN_ENV) R_LIBS=$(SAN_LIB):$(LIB) $(RSCRIPT) tools/run-tests.R

# The suite (or the files matching DPFDA_TEST_FILTER) under valgrind memcheck;
# tools/valgrind-summary.R reads the log and fails on errors or leaks in dpfda.
VALGRIND_LOG := $(CURDIR)/valgrind.log
valgrind: install-lib
	DPFDA_NO_TIMING=1 $(R) -d "valgrind --tool=memcheck --leak-check=full --track-origins=yes --log-file=$(VALGRIND_LOG)" \
	  --vanilla --no-echo -f tools/run-tests.R
	$(RSCRIPT) tools/valgrind-summary.R $(VALGRIND_LOG)

# pkgdown site in docs/, built offline. pkgdown needs pandoc and, through
# ragg/textshaping, the freetype/harfbuzz/fribidi headers.
SITE_APT := pandoc libharfbuzz-dev libfribidi-dev libfreetype6-dev libpng-dev libtiff5-dev libjpeg-dev
deps-site:
	command -v pandoc >/dev/null && test -e /usr/include/harfbuzz/hb-ft.h || \
	  { apt-get update -qq && apt-get install -y -qq $(SITE_APT); }
	$(RSCRIPT) tools/install-deps.R pkgdown rmarkdown knitr markdown "evaluate>=1.0"

site: deps-site install-lib
	$(RSCRIPT) -e 'options(pkgdown.internet = FALSE); pkgdown::build_site(install = FALSE, new_process = FALSE)'

clean:
	rm -rf $(LIB) check build-install $(PKG).Rcheck $(PKG)_*.tar.gz src/*.o src/*.so
