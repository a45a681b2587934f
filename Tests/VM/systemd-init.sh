#!/bin/sh
# PID 1 inside the VM for the systemd tests (VM_INIT=systemd-init.sh): prepares the tmpfs overlay
# of the host root, then execs real systemd (/lib/systemd/systemd) as PID 1. systemd starts only
# gestured-vm.target: sysinit (journald, udevd, tmpfiles, sysusers…) and one oneshot unit that
# runs /mnt/vmout/cmd.sh, records its rc and powers the VM off. Nothing of the host's own
# multi-user services starts.
export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
O=/mnt/vmout; . $O/env; : > $O/booted
mount -t proc proc /proc
KV=$(uname -r); mkdir -p /lib/modules; ln -sfn $VM_STATE/kernel/lib/modules/$KV /lib/modules/$KV
umount /proc
# A fresh /tmp for the VM. A checkout, a state directory or a .deb that lives under the host's
# /tmp (a CI clone in /tmp/…) stays visible: its top directory is bound back from the host's
# /tmp, which would otherwise be hidden and leave the test unit without its working directory.
mkdir -p /mnt/hosttmp; mount --bind /tmp /mnt/hosttmp
mount -t tmpfs tmpfs /tmp
for p in "$VM_CWD" "$VM_STATE" "${VM_EXTRA_PATHS:-}"; do
  case "$p" in /tmp/?*) ;; *) continue ;; esac
  top=${p#/tmp/}; top=${top%%/*}
  [ -e /tmp/$top ] || [ ! -d /mnt/hosttmp/$top ] && continue
  mkdir -p /tmp/$top && mount --bind /mnt/hosttmp/$top /tmp/$top
done
# Without its working directory the test unit cannot start, nor can its ExecStopPost power the VM
# off: say so and stop now rather than wait for the host's timeout.
if [ ! -d "$VM_CWD" ]; then
  echo "vm: the working directory $VM_CWD is not visible in the VM"; echo 1 > $O/rc; sync
  mount -t proc proc /proc; echo o > /proc/sysrq-trigger; sleep 10
fi
# The host's fstab, container marker and machine state do not describe this VM.
printf '# gestured VM: root is an overlay set up by the initramfs\n' > /etc/fstab
# No generators: nothing here needs them (no fstab, gettys, crypt or SysV scripts), and each one
# costs seconds under TCG at boot and at every daemon-reload.
mkdir -p /etc/systemd/system-generators
for g in /lib/systemd/system-generators/* /usr/lib/systemd/system-generators/*; do
  [ -e "$g" ] && ln -sfn /dev/null /etc/systemd/system-generators/$(basename "$g")
done
rm -f /.dockerenv /run/.containerenv
# Docker images ship a policy-rc.d that forbids package scripts to start services.
rm -f /usr/sbin/policy-rc.d
rm -f /etc/systemd/system/sysinit.target.wants/systemd-timesyncd.service /etc/systemd/system/sysinit.target.wants/systemd-pstore.service
# Units a test VM does not need and that are slow under TCG (tmpfiles-setup would walk the host's
# /tmp and /var/tmp over 9p).
for u in systemd-tmpfiles-setup.service systemd-tmpfiles-clean.timer systemd-binfmt.service \
         proc-sys-fs-binfmt_misc.automount sys-kernel-config.mount sys-kernel-debug.mount \
         sys-kernel-tracing.mount sys-fs-fuse-connections.mount dev-hugepages.mount \
         modprobe@loop.service modprobe@dm_mod.service modprobe@fuse.service modprobe@drm.service \
         systemd-journal-flush.service systemd-remount-fs.service systemd-random-seed.service \
         systemd-update-utmp.service systemd-machine-id-commit.service systemd-firstboot.service \
         systemd-repart.service systemd-pcrphase.service systemd-pcrphase-sysinit.service; do
  ln -sfn /dev/null /etc/systemd/system/$u
done
cat > /etc/systemd/system/gestured-vm.target <<UNIT
[Unit]
Description=gestured VM test target
Requires=sysinit.target gestured-vm-test.service
After=sysinit.target
AllowIsolate=yes
UNIT
cat > /etc/systemd/system/gestured-vm-test.service <<UNIT
[Unit]
Description=gestured VM test command
After=sysinit.target systemd-udevd.service systemd-udev-trigger.service
[Service]
Type=oneshot
Environment=HOME=/root LANG=C.UTF-8 PATH=$PATH
WorkingDirectory=$VM_CWD
ExecStart=/bin/sh -c 'echo "vm: systemd ready at uptime \$\$(cut -d" " -f1 /proc/uptime)s"; udevadm settle -t 20; timeout -k 5 ${VM_TIMEOUT:-600} sh $O/cmd.sh; echo \$\$? > $O/rc; echo "vm: done at uptime \$\$(cut -d" " -f1 /proc/uptime)s rc=\$\$(cat $O/rc)"; sync'
ExecStopPost=/bin/systemctl --force --force poweroff
StandardOutput=tty
StandardError=inherit
TTYPath=/dev/ttyS0
TimeoutStartSec=infinity
UNIT
exec /lib/systemd/systemd --unit=gestured-vm.target --log-level=${VM_SYSTEMD_LOG:-warning} --log-target=${VM_SYSTEMD_TARGET:-journal-or-kmsg} --show-status=${VM_SYSTEMD_STATUS:-false}
