_skinscope() {
    local i cur prev opts cmd
    COMPREPLY=()
    if [[ "${BASH_VERSINFO[0]}" -ge 4 ]]; then
        cur="$2"
    else
        cur="${COMP_WORDS[COMP_CWORD]}"
    fi
    prev="$3"
    cmd=""
    opts=""

    for i in "${COMP_WORDS[@]:0:COMP_CWORD}"
    do
        case "${cmd},${i}" in
            ",$1")
                cmd="skinscope"
                ;;
            skinscope,check)
                cmd="skinscope__subcmd__check"
                ;;
            skinscope,completions)
                cmd="skinscope__subcmd__completions"
                ;;
            skinscope,diff)
                cmd="skinscope__subcmd__diff"
                ;;
            skinscope,fix)
                cmd="skinscope__subcmd__fix"
                ;;
            skinscope,generate-builtin)
                cmd="skinscope__subcmd__generate__subcmd__builtin"
                ;;
            skinscope,gpu-info)
                cmd="skinscope__subcmd__gpu__subcmd__info"
                ;;
            skinscope,help)
                cmd="skinscope__subcmd__help"
                ;;
            skinscope,inspect)
                cmd="skinscope__subcmd__inspect"
                ;;
            skinscope,man)
                cmd="skinscope__subcmd__man"
                ;;
            skinscope,match-db)
                cmd="skinscope__subcmd__match__subcmd__db"
                ;;
            skinscope,palette)
                cmd="skinscope__subcmd__palette"
                ;;
            skinscope,pose)
                cmd="skinscope__subcmd__pose"
                ;;
            skinscope,render)
                cmd="skinscope__subcmd__render"
                ;;
            skinscope,retarget)
                cmd="skinscope__subcmd__retarget"
                ;;
            skinscope,train-deformer)
                cmd="skinscope__subcmd__train__subcmd__deformer"
                ;;
            skinscope__subcmd__help,check)
                cmd="skinscope__subcmd__help__subcmd__check"
                ;;
            skinscope__subcmd__help,completions)
                cmd="skinscope__subcmd__help__subcmd__completions"
                ;;
            skinscope__subcmd__help,diff)
                cmd="skinscope__subcmd__help__subcmd__diff"
                ;;
            skinscope__subcmd__help,fix)
                cmd="skinscope__subcmd__help__subcmd__fix"
                ;;
            skinscope__subcmd__help,generate-builtin)
                cmd="skinscope__subcmd__help__subcmd__generate__subcmd__builtin"
                ;;
            skinscope__subcmd__help,gpu-info)
                cmd="skinscope__subcmd__help__subcmd__gpu__subcmd__info"
                ;;
            skinscope__subcmd__help,help)
                cmd="skinscope__subcmd__help__subcmd__help"
                ;;
            skinscope__subcmd__help,inspect)
                cmd="skinscope__subcmd__help__subcmd__inspect"
                ;;
            skinscope__subcmd__help,man)
                cmd="skinscope__subcmd__help__subcmd__man"
                ;;
            skinscope__subcmd__help,match-db)
                cmd="skinscope__subcmd__help__subcmd__match__subcmd__db"
                ;;
            skinscope__subcmd__help,palette)
                cmd="skinscope__subcmd__help__subcmd__palette"
                ;;
            skinscope__subcmd__help,pose)
                cmd="skinscope__subcmd__help__subcmd__pose"
                ;;
            skinscope__subcmd__help,render)
                cmd="skinscope__subcmd__help__subcmd__render"
                ;;
            skinscope__subcmd__help,retarget)
                cmd="skinscope__subcmd__help__subcmd__retarget"
                ;;
            skinscope__subcmd__help,train-deformer)
                cmd="skinscope__subcmd__help__subcmd__train__subcmd__deformer"
                ;;
            *)
                ;;
        esac
    done

    case "${cmd}" in
        skinscope)
            opts="-h -V --frames --screenshot --window-size --no-panel --open-section --mocap-listen --mocap-skeleton --retarget-from --retarget-map --environment --environment-rotation --environment-intensity --background-shows --replay --asset-root --help --version inspect render check fix retarget diff palette pose match-db train-deformer gpu-info generate-builtin completions man help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 1 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --frames)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --screenshot)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --window-size)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --open-section)
                    COMPREPLY=($(compgen -W "file playback blend external layers state-machine plot over-time motion matching drivers muscles ml physics view environment record per-joint ddm morphs debug check retarget skeleton stats events problems" -- "${cur}"))
                    return 0
                    ;;
                --mocap-listen)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --mocap-skeleton)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --retarget-from)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --retarget-map)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --environment)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --environment-rotation)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --environment-intensity)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --background-shows)
                    COMPREPLY=($(compgen -W "flat environment blurred" -- "${cur}"))
                    return 0
                    ;;
                --replay)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --asset-root)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        skinscope__subcmd__check)
            opts="-h --clip --time --speed --once --blend --palette --morph --scene --compressed --layer --additive --transition --graph --param --simulate --root-motion --drive-speed --root-motion-joint --ik --clips-from --retarget-map --retarget-ik-limbs --retarget-rotation-only --retarget-root-motion --retarget-motion-scale --mocap --mocap-listen --mocap-skeleton --mocap-blend-back --mocap-wait --physics --physics-weight --physics-stiffness --impulse --motion-matching --path --motion-db --match-clips --match-weight --match-joints --match-report --muscles --ml-deformer --drivers --dqs-joints --replay --frame --ground --skin-on --skinning --ddm-iterations --ddm-lambda --ddm-kappa --ddm-alpha --ddm-cap --json --format --foot-slide --asset-root --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --clip)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --time)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --speed)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --blend)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --palette)
                    COMPREPLY=($(compgen -W "animated bind identity" -- "${cur}"))
                    return 0
                    ;;
                --morph)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --scene)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --layer)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --additive)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --transition)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --graph)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --param)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --simulate)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --root-motion)
                    COMPREPLY=($(compgen -W "authored in-place applied driven" -- "${cur}"))
                    return 0
                    ;;
                --drive-speed)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --root-motion-joint)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --ik)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --clips-from)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --retarget-map)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --retarget-root-motion)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --retarget-motion-scale)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --mocap)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --mocap-listen)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --mocap-skeleton)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --mocap-blend-back)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --mocap-wait)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --physics)
                    COMPREPLY=($(compgen -W "powered limp" -- "${cur}"))
                    return 0
                    ;;
                --physics-weight)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --physics-stiffness)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --impulse)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --path)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --motion-db)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --match-clips)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --match-weight)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --match-joints)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --match-report)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --muscles)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --ml-deformer)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --drivers)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --dqs-joints)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --replay)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --frame)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --ground)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --skin-on)
                    COMPREPLY=($(compgen -W "cpu gpu" -- "${cur}"))
                    return 0
                    ;;
                --skinning)
                    COMPREPLY=($(compgen -W "lbs dqs per-joint ddm" -- "${cur}"))
                    return 0
                    ;;
                --ddm-iterations)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --ddm-lambda)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --ddm-kappa)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --ddm-alpha)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --ddm-cap)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --format)
                    COMPREPLY=($(compgen -W "text json junit sarif" -- "${cur}"))
                    return 0
                    ;;
                --asset-root)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        skinscope__subcmd__completions)
            opts="-h --asset-root --help bash elvish fish powershell zsh"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --asset-root)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        skinscope__subcmd__diff)
            opts="-h --json --format --fail-over --image --asset-root --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --format)
                    COMPREPLY=($(compgen -W "text json junit sarif" -- "${cur}"))
                    return 0
                    ;;
                --fail-over)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --image)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --asset-root)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        skinscope__subcmd__fix)
            opts="-h --out --limit --drop-unused --json --asset-root --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --out)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --limit)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --asset-root)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        skinscope__subcmd__generate__subcmd__builtin)
            opts="-h --out --asset-root --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --out)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --asset-root)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        skinscope__subcmd__gpu__subcmd__info)
            opts="-h --asset-root --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --asset-root)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        skinscope__subcmd__help)
            opts="inspect render check fix retarget diff palette pose match-db train-deformer gpu-info generate-builtin completions man help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        skinscope__subcmd__help__subcmd__check)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        skinscope__subcmd__help__subcmd__completions)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        skinscope__subcmd__help__subcmd__diff)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        skinscope__subcmd__help__subcmd__fix)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        skinscope__subcmd__help__subcmd__generate__subcmd__builtin)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        skinscope__subcmd__help__subcmd__gpu__subcmd__info)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        skinscope__subcmd__help__subcmd__help)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        skinscope__subcmd__help__subcmd__inspect)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        skinscope__subcmd__help__subcmd__man)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        skinscope__subcmd__help__subcmd__match__subcmd__db)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        skinscope__subcmd__help__subcmd__palette)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        skinscope__subcmd__help__subcmd__pose)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        skinscope__subcmd__help__subcmd__render)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        skinscope__subcmd__help__subcmd__retarget)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        skinscope__subcmd__help__subcmd__train__subcmd__deformer)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        skinscope__subcmd__inspect)
            opts="-h --json --compression --tolerance --ddm --ddm-iterations --ddm-lambda --ddm-kappa --ddm-alpha --ddm-cap --clips-from --retarget-map --asset-root --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --tolerance)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --ddm-iterations)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --ddm-lambda)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --ddm-kappa)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --ddm-alpha)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --ddm-cap)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --clips-from)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --retarget-map)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --asset-root)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        skinscope__subcmd__man)
            opts="-h --out --asset-root --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --out)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --asset-root)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        skinscope__subcmd__match__subcmd__db)
            opts="-h --clips-from --retarget-map --match-clips --match-weight --match-joints --out --asset-root --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --clips-from)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --retarget-map)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --match-clips)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --match-weight)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --match-joints)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --out)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --asset-root)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        skinscope__subcmd__palette)
            opts="-h --clip --time --speed --once --blend --palette --morph --scene --compressed --layer --additive --transition --graph --param --simulate --root-motion --drive-speed --root-motion-joint --ik --clips-from --retarget-map --retarget-ik-limbs --retarget-rotation-only --retarget-root-motion --retarget-motion-scale --mocap --mocap-listen --mocap-skeleton --mocap-blend-back --mocap-wait --physics --physics-weight --physics-stiffness --impulse --motion-matching --path --motion-db --match-clips --match-weight --match-joints --match-report --muscles --ml-deformer --drivers --dqs-joints --replay --frame --ground --json --stage --motion-path --from --to --step --asset-root --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --clip)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --time)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --speed)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --blend)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --palette)
                    COMPREPLY=($(compgen -W "animated bind identity" -- "${cur}"))
                    return 0
                    ;;
                --morph)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --scene)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --layer)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --additive)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --transition)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --graph)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --param)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --simulate)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --root-motion)
                    COMPREPLY=($(compgen -W "authored in-place applied driven" -- "${cur}"))
                    return 0
                    ;;
                --drive-speed)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --root-motion-joint)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --ik)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --clips-from)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --retarget-map)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --retarget-root-motion)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --retarget-motion-scale)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --mocap)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --mocap-listen)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --mocap-skeleton)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --mocap-blend-back)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --mocap-wait)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --physics)
                    COMPREPLY=($(compgen -W "powered limp" -- "${cur}"))
                    return 0
                    ;;
                --physics-weight)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --physics-stiffness)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --impulse)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --path)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --motion-db)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --match-clips)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --match-weight)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --match-joints)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --match-report)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --muscles)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --ml-deformer)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --drivers)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --dqs-joints)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --replay)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --frame)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --ground)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --stage)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --motion-path)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --from)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --to)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --step)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --asset-root)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        skinscope__subcmd__pose)
            opts="-h --clip --time --speed --once --blend --palette --morph --scene --compressed --layer --additive --transition --graph --param --simulate --root-motion --drive-speed --root-motion-joint --ik --clips-from --retarget-map --retarget-ik-limbs --retarget-rotation-only --retarget-root-motion --retarget-motion-scale --mocap --mocap-listen --mocap-skeleton --mocap-blend-back --mocap-wait --physics --physics-weight --physics-stiffness --impulse --motion-matching --path --motion-db --match-clips --match-weight --match-joints --match-report --muscles --ml-deformer --drivers --dqs-joints --replay --frame --ground --skin-on --skinning --ddm-iterations --ddm-lambda --ddm-kappa --ddm-alpha --ddm-cap --out --asset-root --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --clip)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --time)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --speed)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --blend)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --palette)
                    COMPREPLY=($(compgen -W "animated bind identity" -- "${cur}"))
                    return 0
                    ;;
                --morph)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --scene)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --layer)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --additive)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --transition)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --graph)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --param)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --simulate)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --root-motion)
                    COMPREPLY=($(compgen -W "authored in-place applied driven" -- "${cur}"))
                    return 0
                    ;;
                --drive-speed)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --root-motion-joint)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --ik)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --clips-from)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --retarget-map)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --retarget-root-motion)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --retarget-motion-scale)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --mocap)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --mocap-listen)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --mocap-skeleton)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --mocap-blend-back)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --mocap-wait)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --physics)
                    COMPREPLY=($(compgen -W "powered limp" -- "${cur}"))
                    return 0
                    ;;
                --physics-weight)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --physics-stiffness)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --impulse)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --path)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --motion-db)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --match-clips)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --match-weight)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --match-joints)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --match-report)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --muscles)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --ml-deformer)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --drivers)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --dqs-joints)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --replay)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --frame)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --ground)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --skin-on)
                    COMPREPLY=($(compgen -W "cpu gpu" -- "${cur}"))
                    return 0
                    ;;
                --skinning)
                    COMPREPLY=($(compgen -W "lbs dqs per-joint ddm" -- "${cur}"))
                    return 0
                    ;;
                --ddm-iterations)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --ddm-lambda)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --ddm-kappa)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --ddm-alpha)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --ddm-cap)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --out)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --asset-root)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        skinscope__subcmd__render)
            opts="-h --clip --time --speed --once --blend --palette --morph --scene --compressed --layer --additive --transition --graph --param --simulate --root-motion --drive-speed --root-motion-joint --ik --clips-from --retarget-map --retarget-ik-limbs --retarget-rotation-only --retarget-root-motion --retarget-motion-scale --mocap --mocap-listen --mocap-skeleton --mocap-blend-back --mocap-wait --physics --physics-weight --physics-stiffness --impulse --motion-matching --path --motion-db --match-clips --match-weight --match-joints --match-report --muscles --ml-deformer --drivers --dqs-joints --replay --frame --ground --out --golden --tolerance --to --from --fps --turntable --gif-palette --size --wireframe --bones --axes-of --bind-axes --stage-ghosts --motion-path --onion --path-step --shadows --background --environment --environment-rotation --environment-intensity --background-shows --camera --eye --target --fov-y --near --far --silhouette --color-by --color-range --no-legend --crowd --crowd-lod --compare --tone-map --exposure --skinning --ddm-iterations --ddm-lambda --ddm-kappa --ddm-alpha --ddm-cap --skin-pass --asset-root --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --clip)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --time)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --speed)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --blend)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --palette)
                    COMPREPLY=($(compgen -W "animated bind identity" -- "${cur}"))
                    return 0
                    ;;
                --morph)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --scene)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --layer)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --additive)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --transition)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --graph)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --param)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --simulate)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --root-motion)
                    COMPREPLY=($(compgen -W "authored in-place applied driven" -- "${cur}"))
                    return 0
                    ;;
                --drive-speed)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --root-motion-joint)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --ik)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --clips-from)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --retarget-map)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --retarget-root-motion)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --retarget-motion-scale)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --mocap)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --mocap-listen)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --mocap-skeleton)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --mocap-blend-back)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --mocap-wait)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --physics)
                    COMPREPLY=($(compgen -W "powered limp" -- "${cur}"))
                    return 0
                    ;;
                --physics-weight)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --physics-stiffness)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --impulse)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --path)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --motion-db)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --match-clips)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --match-weight)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --match-joints)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --match-report)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --muscles)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --ml-deformer)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --drivers)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --dqs-joints)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --replay)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --frame)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --ground)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --out)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --golden)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --tolerance)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --to)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --from)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --fps)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --turntable)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --gif-palette)
                    COMPREPLY=($(compgen -W "frame global" -- "${cur}"))
                    return 0
                    ;;
                --size)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --bones)
                    COMPREPLY=($(compgen -W "stick octahedral axes" -- "${cur}"))
                    return 0
                    ;;
                --axes-of)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --stage-ghosts)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --motion-path)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --onion)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --path-step)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --background)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --environment)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --environment-rotation)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --environment-intensity)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --background-shows)
                    COMPREPLY=($(compgen -W "flat environment blurred" -- "${cur}"))
                    return 0
                    ;;
                --camera)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --eye)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --target)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --fov-y)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --near)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --far)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --color-by)
                    COMPREPLY=($(compgen -W "material dominant-joint weight-sum influences displacement morph-displacement muscle-displacement" -- "${cur}"))
                    return 0
                    ;;
                --color-range)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --crowd)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --compare)
                    COMPREPLY=($(compgen -W "animated bind identity clips" -- "${cur}"))
                    return 0
                    ;;
                --tone-map)
                    COMPREPLY=($(compgen -W "neutral aces none" -- "${cur}"))
                    return 0
                    ;;
                --exposure)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --skinning)
                    COMPREPLY=($(compgen -W "lbs dqs per-joint ddm" -- "${cur}"))
                    return 0
                    ;;
                --ddm-iterations)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --ddm-lambda)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --ddm-kappa)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --ddm-alpha)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --ddm-cap)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --skin-pass)
                    COMPREPLY=($(compgen -W "auto vertex compute" -- "${cur}"))
                    return 0
                    ;;
                --asset-root)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        skinscope__subcmd__retarget)
            opts="-h --from --to --out --map --ik-limbs --rotation-only --root-motion --motion-scale --reduce --tolerance --json --asset-root --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --from)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --to)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --out)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --map)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --root-motion)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --motion-scale)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --tolerance)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --asset-root)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        skinscope__subcmd__train__subcmd__deformer)
            opts="-h --reference --out --poses --held-out --components --ridge --seed --map --hidden --epochs --muscles --ddm-iterations --ddm-lambda --ddm-kappa --ddm-alpha --ddm-cap --asset-root --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --reference)
                    COMPREPLY=($(compgen -W "ddm muscles" -- "${cur}"))
                    return 0
                    ;;
                --out)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --poses)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --held-out)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --components)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --ridge)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --seed)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --map)
                    COMPREPLY=($(compgen -W "auto ridge mlp" -- "${cur}"))
                    return 0
                    ;;
                --hidden)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --epochs)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --muscles)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --ddm-iterations)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --ddm-lambda)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --ddm-kappa)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --ddm-alpha)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --ddm-cap)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --asset-root)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
    esac
}

if [[ "${BASH_VERSINFO[0]}" -eq 4 && "${BASH_VERSINFO[1]}" -ge 4 || "${BASH_VERSINFO[0]}" -gt 4 ]]; then
    complete -F _skinscope -o nosort -o bashdefault -o default skinscope
else
    complete -F _skinscope -o bashdefault -o default skinscope
fi
