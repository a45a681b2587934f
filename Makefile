# Build and install gestured for any distribution (the Debian package uses this too):
#   make                      release build (static Swift runtime) and man pages
#   make install PREFIX=/usr DESTDIR=/tmp/stage
# Needs the Swift toolchain, scdoc, and the -dev packages scripts/deps.sh names.
PREFIX ?= /usr/local
DESTDIR ?=
SYSCONFDIR ?= /etc
BINDIR ?= $(PREFIX)/bin
LIBDIR ?= $(PREFIX)/lib
SYSTEMDSYSTEMUNITDIR ?= $(LIBDIR)/systemd/system
SYSTEMDUSERUNITDIR ?= $(LIBDIR)/systemd/user
SYSUSERSDIR ?= $(LIBDIR)/sysusers.d
UDEVRULESDIR ?= $(LIBDIR)/udev/rules.d
DATADIR ?= $(PREFIX)/share
MANDIR ?= $(DATADIR)/man
DOCDIR ?= $(DATADIR)/doc/gestured
BASHCOMPDIR ?= $(DATADIR)/bash-completion/completions
ZSHCOMPDIR ?= $(DATADIR)/zsh/site-functions
FISHCOMPDIR ?= $(DATADIR)/fish/vendor_completions.d
SWIFT ?= swift
SWIFT_FLAGS ?= -c release --static-swift-stdlib
SCDOC ?= scdoc

MAN = build/man/gestured.8 build/man/gestured.yaml.5
# The units name /usr/local/bin/gestured and /usr/local/share/doc/gestured (the README's manual
# install); an install elsewhere rewrites both.
UNIT_EDIT = sed -e 's|/usr/local/bin/gestured|$(BINDIR)/gestured|g' -e 's|/usr/local/share/doc/gestured|$(DOCDIR)|g'

all: build man

build:
	$(SWIFT) build $(SWIFT_FLAGS) --product gestured
	$(SWIFT) build $(SWIFT_FLAGS) --product gestured-listen

man: $(MAN)

build/man/%: docs/man/%.scd
	@mkdir -p build/man
	$(SCDOC) < $< > $@

install: all
	install -D -m 0755 "$$($(SWIFT) build $(SWIFT_FLAGS) --show-bin-path)/gestured" $(DESTDIR)$(BINDIR)/gestured
	install -D -m 0755 "$$($(SWIFT) build $(SWIFT_FLAGS) --show-bin-path)/gestured-listen" $(DESTDIR)$(BINDIR)/gestured-listen
	install -d $(DESTDIR)$(SYSTEMDSYSTEMUNITDIR) $(DESTDIR)$(SYSTEMDUSERUNITDIR)
	for u in gestured.service gestured.socket; do $(UNIT_EDIT) systemd/$$u > $(DESTDIR)$(SYSTEMDSYSTEMUNITDIR)/$$u; chmod 0644 $(DESTDIR)$(SYSTEMDSYSTEMUNITDIR)/$$u; done
	$(UNIT_EDIT) systemd/gestured-listen.service > $(DESTDIR)$(SYSTEMDUSERUNITDIR)/gestured-listen.service
	chmod 0644 $(DESTDIR)$(SYSTEMDUSERUNITDIR)/gestured-listen.service
	install -D -m 0644 systemd/gestured.sysusers $(DESTDIR)$(SYSUSERSDIR)/gestured.conf
	install -d $(DESTDIR)$(UDEVRULESDIR)
	install -m 0644 udev/*.rules $(DESTDIR)$(UDEVRULESDIR)/
	install -D -m 0644 config/gestured.yaml $(DESTDIR)$(SYSCONFDIR)/gestured/config.yaml
	install -D -m 0644 build/man/gestured.8 $(DESTDIR)$(MANDIR)/man8/gestured.8
	ln -sf gestured.8 $(DESTDIR)$(MANDIR)/man8/gestured-listen.8   # `gestured listen` is documented there
	install -D -m 0644 build/man/gestured.yaml.5 $(DESTDIR)$(MANDIR)/man5/gestured.yaml.5
	install -D -m 0644 completions/gestured.bash $(DESTDIR)$(BASHCOMPDIR)/gestured
	install -D -m 0644 completions/_gestured $(DESTDIR)$(ZSHCOMPDIR)/_gestured
	install -D -m 0644 completions/gestured.fish $(DESTDIR)$(FISHCOMPDIR)/gestured.fish
	install -D -m 0644 README.md $(DESTDIR)$(DOCDIR)/README.md
	install -D -m 0644 config/gestured.yaml $(DESTDIR)$(DOCDIR)/examples/config.yaml

clean:
	rm -rf build

.PHONY: all build man install clean
