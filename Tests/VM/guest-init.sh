#!/bin/sh
# PID 1 inside the VM (the host root read-only over 9p with a tmpfs overlay). Loads evdev and
# uinput, starts udevd unless VM_UDEV=0, runs /mnt/vmout/cmd.sh, records its rc, powers off.
export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8
mount -t proc proc /proc; mount -t sysfs sysfs /sys
mkdir -p /dev/pts /dev/shm; mount -t devpts devpts /dev/pts; mount -t tmpfs tmpfs /dev/shm; mount -t tmpfs tmpfs /run
O=/mnt/vmout; . $O/env; : > $O/booted
KV=$(uname -r); mkdir -p /lib/modules; ln -sfn $VM_STATE/kernel/lib/modules/$KV /lib/modules/$KV
modprobe evdev; modprobe uinput
if [ "${VM_UDEV:-1}" = 1 ]; then
  /lib/systemd/systemd-udevd --daemon 2>/dev/null
  udevadm trigger --action=add --subsystem-match=input --subsystem-match=misc; udevadm settle -t 20
fi
echo "vm: ready at uptime $(cut -d' ' -f1 /proc/uptime)s"
cd "$VM_CWD"
{ timeout -k 5 "${VM_TIMEOUT:-600}" sh $O/cmd.sh; echo $? > $O/rc; } 2>&1
echo "vm: done at uptime $(cut -d' ' -f1 /proc/uptime)s rc=$(cat $O/rc)"
sync; /bin/busybox poweroff -f
