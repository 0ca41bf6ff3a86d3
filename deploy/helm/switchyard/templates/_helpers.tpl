{{/* The prefix of every object name: the release name, with "-switchyard" unless it already says so. */}}
{{- define "switchyard.fullname" -}}
{{- if .Values.fullnameOverride -}}
{{- .Values.fullnameOverride | trunc 50 | trimSuffix "-" -}}
{{- else if contains "switchyard" .Release.Name -}}
{{- .Release.Name | trunc 50 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-switchyard" .Release.Name | trunc 50 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}

{{/* The four services, in start order, with what the chart fixes about each: container port and whether it serves the admin API. */}}
{{- define "switchyard.services" -}}
ingest: { port: 8080, admin: true }
router: { port: 8081, admin: false }
delivery: { port: 8082, admin: true }
console: { port: 8083, admin: true }
{{- end -}}

{{- define "switchyard.serviceNames" -}}
{{- list "ingest" "router" "delivery" "console" | toJson -}}
{{- end -}}

{{/* The services allInOne runs in one process, in start order. */}}
{{- define "switchyard.allInOne.services" -}}
{{- list "ingest" "router" "delivery" | toJson -}}
{{- end -}}

{{/*
The Deployments, in start order: one per service, or with allInOne.enabled one "all-in-one" that
runs ingest, router and delivery in each pod, beside the console's.
*/}}
{{- define "switchyard.workloads" -}}
{{- if .Values.allInOne.enabled -}}
{{- list "all-in-one" "console" | toJson -}}
{{- else -}}
{{- include "switchyard.serviceNames" . -}}
{{- end -}}
{{- end -}}

{{/* The services a Deployment's process runs, as JSON. Call with (dict "root" $ "service" "all-in-one"). */}}
{{- define "switchyard.servicesOf" -}}
{{- if eq .service "all-in-one" -}}
{{- include "switchyard.allInOne.services" .root -}}
{{- else -}}
{{- list .service | toJson -}}
{{- end -}}
{{- end -}}

{{/* The values section of a Deployment: the service's own, or allInOne. */}}
{{- define "switchyard.valuesKey" -}}
{{- if eq . "all-in-one" -}}allInOne{{- else -}}{{ . }}{{- end -}}
{{- end -}}

{{/* The Deployment whose pods serve a service. Call with (dict "root" $ "service" "delivery"). */}}
{{- define "switchyard.workloadOf" -}}
{{- if and .root.Values.allInOne.enabled (has .service (include "switchyard.allInOne.services" .root | fromJsonArray)) -}}
all-in-one
{{- else -}}
{{ .service }}
{{- end -}}
{{- end -}}

{{/*
The name of a service's port, on its pods and its Service: http, but for router and delivery in the
all-in-one pods, where http is ingest's port, the one scraped and probed for the whole process.
Call with (dict "root" $ "service" "delivery").
*/}}
{{- define "switchyard.portName" -}}
{{- if and (eq (include "switchyard.workloadOf" .) "all-in-one") (ne .service "ingest") -}}
{{ .service }}
{{- else -}}
http
{{- end -}}
{{- end -}}

{{/* Labels on every object. */}}
{{- define "switchyard.labels" -}}
app.kubernetes.io/name: switchyard
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/part-of: switchyard
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version }}
{{- end -}}

{{/* The labels a service's pods are selected by. Call with (dict "root" $ "service" "ingest"). */}}
{{- define "switchyard.selectorLabels" -}}
app.kubernetes.io/name: switchyard
app.kubernetes.io/instance: {{ .root.Release.Name }}
app.kubernetes.io/component: {{ .service }}
{{- end -}}

{{- define "switchyard.componentLabels" -}}
{{ include "switchyard.labels" .root }}
app.kubernetes.io/component: {{ .service }}
{{- end -}}

{{- define "switchyard.image" -}}
{{ .Values.image.repository }}:{{ .Values.image.tag | default .Chart.AppVersion }}
{{- end -}}

{{- define "switchyard.serviceAccountName" -}}
{{- if .Values.serviceAccount.create -}}
{{- .Values.serviceAccount.name | default (include "switchyard.fullname" .) -}}
{{- else -}}
{{- .Values.serviceAccount.name | default "default" -}}
{{- end -}}
{{- end -}}

{{/* Whether the services need the Kafka Secret at all (TLS CA, client certificate or SASL). */}}
{{- define "switchyard.kafka.needsSecret" -}}
{{- if or .Values.kafka.tls.ca .Values.kafka.tls.clientCertificate .Values.kafka.sasl.mechanism -}}true{{- end -}}
{{- end -}}

{{- define "switchyard.kafka.secretName" -}}
{{- .Values.kafka.existingSecret | default (printf "%s-kafka" (include "switchyard.fullname" .)) -}}
{{- end -}}

{{- define "switchyard.workspace.secretName" -}}
{{- .Values.workspace.existingSecret | default (printf "%s-workspace" (include "switchyard.fullname" .)) -}}
{{- end -}}

{{/* Whether there is a workspace file: always in file mode (empty by default), in topic mode only when one is given. */}}
{{- define "switchyard.workspace.hasFile" -}}
{{- if or (eq .Values.workspace.mode "file") .Values.workspace.existingSecret .Values.workspace.content -}}true{{- end -}}
{{- end -}}

{{/* Whether a pod mounts the workspace file. Call with (dict "root" $ "service" "console"); the apply Job is "workspace-apply". */}}
{{- define "switchyard.workspace.mounted" -}}
{{- $w := .root.Values.workspace -}}
{{- if eq $w.mode "file" -}}true
{{- else if and (include "switchyard.workspace.hasFile" .root) (or (eq .service "workspace-apply") (and (eq .service "console") $w.seed)) -}}true
{{- end -}}
{{- end -}}

{{/* The Secret holding WORKSPACE_ENCRYPTION_KEYS, or "" when none is configured. */}}
{{- define "switchyard.encryptionKeys.secretName" -}}
{{- $k := .Values.workspace.encryptionKeys -}}
{{- if $k.existingSecret -}}
{{- $k.existingSecret -}}
{{- else if $k.value -}}
{{- printf "%s-workspace-keys" (include "switchyard.fullname" .) -}}
{{- end -}}
{{- end -}}

{{- define "switchyard.encryptionKeys.secretKey" -}}
{{- if .Values.workspace.encryptionKeys.existingSecret -}}{{ .Values.workspace.encryptionKeys.existingSecretKey }}{{- else -}}WORKSPACE_ENCRYPTION_KEYS{{- end -}}
{{- end -}}

{{/* The Secret holding the named tokens file (API_TOKENS_FILE), or "" when there is none. */}}
{{- define "switchyard.apiTokens.secretName" -}}
{{- $t := .Values.admin.apiTokens -}}
{{- if $t.existingSecret -}}
{{- $t.existingSecret -}}
{{- else if $t.content -}}
{{- printf "%s-api-tokens" (include "switchyard.fullname" .) -}}
{{- end -}}
{{- end -}}

{{- define "switchyard.apiTokens.secretKey" -}}
{{- if .Values.admin.apiTokens.existingSecret -}}{{ .Values.admin.apiTokens.existingSecretKey }}{{- else -}}api-tokens{{- end -}}
{{- end -}}

{{/* CONSOLE_INGEST_URL: console.ingestUrl, else the ingest Ingress's host, else ingest's Service. */}}
{{- define "switchyard.console.ingestUrl" -}}
{{- $ingress := .Values.ingest.ingress -}}
{{- if .Values.console.ingestUrl -}}
{{- .Values.console.ingestUrl -}}
{{- else if $ingress.enabled -}}
{{- printf "%s://%s" (ternary "https" "http" (not (empty $ingress.tlsSecretName))) $ingress.host -}}
{{- else -}}
{{- printf "http://%s-ingest:%v" (include "switchyard.fullname" .) .Values.ingest.service.port -}}
{{- end -}}
{{- end -}}

{{/* Fails on a workspace setting that cannot work, naming the value. */}}
{{- define "switchyard.checkWorkspace" -}}
{{- $w := .Values.workspace -}}
{{- if not (has $w.mode (list "topic" "file")) -}}
{{- fail (printf "workspace.mode must be topic or file, not %q" $w.mode) -}}
{{- end -}}
{{- if and $w.encryptionKeys.value (not $w.encryptionKeys.existingSecret) -}}
{{- $key := "[A-Za-z0-9_-]{1,32}:[A-Za-z0-9+/]{43}=" -}}
{{- if not (regexMatch (printf "^[[:space:]]*%s[[:space:]]*(,[[:space:]]*%s[[:space:]]*)*$" $key $key) $w.encryptionKeys.value) -}}
{{- fail "workspace.encryptionKeys.value must be id:key[,id:key…], each key 32 random bytes in base64 (openssl rand -base64 32)" -}}
{{- end -}}
{{- end -}}
{{- if $w.applyJob.enabled -}}
{{- if ne $w.mode "topic" -}}
{{- fail "workspace.applyJob.enabled needs workspace.mode topic: in file mode the management API refuses changes" -}}
{{- end -}}
{{- if not (include "switchyard.workspace.hasFile" .) -}}
{{- fail "workspace.applyJob.enabled: the Job applies workspace.content or workspace.existingSecret; set one" -}}
{{- end -}}
{{- if not (include "switchyard.admin.secretName" .) -}}
{{- fail "workspace.applyJob.enabled: the Job applies with the admin token; set admin.existingSecret or admin.token" -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{/* The admin token Secret's name, or "" when no token is configured (the admin endpoints then answer 503). */}}
{{- define "switchyard.admin.secretName" -}}
{{- if .Values.admin.existingSecret -}}
{{- .Values.admin.existingSecret -}}
{{- else if .Values.admin.token -}}
{{- printf "%s-admin" (include "switchyard.fullname" .) -}}
{{- end -}}
{{- end -}}

{{- define "switchyard.admin.secretKey" -}}
{{- if .Values.admin.existingSecret -}}{{ .Values.admin.existingSecretKey }}{{- else -}}ADMIN_TOKEN{{- end -}}
{{- end -}}

{{/* Variables the chart sets from its own sections; env.* must not set them too. */}}
{{- define "switchyard.chartManagedEnv" -}}
{{- list "KAFKA_BROKERS" "KAFKA_SSL" "KAFKA_SSL_CA_FILE" "KAFKA_SSL_CERT_FILE" "KAFKA_SSL_KEY_FILE" "KAFKA_SASL_MECHANISM" "KAFKA_SASL_USERNAME" "KAFKA_SASL_PASSWORD" "KAFKA_SASL_PASSWORD_FILE" "KAFKA_REPLICATION_FACTOR" "KAFKA_MIN_INSYNC_REPLICAS" "WORKSPACE_CONFIG" "WORKSPACE_ENCRYPTION_KEYS" "WORKSPACE_SEED_FILE" "PORT" "ADMIN_TOKEN" "API_TOKENS_FILE" "SWITCHYARD_SERVICE" "SWITCHYARD_SERVICES" "INGEST_PORT" "ROUTER_PORT" "DELIVERY_PORT" "CONSOLE_PORT" "CONSOLE_DELIVERY_URL" "CONSOLE_INGEST_URL" | toJson -}}
{{- end -}}

{{/* Fails with the value's path when an env map sets a variable the chart manages. */}}
{{- define "switchyard.checkEnv" -}}
{{- $managed := include "switchyard.chartManagedEnv" . | fromJsonArray -}}
{{- range $section, $vars := .Values.env -}}
{{- range $name, $value := $vars -}}
{{- if has $name $managed -}}
{{- fail (printf "env.%s.%s: %s is set by the chart (kafka.*, admin.*, workspace.*, console.ingestUrl); remove it from env" $section $name $name) -}}
{{- end -}}
{{- if not (kindIs "string" $value) -}}
{{- fail (printf "env.%s.%s must be a string: quote it in a values file, or use --set-string (\"%v\")" $section $name $value) -}}
{{- end -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{/* Fails on an autoscaling setting that cannot work, naming the value. */}}
{{- define "switchyard.checkAutoscaling" -}}
{{- $partitions := int .Values.env.all.TOPIC_PARTITIONS -}}
{{- range $workload := include "switchyard.workloads" . | fromJsonArray -}}
{{- $key := include "switchyard.valuesKey" $workload -}}
{{- $a := (index $.Values $key).autoscaling -}}
{{- $consumer := has $workload (list "router" "delivery" "all-in-one") -}}
{{- if not (has $a.kind (list "hpa" "keda" "none")) -}}
{{- fail (printf "%s.autoscaling.kind must be hpa, keda or none, not %q" $key $a.kind) -}}
{{- end -}}
{{- if and (eq $a.kind "keda") (not (has $workload (list "router" "delivery"))) -}}
{{- fail (printf "%s.autoscaling.kind keda: only router and delivery scale on consumer lag" $key) -}}
{{- end -}}
{{- if and $consumer (ne $a.kind "none") (gt (int $a.maxReplicas) $partitions) -}}
{{- fail (printf "%s.autoscaling.maxReplicas %v exceeds env.all.TOPIC_PARTITIONS %v: the extra replicas would get no partition" $key $a.maxReplicas $partitions) -}}
{{- end -}}
{{- end -}}
{{- end -}}
