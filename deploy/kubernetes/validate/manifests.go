package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	networkingv1 "k8s.io/api/networking/v1"
	policyv1 "k8s.io/api/policy/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/yaml"
)

// Set is every object of the manifests, decoded into the Kubernetes API
// types, with the file each came from.
type Set struct {
	Deployments     []*appsv1.Deployment
	Services        []*corev1.Service
	ConfigMaps      []*corev1.ConfigMap
	Secrets         []*corev1.Secret
	NetworkPolicies []*networkingv1.NetworkPolicy
	PDBs            []*policyv1.PodDisruptionBudget

	// files maps "Kind/name" to the file that holds the object.
	files map[string]string
}

// kinds are the objects the manifests may hold, by apiVersion and kind:
// each decodes into its API type, and anything else is refused.
var kinds = map[string]func(*Set) any{
	"apps/v1 Deployment":                 into(func(s *Set) *[]*appsv1.Deployment { return &s.Deployments }),
	"v1 Service":                         into(func(s *Set) *[]*corev1.Service { return &s.Services }),
	"v1 ConfigMap":                       into(func(s *Set) *[]*corev1.ConfigMap { return &s.ConfigMaps }),
	"v1 Secret":                          into(func(s *Set) *[]*corev1.Secret { return &s.Secrets }),
	"networking.k8s.io/v1 NetworkPolicy": into(func(s *Set) *[]*networkingv1.NetworkPolicy { return &s.NetworkPolicies }),
	"policy/v1 PodDisruptionBudget":      into(func(s *Set) *[]*policyv1.PodDisruptionBudget { return &s.PDBs }),
}

// into makes a new object of type T, adds it to the Set's list that list
// names, and returns it for decoding.
func into[T any](list func(*Set) *[]*T) func(*Set) any {
	return func(s *Set) any {
		o := new(T)
		l := list(s)
		*l = append(*l, o)
		return o
	}
}

// Load decodes every *.yaml file of dir, in name order, each document of
// each file strictly: an unknown field, a repeated key or a value of the
// wrong type is an error, as it would be for the API server (which would
// otherwise drop the field without a word).
func Load(dir string) (*Set, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.yaml"))
	if err != nil {
		return nil, err
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("no *.yaml file in %s", dir)
	}
	slices.Sort(files)
	s := &Set{files: map[string]string{}}
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			return nil, err
		}
		if err := s.add(filepath.Base(file), data); err != nil {
			return nil, err
		}
	}
	return s, nil
}

// add decodes the documents of one file.
func (s *Set) add(file string, data []byte) error {
	for i, doc := range splitDocuments(data) {
		var tm metav1.TypeMeta
		if err := yaml.Unmarshal(doc, &tm); err != nil {
			return fmt.Errorf("%s, document %d: %w", file, i+1, err)
		}
		if tm.APIVersion == "" && tm.Kind == "" {
			if isBlank(doc) {
				continue
			}
			return fmt.Errorf("%s, document %d: no apiVersion and kind", file, i+1)
		}
		newObject, ok := kinds[tm.APIVersion+" "+tm.Kind]
		if !ok {
			return fmt.Errorf("%s, document %d: %s %s is not a kind these manifests use", file, i+1, tm.APIVersion, tm.Kind)
		}
		obj := newObject(s)
		if err := yaml.UnmarshalStrict(doc, obj); err != nil {
			return fmt.Errorf("%s, document %d (%s): %w", file, i+1, tm.Kind, err)
		}
		key := tm.Kind + "/" + obj.(metav1.Object).GetName()
		if prev, dup := s.files[key]; dup {
			return fmt.Errorf("%s: %s is also defined in %s", file, key, prev)
		}
		s.files[key] = file
	}
	return nil
}

// splitDocuments splits a YAML stream on its "---" lines.
func splitDocuments(data []byte) [][]byte {
	var docs [][]byte
	var cur bytes.Buffer
	for _, line := range bytes.SplitAfter(data, []byte("\n")) {
		if strings.TrimRight(string(line), " \r\n") == "---" {
			docs = append(docs, bytes.Clone(cur.Bytes()))
			cur.Reset()
			continue
		}
		cur.Write(line)
	}
	return append(docs, cur.Bytes())
}

// isBlank reports whether a document holds only comments and blank lines.
func isBlank(doc []byte) bool {
	for _, line := range strings.Split(string(doc), "\n") {
		if t := strings.TrimSpace(line); t != "" && !strings.HasPrefix(t, "#") {
			return false
		}
	}
	return true
}

// where names an object and its file for a problem.
func (s *Set) where(kind, name string) string {
	return fmt.Sprintf("%s (%s/%s)", s.files[kind+"/"+name], kind, name)
}
