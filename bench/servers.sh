# Sourced by bench/run.sh and bench/cluster.sh: starting and stopping the servers they measure.
# Needs $work, a temporary directory, for each server's output.

# start NAME COMMAND...: runs COMMAND in the background and waits for its "listening on" line;
# sets $server and $url.
start() {
	local name=$1
	shift
	: >"$work/$name.out"
	"$@" >"$work/$name.out" 2>"$work/$name.err" &
	server=$!
	url=""
	for _ in $(seq 100); do
		url=$(sed -n 's/^listening on //p' "$work/$name.out")
		if [ -n "$url" ] || ! kill -0 "$server" 2>/dev/null; then break; fi
		sleep 0.1
	done
	if [ -z "$url" ]; then
		echo "$name did not start:"
		cat "$work/$name.err"
		exit 1
	fi
}

# stop [PID...]: SIGTERM to each (by default $server, which is then cleared), then SIGKILL to
# those still running after 5 s.
stop() {
	local pids=("$@") pid
	if [ ${#pids[@]} -eq 0 ]; then
		pids=("$server")
		server=""
	fi
	for pid in "${pids[@]}"; do kill -TERM "$pid" 2>/dev/null; done
	for pid in "${pids[@]}"; do
		for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
		kill -KILL "$pid" 2>/dev/null
		wait "$pid" 2>/dev/null
	done
}

# bench_config SOURCE DEST [CLUSTER_JSON]: a copy of the config SOURCE whose limits let the bench
# in (writesPerMinute 0: the bench pushes 5 times a second; maxViewers 100000, above any
# scenario; maxBoards 1000, for the push run over 100 boards), with CLUSTER_JSON as its "cluster" object when given.
bench_config() {
	python3 -c 'import json, sys
c = json.load(open(sys.argv[1]))
c.setdefault("limits", {}).update(writesPerMinute=0, maxViewers=100000, maxBoards=1000)
if len(sys.argv) > 3: c["cluster"] = json.loads(sys.argv[3])
json.dump(c, open(sys.argv[2], "w"), indent=2)' "$@"
}

# build_previous REF: builds the server of commit REF (the previous release) in a worktree, $work/previous, which the
# caller's EXIT trap removes; sets $commit (its short name) and $previous_binary, or says why not and returns 1.
build_previous() {
	commit=$(git rev-parse --short "$1^{commit}") || return 1
	echo "== building the previous release, $commit"
	if git worktree add --detach "$work/previous" "$commit" >/dev/null 2>&1 &&
		(cd "$work/previous" && set -o pipefail && swift build -c release --product ringcast 2>&1 | tail -n 1); then
		previous_binary="$work/previous/.build/release/ringcast"
		return 0
	fi
	echo "the previous release ($1) could not be built"
	return 1
}
