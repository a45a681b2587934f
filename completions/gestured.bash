# bash completion for gestured(8): commands, each command's options, files and devices where an
# option takes them, and gesture names in `monitor --subscribe`.
_gestured() {
    local cur prev cmd words cword
    _init_completion 2>/dev/null || { cur=${COMP_WORDS[COMP_CWORD]}; prev=${COMP_WORDS[COMP_CWORD-1]}; }
    local commands="run replay explain tune check monitor devices record listen doctor"
    local gestures="tap doubleTap longPress swipe pan pinch rotate edgeSwipe"
    cmd=${COMP_WORDS[1]}
    if [ "$COMP_CWORD" -eq 1 ]; then
        COMPREPLY=($(compgen -W "$commands --help --version" -- "$cur")); return
    fi
    case $prev in
        --config|-c|--replay|--device-description|-o|--output|--html)
            COMPREPLY=($(compgen -f -- "$cur")); return ;;
        --socket)
            COMPREPLY=($(compgen -f -- "$cur")); return ;;
        --subscribe)
            local g out=()
            for g in $gestures; do out+=("'{\"type\":\"subscribe\",\"kinds\":[\"$g\"]}'"); done
            COMPREPLY=("${out[@]}"); return ;;
        --service)
            COMPREPLY=($(compgen -W "gestured.service" -- "$cur")); return ;;
        --replay-delay|--replay-wait-for-clients|--seconds|--from|--to|--repetitions)
            [ "$cmd" = tune ] && [ "$prev" = --from ] && COMPREPLY=($(compgen -W "tap= doubleTap= longPress= swipe= pan= pinch= rotate=" -- "$cur"))
            return ;;
        --gestures)
            COMPREPLY=($(compgen -W "tap doubleTap longPress swipe pan pinch rotate" -- "$cur")); return ;;
    esac
    local opts
    case $cmd in
        run) opts="--config --socket --replay --replay-delay --replay-loop --replay-wait-for-clients --no-discovery --help" ;;
        replay) opts="--json --frames --html --config --device-description --help" ;;
        explain) opts="--from --to --config --device-description --help" ;;
        tune) opts="--from --gestures --repetitions --config --help" ;;
        check) opts="--config --listen --help" ;;
        monitor) opts="--socket --json --subscribe --help" ;;
        devices) opts="--json --config --help" ;;
        record) opts="-o --output --seconds --html --help" ;;
        listen) opts="--config --socket --focus-backend --print-app --print-screen --help" ;;
        doctor) opts="--config --socket --service --help" ;;
    esac
    if [[ $cur == -* ]]; then
        COMPREPLY=($(compgen -W "$opts" -- "$cur"))
    elif [ "$cmd" = replay ] || [ "$cmd" = explain ]; then
        COMPREPLY=($(compgen -f -- "$cur"))
    elif [ "$cmd" = record ] || [ "$cmd" = tune ]; then
        COMPREPLY=($(compgen -W "$(ls /dev/input/event* 2>/dev/null)" -- "$cur"))
    fi
}
complete -F _gestured gestured
