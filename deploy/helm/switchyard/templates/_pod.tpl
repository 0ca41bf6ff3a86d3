{{/* Environment shared by every Switchyard container: the ConfigMap, the SASL user, the admin token and secretEnv. */}}
{{- define "switchyard.commonEnv" -}}
{{- $adminSecret := include "switchyard.admin.secretName" . -}}
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

{{/* The workspace, the Kafka credentials (when needed) and a writable /tmp. */}}
{{- define "switchyard.volumeMounts" -}}
- name: workspace
  mountPath: /etc/switchyard
  readOnly: true
{{- if include "switchyard.kafka.needsSecret" . }}
- name: kafka
  mountPath: /etc/switchyard-kafka
  readOnly: true
{{- end }}
- name: tmp
  mountPath: /tmp
{{- end -}}

{{- define "switchyard.volumes" -}}
- name: workspace
  secret:
    secretName: {{ include "switchyard.workspace.secretName" . }}
    defaultMode: 288 # = 0440: readable by the pod's group (fsGroup)
{{- if include "switchyard.kafka.needsSecret" . }}
- name: kafka
  secret:
    secretName: {{ include "switchyard.kafka.secretName" . }}
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
