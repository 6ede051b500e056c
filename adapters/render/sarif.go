package render

import (
	"net/url"

	"github.com/adrkit/adrkit-go/app"
	"github.com/adrkit/adrkit-go/domain/adr"
)

// The SARIF 2.1.0 log lint writes. Only what code scanning reads is
// filled in: the driver with every rule lint can emit (so a result can
// refer to its rule by index), and one result per finding located in its
// file, relative to the repository root (%SRCROOT%).

// sarifSchemaURI is the OASIS location of the 2.1.0 schema (errata 01).
const sarifSchemaURI = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"

// srcRoot is the uriBaseId every artifact location is relative to: the
// repository root, which is where code scanning resolves paths from.
const srcRoot = "%SRCROOT%"

type sarifLogDoc struct {
	Schema  string     `json:"$schema"`
	Version string     `json:"version"`
	Runs    []sarifRun `json:"runs"`
}

type sarifRun struct {
	Tool    sarifTool     `json:"tool"`
	Results []sarifResult `json:"results"`
}

type sarifTool struct {
	Driver sarifDriver `json:"driver"`
}

type sarifDriver struct {
	Name           string      `json:"name"`
	Version        string      `json:"version,omitempty"`
	InformationURI string      `json:"informationUri,omitempty"`
	Rules          []sarifRule `json:"rules"`
}

type sarifRule struct {
	ID                   string            `json:"id"`
	ShortDescription     sarifMessage      `json:"shortDescription"`
	DefaultConfiguration sarifRuleDefaults `json:"defaultConfiguration"`
	HelpURI              string            `json:"helpUri,omitempty"`
}

type sarifRuleDefaults struct {
	Level string `json:"level"`
}

type sarifMessage struct {
	Text string `json:"text"`
}

type sarifResult struct {
	RuleID     string          `json:"ruleId"`
	RuleIndex  *int            `json:"ruleIndex,omitempty"`
	Level      string          `json:"level"`
	Message    sarifMessage    `json:"message"`
	Locations  []sarifLocation `json:"locations,omitempty"`
	Properties *sarifProps     `json:"properties,omitempty"`
}

type sarifLocation struct {
	PhysicalLocation sarifPhysical `json:"physicalLocation"`
}

type sarifPhysical struct {
	ArtifactLocation sarifArtifact `json:"artifactLocation"`
	Region           *sarifRegion  `json:"region,omitempty"`
}

type sarifArtifact struct {
	URI       string `json:"uri"`
	URIBaseID string `json:"uriBaseId"`
}

type sarifRegion struct {
	StartLine int `json:"startLine"`
}

// sarifProps carries the finding members SARIF has no place for, so that
// a consumer can tell which record and field a result is about.
type sarifProps struct {
	ID      string `json:"adrId,omitempty"`
	Field   string `json:"field,omitempty"`
	Pattern string `json:"pattern,omitempty"`
}

// sarifLevel maps a severity to a SARIF level.
func sarifLevel(sev adr.Severity) string {
	switch sev {
	case adr.SeverityError:
		return "error"
	case adr.SeverityWarn:
		return "warning"
	}
	return "note"
}

func sarifLog(rep *app.LintReport, opts LintOptions) sarifLogDoc {
	return sarifLogOf(rep.Findings, app.LintRules(), opts.Tool)
}

// sarifLogOf is the SARIF log of findings, declaring rules (every rule a
// finding names must be among them to get a ruleIndex). A finding whose
// severity differs from its rule's default gets its own level.
func sarifLogOf(findings []adr.Finding, rules []app.LintRule, tool Tool) sarifLogDoc {
	driver := sarifDriver{
		Name:           tool.Name,
		Version:        tool.Version,
		InformationURI: tool.InformationURI,
		Rules:          make([]sarifRule, len(rules)),
	}
	index := make(map[string]int, len(rules))
	for i, r := range rules {
		index[r.ID] = i
		driver.Rules[i] = sarifRule{
			ID:                   r.ID,
			ShortDescription:     sarifMessage{Text: r.Summary},
			DefaultConfiguration: sarifRuleDefaults{Level: sarifLevel(r.Severity)},
		}
		if tool.InformationURI != "" {
			driver.Rules[i].HelpURI = tool.InformationURI + "/blob/main/docs/cli.md#lint-rules"
		}
	}
	results := make([]sarifResult, 0, len(findings))
	for _, f := range findings {
		res := sarifResult{
			RuleID:  f.Rule,
			Level:   sarifLevel(f.Severity),
			Message: sarifMessage{Text: messageWithField(f)},
		}
		if i, ok := index[f.Rule]; ok {
			res.RuleIndex = &i
		}
		if f.Path != "" {
			loc := sarifLocation{PhysicalLocation: sarifPhysical{
				ArtifactLocation: sarifArtifact{URI: artifactURI(f.Path), URIBaseID: srcRoot},
			}}
			if f.Line > 0 {
				loc.PhysicalLocation.Region = &sarifRegion{StartLine: f.Line}
			}
			res.Locations = []sarifLocation{loc}
		}
		if f.ID != "" || f.Field != "" || f.Pattern != "" {
			res.Properties = &sarifProps{ID: f.ID, Field: f.Field, Pattern: f.Pattern}
		}
		results = append(results, res)
	}
	return sarifLogDoc{
		Schema:  sarifSchemaURI,
		Version: "2.1.0",
		Runs:    []sarifRun{{Tool: sarifTool{Driver: driver}, Results: results}},
	}
}

// artifactURI turns a repository-relative path into a relative URI
// reference: "/" stays the separator, anything a URI path cannot hold
// (a space, "%", "#", "?") is percent-encoded.
func artifactURI(p string) string {
	return (&url.URL{Path: p}).EscapedPath()
}
