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

.PHONY: test demo check bench install deps-test deps-check deps-demo deps-bench clean

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
	$(RSCRIPT) tools/run-tests.R

demo: deps-demo install
	$(RSCRIPT) tools/reproduce.R

# The incoming checks (new-submission note, remote URL look-ups) and the
# time-server look-up need the internet beyond CRAN; the PDF manual needs
# pdflatex, which is checked only where it is installed.
check: deps-check
	rm -rf check && mkdir -p check
	cd check && $(R) CMD build --no-manual $(CURDIR)
	cd check && _R_CHECK_CRAN_INCOMING_=false _R_CHECK_FUTURE_FILE_TIMESTAMPS_=false _R_CHECK_SYSTEM_CLOCK_=false \
	  $(R) CMD check --as-cran $$(command -v pdflatex >/dev/null || echo --no-manual) $(TARBALL)

bench: deps-bench install
	for f in bench/bench-*.R; do echo "== $$f"; $(RSCRIPT) $$f || exit 1; done

clean:
	rm -rf $(LIB) check $(PKG).Rcheck $(PKG)_*.tar.gz src/*.o src/*.so
