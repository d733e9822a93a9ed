# turbo/bench/lib.sh -- what the bench scripts share (bash; sourced, not run)

# abspath PATH: PATH made absolute (a folder, or a file in an existing folder)
abspath() {
    if [ -d "$1" ]; then (cd "$1" && pwd)
    else echo "$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"; fi
}

# bench_sets PROG SETS CORPUS: the data sets as driver arguments, appended
# to the array ARGS: for each comma-separated set of SETS, "--set=NAME" and
# its files.  A set is NAME=SPEC or SPEC; SPEC is parts joined by '+', each
# a folder of CORPUS (its regular files, sorted), a folder or a file; NAME
# defaults to SPEC's last component.  A part that is none of these ends
# the script (PROG names it).
bench_sets() {
    local prog=$1 sets=$2 corpus=$3 spec name p f
    local -a setlist parts
    IFS=, read -r -a setlist <<<"$sets"
    for spec in "${setlist[@]}"; do
        [ -n "$spec" ] || continue
        name=$spec
        case $spec in
            */*=*) ;;
            ?*=*) name=${spec%%=*}; spec=${spec#*=} ;;
        esac
        [ "$name" != "$spec" ] || name=$(basename "$spec")
        ARGS+=("--set=$name")
        IFS=+ read -r -a parts <<<"$spec"
        for p in "${parts[@]}"; do
            if [ -d "$corpus/$p" ] && [ "${p#*/}" = "$p" ]; then
                p=$corpus/$p
            fi
            if [ -d "$p" ]; then
                while IFS= read -r f; do ARGS+=("$f"); done \
                    < <(find "$(abspath "$p")" -mindepth 1 -maxdepth 1 -type f | LC_ALL=C sort)
            elif [ -f "$p" ]; then
                ARGS+=("$(abspath "$p")")
            else
                echo "$prog: no such set, folder or file: $p" >&2; exit 1
            fi
        done
    done
}
