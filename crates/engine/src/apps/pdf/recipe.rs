//! pdf recipes: forms, text extraction, page export, annotations and Evince's default view.

use serde_json::{json, Map, Value};

use crate::taskgen::recipes::{and_list, Ctx, Draft, Recipe};

const TOPICS: [&str; 6] = [
    "Quarterly Report",
    "Safety Manual",
    "Course Syllabus",
    "Lease Agreement",
    "Press Kit",
    "Field Guide",
];

/// A document of `n` pages (the shape the templates' setups turn into a PDF with PyMuPDF).
fn document(ctx: &mut Ctx<'_>, n: usize) -> (String, Value) {
    let topic = TOPICS[ctx.idx(TOPICS.len())];
    let stem = format!(
        "{}-{}",
        topic.to_lowercase().replace(' ', "-"),
        ctx.serial % 1000
    );
    let code: String = stem.chars().take(3).collect::<String>().to_uppercase();
    let pages: Vec<Value> = (1..=n)
        .map(|i| {
            json!({"heading": format!("{topic} - Part {i}"), "lines": [
                format!("Section {i}.1 covers the {} figures for week {}.", topic.to_lowercase(), 10 + i),
                format!("Reference code {code}-{:03} is filed with the records office.", 100 + 7 * i),
                format!("Next review of part {i} is due on 2025-0{}-15.", i + 1),
            ]})
        })
        .collect();
    let path = format!("Documents/{stem}.pdf");
    let pdf = json!({"path": path, "pages": pages, "metadata": {"author": "Dana Ruiz", "subject": topic}});
    (stem, pdf)
}

/// Extract one page's text into a one-page PDF of its own (Evince writes PDFs, not text files).
pub fn extract(ctx: &mut Ctx<'_>) -> Option<Draft> {
    let (stem, pdf) = document(ctx, 4);
    let page = 1 + ctx.idx(4);
    let out = format!("Documents/{stem}-page{page}.pdf");
    let core = format!(
        "Extract page {page} of ~/{}, text and all, into a one-page PDF of its own, ~/{out}.",
        pdf["path"].as_str().unwrap_or_default()
    );
    let context = format!("The setup makes a 4-page PDF and opens it in Evince (Print > Print to File with the page as the range). Ground truth: page {page}'s lines, and no other page's, in the text of ~/{out}. Checkpoints: one per line (0.8 split), no other page's heading (0.2).");
    let slots = json!({"pdf": pdf, "page": page, "out": out, "remove": [out]});
    Some(ctx.draft(0, core, context, "pdf_extract", slots, vec!["pdf"]))
}

/// Export a page range as a new PDF.
pub fn export(ctx: &mut Ctx<'_>) -> Option<Draft> {
    let (stem, pdf) = document(ctx, 5);
    let len = ctx.count().min(3);
    let first = 1 + ctx.idx(6 - len);
    let last = first + len - 1;
    let out = format!("Documents/{stem}-p{first}-{last}.pdf");
    let core = format!(
        "Export pages {first} to {last} of ~/{} as a new PDF, ~/{out}.",
        pdf["path"].as_str().unwrap_or_default()
    );
    let context = format!("The setup makes a 5-page PDF and opens it in Evince. Ground truth: pages {first}-{last} in ~/{out}. Checkpoints: page count (0.3), headings (0.7 split).");
    let slots = json!({"pdf": pdf, "pages": [first, last], "out": out, "remove": [out]});
    Some(ctx.draft(0, core, context, "pdf_export", slots, vec!["pdf"]))
}

/// Highlight a phrase or add a note next to it.
pub fn annotate(ctx: &mut Ctx<'_>) -> Option<Draft> {
    let (stem, pdf) = document(ctx, 3);
    let page = 1 + ctx.idx(3);
    let phrase = format!("Next review of part {page}");
    let out = format!("Documents/{stem}-annotated.pdf");
    let src = pdf["path"].as_str().unwrap_or_default().to_string();
    let v = ctx.idx(2);
    let (kind, note, core) = match v {
        0 => ("highlight", "", format!("In the PDF viewer, highlight \"{phrase}\" on page {page} of ~/{src} and save the result as ~/{out}.")),
        _ => ("note", "Confirm the date", format!("In the PDF viewer, add a note saying \"Confirm the date\" next to \"{phrase}\" on page {page} of ~/{src} and save the result as ~/{out}.")),
    };
    let context = format!("The setup makes a 3-page PDF and opens it in Evince. Ground truth: a {kind} annotation at {phrase:?} on page {page} in ~/{out}. Checkpoints: type (0.4), place or text (0.4), pages kept (0.2).");
    let slots = json!({"pdf": pdf, "page": page, "phrase": phrase, "kind": kind, "note": note, "out": out, "remove": [out]});
    Some(ctx.draft(v, core, context, "pdf_annotate", slots, vec!["pdf"]))
}

/// (field name, label, value) of the form fields.
const FIELDS: [(&str, &str, &str); 4] = [
    ("full_name", "Full name", "Rosa Mendel"),
    ("email", "E-mail", "rosa.m@example.test"),
    ("department", "Department", "Logistics"),
    ("start_date", "Start date", "2025-06-02"),
];

/// Fill one to four fields of a form.
pub fn form(ctx: &mut Ctx<'_>) -> Option<Draft> {
    let (stem, mut pdf) = document(ctx, 1);
    let fields: Vec<Value> = FIELDS
        .iter()
        .enumerate()
        .map(|(i, (name, label, _))| json!({"name": name, "label": format!("{label}:"), "y": 260 + 40 * i}))
        .collect();
    pdf["fields"] = Value::Array(fields);
    let n = ctx.count().min(FIELDS.len());
    let start = ctx.idx(FIELDS.len());
    let mut values = Map::new();
    let mut said = Vec::new();
    for i in 0..n {
        let (name, label, value) = FIELDS[(start + i) % FIELDS.len()];
        values.insert(name.into(), json!(value));
        said.push(format!("{label} {value:?}"));
    }
    let out = format!("Documents/{stem}-filled.pdf");
    let core = format!(
        "Fill in the form ~/{} in the PDF viewer ({}) and save the filled form as ~/{out}.",
        pdf["path"].as_str().unwrap_or_default(),
        and_list(&said)
    );
    let context = format!("The setup makes a one-page form with PyMuPDF. Ground truth: {} in ~/{out}. Checkpoints: one per field (0.8 split), document kept (0.2).", Value::Object(values.clone()));
    let slots = json!({"pdf": pdf, "values": values, "out": out, "remove": [out]});
    Some(ctx.draft(0, core, context, "pdf_form", slots, vec!["pdf"]))
}

/// (key, start, goal, what the instruction says) of Evince's default view.
const PREFS: [(&str, &str, &str, &str); 5] = [
    ("dual-page", "false", "true", "show two pages side by side"),
    ("continuous", "true", "false", "show one page at a time"),
    ("inverted-colors", "false", "true", "invert the colours"),
    ("show-sidebar", "false", "true", "show the side pane"),
    ("sizing-mode", "'fit-width'", "'fit-page'", "fit the whole page"),
];

/// One (easy) to several (hard) default view settings.
pub fn pref(ctx: &mut Ctx<'_>) -> Option<Draft> {
    let n = ctx.count().min(PREFS.len());
    let start = ctx.idx(PREFS.len());
    let (mut preset, mut changes, mut said) = (Map::new(), Map::new(), Vec::new());
    for i in 0..n {
        let (key, from, to, phrase) = PREFS[(start + i) % PREFS.len()];
        preset.insert(key.into(), json!(from));
        changes.insert(key.into(), json!(to));
        said.push(phrase.to_string());
    }
    let (_, pdf) = document(ctx, 3);
    let core = format!("By default, Evince should {}.", and_list(&said));
    let context = format!("The setup writes Evince's defaults {} and opens a PDF. Ground truth: {} in ~/.config/glib-2.0/settings/keyfile. Checkpoints: one per key (0.8 split), other defaults kept (0.2).", Value::Object(preset.clone()), Value::Object(changes.clone()));
    let slots = json!({"pdf": pdf, "preset": preset, "changes": changes, "keep": {}});
    Some(ctx.draft(0, core, context, "evince_pref", slots, vec!["pdf"]))
}

/// The pack's recipes by taxonomy `recipe` name.
pub const RECIPES: &[(&str, Recipe)] = &[
    ("pdf_extract", extract),
    ("pdf_export", export),
    ("pdf_annotate", annotate),
    ("pdf_form", form),
    ("pdf_pref", pref),
];
