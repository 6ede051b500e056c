// Command validate checks the Kubernetes manifests of deploy/kubernetes
// offline, with no cluster: every document is decoded strictly into its
// Kubernetes API type (k8s.io/api), then checked for what the deployment
// promises and for how its pieces fit together, the config and token
// files included, read by adrkit-mcp's own parsers. It lives in a module
// of its own so that the Kubernetes API types stay out of the main
// go.mod.
//
// Usage: go run . [DIR]   (DIR defaults to the parent directory, the
// manifests). Exit status 1 when anything is wrong.
package main

import (
	"fmt"
	"os"
)

func main() {
	dir := ".."
	if len(os.Args) > 1 {
		dir = os.Args[1]
	}
	set, err := Load(dir)
	if err != nil {
		fmt.Fprintln(os.Stderr, "validate:", err)
		os.Exit(1)
	}
	problems := Check(set)
	for _, p := range problems {
		fmt.Fprintln(os.Stderr, p)
	}
	if len(problems) > 0 {
		fmt.Fprintf(os.Stderr, "validate: %d problems in %s\n", len(problems), dir)
		os.Exit(1)
	}
	fmt.Printf("validate: %s: %d Deployment, %d Service, %d ConfigMap, %d Secret, %d NetworkPolicy, %d PodDisruptionBudget, all valid\n",
		dir, len(set.Deployments), len(set.Services), len(set.ConfigMaps), len(set.Secrets), len(set.NetworkPolicies), len(set.PDBs))
}
