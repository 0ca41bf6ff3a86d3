#!/usr/bin/env bash
# Local single-node Apache Kafka broker (KRaft: broker + controller in one JVM) for
# development and tests. No Docker: the broker jars come from Maven (see pom.xml beside
# this script) and run on plain `java`.
#
# Usage: scripts/kafka/kafka.sh fetch|start|stop|status|reset
#        scripts/kafka/kafka.sh cluster start|stop|status|reset|kill <node>
#        scripts/kafka/kafka.sh secure start|stop|status|reset
#
#   fetch   copy the jars of Kafka $KAFKA_VERSION into $KAFKA_WORK_DIR/libs-$KAFKA_VERSION
#           (skipped when up to date)
#   start   fetch if needed, format storage once, start the broker in the background and
#           wait until it is ready (idempotent: a running broker is left alone)
#   stop    stop the broker (SIGTERM, SIGKILL after 30 s); no error if not running
#   status  print "running" and exit 0 when up, print "stopped" and exit 1 otherwise
#   reset   stop and delete the data dir (the jars are kept)
#
#   cluster   a KRaft cluster of $KAFKA_CLUSTER_SIZE nodes (broker + controller each) on this
#             machine, for replication and failover tests: node i listens on
#             $KAFKA_CLUSTER_PORT+i-1 (controller: +100). Topics default to replication
#             min(3, size) and min.insync.replicas min(2, size). `start` also restarts nodes
#             that died; `kill <node>` SIGKILLs one (1-based) to simulate a crash.
#   secure    one broker whose client listener is SASL_SSL (SCRAM-SHA-256 and -512) on
#             $KAFKA_SECURE_PORT, with a CA and broker certificate made with openssl and keytool
#             in $KAFKA_SECURE_DIR/tls (clients trust tls/ca.pem) and the SCRAM users admin
#             (inter-broker) and $KAFKA_SECURE_USER (password $KAFKA_SECURE_PASSWORD) created
#             when the storage is formatted. A second listener on $KAFKA_SECURE_PORT+2 is SSL
#             with client certificates required (mTLS): tls/client.pem and tls/client.key pass.
#
# Each mode lives in its own file over lib.sh (the steps they share): single.sh, cluster.sh,
# secure.sh.
#
# Environment:
#   KAFKA_VERSION          Kafka release to run      (default: kafka.version in pom.xml; 3.x or 4.x;
#                          `newest`: kafka.newest.version in pom.xml).
#                          A data dir keeps the version that formatted it: give another version
#                          its own KAFKA_WORK_DIR (or reset)
#   KAFKA_PORT             client listener port      (default 9092)
#   KAFKA_CONTROLLER_PORT  KRaft controller port     (default 9093)
#   KAFKA_WORK_DIR         jars, config, data, logs  (default <repo root>/.kafka)
#   KAFKA_HEAP_OPTS        JVM heap flags            (default -Xms256m -Xmx512m)
#   KAFKA_START_TIMEOUT    seconds to wait for ready (default 90)
#   JAVA_HOME              java to use (default: java on PATH)
#   KAFKA_CLUSTER_SIZE     nodes of `cluster`        (default 3)
#   KAFKA_CLUSTER_PORT     first client port         (default 19092)
#   KAFKA_CLUSTER_DIR      work dir of `cluster`     (default <repo root>/.kafka-cluster)
#   KAFKA_SECURE_PORT      SASL_SSL port of `secure` (default 29092; controller +1, mTLS +2)
#   KAFKA_SECURE_DIR       work dir of `secure`      (default <repo root>/.kafka-secure)
#   KAFKA_SECURE_USER / KAFKA_SECURE_PASSWORD  its client user (default switchyard / switchyard-secret)
# `cluster` and `secure` take their jars from $KAFKA_WORK_DIR/libs-$KAFKA_VERSION, like the single broker.
set -euo pipefail

SCRIPT_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=scripts/kafka/lib.sh
source "$SCRIPT_DIR/lib.sh"

usage() {
  sed -n '2,/^set -euo/p' "$SCRIPT_DIR/kafka.sh" | sed -e '$d' -e 's/^# \{0,1\}//'
}

case "${1:-}" in
  cluster)
    # shellcheck source=scripts/kafka/cluster.sh
    source "$SCRIPT_DIR/cluster.sh"
    cluster_command "${@:2}" ;;
  secure)
    # shellcheck source=scripts/kafka/secure.sh
    source "$SCRIPT_DIR/secure.sh"
    secure_command "${@:2}" ;;
  *)
    # shellcheck source=scripts/kafka/single.sh
    source "$SCRIPT_DIR/single.sh"
    single_command "$@" ;;
esac
