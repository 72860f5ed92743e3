#!/bin/sh
# Forms the store's Valkey cluster, without an operator: run once the nodes are
# up (compose: the valkey-cluster-init service; Kubernetes: the valkey-cluster-init
# Job, which carries a copy of this script), and again whenever you like.
#
#   valkey-cluster-init.sh REPLICAS HOST:PORT ...
#
# The first len/(1+REPLICAS) nodes become the primaries (slots split evenly),
# the rest their replicas, REPLICAS each (valkey-cli --cluster create). On a
# cluster already formed it changes nothing, except that a node which is in no
# cluster (a replacement with an empty disk) joins as a replica of the primary
# with the fewest. Nodes are named by host; valkey-cli wants addresses.
set -eu

replicas="$1"
shift

address() {
	host="${1%:*}"
	port="${1##*:}"
	ip="$(getent hosts "$host" | awk '{ print $1; exit }')"
	[ -n "$ip" ] || return 1
	echo "$ip:$port"
}

# Every node resolves and answers, or we wait (pods and containers start in any order).
for node in "$@"; do
	until addr="$(address "$node")" && valkey-cli -h "${addr%:*}" -p "${addr##*:}" ping >/dev/null 2>&1; do
		echo "waiting for $node"
		sleep 2
	done
done

slots_assigned() {
	valkey-cli -h "${1%:*}" -p "${1##*:}" cluster info | tr -d '\r' | sed -n 's/^cluster_slots_assigned://p'
}
known_nodes() {
	valkey-cli -h "${1%:*}" -p "${1##*:}" cluster info | tr -d '\r' | sed -n 's/^cluster_known_nodes://p'
}

formed=""
for node in "$@"; do
	addr="$(address "$node")"
	if [ "$(slots_assigned "$addr")" != "0" ]; then
		formed="$addr"
		break
	fi
done

if [ -z "$formed" ]; then
	addrs=""
	for node in "$@"; do addrs="$addrs $(address "$node")"; done
	echo "forming the cluster:$addrs, $replicas replica(s) per primary"
	# shellcheck disable=SC2086  # one word per node
	valkey-cli --cluster create $addrs --cluster-replicas "$replicas" --cluster-yes
else
	for node in "$@"; do
		addr="$(address "$node")"
		if [ "$(known_nodes "$addr")" = "1" ] && [ "$(slots_assigned "$addr")" = "0" ]; then
			echo "$node is in no cluster: adding it as a replica"
			valkey-cli --cluster add-node "$addr" "$formed" --cluster-slave
		fi
	done
	# A node replaced at its address (its id left with no address: noaddr) is
	# forgotten by every member, so the cluster stops counting it.
	for id in $(valkey-cli -h "${formed%:*}" -p "${formed##*:}" cluster nodes | awk '$3 ~ /noaddr/ { print $1 }'); do
		echo "forgetting the replaced node $id"
		valkey-cli --cluster call "$formed" cluster forget "$id" || true
	done
fi

# Done when the cluster says ok and every node knows every other.
addr="$(address "$1")"
until valkey-cli -h "${addr%:*}" -p "${addr##*:}" cluster info | tr -d '\r' | grep -q '^cluster_state:ok'; do
	echo "waiting for cluster_state:ok"
	sleep 1
done
valkey-cli --cluster check "$addr"
