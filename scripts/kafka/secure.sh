# Sourced by kafka.sh: one broker with a SASL_SSL client listener and an mTLS listener.

KAFKA_SECURE_PORT="${KAFKA_SECURE_PORT:-29092}"
KAFKA_SECURE_DIR="${KAFKA_SECURE_DIR:-$REPO_ROOT/.kafka-secure}"
KAFKA_SECURE_USER="${KAFKA_SECURE_USER:-switchyard}"
KAFKA_SECURE_PASSWORD="${KAFKA_SECURE_PASSWORD:-switchyard-secret}"

SECURE_ADMIN_PASSWORD=admin-secret
SECURE_STORE_PASSWORD=switchyard-local

use_secure() {
  mkdir -p "$KAFKA_SECURE_DIR"
  local work
  work="$(cd "$KAFKA_SECURE_DIR" && pwd)"
  use_node "$work" 1 "$KAFKA_SECURE_PORT" $(( KAFKA_SECURE_PORT + 1 ))
  LOCK_FILE="$work/.lock"
  CLUSTER_ID_FILE="$work/cluster-id"
  TLS="$work/tls"
  VOTERS="1@$HOST:$CONTROLLER_PORT"
  local jaas="org.apache.kafka.common.security.scram.ScramLoginModule required username=\"admin\" password=\"$SECURE_ADMIN_PASSWORD\";"
  MTLS_PORT=$(( KAFKA_SECURE_PORT + 2 ))
  LISTENER_CONF="listeners=SASL_SSL://$HOST:$PORT,CONTROLLER://$HOST:$CONTROLLER_PORT,SSL://$HOST:$MTLS_PORT
advertised.listeners=SASL_SSL://$HOST:$PORT,SSL://$HOST:$MTLS_PORT
listener.security.protocol.map=SASL_SSL:SASL_SSL,CONTROLLER:PLAINTEXT,SSL:SSL
listener.name.ssl.ssl.client.auth=required
inter.broker.listener.name=SASL_SSL
sasl.enabled.mechanisms=SCRAM-SHA-512,SCRAM-SHA-256
sasl.mechanism.inter.broker.protocol=SCRAM-SHA-512
listener.name.sasl_ssl.scram-sha-512.sasl.jaas.config=$jaas
listener.name.sasl_ssl.scram-sha-256.sasl.jaas.config=$jaas
ssl.keystore.type=PKCS12
ssl.keystore.location=$TLS/broker.p12
ssl.keystore.password=$SECURE_STORE_PASSWORD
ssl.key.password=$SECURE_STORE_PASSWORD
ssl.truststore.type=PKCS12
ssl.truststore.location=$TLS/truststore.p12
ssl.truststore.password=$SECURE_STORE_PASSWORD"
  # SCRAM credentials live in the cluster metadata; KRaft takes them at format time (KIP-900).
  FORMAT_ARGS=(
    --add-scram "SCRAM-SHA-512=[name=admin,password=$SECURE_ADMIN_PASSWORD]"
    --add-scram "SCRAM-SHA-512=[name=$KAFKA_SECURE_USER,password=$KAFKA_SECURE_PASSWORD]"
    --add-scram "SCRAM-SHA-256=[name=$KAFKA_SECURE_USER,password=$KAFKA_SECURE_PASSWORD]"
  )
}

# A local CA, a broker certificate it signs for 127.0.0.1 and localhost (the name clients
# verify) as PKCS12 key and trust stores, and a client certificate for mTLS; made once per work dir.
make_certificates() {
  [[ -f "$TLS/broker.p12" && -f "$TLS/truststore.p12" && -f "$TLS/client.pem" ]] && return 0
  command -v openssl >/dev/null 2>&1 || die "openssl not found (needed for the secure broker's certificates)"
  command -v keytool >/dev/null 2>&1 || die "keytool not found (it comes with Java 17)"
  rm -rf "$TLS" && mkdir -p "$TLS"
  log "making a local CA and broker certificate in $TLS"
  (
    cd "$TLS"
    openssl req -x509 -newkey rsa:2048 -nodes -keyout ca.key -out ca.pem -days 3650 -subj "/CN=Switchyard local Kafka CA" 2>/dev/null
    openssl req -newkey rsa:2048 -nodes -keyout broker.key -out broker.csr -subj "/CN=localhost" 2>/dev/null
    printf 'subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth,clientAuth\n' >broker.ext
    openssl x509 -req -in broker.csr -CA ca.pem -CAkey ca.key -CAcreateserial -out broker.pem -days 3650 -extfile broker.ext 2>/dev/null
    openssl pkcs12 -export -in broker.pem -inkey broker.key -certfile ca.pem -name broker -out broker.p12 -passout "pass:$SECURE_STORE_PASSWORD"
    keytool -importcert -noprompt -alias ca -file ca.pem -keystore truststore.p12 -storetype PKCS12 -storepass "$SECURE_STORE_PASSWORD" >/dev/null 2>&1
    openssl req -newkey rsa:2048 -nodes -keyout client.key -out client.csr -subj "/CN=$KAFKA_SECURE_USER" 2>/dev/null
    printf 'extendedKeyUsage=clientAuth\n' >client.ext
    openssl x509 -req -in client.csr -CA ca.pem -CAkey ca.key -CAcreateserial -out client.pem -days 3650 -extfile client.ext 2>/dev/null
  ) || die "making the certificates failed"
}

secure_start() {
  prepare_start
  make_certificates
  launch
  wait_ready "$LAUNCHED_PID"
  echo "Kafka running (pid $LAUNCHED_PID): SASL_SSL on $HOST:$PORT (user $KAFKA_SECURE_USER), mTLS on $HOST:$MTLS_PORT; CA $TLS/ca.pem"
}

secure_reset() {
  stop_broker
  rm -rf "$DATA" "$OFFSET_FILE" "$VERSION_FILE" "$CLUSTER_ID_FILE" "$TLS"
  echo "secure Kafka data and certificates deleted ($WORK); jars kept"
}

secure_command() {
  use_secure
  case "${1:-}" in
    start)  take_lock; secure_start ;;
    stop)   take_lock; stop_broker ;;
    status) status ;;
    reset)  take_lock; secure_reset ;;
    *) usage >&2; exit 2 ;;
  esac
}
