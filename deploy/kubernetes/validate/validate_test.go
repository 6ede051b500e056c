package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
)

// The manifests this repository ships are valid.
func TestShippedManifests(t *testing.T) {
	set, err := Load("..")
	if err != nil {
		t.Fatal(err)
	}
	if problems := Check(set); len(problems) > 0 {
		t.Errorf("problems:\n%s", strings.Join(problems, "\n"))
	}
	if len(set.Services) != 1 || len(set.ConfigMaps) != 1 || len(set.Secrets) != 1 || len(set.NetworkPolicies) != 1 || len(set.PDBs) != 1 {
		t.Errorf("not every manifest was read: %+v", set.files)
	}
}

// What the API server would take and silently drop (an unknown or
// misspelt field), or refuse, is an error here.
func TestStrictDecoding(t *testing.T) {
	tests := []struct {
		name, yaml, want string
	}{
		{"misspelt field", "apiVersion: v1\nkind: Service\nmetadata: {name: x}\nspec: {slector: {a: b}}\n", `unknown field "slector"`},
		{"misspelt probe", "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: x}\nspec:\n  template:\n    spec:\n      containers: [{name: c, image: i, readynessProbe: {}}]\n", `unknown field "readynessProbe"`},
		{"repeated key", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\ndata: {a: b}\ndata: {c: d}\n", `key "data" already set`},
		{"wrong type", "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: x}\nspec: {replicas: three}\n", "cannot unmarshal string into Go struct field"},
		{"unknown kind", "apiVersion: v1\nkind: Pod\nmetadata: {name: x}\n", "v1 Pod is not a kind these manifests use"},
		{"old API", "apiVersion: extensions/v1beta1\nkind: Deployment\nmetadata: {name: x}\n", "extensions/v1beta1 Deployment is not a kind"},
		{"no kind", "metadata: {name: x}\n", "no apiVersion and kind"},
		{"twice", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\n---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\n", "ConfigMap/x is also defined"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			if err := os.WriteFile(filepath.Join(dir, "m.yaml"), []byte(tt.yaml), 0o600); err != nil {
				t.Fatal(err)
			}
			_, err := Load(dir)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("Load = %v, want an error containing %q", err, tt.want)
			}
		})
	}
}

// Each promise of the deployment, broken on purpose, is reported.
func TestChecks(t *testing.T) {
	server := func(s *Set) *corev1.Container { return &s.Deployments[0].Spec.Template.Spec.Containers[0] }
	gitSync := func(s *Set) *corev1.Container { return &s.Deployments[0].Spec.Template.Spec.Containers[1] }
	no, zero := false, int64(0)
	one := int32(1)
	tests := []struct {
		name   string
		mutate func(*Set)
		want   string
	}{
		{"one replica", func(s *Set) { s.Deployments[0].Spec.Replicas = &one }, "replicas must be 2 or more"},
		{"root user", func(s *Set) { gitSync(s).SecurityContext.RunAsUser = &zero }, "container git-sync-payments: runAsUser must name a user other than root"},
		{"writable root", func(s *Set) { server(s).SecurityContext.ReadOnlyRootFilesystem = &no }, "readOnlyRootFilesystem must be true"},
		{"not non-root", func(s *Set) { s.Deployments[0].Spec.Template.Spec.SecurityContext.RunAsNonRoot = &no }, "runAsNonRoot must be true"},
		{"no memory limit", func(s *Set) { delete(server(s).Resources.Limits, corev1.ResourceMemory) }, "no memory limit"},
		{"untagged image", func(s *Set) { gitSync(s).Image = "registry.k8s.io/git-sync/git-sync" }, "has no tag"},
		{"readiness elsewhere", func(s *Set) { server(s).ReadinessProbe.HTTPGet.Path = "/healthz" }, "readinessProbe must be an HTTP GET of /readyz"},
		{"probe port", func(s *Set) { server(s).LivenessProbe.HTTPGet.Port = intstr.FromString("web") }, "livenessProbe port web is not a port of the container"},
		{"service selector", func(s *Set) { s.Services[0].Spec.Selector = map[string]string{"app": "other"} }, "Service/adrkit-mcp): selector does not select"},
		{"service port", func(s *Set) { s.Services[0].Spec.Ports[0].TargetPort = intstr.FromInt32(9090) }, "targetPort 9090 is not a port of the pods"},
		{"policy selector", func(s *Set) { s.NetworkPolicies[0].Spec.PodSelector.MatchLabels = map[string]string{"x": "y"} }, "podSelector does not select"},
		{"policy open egress", func(s *Set) { s.NetworkPolicies[0].Spec.PolicyTypes = s.NetworkPolicies[0].Spec.PolicyTypes[:1] }, "policyTypes lacks Egress"},
		{"bad label", func(s *Set) { s.ConfigMaps[0].Labels["bad key!"] = "x" }, `label key "bad key!"`},
		{"missing ConfigMap", func(s *Set) { s.ConfigMaps[0].Name = "renamed" }, "no ConfigMap adrkit-mcp-config in the manifests"},
		{"config key", func(s *Set) { server(s).Args[1] = "--config=/etc/adrkit/config/adrkit.yaml" }, `ConfigMap adrkit-mcp-config has no key "adrkit.yaml"`},
		{"config invalid", func(s *Set) {
			s.ConfigMaps[0].Data["config.yaml"] = strings.Replace(s.ConfigMaps[0].Data["config.yaml"], "name: payments", "name: pay/ments", 1)
		}, `corpora[0].name: "pay/ments" is not a corpus name`},
		{"config unknown key", func(s *Set) { s.ConfigMaps[0].Data["config.yaml"] += "issuer: https://id.example.com\n" }, `unknown field "issuer"`},
		{"token file", func(s *Set) { s.Secrets[0].StringData["tokens"] += "short\n" }, "the --token-file: token file (the Secret's key), line 3: token too short"},
		{"corpus without git-sync", func(s *Set) { gitSync(s).Args[2] = "--root=/git/other" }, "corpus payments: no git-sync container keeps /var/lib/adrkit/git/payments"},
		{"corpus from worktree", func(s *Set) {
			s.ConfigMaps[0].Data["config.yaml"] = strings.Replace(s.ConfigMaps[0].Data["config.yaml"], "rev: HEAD", "", 1)
		}, "corpus payments has no rev"},
		{"writable repositories", func(s *Set) { server(s).VolumeMounts[0].ReadOnly = false }, "volume git must be mounted read-only"},
		{"service account", func(s *Set) { s.Deployments[0].Spec.Template.Spec.AutomountServiceAccountToken = nil }, "automountServiceAccountToken must be false"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			set, err := Load("..")
			if err != nil {
				t.Fatal(err)
			}
			tt.mutate(set)
			problems := Check(set)
			found := false
			for _, p := range problems {
				found = found || strings.Contains(p, tt.want)
			}
			if !found {
				t.Errorf("no problem mentions %q; got:\n%s", tt.want, strings.Join(problems, "\n"))
			}
		})
	}
}
