# dpfda -- the README's commands.
#   make test   install test dependencies, build + install dpfda, run testthat
#   make demo   reproduce the papers' figures into reproduce/
#   make check  R CMD build + R CMD check --as-cran
#   make bench  timings against the packages a user would use instead
R       ?= R
RSCRIPT ?= Rscript
LIB     := $(CURDIR)/.Rlib
PKG     := dpfda
VERSION := $(shell sed -n 's/^Version: *//p' DESCRIPTION)
TARBALL := $(PKG)_$(VERSION).tar.gz
export R_LIBS := $(LIB):$(R_LIBS)
export NOT_CRAN ?= true

.PHONY: test demo check check-ci bench site sanitize valgrind fuzz install deps-test deps-check deps-demo deps-bench deps-site clean

$(LIB):
	mkdir -p $(LIB)

$(TARBALL): $(shell find R src -type f -not -name '*.o' -not -name '*.so') DESCRIPTION NAMESPACE
	$(R) CMD build --no-build-vignettes --no-manual .

install: $(LIB) $(TARBALL)
	$(R) CMD INSTALL --library=$(LIB) $(TARBALL)

deps-test:
	$(RSCRIPT) tools/install-deps.R testthat tf

# qpdf: R CMD check --as-cran needs it once the package has vignettes.
# libcurl headers: fda depends on fds, which needs the curl package.
deps-check:
	command -v qpdf >/dev/null || { apt-get update -qq && apt-get install -y -qq qpdf; }
	test -e /usr/include/x86_64-linux-gnu/curl/curl.h || test -e /usr/include/curl/curl.h || \
	  { apt-get update -qq && apt-get install -y -qq libcurl4-openssl-dev; }
	$(RSCRIPT) tools/install-deps.R testthat knitr markdown KernSmooth tf ggplot2 fda

deps-demo:
	$(RSCRIPT) tools/install-deps.R markdown mvtnorm MASS bench KernSmooth

deps-bench:
	$(RSCRIPT) tools/install-deps.R mvtnorm MASS bench KernSmooth

test: deps-test install
	$(RSCRIPT) tools/protect-audit.R > protect-audit.log || { cat protect-audit.log; exit 1; }
	$(RSCRIPT) tools/run-tests.R

demo: deps-demo install
	$(RSCRIPT) tools/reproduce.R

# The incoming checks (new-submission note, remote URL look-ups) and the
# time-server look-up need the internet beyond CRAN; the PDF manual needs
# pdflatex, which is checked only where it is installed. Anything but
# "Status: OK" (an error, a warning or a note) fails.
define run-check
rm -rf check && mkdir -p check
cd check && $(R) CMD build --no-manual $(CURDIR)
cd check && _R_CHECK_CRAN_INCOMING_=false _R_CHECK_FUTURE_FILE_TIMESTAMPS_=false _R_CHECK_SYSTEM_CLOCK_=false \
  $(CHECK_ENV) $(R) CMD check --as-cran $$(command -v pdflatex >/dev/null || echo --no-manual) $(TARBALL)
$(RSCRIPT) tools/check-status.R check/$(PKG).Rcheck/00check.log $(CHECK_ALLOW)
endef

check: deps-check
	$(run-check)

# The same check with dependencies from CRAN only (what CI can reach). fda
# needs libcurl headers from apt, so it is missing there: its tests skip, and
# the one note "suggested but not available" is allowed. R looks suggested
# packages up in CRAN's package database, which this mirror does not serve:
# a local stand-in (.cran-web/) answers instead.
deps-check-ci:
	$(RSCRIPT) tools/install-deps.R testthat knitr markdown KernSmooth tf ggplot2

check-ci: CHECK_ENV = _R_CHECK_FORCE_SUGGESTS_=false R_CRAN_WEB=file://$(CURDIR)/.cran-web
check-ci: CHECK_ALLOW = "Package suggested but not available for checking"
check-ci: deps-check-ci
	mkdir -p .cran-web/web/packages
	$(RSCRIPT) -e 'saveRDS(data.frame(Package = "fda", Version = "", Maintainer = "", stringsAsFactors = FALSE), ".cran-web/web/packages/packages.rds")'
	$(run-check)

bench: deps-bench install
	for f in bench/bench-*.R; do echo "== $$f"; $(RSCRIPT) $$f || exit 1; done

# Random bad arguments for every export, in child R processes (FUZZ_N calls).
FUZZ_N ?= 20000
fuzz: deps-test install
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
valgrind: install
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

site: deps-site install
	$(RSCRIPT) -e 'options(pkgdown.internet = FALSE); pkgdown::build_site(install = FALSE, new_process = FALSE)'

clean:
	rm -rf $(LIB) check $(PKG).Rcheck $(PKG)_*.tar.gz src/*.o src/*.so
