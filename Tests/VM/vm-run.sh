#!/bin/sh
# usage: Tests/VM/vm-run.sh STATE_DIR 'shell command'  -> runs the command as root inside a VM with
# real evdev/uinput (cwd = current dir; the host root visible read-only, writes go to a tmpfs
# overlay), output streamed on stdout; exits with the command's exit code (124 = guest-side
# timeout, 125 = the VM never reported an rc). Env: VM_TIMEOUT (s), VM_UDEV (1/0), VM_MEM (MiB).
# VM_KEEP: see the end. VM_EXTRA_PATHS: one more host path the guest must see (systemd-init.sh keeps it
# visible when it lies under /tmp).
# VM_BOOT_TIMEOUT: seconds for the guest's init to start before this boot is stopped and retried once (default 120).
# VM_INIT: the guest-side init (default guest-init.sh; systemd-init.sh boots systemd), VM_APPEND: more kernel arguments.
set -u
S=$(cd "${1:?state dir}" && pwd); shift
HERE=$(cd "$(dirname "$0")" && pwd)
O=$(mktemp -d "$S/vmout.XXXXXX")
printf '%s\n' "$*" > $O/cmd.sh
printf 'VM_STATE=%s\nVM_CWD=%s\nVM_TIMEOUT=%s\nVM_UDEV=%s\nVM_SYSTEMD_LOG=%s\nVM_SYSTEMD_STATUS=%s\nVM_EXTRA_PATHS=%s\n' "$S" "$PWD" "${VM_TIMEOUT:-600}" "${VM_UDEV:-1}" "${VM_SYSTEMD_LOG:-warning}" "${VM_SYSTEMD_STATUS:-false}" "${VM_EXTRA_PATHS:-}" > $O/env
# One boot of the VM. The guest's init marks $O/booted as its first step; a boot that shows no
# such mark within VM_BOOT_TIMEOUT seconds (default 120; a boot takes about 5) is stopped, and
# booted once more: a TCG guest has been seen, rarely, to hang before its init ran, and waiting out
# the whole VM_TIMEOUT for it would cost a CI run a quarter of an hour and fail it.
boot() {
  rm -f $O/booted $O.noboot $O.pid
  ( i=0; while [ $i -lt ${VM_BOOT_TIMEOUT:-120} ]; do
      [ -e $O/booted ] && exit 0; [ -e $O.done ] && exit 0; sleep 1; i=$((i + 1))
    done
    : > $O.noboot; [ -s $O.pid ] && kill -TERM "$(cat $O.pid)" 2>/dev/null ) &
  watchdog=$!
  timeout $(( ${VM_TIMEOUT:-600} + 120 )) qemu-system-x86_64 -accel tcg -cpu max -smp 2 -m ${VM_MEM:-2048} \
    -nodefaults -no-user-config -display none -no-reboot -serial stdio -pidfile $O.pid \
    -kernel $S/vmlinux -initrd $S/initramfs.gz \
    -append "console=ttyS0 quiet loglevel=3 panic=-1 vm_init=${VM_INIT:-$HERE/guest-init.sh} ${VM_APPEND:-}" \
    -fsdev local,id=r,path=/,security_model=passthrough,readonly=on,multidevs=remap \
    -device virtio-9p-pci,fsdev=r,mount_tag=hostroot \
    -fsdev local,id=o,path=$O,security_model=passthrough -device virtio-9p-pci,fsdev=o,mount_tag=vmout \
    < /dev/null | grep --line-buffered -v '^\[ *[0-9.]*\] reboot: Power down'
  : > $O.done; wait $watchdog 2>/dev/null; rm -f $O.done
}
boot
if [ -e $O.noboot ]; then
  echo "vm-run: the guest's init did not start within ${VM_BOOT_TIMEOUT:-120} s; booting once more" >&2
  rm -f $O/rc; boot
  [ -e $O.noboot ] && echo "vm-run: the guest's init did not start on the second boot either" >&2
fi
rm -f $O.noboot $O.pid
rc=$(cat $O/rc 2>/dev/null || echo 125)
# VM_KEEP=DIR: what the guest left in /mnt/vmout/keep (e.g. the instructions mode's callgrind dumps).
[ -n "${VM_KEEP:-}" ] && [ -d $O/keep ] && mkdir -p "$VM_KEEP" && cp -r $O/keep/. "$VM_KEEP"/
rm -rf $O
exit $rc
