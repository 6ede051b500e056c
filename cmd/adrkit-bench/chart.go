package main

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"math"
	"strings"
	"text/template"
)

// The chart is drawn by hand: a log-log plot is a few lines of SVG, not
// worth a plotting dependency.

const (
	chartW, chartH                         = 760, 460
	plotLeft, plotRight, plotTop, plotBott = 72, 560, 48, 400
)

// palette colours the tools in workload order; the floor is black and
// dashed.
var palette = []string{"#1b6ac9", "#d9480f", "#2b8a3e", "#9c36b5", "#e67700", "#0b7285"}

type chartData struct {
	W, H                     int
	Left, Right, Top, Bottom int
	Title, XLabel, YLabel    string
	XTicks, YTicks           []chartTick
	Series                   []chartSeries
}

type chartTick struct {
	Pos   float64
	Label string
	Major bool
}

type chartSeries struct {
	Name, Color, Dash string
	Points            string
	Dots              []chartPoint
	LegendY           float64
}

type chartPoint struct{ X, Y float64 }

// chartTemplate's add and sub take the pipeline value last, so
// "{{.Right | sub .Left}}" is Right-Left; half halves.
var chartTemplate = template.Must(template.New("chart").Funcs(template.FuncMap{
	"esc":  xmlEscape,
	"add":  func(a, b int) int { return a + b },
	"sub":  func(a, b int) int { return b - a },
	"half": func(a int) int { return a / 2 },
}).Parse(
	`<svg xmlns="http://www.w3.org/2000/svg" width="{{.W}}" height="{{.H}}" viewBox="0 0 {{.W}} {{.H}}" font-family="sans-serif" font-size="12">
<rect width="{{.W}}" height="{{.H}}" fill="#fff"/>
<text x="{{.Left}}" y="24" font-size="15" font-weight="bold">{{esc .Title}}</text>
{{- range .YTicks}}
<line x1="{{$.Left}}" x2="{{$.Right}}" y1="{{printf "%.1f" .Pos}}" y2="{{printf "%.1f" .Pos}}" stroke="{{if .Major}}#ccc{{else}}#eee{{end}}"/>
{{- if .Label}}
<text x="{{$.Left | add -6}}" y="{{printf "%.1f" .Pos}}" dy="4" text-anchor="end">{{esc .Label}}</text>
{{- end}}
{{- end}}
{{- range .XTicks}}
<line x1="{{printf "%.1f" .Pos}}" x2="{{printf "%.1f" .Pos}}" y1="{{$.Top}}" y2="{{$.Bottom}}" stroke="{{if .Major}}#ccc{{else}}#eee{{end}}"/>
{{- if .Label}}
<text x="{{printf "%.1f" .Pos}}" y="{{$.Bottom | add 18}}" text-anchor="middle">{{esc .Label}}</text>
{{- end}}
{{- end}}
<rect x="{{.Left}}" y="{{.Top}}" width="{{.Right | sub .Left}}" height="{{.Bottom | sub .Top}}" fill="none" stroke="#888"/>
<text x="{{.Right | sub .Left | half | add .Left}}" y="{{.H | add -14}}" text-anchor="middle">{{esc .XLabel}}</text>
<text transform="translate(18 {{.Bottom | sub .Top | half | add .Top}}) rotate(-90)" text-anchor="middle">{{esc .YLabel}}</text>
{{- range .Series}}
<polyline points="{{.Points}}" fill="none" stroke="{{.Color}}" stroke-width="2"{{if .Dash}} stroke-dasharray="{{.Dash}}"{{end}}/>
{{- $c := .Color}}
{{- range .Dots}}
<circle cx="{{printf "%.1f" .X}}" cy="{{printf "%.1f" .Y}}" r="3.5" fill="{{$c}}"/>
{{- end}}
<line x1="{{$.Right | add 16}}" x2="{{$.Right | add 44}}" y1="{{printf "%.1f" .LegendY}}" y2="{{printf "%.1f" .LegendY}}" stroke="{{.Color}}" stroke-width="2"{{if .Dash}} stroke-dasharray="{{.Dash}}"{{end}}/>
<text x="{{$.Right | add 50}}" y="{{printf "%.1f" .LegendY}}" dy="4">{{esc .Name}}</text>
{{- end}}
</svg>
`))

// chart draws median latency against corpus size, log-log, one line per
// tool and the floor.
func (r *Results) chart() ([]byte, error) {
	d := chartData{
		W: chartW, H: chartH, Left: plotLeft, Right: plotRight, Top: plotTop, Bottom: plotBott,
		Title:  "adrkit-mcp tools/call round trip vs corpus size (median, log-log)",
		XLabel: "records in the corpus",
		YLabel: "milliseconds per call",
	}
	lines := r.lines()
	if len(r.Sizes) == 0 {
		return nil, fmt.Errorf("no sizes to chart")
	}
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, l := range lines {
		for _, s := range r.Sizes {
			if v := l.at(s); v > 0 {
				lo, hi = math.Min(lo, v), math.Max(hi, v)
			}
		}
	}
	if math.IsInf(lo, 0) {
		lo, hi = 1, 10
	}
	yLo, yHi := math.Floor(math.Log10(lo)), math.Ceil(math.Log10(hi))
	if yHi == yLo {
		yHi++
	}
	xLo, xHi := math.Floor(math.Log10(float64(r.Sizes[0].N))), math.Ceil(math.Log10(float64(r.Sizes[len(r.Sizes)-1].N)))
	if xHi == xLo {
		xHi++
	}
	xPos := func(n float64) float64 {
		return plotLeft + (math.Log10(n)-xLo)/(xHi-xLo)*(plotRight-plotLeft)
	}
	yPos := func(v float64) float64 {
		return plotBott - (math.Log10(v)-yLo)/(yHi-yLo)*(plotBott-plotTop)
	}
	d.XTicks = logTicks(xLo, xHi, xPos, func(v float64) string { return fmt.Sprintf("%g", v) })
	d.YTicks = logTicks(yLo, yHi, yPos, func(v float64) string { return fmt.Sprintf("%g", v) })

	for i, l := range lines {
		sr := chartSeries{Name: l.name, LegendY: float64(plotTop + 10 + 22*i)}
		if i == 0 {
			sr.Color, sr.Dash = "#000", "6 4"
		} else {
			sr.Color = palette[(i-1)%len(palette)]
		}
		var pts []string
		for _, s := range r.Sizes {
			v := l.at(s)
			if v <= 0 {
				continue
			}
			p := chartPoint{X: xPos(float64(s.N)), Y: yPos(v)}
			sr.Dots = append(sr.Dots, p)
			pts = append(pts, fmt.Sprintf("%.1f,%.1f", p.X, p.Y))
		}
		sr.Points = strings.Join(pts, " ")
		d.Series = append(d.Series, sr)
	}
	var b bytes.Buffer
	if err := chartTemplate.Execute(&b, d); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// logTicks are decade lines (labelled) and 2× and 5× lines between.
func logTicks(lo, hi float64, pos func(float64) float64, label func(float64) string) []chartTick {
	var out []chartTick
	for e := lo; e <= hi; e++ {
		base := math.Pow(10, e)
		out = append(out, chartTick{Pos: pos(base), Label: label(base), Major: true})
		if e == hi {
			break
		}
		for _, m := range []float64{2, 5} {
			out = append(out, chartTick{Pos: pos(m * base)})
		}
	}
	return out
}

func xmlEscape(s string) string {
	var b bytes.Buffer
	_ = xml.EscapeText(&b, []byte(s))
	return b.String()
}
