{{/* Environment shared by every Switchyard service: the SASL user, the admin token, the workspace keys and secretEnv. */}}
{{- define "switchyard.commonEnv" -}}
{{- $adminSecret := include "switchyard.admin.secretName" . -}}
{{- $keysSecret := include "switchyard.encryptionKeys.secretName" . -}}
{{- if .Values.kafka.sasl.mechanism }}
- name: KAFKA_SASL_USERNAME
  valueFrom:
    secretKeyRef:
      name: {{ include "switchyard.kafka.secretName" . }}
      key: sasl-username
{{- end }}
{{- if $adminSecret }}
- name: ADMIN_TOKEN
  valueFrom:
    secretKeyRef:
      name: {{ $adminSecret }}
      key: {{ include "switchyard.admin.secretKey" . }}
{{- end }}
{{- if $keysSecret }}
- name: WORKSPACE_ENCRYPTION_KEYS
  valueFrom:
    secretKeyRef:
      name: {{ $keysSecret }}
      key: {{ include "switchyard.encryptionKeys.secretKey" . }}
{{- end }}
{{- range .Values.secretEnv }}
- name: {{ required "secretEnv[].name" .name }}
  valueFrom:
    secretKeyRef:
      name: {{ required (printf "secretEnv %s: secretName" .name) .secretName }}
      key: {{ required (printf "secretEnv %s: key" .name) .key }}
{{- end }}
{{- end -}}

{{- define "switchyard.envFrom" -}}
- configMapRef:
    name: {{ include "switchyard.fullname" . }}-env
{{- end -}}

{{/*
A pod's Secret volumes: the workspace file where it is read, the named tokens on the console, the
Kafka credentials (when needed) on the services, and a writable /tmp.
Call with (dict "root" $ "service" "console"); the apply Job is "workspace-apply".
*/}}
{{- define "switchyard.volumeMounts" -}}
{{- if include "switchyard.workspace.mounted" . }}
- name: workspace
  mountPath: /etc/switchyard
  readOnly: true
{{- end }}
{{- if and (eq .service "console") (include "switchyard.apiTokens.secretName" .root) }}
- name: api-tokens
  mountPath: /etc/switchyard-tokens
  readOnly: true
{{- end }}
{{- if and (ne .service "workspace-apply") (include "switchyard.kafka.needsSecret" .root) }}
- name: kafka
  mountPath: /etc/switchyard-kafka
  readOnly: true
{{- end }}
- name: tmp
  mountPath: /tmp
{{- end -}}

{{- define "switchyard.volumes" -}}
{{- if include "switchyard.workspace.mounted" . }}
- name: workspace
  secret:
    secretName: {{ include "switchyard.workspace.secretName" .root }}
    defaultMode: 288 # = 0440: readable by the pod's group (fsGroup)
{{- end }}
{{- if and (eq .service "console") (include "switchyard.apiTokens.secretName" .root) }}
- name: api-tokens
  secret:
    secretName: {{ include "switchyard.apiTokens.secretName" .root }}
    defaultMode: 288
{{- end }}
{{- if and (ne .service "workspace-apply") (include "switchyard.kafka.needsSecret" .root) }}
- name: kafka
  secret:
    secretName: {{ include "switchyard.kafka.secretName" .root }}
    defaultMode: 288
{{- end }}
- name: tmp
  emptyDir:
    sizeLimit: 64Mi
{{- end -}}

{{- define "switchyard.podPlacement" -}}
{{- with .Values.imagePullSecrets }}
imagePullSecrets:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- with .Values.nodeSelector }}
nodeSelector:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- with .Values.tolerations }}
tolerations:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- with .Values.affinity }}
affinity:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- end -}}
