# fish completion for gestured(8)
set -l commands run replay check monitor devices record listen doctor
set -l gestures tap doubleTap longPress swipe pan pinch rotate edgeSwipe
complete -c gestured -f
complete -c gestured -n "not __fish_seen_subcommand_from $commands" -a run -d 'run the daemon'
complete -c gestured -n "not __fish_seen_subcommand_from $commands" -a replay -d 'decode a recording and print gestures'
complete -c gestured -n "not __fish_seen_subcommand_from $commands" -a check -d 'validate a config file'
complete -c gestured -n "not __fish_seen_subcommand_from $commands" -a monitor -d 'print live gestures from the socket'
complete -c gestured -n "not __fish_seen_subcommand_from $commands" -a devices -d 'list touch devices'
complete -c gestured -n "not __fish_seen_subcommand_from $commands" -a record -d 'record a device as evemu'
complete -c gestured -n "not __fish_seen_subcommand_from $commands" -a listen -d 'run bindings in your session'
complete -c gestured -n "not __fish_seen_subcommand_from $commands" -a doctor -d 'check the setup'
complete -c gestured -n "not __fish_seen_subcommand_from $commands" -l version -d 'print the version'
complete -c gestured -l help -s h -d 'this command\'s help'
complete -c gestured -n "__fish_seen_subcommand_from run check listen doctor" -l config -s c -r -F -d 'config file'
complete -c gestured -n "__fish_seen_subcommand_from run monitor listen doctor" -l socket -r -F -d 'socket path'
complete -c gestured -n "__fish_seen_subcommand_from run" -l replay -r -F -d 'recording standing in for a device'
complete -c gestured -n "__fish_seen_subcommand_from run" -l replay-delay -x -d 'seconds before replaying'
complete -c gestured -n "__fish_seen_subcommand_from run" -l replay-loop -d 'replay again and again'
complete -c gestured -n "__fish_seen_subcommand_from run" -l replay-wait-for-clients -x -d 'start once N clients connected'
complete -c gestured -n "__fish_seen_subcommand_from run" -l no-discovery -d 'no real devices'
complete -c gestured -n "__fish_seen_subcommand_from replay" -l json -d 'JSON lines'
complete -c gestured -n "__fish_seen_subcommand_from replay" -l frames -d 'print touch frames too'
complete -c gestured -n "__fish_seen_subcommand_from replay" -l device-description -r -F -d 'evemu .desc of a bare .events file'
complete -c gestured -n "__fish_seen_subcommand_from replay" -F
complete -c gestured -n "__fish_seen_subcommand_from monitor" -l json -d 'raw JSON lines'
complete -c gestured -n "__fish_seen_subcommand_from monitor" -l subscribe -x -a "'{\"type\":\"subscribe\",\"kinds\":[\""$gestures"\"]}'" -d 'subscribe line'
complete -c gestured -n "__fish_seen_subcommand_from devices" -l json -d 'one JSON object per device'
complete -c gestured -n "__fish_seen_subcommand_from record" -s o -l output -r -F -d 'output file'
complete -c gestured -n "__fish_seen_subcommand_from record" -l seconds -x -d 'stop after N seconds'
complete -c gestured -n "__fish_seen_subcommand_from record" -a "(ls /dev/input/event* 2>/dev/null)"
complete -c gestured -n "__fish_seen_subcommand_from doctor" -l service -x -a gestured.service -d 'systemd unit'
