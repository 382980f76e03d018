#!/usr/bin/env bash
# `make bench-cluster`: issue 12's benchmark — one cluster node against two sharing its port — and
# the "Cluster" section of docs/BENCHMARKS.md from it (the rest of the file is kept).
#
# For one node, then for two, each time afresh:
# 1. a redis-server on a free loopback port, with a temporary directory, `appendonly yes` and
#    `appendfsync always` (what cluster mode requires for an acknowledged write to be on disk);
# 2. the nodes: `ringcast serve --redis … --node a` (and `--node b`) on one free `--port`, which
#    they share through SO_REUSEPORT, each with a copy of the shipped config whose limits let the
#    bench in (writesPerMinute 0, maxViewers 100000) and whose cluster.leadMilliseconds is set;
# 3. `ringcast-bench --cluster` with one `--server-pid` a node: BENCH_CLUSTER_VIEWERS viewers on
#    the shared port, pushes to each node in turn; delivery, CPU per frame delivered summed over
#    the nodes, push→frame latency on the node that answered the push and on the other, and the
#    frames of viewers on different nodes compared byte for byte.
# Then `ringcast-bench cluster-report` writes the section and prints it. Then push throughput through two nodes
# sharing a port on one Redis (`ringcast-bench --scenario pushers`, printed, not in the report), once for each
# BENCH_CLUSTER_PUSH_ANIMATIONS. Loopback only.
#
# Settings come from the environment (the Makefile passes its BENCH_* variables):
#   BENCH_CLUSTER_VIEWERS   viewers in each pair of runs, one pair a count (3000 1000)
#   BENCH_CLUSTER_DURATION  seconds measured in each run              (20)
#   BENCH_CLUSTER_WARMUP    seconds between opening the viewers and measuring (5)
#   BENCH_CLUSTER_LEAD      the nodes' cluster.leadMilliseconds       (50)
#   BENCH_CLUSTER_PUSH_ANIMATIONS  each push run's animation: none, default, seconds (none default; empty: no run)
#   BENCH_PUSHERS BENCH_PUSH_VIEWERS BENCH_PUSH_DURATION  the push runs' clients, viewers and seconds (8 200 20)
#   BENCH_FPS BENCH_PUSH_INTERVAL BENCH_REPORT BENCH_RESULTS          (as for `make bench`)
#   BENCH_PREVIOUS          a git commit (the previous release) whose server is built in a worktree under the
#                           temporary directory and pushed to after this build, with each animation, with its own
#                           configuration; each pair's ratio is printed (empty: no previous release)
#   RINGCAST_BIN            the ringcast executable, which serves (.build/release/ringcast)
#   RINGCAST_BENCH_BIN      the ringcast-bench executable, which measures (bench/.build/release/ringcast-bench)
#   REDIS_SERVER            the redis-server executable (redis-server)
# A run that fails is reported and fails the script.
set -u

loads=${BENCH_CLUSTER_VIEWERS:-3000 1000}
duration=${BENCH_CLUSTER_DURATION:-20}
warmup=${BENCH_CLUSTER_WARMUP:-5}
lead=${BENCH_CLUSTER_LEAD:-50}
push_animations=${BENCH_CLUSTER_PUSH_ANIMATIONS-none default}
pushers=${BENCH_PUSHERS:-8}
push_viewers=${BENCH_PUSH_VIEWERS:-200}
push_duration=${BENCH_PUSH_DURATION:-20}
fps=${BENCH_FPS:-60}
push_interval=${BENCH_PUSH_INTERVAL:-0.2}
report=${BENCH_REPORT:-docs/BENCHMARKS.md}
keep=${BENCH_RESULTS:-}
previous=${BENCH_PREVIOUS-}

ringcast=${RINGCAST_BIN:-.build/release/ringcast}
bench=${RINGCAST_BENCH_BIN:-bench/.build/release/ringcast-bench}
redis_server=${REDIS_SERVER:-redis-server}
work=$(mktemp -d)
server=""
nodes=()
redis=""
failed=""
results=""
trap 'stop ${nodes[@]+"${nodes[@]}"} ${server:+"$server"} ${redis:+"$redis"}; if [ -d "$work/previous" ]; then git worktree remove --force "$work/previous"; fi; rm -rf "$work"' EXIT
trap 'exit 130' INT TERM

# One descriptor a viewer, on both sides: as many as this shell may have.
ulimit -n "$(ulimit -Hn)"

# start, stop, bench_config.
. "$(dirname "$0")/servers.sh"

# A loopback TCP port free now.
free_port() {
	python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# start_redis NAME: a redis-server on a free port with an empty directory; sets $redis and $redis_port.
start_redis() {
	local name=$1
	redis_port=$(free_port)
	mkdir -p "$work/$name"
	"$redis_server" --bind 127.0.0.1 --port "$redis_port" --dir "$work/$name" --appendonly yes \
		--appendfsync always --save '' >"$work/$name.log" 2>&1 &
	redis=$!
	for _ in $(seq 50); do
		[ "$(redis-cli -p "$redis_port" ping 2>/dev/null)" = PONG ] && return
		kill -0 "$redis" 2>/dev/null || break
		sleep 0.1
	done
	echo "$name did not start:"
	cat "$work/$name.log"
	exit 1
}

# run COUNT: COUNT nodes (a, b, …) on one Redis and one port, measured.
run() {
	local count=$1 name="cluster-$1-$viewers" node pids=() port
	local names=(a b c d e f g h)
	echo "== $count node(s) on one port, $viewers viewers"
	start_redis "redis-$name"
	bench_config config/ringcast.json "$work/$name.json" \
		"{\"redis\": \"redis://127.0.0.1:$redis_port/0\", \"leadMilliseconds\": $lead}" || exit 1
	port=$(free_port)
	for node in "${names[@]:0:$count}"; do
		start "serve-$name-$node" "$ringcast" serve --config "$work/$name.json" \
			--redis "redis://127.0.0.1:$redis_port/0" --node "$node" --port "$port" --fps "$fps" \
			--data-dir "$work/data-$name-$node" --log-level warning
		nodes+=("$server")
		pids+=(--server-pid "$server")
		server=""
	done
	if "$bench" --cluster --server "$url" "${pids[@]}" --viewers "$viewers" --duration "$duration" \
		--warmup "$warmup" --push-interval "$push_interval" --json "$work/bench-$name.json"; then
		results="$results $work/bench-$name.json"
	else
		failed="$failed $name"
	fi
	for node in "${names[@]:0:$count}"; do
		if [ -s "$work/serve-$name-$node.err" ]; then
			echo "node $node said on stderr:"
			tail -n 20 "$work/serve-$name-$node.err"
		fi
	done
	stop "${nodes[@]}"
	nodes=()
	stop "$redis"
	redis=""
}

for viewers in $loads; do
	run 1
	run 2
done

# push ANIMATION [RINGCAST CONFIG LABEL]: acknowledged pushes/s through two nodes sharing one port (the pushers'
# connections spread over both by SO_REUSEPORT), each push with ANIMATION, of RINGCAST (this build) with CONFIG's
# settings; the CPU figures are node a's. Sets $rate to the pushes a second.
push() {
	local animation=$1 binary=${2:-$ringcast} source=${3:-config/ringcast.json} label=${4:-this build}
	local name="cluster-push-$1${4:+-previous}" node port
	echo "== pushes through 2 nodes on one Redis ($label): $pushers pushers, $push_viewers viewers, animation $animation (CPU: node a only)"
	start_redis "redis-$name"
	bench_config "$source" "$work/$name.json" \
		"{\"redis\": \"redis://127.0.0.1:$redis_port/0\", \"leadMilliseconds\": $lead}" || exit 1
	port=$(free_port)
	for node in a b; do
		start "serve-$name-$node" "$binary" serve --config "$work/$name.json" \
			--redis "redis://127.0.0.1:$redis_port/0" --node "$node" --port "$port" --fps "$fps" \
			--data-dir "$work/data-$name-$node" --log-level warning
		nodes+=("$server")
		server=""
	done
	rate=""
	"$bench" --scenario pushers --server "$url" --server-pid "${nodes[0]}" --pushers "$pushers" \
		--viewers "$push_viewers" --duration "$push_duration" --warmup "$warmup" --data-dir "$work/redis-$name" \
		--push-animation "$animation" --json "$work/bench-$name.json" | tee "$work/$name.out"
	if [ "${PIPESTATUS[0]}" = 0 ]; then
		rate=$(sed -n 's/.*pushes acknowledged.*(\([0-9.]*\)\/s).*/\1/p' "$work/$name.out" | head -n 1)
	else
		failed="$failed $name"
	fi
	stop "${nodes[@]}"
	nodes=()
	stop "$redis"
	redis=""
}

# The previous release, built from its commit in a worktree, pushed to after this build with the same animations.
previous_binary=""
if [ -n "$previous" ] && [ -n "$push_animations" ] && ! build_previous "$previous"; then
	failed="$failed previous"
fi
pairs=""
for animation in $push_animations; do
	push "$animation"
	if [ -n "$previous_binary" ]; then
		ours=$rate
		push "$animation" "$previous_binary" "$work/previous/config/ringcast.json" "$commit, the previous release"
		if [ -n "$ours" ] && [ -n "$rate" ]; then
			pairs="$pairs$(printf '\n  %-8s this build %8s/s, %s %8s/s: %s×' "$animation" "$ours" "$commit" "$rate" \
				"$(python3 -c "print(f'{$ours / $rate:.2f}')")")"
		fi
	fi
done
if [ -n "$pairs" ]; then
	echo "== pushes through 2 nodes, this build against the previous release:$pairs"
fi

if [ -n "$results" ]; then
	"$bench" cluster-report --output "$report" --fps "$fps" --lead-milliseconds "$lead" \
		--temporary-directory "$work" \
		--server-command "redis-server --bind 127.0.0.1 --port \$REDIS_PORT --dir \$TMP/redis-cluster-NODES-VIEWERS --appendonly yes --appendfsync always --save ''" \
		--server-command "$ringcast serve --config \$TMP/cluster-NODES-VIEWERS.json --redis redis://127.0.0.1:\$REDIS_PORT/0 --node a --port \$PORT --fps $fps --data-dir \$TMP/data-cluster-NODES-VIEWERS-a --log-level warning" \
		--server-command "$ringcast serve --config \$TMP/cluster-NODES-VIEWERS.json --redis redis://127.0.0.1:\$REDIS_PORT/0 --node b --port \$PORT --fps $fps --data-dir \$TMP/data-cluster-NODES-VIEWERS-b --log-level warning  # two nodes only" \
		$results || exit 1
fi
if [ -n "$keep" ] && [ -n "$results" ]; then
	mkdir -p "$keep" && cp $results "$keep/"
fi
if [ -n "$failed" ]; then
	echo "failed runs:$failed"
	exit 1
fi
