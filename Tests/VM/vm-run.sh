#!/bin/sh
# usage: Tests/VM/vm-run.sh STATE_DIR 'shell command'  -> runs the command as root inside a VM with
# real evdev/uinput (cwd = current dir; the host root visible read-only, writes go to a tmpfs
# overlay), output streamed on stdout; exits with the command's exit code (124 = guest-side
# timeout, 125 = the VM never reported an rc). Env: VM_TIMEOUT (s), VM_UDEV (1/0), VM_MEM (MiB).
# VM_KEEP: see the end. VM_EXTRA_PATHS: one more host path the guest must see (systemd-init.sh keeps it
# visible when it lies under /tmp).
# VM_INIT: the guest-side init (default guest-init.sh; systemd-init.sh boots systemd), VM_APPEND: more kernel arguments.
set -u
S=$(cd "${1:?state dir}" && pwd); shift
HERE=$(cd "$(dirname "$0")" && pwd)
O=$(mktemp -d "$S/vmout.XXXXXX")
printf '%s\n' "$*" > $O/cmd.sh
printf 'VM_STATE=%s\nVM_CWD=%s\nVM_TIMEOUT=%s\nVM_UDEV=%s\nVM_SYSTEMD_LOG=%s\nVM_SYSTEMD_STATUS=%s\nVM_EXTRA_PATHS=%s\n' "$S" "$PWD" "${VM_TIMEOUT:-600}" "${VM_UDEV:-1}" "${VM_SYSTEMD_LOG:-warning}" "${VM_SYSTEMD_STATUS:-false}" "${VM_EXTRA_PATHS:-}" > $O/env
timeout $(( ${VM_TIMEOUT:-600} + 120 )) qemu-system-x86_64 -accel tcg -cpu max -smp 2 -m ${VM_MEM:-2048} \
  -nodefaults -no-user-config -display none -no-reboot -serial stdio \
  -kernel $S/vmlinux -initrd $S/initramfs.gz \
  -append "console=ttyS0 quiet loglevel=3 panic=-1 vm_init=${VM_INIT:-$HERE/guest-init.sh} ${VM_APPEND:-}" \
  -fsdev local,id=r,path=/,security_model=passthrough,readonly=on,multidevs=remap \
  -device virtio-9p-pci,fsdev=r,mount_tag=hostroot \
  -fsdev local,id=o,path=$O,security_model=passthrough -device virtio-9p-pci,fsdev=o,mount_tag=vmout \
  < /dev/null | grep --line-buffered -v '^\[ *[0-9.]*\] reboot: Power down'
rc=$(cat $O/rc 2>/dev/null || echo 125)
# VM_KEEP=DIR: what the guest left in /mnt/vmout/keep (e.g. the instructions mode's callgrind dumps).
[ -n "${VM_KEEP:-}" ] && [ -d $O/keep ] && mkdir -p "$VM_KEEP" && cp -r $O/keep/. "$VM_KEEP"/
rm -rf $O
exit $rc
