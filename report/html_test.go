package report

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestInlineSVG: the prolog goes, and font rules move out of the SVG, each kept once however
// many figures carry it.
func TestInlineSVG(t *testing.T) {
	svg := "<?xml version=\"1.0\"?>\n<!-- gen -->\n<svg width=\"1pt\">\n<defs>\n\t<style>\n\t\t@font-face{font-family:\"A\";src:url(data:a)}\n" +
		"\t\t@font-face{font-family:\"B\";src:url(data:b)}\n\t</style>\n</defs>\n<path d=\"M0,0\"/>\n</svg>\n"
	var fonts []string
	first := inlineSVG(svg, &fonts)
	second := inlineSVG(svg, &fonts)
	want := "<svg width=\"1pt\">\n<defs>\n\t<style>\n\t\t\n\t\t\n\t</style>\n</defs>\n<path d=\"M0,0\"/>\n</svg>\n"
	if first != want || second != want {
		t.Errorf("inline SVG:\n%q\nwant:\n%q", first, want)
	}
	if len(fonts) != 2 || fonts[0] != `@font-face{font-family:"A";src:url(data:a)}` {
		t.Errorf("fonts %q", fonts)
	}
	// An SVG without a style element passes through.
	if got := inlineSVG("<svg></svg>", &fonts); got != "<svg></svg>" || len(fonts) != 2 {
		t.Errorf("plain SVG: %q", got)
	}
}

// TestPages writes both pages for a sweep with figures and a manifest.
func TestPages(t *testing.T) {
	dir := t.TempDir()
	a, err := AggregateRuns(gridRuns(figureSweeps()["fairness"], 3), "")
	if err != nil {
		t.Fatal(err)
	}
	figs, err := WriteFigures(a, dir, []string{"svg", "png"})
	if err != nil {
		t.Fatal(err)
	}
	runs := filepath.Join(dir, "runs.parquet")
	if err := os.WriteFile(filepath.Join(dir, "manifest.json"), []byte(`{"grid":{"levels":["25k"]},"note":"<b>"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	m, ok, err := ReadManifestText(runs)
	if err != nil || !ok {
		t.Fatalf("manifest: %v %v", ok, err)
	}
	if _, ok, err := ReadManifestText(filepath.Join(t.TempDir(), "runs.parquet")); ok || err != nil {
		t.Errorf("no manifest: ok %v, %v", ok, err)
	}
	tab := SummaryTable(a)
	tab.Rows[0][0].Text = "PAM<&>" // must come out escaped in HTML
	pg := Page{Title: "report", Sources: []string{runs}, Runs: 24, Points: 8, Table: tab,
		TableFiles: []string{filepath.Join(dir, "summary.csv")}, Figures: figs, Manifests: []ManifestText{m}}

	var h bytes.Buffer
	if err := pg.WriteHTML(&h); err != nil {
		t.Fatal(err)
	}
	html := h.String()
	for _, s := range []string{
		"<!DOCTYPE html>", `<figure id="robustness">`, `<figure id="fairness">`, "PAM&lt;&amp;&gt;",
		`<th class="r">robustness (%)</th>`, `<a href="summary.csv">`, `<a href="fairness.png">`,
		"&#34;levels&#34;: [", "&lt;b&gt;", "24 runs in 8 grid points",
	} {
		if !strings.Contains(html, s) {
			t.Errorf("index.html lacks %q", s)
		}
	}
	// Every figure inline, the XML prolog gone, the embedded font once for the page.
	if n := strings.Count(html, "<svg"); n != len(figs) {
		t.Errorf("%d inline SVGs for %d figures", n, len(figs))
	}
	if strings.Contains(html, "<?xml") || strings.Count(html, "@font-face") != 1 {
		t.Errorf("prolog or %d font rules left", strings.Count(html, "@font-face"))
	}

	var md bytes.Buffer
	if err := pg.WriteMarkdown(&md); err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"# report\n", "![fairness](fairness.svg)", "[fairness.png](fairness.png)", "| name | level |",
		"```json\n{\n  \"grid\": {", "[summary.csv](summary.csv)"} {
		if !strings.Contains(md.String(), s) {
			t.Errorf("index.md lacks %q\n%s", s, md.String())
		}
	}
}

// TestPagePNGOnly: without SVG files the HTML page carries the PNGs as data URIs.
func TestPagePNGOnly(t *testing.T) {
	dir := t.TempDir()
	a, err := AggregateRuns(gridRuns(figureSweeps()["robustness"][:2], 2), "")
	if err != nil {
		t.Fatal(err)
	}
	figs, err := WriteFigures(a, dir, []string{"png"})
	if err != nil {
		t.Fatal(err)
	}
	var h bytes.Buffer
	if err := (Page{Title: "r", Table: SummaryTable(a), Figures: figs}).WriteHTML(&h); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(h.String(), `<img src="data:image/png;base64,iVBOR`) || strings.Contains(h.String(), "<svg") {
		t.Errorf("PNG-only page:\n%.600s", h.String())
	}
}
