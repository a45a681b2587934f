#!/bin/sh
# Prepares the VM state in STATE_DIR once (reused between runs; a stamp file records completion):
# a Debian kernel (downloaded with apt, extracted, not installed), an uncompressed vmlinux for
# QEMU's PVH boot, and a tiny busybox initramfs that mounts the host root read-only over 9p with a
# tmpfs overlay. Installs its Debian packages itself when missing.
# usage: Tests/VM/setup.sh STATE_DIR
set -eu
S=${1:?usage: setup.sh STATE_DIR}; mkdir -p "$S"; cd "$S"
STAMP_VERSION=1
# Packages first (also when the VM state is cached): the guest runs the host's root, so a tool a
# test uses (libinput-tools: real libinput on the daemon's virtual devices; dbus-daemon and
# python3-dbus/gi for the logind stand-in of the locked-session test; for the systemd suite's
# real logind session: dbus (the system bus unit), libpam-systemd (pam_systemd) and systemd
# (logind, PID 1); sway, seatd, wayland-protocols and libwayland-bin for the virtual touchpad's
# compositor test) is installed here.
export DEBIAN_FRONTEND=noninteractive
SUDO=""; [ "$(id -u)" = 0 ] || SUDO=sudo
need=""
for p in qemu-system-x86 busybox-static kmod udev evemu-tools cpio python3 libevdev-dev libudev-dev \
         libinput-tools dbus-daemon python3-dbus python3-gi libxcb1-dev libxcb-randr0-dev libwayland-dev libsystemd-dev \
         systemd dbus libpam-systemd sway seatd wayland-protocols libwayland-bin; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || need="$need $p"
done
if [ -n "$need" ]; then
  echo "vm-setup: installing$need"
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq --no-install-recommends $need >/dev/null
fi
if [ -f "$S/ready" ] && [ "$(cat "$S/ready")" = "$STAMP_VERSION" ] && [ -f "$S/vmlinux" ] && [ -f "$S/initramfs.gz" ]; then
  exit 0
fi
# The newest kernel flavour linux-image-amd64 points to (Debian's kernel has uinput as a module).
PKG=$(apt-cache depends linux-image-amd64 2>/dev/null | sed -n 's/.*Depends: \(linux-image-[0-9].*-amd64\)$/\1/p' | head -1)
if [ -z "$PKG" ]; then $SUDO apt-get update -qq; PKG=$(apt-cache depends linux-image-amd64 | sed -n 's/.*Depends: \(linux-image-[0-9].*-amd64\)$/\1/p' | head -1); fi
[ -n "$PKG" ] || { echo "vm-setup: no linux-image-amd64 in the apt sources" >&2; exit 3; }
rm -f linux-image-*.deb
apt-get download "$PKG" >/dev/null 2>&1 || { $SUDO apt-get update -qq; apt-get download "$PKG" >/dev/null; }
rm -rf kernel; dpkg-deb -x linux-image-*.deb kernel; rm -f linux-image-*.deb
KV=$(ls kernel/lib/modules); echo "$KV" > kver
depmod -b "$S/kernel" "$KV"
# Uncompressed ELF vmlinux: QEMU boots it through the PVH entry point (skips real mode and XZ
# decompression: about 3 s faster under TCG).
python3 - "$S/kernel/boot/vmlinuz-$KV" "$S/vmlinux" <<'PY'
import lzma, sys
d = open(sys.argv[1], 'rb').read(); i = d.find(b'\xfd7zXZ\x00')
open(sys.argv[2], 'wb').write(lzma.LZMADecompressor(format=lzma.FORMAT_XZ).decompress(d[i:]))
PY
R=$S/initramfs; rm -rf "$R"; mkdir -p "$R/bin" "$R/mods" "$R/proc" "$R/sys" "$R/dev" "$R/newroot" "$R/lower" "$R/upper"
cp /bin/busybox "$R/bin/"
MODS="virtio_ring virtio virtio_pci_modern_dev virtio_pci_legacy_dev virtio_pci netfs fscache 9pnet 9pnet_virtio 9p overlay"
for m in $MODS; do
  f=$(find "$S/kernel/lib/modules/$KV" -name "$m.ko*" | head -1)
  [ -n "$f" ] && cp "$f" "$R/mods/"
done
cat > "$R/init" <<INIT
#!/bin/busybox sh
/bin/busybox --install -s /bin; export PATH=/bin
mount -t proc proc /proc; mount -t sysfs sys /sys; mount -t devtmpfs dev /dev
for m in $MODS; do
  [ -e /mods/\$m.ko ] && { insmod /mods/\$m.ko || echo "initramfs: insmod \$m failed"; }
done
mount -t 9p -o trans=virtio,version=9p2000.L,ro,msize=512000,cache=loose hostroot /lower || { echo "initramfs: 9p root mount failed"; poweroff -f; }
mount -t tmpfs tmpfs /upper; mkdir -p /upper/u /upper/w
mount -t overlay overlay -o lowerdir=/lower,upperdir=/upper/u,workdir=/upper/w /newroot || { echo "initramfs: overlay failed"; poweroff -f; }
mkdir -p /newroot/mnt/vmout
mount -t 9p -o trans=virtio,version=9p2000.L,msize=512000 vmout /newroot/mnt/vmout || { echo "initramfs: out mount failed"; poweroff -f; }
GI=\$(sed -n 's/.*vm_init=\([^ ]*\).*/\1/p' /proc/cmdline)
umount /proc /sys; mount --move /dev /newroot/dev
exec switch_root /newroot "\$GI"
INIT
chmod +x "$R/init"
(cd "$R" && find . | cpio -o -H newc --quiet | gzip -1) > "$S/initramfs.gz"
echo "$STAMP_VERSION" > "$S/ready"
echo "vm-setup: kernel $KV ready in $S"
