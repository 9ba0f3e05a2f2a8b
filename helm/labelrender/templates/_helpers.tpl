{{/* Names, labels and the pieces every Deployment shares. */}}

{{- define "labelrender.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{/* The release's base name; components append -api, -worker, -operator. */}}
{{- define "labelrender.fullname" -}}
{{- if .Values.fullnameOverride -}}
{{- .Values.fullnameOverride | trunc 50 | trimSuffix "-" -}}
{{- else -}}
{{- $name := default .Chart.Name .Values.nameOverride -}}
{{- if contains $name .Release.Name -}}
{{- .Release.Name | trunc 50 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" .Release.Name $name | trunc 50 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{- define "labelrender.chart" -}}
{{- printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{/* Selector labels of one component: include with (dict "ctx" $ "component" "api"). */}}
{{- define "labelrender.selectorLabels" -}}
app.kubernetes.io/name: {{ include "labelrender.name" .ctx }}
app.kubernetes.io/instance: {{ .ctx.Release.Name }}
app.kubernetes.io/component: {{ .component }}
{{- end -}}

{{- define "labelrender.labels" -}}
helm.sh/chart: {{ include "labelrender.chart" .ctx }}
{{ include "labelrender.selectorLabels" . }}
app.kubernetes.io/version: {{ .ctx.Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .ctx.Release.Service }}
app.kubernetes.io/part-of: labelrender
{{- end -}}

{{/* repository@digest when image.digest is set (the tag is then only a label), else repository:tag. */}}
{{- define "labelrender.image" -}}
{{- if .Values.image.digest -}}
{{- printf "%s@%s" .Values.image.repository .Values.image.digest -}}
{{- else -}}
{{- printf "%s:%s" .Values.image.repository (default .Chart.AppVersion .Values.image.tag) -}}
{{- end -}}
{{- end -}}

{{- define "labelrender.serviceAccountName" -}}
{{- if .Values.serviceAccount.create -}}
{{- default (include "labelrender.fullname" .) .Values.serviceAccount.name -}}
{{- else -}}
{{- default "default" .Values.serviceAccount.name -}}
{{- end -}}
{{- end -}}

{{- define "labelrender.operatorServiceAccountName" -}}
{{- if .Values.operator.serviceAccount.create -}}
{{- default (printf "%s-operator" (include "labelrender.fullname" .)) .Values.operator.serviceAccount.name -}}
{{- else -}}
{{- default "default" .Values.operator.serviceAccount.name -}}
{{- end -}}
{{- end -}}

{{/* The Redis Secret's name; nothing renders without it. */}}
{{- define "labelrender.redisSecret" -}}
{{- required "redis.existingSecret is required: the name of an existing Secret whose key redis.urlKey holds the Redis URL (see the README, \"Deploy on Kubernetes\")" .Values.redis.existingSecret -}}
{{- end -}}

{{/* The spec's {base_url}: the value, else the first Ingress host, else empty. */}}
{{- define "labelrender.publicBaseUrl" -}}
{{- if .Values.publicBaseUrl -}}
{{- .Values.publicBaseUrl -}}
{{- else if and .Values.ingress.enabled .Values.ingress.hosts -}}
{{- $host := (first .Values.ingress.hosts).host -}}
{{- $scheme := ternary "https" "http" (gt (len .Values.ingress.tls) 0) -}}
{{- printf "%s://%s/v1" $scheme $host -}}
{{- end -}}
{{- end -}}

{{/* The Redis URL, from its Secret: every tier. */}}
{{- define "labelrender.redisEnv" -}}
- name: REDIS_URL
  valueFrom:
    secretKeyRef:
      name: {{ include "labelrender.redisSecret" . }}
      key: {{ .Values.redis.urlKey }}
{{- end -}}

{{/*
The object store's secrets, the one place every tier that touches the store
(API, workers and the operator, which writes template bodies) takes them
from: S3 keys and the filesystem store's URL secret. The bucket, region and
endpoint are in the ConfigMap every tier reads.
*/}}
{{- define "labelrender.storeEnv" -}}
{{- $creds := .Values.objectStore.s3.credentials }}
{{- if and (eq .Values.objectStore.type "s3") $creds.existingSecret }}
- name: AWS_ACCESS_KEY_ID
  valueFrom:
    secretKeyRef:
      name: {{ $creds.existingSecret }}
      key: {{ $creds.accessKeyIdKey }}
- name: AWS_SECRET_ACCESS_KEY
  valueFrom:
    secretKeyRef:
      name: {{ $creds.existingSecret }}
      key: {{ $creds.secretAccessKeyKey }}
{{- if $creds.sessionTokenKey }}
- name: AWS_SESSION_TOKEN
  valueFrom:
    secretKeyRef:
      name: {{ $creds.existingSecret }}
      key: {{ $creds.sessionTokenKey }}
{{- end }}
{{- end }}
{{- if .Values.urlSecret.existingSecret }}
- name: LABELRENDER_URL_SECRET
  valueFrom:
    secretKeyRef:
      name: {{ .Values.urlSecret.existingSecret }}
      key: {{ .Values.urlSecret.key }}
{{- end }}
{{- end -}}

{{/* Values that cannot be checked by the schema alone. */}}
{{- define "labelrender.validate" -}}
{{- $_ := include "labelrender.redisSecret" . -}}
{{- if eq .Values.objectStore.type "s3" -}}
{{- $_ := required "objectStore.s3.bucket is required when objectStore.type is s3" .Values.objectStore.s3.bucket -}}
{{- else -}}
{{- $_ := required "objectStore.filesystem.existingClaim is required when objectStore.type is filesystem: a ReadWriteMany PersistentVolumeClaim the API and the workers share" .Values.objectStore.filesystem.existingClaim -}}
{{- if not (include "labelrender.publicBaseUrl" .) -}}
{{- fail "publicBaseUrl is required with the filesystem store when the Ingress is off: file URLs are built on it" -}}
{{- end -}}
{{- end -}}
{{- if and (eq .Values.autoscaling.mode "hpa") (lt (int .Values.autoscaling.minReplicas) 1) -}}
{{- fail "autoscaling.minReplicas must be at least 1 with mode hpa: only KEDA scales workers to zero" -}}
{{- end -}}
{{- if gt (int .Values.autoscaling.minReplicas) (int .Values.autoscaling.maxReplicas) -}}
{{- fail "autoscaling.minReplicas must not exceed autoscaling.maxReplicas" -}}
{{- end -}}
{{- end -}}

{{/* Preferred anti-affinity: replicas of one component on different nodes. */}}
{{- define "labelrender.affinity" -}}
{{- if .affinity -}}
{{- toYaml .affinity -}}
{{- else -}}
podAntiAffinity:
  preferredDuringSchedulingIgnoredDuringExecution:
    - weight: 100
      podAffinityTerm:
        topologyKey: kubernetes.io/hostname
        labelSelector:
          matchLabels:
            {{- include "labelrender.selectorLabels" (dict "ctx" .ctx "component" .component) | nindent 12 }}
{{- end -}}
{{- end -}}

{{/* Pod-level fields every Deployment shares: include with (dict "ctx" $ "tier" .Values.api "component" "api"). */}}
{{- define "labelrender.podCommon" -}}
{{- with .ctx.Values.imagePullSecrets }}
imagePullSecrets:
  {{- toYaml . | nindent 2 }}
{{- end }}
securityContext:
  {{- toYaml .ctx.Values.podSecurityContext | nindent 2 }}
terminationGracePeriodSeconds: {{ .tier.terminationGracePeriodSeconds }}
{{- with (.tier.priorityClassName | default .ctx.Values.priorityClassName) }}
priorityClassName: {{ . }}
{{- end }}
affinity:
  {{- include "labelrender.affinity" (dict "ctx" .ctx "component" .component "affinity" .tier.affinity) | nindent 2 }}
{{- with .tier.topologySpreadConstraints }}
topologySpreadConstraints:
  {{- range . }}
  {{- /* Without a labelSelector a constraint counts every pod: default to this component's. */}}
  {{- $constraint := . }}
  {{- if not (hasKey . "labelSelector") }}
  {{- $constraint = merge (dict "labelSelector" (dict "matchLabels" (include "labelrender.selectorLabels" (dict "ctx" $.ctx "component" $.component) | fromYaml))) . }}
  {{- end }}
  - {{- toYaml $constraint | nindent 4 }}
  {{- end }}
{{- end }}
{{- with .tier.nodeSelector }}
nodeSelector:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- with .tier.tolerations }}
tolerations:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- end -}}

{{/* Volumes every pod has: a private /tmp, the shared store if on the filesystem. */}}
{{- define "labelrender.volumes" -}}
- name: tmp
  emptyDir:
    sizeLimit: {{ .ctx.Values.tmpSizeLimit }}
{{- if and .store (eq .ctx.Values.objectStore.type "filesystem") }}
- name: objects
  persistentVolumeClaim:
    claimName: {{ .ctx.Values.objectStore.filesystem.existingClaim }}
{{- end }}
{{- with .tier.extraVolumes }}
{{ toYaml . }}
{{- end }}
{{- end -}}

{{- define "labelrender.volumeMounts" -}}
- name: tmp
  mountPath: /tmp
{{- if and .store (eq .ctx.Values.objectStore.type "filesystem") }}
- name: objects
  mountPath: {{ .ctx.Values.objectStore.filesystem.mountPath }}
{{- end }}
{{- with .tier.extraVolumeMounts }}
{{ toYaml . }}
{{- end }}
{{- end -}}

{{/* Pod template annotations: roll the pods when the settings change. */}}
{{- define "labelrender.podAnnotations" -}}
checksum/config: {{ include (print .ctx.Template.BasePath "/configmap.yaml") .ctx | sha256sum }}
{{- with .tier.podAnnotations }}
{{ toYaml . }}
{{- end }}
{{- end -}}

{{- define "labelrender.probe" -}}
initialDelaySeconds: {{ .initialDelaySeconds }}
periodSeconds: {{ .periodSeconds }}
timeoutSeconds: {{ .timeoutSeconds }}
failureThreshold: {{ .failureThreshold }}
{{- end -}}
