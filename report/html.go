package report

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"html/template"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
)

// Page is what index.html and index.md show: the runs read, the summary table, the figures and
// the sweep's manifest. Figure and table files are linked by base name, so the pages belong in
// the directory the files were written to.
type Page struct {
	Title      string
	Sources    []string // the runs.parquet files read
	Runs       int
	Points     int
	Table      Table
	TableFiles []string // the table written in other formats (summary.md, summary.csv, ...)
	Figures    []Figure
	Claims     []ClaimSection // a preset's claims with their verdicts, when the runs are its experiment's
	Manifests  []ManifestText
}

// ManifestText is a sweep's manifest.json as the pages show it: the grid behind the runs.
type ManifestText struct {
	Path string
	Text string // indented JSON, or the file as it is when it is not JSON
}

// ReadManifestText reads the manifest.json in the directory of a runs file as text; ok is false
// when there is none. The pages show it as it is, whatever fields the sweep wrote.
func ReadManifestText(runsPath string) (m ManifestText, ok bool, err error) {
	path := filepath.Join(filepath.Dir(runsPath), "manifest.json")
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return ManifestText{}, false, nil
	}
	if err != nil {
		return ManifestText{}, false, err
	}
	var out bytes.Buffer
	if json.Indent(&out, data, "", "  ") != nil {
		out.Reset()
		out.Write(data)
	}
	return ManifestText{Path: path, Text: strings.TrimSpace(out.String())}, true, nil
}

// WriteMarkdown writes the page as Markdown: the table inline, the figures as images (SVG where
// written, else PNG) with links to every format.
func (pg Page) WriteMarkdown(w io.Writer) error {
	var b bytes.Buffer
	fmt.Fprintf(&b, "# %s\n\n%s\n\n## Summary\n\n", pg.Title, pg.sourceLine("`"))
	if err := pg.Table.WriteMarkdown(&b); err != nil {
		return err
	}
	if len(pg.TableFiles) > 0 {
		fmt.Fprintf(&b, "\nAlso as %s.\n", markdownLinks(pg.TableFiles))
	}
	if err := WriteClaimsMarkdown(&b, pg.Claims); err != nil {
		return err
	}
	if len(pg.Figures) > 0 {
		b.WriteString("\n## Figures\n")
	}
	for _, f := range pg.Figures {
		fmt.Fprintf(&b, "\n### %s\n\n", f.Name)
		if img := f.image(); img != "" {
			fmt.Fprintf(&b, "![%s](%s)\n\n", f.Name, filepath.Base(img))
		}
		fmt.Fprintf(&b, "%s Files: %s.\n", f.Caption, markdownLinks(f.Files))
	}
	for _, m := range pg.Manifests {
		fmt.Fprintf(&b, "\n## Sweep manifest\n\n`%s`:\n\n```json\n%s\n```\n", m.Path, m.Text)
	}
	_, err := w.Write(b.Bytes())
	return err
}

func markdownLinks(paths []string) string {
	links := make([]string, len(paths))
	for i, p := range paths {
		links[i] = fmt.Sprintf("[%s](%s)", filepath.Base(p), filepath.Base(p))
	}
	return strings.Join(links, ", ")
}

// image is the file a page shows for the figure: SVG (sharp at any size), else PNG; "" when
// only PDF was written.
func (f Figure) image() string {
	for _, ext := range []string{".svg", ".png"} {
		if i := slices.IndexFunc(f.Files, func(p string) bool { return strings.EqualFold(filepath.Ext(p), ext) }); i >= 0 {
			return f.Files[i]
		}
	}
	return ""
}

func (pg Page) sourceLine(quote string) string {
	srcs := make([]string, len(pg.Sources))
	for i, s := range pg.Sources {
		srcs[i] = quote + s + quote
	}
	return fmt.Sprintf("%d runs in %d grid points, from %s.", pg.Runs, pg.Points, strings.Join(srcs, ", "))
}

// WriteHTML writes the page as one self-contained HTML file: the figures' SVG files inline (or
// their PNG as a data URI when no SVG was written), so the page opens anywhere and can be
// mailed as is.
func (pg Page) WriteHTML(w io.Writer) error {
	var fonts, svgs []string
	type fig struct {
		Figure
		SVG   template.HTML
		PNG   template.URL
		Links []string
	}
	figs := make([]fig, len(pg.Figures))
	for i, f := range pg.Figures {
		figs[i] = fig{Figure: f}
		for _, p := range f.Files {
			figs[i].Links = append(figs[i].Links, filepath.Base(p))
		}
		img := f.image()
		if img == "" {
			continue
		}
		data, err := os.ReadFile(img)
		if err != nil {
			return err
		}
		if strings.EqualFold(filepath.Ext(img), ".svg") {
			figs[i].SVG = template.HTML(inlineSVG(string(data), &fonts)) // our own file, written by SaveFigure
			svgs = append(svgs, string(data))
		} else {
			figs[i].PNG = template.URL("data:image/png;base64," + base64.StdEncoding.EncodeToString(data))
		}
	}
	// The SVG files name their fonts; the page embeds each face they name once.
	for _, rule := range pageFontFaces(svgs) {
		if !slices.Contains(fonts, rule) {
			fonts = append(fonts, rule)
		}
	}
	tables := make([]string, len(pg.TableFiles))
	for i, p := range pg.TableFiles {
		tables[i] = filepath.Base(p)
	}
	return pageTemplate().Execute(w, map[string]any{
		"Title": pg.Title, "Sources": pg.sourceLine(""), "Table": pg.Table, "TableFiles": tables,
		"Figures": figs, "Manifests": pg.Manifests, "Claims": pg.Claims, "ClaimsHeading": claimsHeading, "ClaimsIntro": claimsIntro, "Fonts": template.CSS(strings.Join(fonts, "\n")),
	})
}

// fontFace matches an @font-face rule, with its embedded font data.
var fontFace = regexp.MustCompile(`@font-face\{[^}]*\}`)

// inlineSVG prepares an SVG file for an HTML page: it drops the XML prolog and moves the
// @font-face rules into fonts, each once. Font rules in an inline SVG apply to the whole page,
// and every figure embedding them (SVGs written before SaveFigure stopped embedding fonts)
// embeds the same fonts (about 500 KB each), so the page keeps one copy.
func inlineSVG(svg string, fonts *[]string) string {
	if i := strings.Index(svg, "<svg"); i >= 0 {
		svg = svg[i:]
	}
	start, end := strings.Index(svg, "<style>"), strings.Index(svg, "</style>")
	if start < 0 || end < start {
		return svg
	}
	style := svg[start:end]
	for _, rule := range fontFace.FindAllString(style, -1) {
		if !slices.Contains(*fonts, rule) {
			*fonts = append(*fonts, rule)
		}
	}
	return svg[:start] + fontFace.ReplaceAllString(style, "") + svg[end:]
}

func pageTemplate() *template.Template {
	return template.Must(template.New("page").Parse(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>{{.Title}}</title>
<style>
body { font-family: "Liberation Sans", Arial, sans-serif; max-width: 64em; margin: 2em auto; padding: 0 1em; color: #222; }
table { border-collapse: collapse; font-size: 0.9em; }
caption { text-align: left; padding-bottom: 0.4em; }
th, td { padding: 0.2em 0.6em; border-bottom: 1px solid #ddd; text-align: left; white-space: nowrap; }
th.r, td.r { text-align: right; }
table.claims td { white-space: normal; vertical-align: top; }
figure { margin: 2em 0; }
figure svg, figure img { width: 100%; max-width: 34em; height: auto; }
figcaption { max-width: 40em; font-size: 0.9em; }
pre { background: #f6f6f6; padding: 0.8em; overflow-x: auto; }
{{.Fonts}}
</style>
</head>
<body>
<h1>{{.Title}}</h1>
<p>{{.Sources}}</p>
<h2>Summary</h2>
<table>
{{with .Table}}{{if .Caption}}<caption>{{.Caption}}</caption>{{end}}
<thead><tr>{{range .Columns}}<th{{if .Right}} class="r"{{end}}>{{.Header}}</th>{{end}}</tr></thead>
<tbody>
{{range .Rows}}<tr>{{range $i, $c := .}}<td{{if (index $.Table.Columns $i).Right}} class="r"{{end}}>{{$c.Text}}</td>{{end}}</tr>
{{end}}</tbody>{{end}}
</table>
{{range .Table.Notes}}<p>{{.}}</p>
{{end}}{{if .TableFiles}}<p>Also as {{range $i, $f := .TableFiles}}{{if $i}}, {{end}}<a href="{{$f}}">{{$f}}</a>{{end}}.</p>
{{end}}{{if .Claims}}<h2 id="claims">{{.ClaimsHeading}}</h2>
<p>{{.ClaimsIntro}}</p>
{{range .Claims}}<h3>{{.Title}}</h3>
<table class="claims">
<thead><tr><th>claim</th><th>the paper</th><th>at</th><th>paper</th><th>ours (95% interval)</th><th>verdict</th></tr></thead>
<tbody>
{{range .Rows}}<tr><td><code>{{.ID}}</code></td><td>{{.Wording}} ({{.Section}})</td><td>{{.Metric}}, {{.Level}}</td><td>{{.Paper}}</td><td>{{.Ours}}</td><td><strong>{{.Verdict}}</strong>: {{.Why}}</td></tr>
{{end}}</tbody>
</table>
<p>The rules of the verdicts:</p>
<ul>
{{range .Rules}}<li>{{.}}.</li>
{{end}}</ul>
{{end}}{{end}}{{if .Figures}}<h2>Figures</h2>
{{end}}{{range .Figures}}<figure id="{{.Name}}">
{{if .SVG}}{{.SVG}}{{else if .PNG}}<img src="{{.PNG}}" alt="{{.Name}}">{{end}}
<figcaption>{{.Caption}} Files: {{range $i, $f := .Links}}{{if $i}}, {{end}}<a href="{{$f}}">{{$f}}</a>{{end}}.</figcaption>
</figure>
{{end}}{{range .Manifests}}<h2>Sweep manifest</h2>
<p><code>{{.Path}}</code></p>
<pre>{{.Text}}</pre>
{{end}}</body>
</html>
`))
}
