package io.github.stripedpool.bench.report;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The Markdown page being written and the charts it links to. Numbered sections are numbered
 * here, in the order they are written, so that a scenario missing from a run leaves no gap.
 */
final class Page {
    final StringBuilder md = new StringBuilder();
    /** File name to SVG text. */
    final Map<String, String> charts = new LinkedHashMap<>();
    private int sections;

    Page add(Object text) {
        md.append(text);
        return this;
    }

    /** A numbered {@code ##} heading; returns its number, for cross references. */
    int section(String title) {
        sections++;
        md.append("## ").append(sections).append(". ").append(title).append("\n\n");
        return sections;
    }

    /** A Markdown table of figures: a header row, then rows; the first column left-aligned, the others right. */
    void table(List<String> header, List<List<String>> rows) {
        table(header, rows, "---:|");
    }

    /** A Markdown table of text: every column left-aligned. */
    void textTable(List<String> header, List<List<String>> rows) {
        table(header, rows, "---|");
    }

    private void table(List<String> header, List<List<String>> rows, String alignment) {
        md.append("| ").append(String.join(" | ", header)).append(" |\n|---|");
        for (int i = 1; i < header.size(); i++) {
            md.append(alignment);
        }
        md.append('\n');
        for (List<String> row : rows) {
            md.append("| ").append(String.join(" | ", row)).append(" |\n");
        }
        md.append('\n');
    }

    /** Bars from 0 (throughputs, counts). @param series implementation keys or plain labels */
    void chart(String file, String title, String axis, List<String> groups, List<String> series,
            double[][] values) {
        charts.put(file, Chart.bars(title, axis, groups, labels(series), colours(series), values));
        link(file, title);
    }

    /** Ratio bars drawn from 1, left for losses and right for wins, with their ranges. */
    void ratioChart(String file, String title, String axis, List<String> groups, List<String> series,
            Ratio[][] values) {
        charts.put(file, Chart.ratios(title, axis, groups, labels(series), colours(series), values));
        link(file, title);
    }

    private void link(String file, String title) {
        md.append("![").append(title).append("](benchmarks/").append(file).append(")\n\n");
    }

    private static List<String> labels(List<String> series) {
        List<String> out = new ArrayList<>();
        series.forEach(s -> out.add(Names.of(s)));
        return out;
    }

    /** Each implementation keeps its colour in every chart. */
    private static List<String> colours(List<String> series) {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < series.size(); i++) {
            int known = Names.ORDER.indexOf(series.get(i));
            out.add(Chart.colour(known >= 0 ? known : Names.ORDER.size() + i));
        }
        return out;
    }
}
