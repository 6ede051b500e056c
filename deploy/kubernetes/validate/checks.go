package main

import (
	"fmt"
	"maps"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	networkingv1 "k8s.io/api/networking/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/apimachinery/pkg/util/validation"

	"github.com/adrkit/adrkit-go/adapters/mcphttp"
)

// serverFlag marks the adrkit-mcp container: the one started with --http.
const serverFlag = "--http="

// Check returns every problem of the set, in a fixed order: what the API
// server would refuse beyond field names (names, labels, selectors), what
// this deployment promises (non-root, read-only root file system, limits,
// probes, replicas), and whether the pieces fit one another (mounts,
// ports, the config file and the token file as adrkit-mcp reads them,
// one git-sync per corpus).
func Check(s *Set) []string {
	c := &checker{set: s}
	c.names()
	if len(s.Deployments) != 1 {
		c.add("manifests", "want exactly one Deployment, found %d", len(s.Deployments))
		return c.problems
	}
	d := s.Deployments[0]
	c.deployment(d)
	for _, svc := range s.Services {
		c.service(svc, d)
	}
	for _, np := range s.NetworkPolicies {
		where := s.where("NetworkPolicy", np.Name)
		if !selects(&np.Spec.PodSelector, d.Spec.Template.Labels) {
			c.add(where, "podSelector does not select the pods of Deployment %s", d.Name)
		}
		for _, t := range []string{"Ingress", "Egress"} {
			if !slices.ContainsFunc(np.Spec.PolicyTypes, func(p networkingv1.PolicyType) bool { return string(p) == t }) {
				c.add(where, "policyTypes lacks %s: that direction would be left open", t)
			}
		}
		for _, rule := range np.Spec.Ingress {
			for _, p := range rule.Ports {
				if p.Port != nil && !podHasPort(&d.Spec.Template.Spec, *p.Port) {
					c.add(where, "ingress port %s is not a port of the pods", p.Port.String())
				}
			}
		}
	}
	for _, pdb := range s.PDBs {
		where := s.where("PodDisruptionBudget", pdb.Name)
		if !selects(pdb.Spec.Selector, d.Spec.Template.Labels) {
			c.add(where, "selector does not select the pods of Deployment %s", d.Name)
		}
		if m := pdb.Spec.MinAvailable; m != nil && m.Type == intstr.Int && d.Spec.Replicas != nil && m.IntVal >= *d.Spec.Replicas {
			c.add(where, "minAvailable %d leaves no replica to evict out of %d", m.IntVal, *d.Spec.Replicas)
		}
	}
	return c.problems
}

type checker struct {
	set      *Set
	problems []string
}

func (c *checker) add(where, format string, args ...any) {
	c.problems = append(c.problems, where+": "+fmt.Sprintf(format, args...))
}

// names checks every object's name and labels as the API server would.
func (c *checker) names() {
	objects := map[string][]metav1.Object{}
	for _, o := range c.set.Deployments {
		objects["Deployment"] = append(objects["Deployment"], o)
	}
	for _, o := range c.set.Services {
		objects["Service"] = append(objects["Service"], o)
	}
	for _, o := range c.set.ConfigMaps {
		objects["ConfigMap"] = append(objects["ConfigMap"], o)
	}
	for _, o := range c.set.Secrets {
		objects["Secret"] = append(objects["Secret"], o)
	}
	for _, o := range c.set.NetworkPolicies {
		objects["NetworkPolicy"] = append(objects["NetworkPolicy"], o)
	}
	for _, o := range c.set.PDBs {
		objects["PodDisruptionBudget"] = append(objects["PodDisruptionBudget"], o)
	}
	for _, kind := range slices.Sorted(maps.Keys(objects)) {
		for _, o := range objects[kind] {
			where := c.set.where(kind, o.GetName())
			for _, msg := range validation.IsDNS1123Subdomain(o.GetName()) {
				c.add(where, "name: %s", msg)
			}
			if o.GetNamespace() != "" {
				c.add(where, "namespace is set: the manifests are applied with kubectl -n")
			}
			for _, k := range slices.Sorted(maps.Keys(o.GetLabels())) {
				for _, msg := range validation.IsQualifiedName(k) {
					c.add(where, "label key %q: %s", k, msg)
				}
				for _, msg := range validation.IsValidLabelValue(o.GetLabels()[k]) {
					c.add(where, "label %q value: %s", k, msg)
				}
			}
		}
	}
}

// deployment checks the Deployment and what its pods read.
func (c *checker) deployment(d *appsv1.Deployment) {
	where := c.set.where("Deployment", d.Name)
	if d.Spec.Replicas == nil || *d.Spec.Replicas < 2 {
		c.add(where, "replicas must be 2 or more: the server is meant to scale out")
	}
	if d.Spec.Selector == nil || !selects(d.Spec.Selector, d.Spec.Template.Labels) {
		c.add(where, "selector does not select the pod template's labels")
	}
	pod := &d.Spec.Template.Spec
	if pod.AutomountServiceAccountToken == nil || *pod.AutomountServiceAccountToken {
		c.add(where, "automountServiceAccountToken must be false: nothing in the pod talks to the API server")
	}
	psc := pod.SecurityContext
	if psc == nil || psc.RunAsNonRoot == nil || !*psc.RunAsNonRoot {
		c.add(where, "securityContext.runAsNonRoot must be true for the pod")
	}
	if psc == nil || psc.SeccompProfile == nil || psc.SeccompProfile.Type != corev1.SeccompProfileTypeRuntimeDefault {
		c.add(where, "securityContext.seccompProfile must be RuntimeDefault")
	}
	volumes := map[string]corev1.Volume{}
	for _, v := range pod.Volumes {
		volumes[v.Name] = v
		switch {
		case v.ConfigMap != nil && !slices.ContainsFunc(c.set.ConfigMaps, func(o *corev1.ConfigMap) bool { return o.Name == v.ConfigMap.Name }):
			c.add(where, "volume %s: no ConfigMap %s in the manifests", v.Name, v.ConfigMap.Name)
		case v.Secret != nil && !slices.ContainsFunc(c.set.Secrets, func(o *corev1.Secret) bool { return o.Name == v.Secret.SecretName }):
			c.add(where, "volume %s: no Secret %s in the manifests", v.Name, v.Secret.SecretName)
		}
	}
	var server *corev1.Container
	for i := range pod.Containers {
		ct := &pod.Containers[i]
		c.container(where, psc, ct, volumes)
		if slices.ContainsFunc(ct.Args, func(a string) bool { return strings.HasPrefix(a, serverFlag) }) {
			server = ct
		}
	}
	if server == nil {
		c.add(where, "no container runs adrkit-mcp with %s", serverFlag)
		return
	}
	c.server(where, pod, server, volumes)
}

// container checks what every container must be: non-root, read-only
// root file system, no privilege escalation, no capability, limits, a
// pinned image, mounts and probe ports that exist.
func (c *checker) container(where string, psc *corev1.PodSecurityContext, ct *corev1.Container, volumes map[string]corev1.Volume) {
	where += " container " + ct.Name
	sc := ct.SecurityContext
	switch {
	case sc == nil:
		c.add(where, "no securityContext")
	default:
		if sc.ReadOnlyRootFilesystem == nil || !*sc.ReadOnlyRootFilesystem {
			c.add(where, "readOnlyRootFilesystem must be true")
		}
		if sc.AllowPrivilegeEscalation == nil || *sc.AllowPrivilegeEscalation {
			c.add(where, "allowPrivilegeEscalation must be false")
		}
		if sc.Capabilities == nil || !slices.Contains(sc.Capabilities.Drop, "ALL") {
			c.add(where, "capabilities must drop ALL")
		}
		if sc.Privileged != nil && *sc.Privileged {
			c.add(where, "must not be privileged")
		}
	}
	user := (*int64)(nil)
	if psc != nil {
		user = psc.RunAsUser
	}
	if sc != nil && sc.RunAsUser != nil {
		user = sc.RunAsUser
	}
	if user == nil || *user == 0 {
		c.add(where, "runAsUser must name a user other than root")
	}
	for _, kind := range []corev1.ResourceName{corev1.ResourceCPU, corev1.ResourceMemory} {
		if _, ok := ct.Resources.Limits[kind]; !ok {
			c.add(where, "no %s limit", kind)
		}
		if _, ok := ct.Resources.Requests[kind]; !ok {
			c.add(where, "no %s request", kind)
		}
	}
	if last := ct.Image[strings.LastIndex(ct.Image, "/")+1:]; !strings.Contains(last, ":") && !strings.Contains(last, "@") {
		c.add(where, "image %q has no tag", ct.Image)
	}
	for _, m := range ct.VolumeMounts {
		if _, ok := volumes[m.Name]; !ok {
			c.add(where, "mounts volume %s, which the pod does not declare", m.Name)
		}
	}
	for name, p := range map[string]*corev1.Probe{"livenessProbe": ct.LivenessProbe, "readinessProbe": ct.ReadinessProbe, "startupProbe": ct.StartupProbe} {
		if p != nil && p.HTTPGet != nil && !containerHasPort(ct, p.HTTPGet.Port) {
			c.add(where, "%s port %s is not a port of the container", name, p.HTTPGet.Port.String())
		}
	}
}

// server checks the adrkit-mcp container against what the server reads:
// its probes, its config file and token file, and a git-sync for every
// corpus.
func (c *checker) server(where string, pod *corev1.PodSpec, server *corev1.Container, volumes map[string]corev1.Volume) {
	where += " container " + server.Name
	for _, want := range []struct {
		name, path string
		probe      *corev1.Probe
	}{{"livenessProbe", "/healthz", server.LivenessProbe}, {"readinessProbe", "/readyz", server.ReadinessProbe}} {
		if want.probe == nil || want.probe.HTTPGet == nil || want.probe.HTTPGet.Path != want.path {
			c.add(where, "%s must be an HTTP GET of %s", want.name, want.path)
		}
	}

	configData, ok := c.mountedFile(where, server, volumes, "--config=")
	if !ok {
		return
	}
	cfg, err := mcphttp.ParseConfig([]byte(configData))
	if err != nil {
		c.add(where, "the --config file: %v", err)
		return
	}
	if tokens, ok := c.mountedFile(where, server, volumes, "--token-file="); ok {
		file := filepath.Join(os.TempDir(), fmt.Sprintf("adrkit-validate-tokens-%d", os.Getpid()))
		defer os.Remove(file)
		if err := os.WriteFile(file, []byte(tokens), 0o600); err != nil {
			c.add(where, "writing the token file to check it: %v", err)
		} else if _, err := mcphttp.LoadTokens(file, cfg.Tokens); err != nil {
			c.add(where, "the --token-file: %v", strings.ReplaceAll(err.Error(), file, "(the Secret's key)"))
		}
	}

	for _, corpus := range cfg.Corpora {
		if corpus.Rev == "" {
			c.add(where, "corpus %s has no rev: a repository kept by git-sync is served by revision, never from its worktree", corpus.Name)
		}
		volume, rel, ok := underMount(server, corpus.Cwd)
		if !ok || volumes[volume].EmptyDir == nil {
			c.add(where, "corpus %s: %s is not on a shared emptyDir mounted in the container", corpus.Name, corpus.Cwd)
			continue
		}
		if m := mountOf(server, volume); !m.ReadOnly {
			c.add(where, "volume %s must be mounted read-only: the server never writes a repository", volume)
		}
		if !slices.ContainsFunc(pod.Containers, func(ct corev1.Container) bool { return syncsInto(&ct, volume, rel) }) {
			c.add(where, "corpus %s: no git-sync container keeps %s (--root=<its mount of %s>/%s)", corpus.Name, corpus.Cwd, volume, rel)
		}
	}
}

// mountedFile is the content of the file an argument of server names
// (flag=PATH), from the ConfigMap or Secret mounted there.
func (c *checker) mountedFile(where string, server *corev1.Container, volumes map[string]corev1.Volume, flag string) (string, bool) {
	i := slices.IndexFunc(server.Args, func(a string) bool { return strings.HasPrefix(a, flag) })
	if i < 0 {
		c.add(where, "no %sPATH argument", flag)
		return "", false
	}
	file := strings.TrimPrefix(server.Args[i], flag)
	volume, rel, ok := underMount(server, file)
	if !ok {
		c.add(where, "%s%s is not in a mounted volume", flag, file)
		return "", false
	}
	v := volumes[volume]
	switch {
	case v.ConfigMap != nil:
		for _, cm := range c.set.ConfigMaps {
			if cm.Name == v.ConfigMap.Name {
				if data, ok := cm.Data[rel]; ok {
					return data, true
				}
			}
		}
		c.add(where, "%s%s: ConfigMap %s has no key %q", flag, file, v.ConfigMap.Name, rel)
	case v.Secret != nil:
		for _, sec := range c.set.Secrets {
			if sec.Name == v.Secret.SecretName {
				if data, ok := sec.StringData[rel]; ok {
					return data, true
				}
				if data, ok := sec.Data[rel]; ok {
					return string(data), true
				}
			}
		}
		c.add(where, "%s%s: Secret %s has no key %q", flag, file, v.Secret.SecretName, rel)
	default:
		c.add(where, "%s%s is on volume %s, which is neither a ConfigMap nor a Secret", flag, file, volume)
	}
	return "", false
}

// service checks that the Service reaches the server's port.
func (c *checker) service(svc *corev1.Service, d *appsv1.Deployment) {
	where := c.set.where("Service", svc.Name)
	if len(svc.Spec.Selector) == 0 || !labels.SelectorFromSet(svc.Spec.Selector).Matches(labels.Set(d.Spec.Template.Labels)) {
		c.add(where, "selector does not select the pods of Deployment %s", d.Name)
	}
	for _, p := range svc.Spec.Ports {
		if !podHasPort(&d.Spec.Template.Spec, p.TargetPort) {
			c.add(where, "port %s: targetPort %s is not a port of the pods", p.Name, p.TargetPort.String())
		}
	}
}

// selects reports whether sel selects a pod with these labels.
func selects(sel *metav1.LabelSelector, lbls map[string]string) bool {
	if sel == nil {
		return false
	}
	s, err := metav1.LabelSelectorAsSelector(sel)
	return err == nil && !s.Empty() && s.Matches(labels.Set(lbls))
}

func containerHasPort(ct *corev1.Container, port intstr.IntOrString) bool {
	return slices.ContainsFunc(ct.Ports, func(p corev1.ContainerPort) bool {
		if port.Type == intstr.String {
			return p.Name == port.StrVal
		}
		return p.ContainerPort == port.IntVal
	})
}

func podHasPort(pod *corev1.PodSpec, port intstr.IntOrString) bool {
	return slices.ContainsFunc(pod.Containers, func(ct corev1.Container) bool { return containerHasPort(&ct, port) })
}

// underMount finds the volume mounted at a directory holding p, and p
// relative to it.
func underMount(ct *corev1.Container, p string) (volume, rel string, ok bool) {
	p = path.Clean(p)
	for _, m := range ct.VolumeMounts {
		mp := path.Clean(m.MountPath)
		if r, found := strings.CutPrefix(p, mp+"/"); found {
			return m.Name, r, true
		}
	}
	return "", "", false
}

func mountOf(ct *corev1.Container, volume string) corev1.VolumeMount {
	i := slices.IndexFunc(ct.VolumeMounts, func(m corev1.VolumeMount) bool { return m.Name == volume })
	return ct.VolumeMounts[i]
}

// syncsInto reports whether ct is a git-sync whose --root is rel inside
// its own mount of volume.
func syncsInto(ct *corev1.Container, volume, rel string) bool {
	for _, a := range ct.Args {
		if root, ok := strings.CutPrefix(a, "--root="); ok {
			if v, r, ok := underMount(ct, root); ok && v == volume && r == rel {
				return true
			}
		}
	}
	return false
}
