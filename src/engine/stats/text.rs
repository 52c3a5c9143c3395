//! Instruction text analysis for Appendix F: word counts, the first imperative verb, app mentions.

/// Words before the real verb that are skipped ("I want to", "Please", "Could you"...).
const FILLERS: &[&str] = &[
    "i", "we", "want", "would", "like", "need", "you", "to", "please", "kindly", "can", "could",
    "will", "help", "me", "us", "now", "first", "then", "also", "just", "go", "ahead", "and",
    "hey", "hi", "ok", "okay", "so", "let's", "lets", "let", "quickly", "simply", "i'd", "i'm",
    "we'd", "must", "should", "try", "a", "the", "in", "on",
];

/// Words that cannot be an imperative verb; an instruction starting with them has no verb found
/// before them (we stop rather than guess).
const STOPPERS: &[&str] = &[
    "my", "our", "your", "this", "that", "there", "here", "it", "is", "are",
];

/// Number of whitespace-separated words.
pub fn word_count(s: &str) -> usize {
    s.split_whitespace().count()
}

fn normalise(word: &str) -> String {
    word.trim_matches(|c: char| !c.is_alphanumeric() && c != '\'')
        .to_lowercase()
}

/// The first imperative verb of an instruction, skipping filler clauses: in
/// "Please open report.xlsx" and "I want to open report.xlsx" it is `open`. Looks only at the first
/// sentence; `None` if it starts with something else (e.g. "My report is...").
pub fn first_verb(instruction: &str) -> Option<String> {
    let first_sentence = instruction
        .split(['.', '!', '?', '\n', ':', ';'])
        .find(|s| !s.trim().is_empty())?;
    for raw in first_sentence.split_whitespace().take(12) {
        let w = normalise(raw);
        if w.is_empty() || FILLERS.contains(&w.as_str()) {
            continue;
        }
        if STOPPERS.contains(&w.as_str()) || !w.chars().all(|c| c.is_ascii_alphabetic()) {
            return None;
        }
        return Some(w);
    }
    None
}

/// Short app names and the instruction keywords that reveal them (F.1.4: "Pairs are detected by
/// keyword matches in the task instruction").
const APP_KEYWORDS: &[(&str, &[&str])] = &[
    (
        "calc",
        &[".xlsx", ".xls", ".ods", ".csv", "calc", "spreadsheet"],
    ),
    (
        "writer",
        &[".docx", ".doc", ".odt", "writer", "word document"],
    ),
    (
        "impress",
        &[".pptx", ".odp", "impress", "slide", "presentation"],
    ),
    ("pdf", &[".pdf", "pdf"]),
    (
        "terminal",
        &["terminal", "bash", "shell command", "command line"],
    ),
    ("vscode", &["vs code", "vscode", "visual studio code"]),
    (
        "files", // not the app: an Appendix F category
        &["file manager", "nautilus", "files app", "folder"],
    ),
    ("gimp", &["gimp"]),
    ("thunderbird", &["thunderbird"]),
    ("chrome", &["chrome", "browser"]),
];

/// Maps a stored app label to its short name (`libreoffice_calc` -> `calc`).
pub fn short_app(label: &str) -> String {
    let l = label.to_lowercase();
    let l = l.strip_prefix("libreoffice_").unwrap_or(&l);
    match l {
        "vs_code" | "code" | "visual_studio_code" => "vscode".into(),
        "os" | "shell" | "bash" => "terminal".into(),
        "nautilus" | "file_manager" => "files".into(), // not the app: a category
        "google_chrome" | "browser" => "chrome".into(),
        other => other.to_string(),
    }
}

/// Apps mentioned in an instruction (sorted, unique).
pub fn apps_mentioned(instruction: &str) -> Vec<String> {
    let text = instruction.to_lowercase();
    APP_KEYWORDS
        .iter()
        .filter(|(_, keys)| keys.iter().any(|k| text.contains(k)))
        .map(|(app, _)| app.to_string())
        .collect()
}

/// Nearest-rank percentile of a sorted slice (`p` in 0..=100).
pub fn percentile(sorted: &[usize], p: f64) -> usize {
    if sorted.is_empty() {
        return 0;
    }
    let rank = ((p / 100.0) * sorted.len() as f64).ceil() as usize;
    sorted[rank.clamp(1, sorted.len()) - 1]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn verbs_skip_fillers() {
        assert_eq!(
            first_verb("Please open report.xlsx and freeze row 1").as_deref(),
            Some("open")
        );
        assert_eq!(
            first_verb("I want to create a new slide.").as_deref(),
            Some("create")
        );
        assert_eq!(
            first_verb("Could you please set the margin").as_deref(),
            Some("set")
        );
        assert_eq!(first_verb("My report is broken. Fix it").as_deref(), None);
        assert_eq!(first_verb("  ").as_deref(), None);
    }

    #[test]
    fn apps_and_percentiles() {
        assert_eq!(
            apps_mentioned("Export budget.xlsx to PDF"),
            vec!["calc", "pdf"]
        );
        assert_eq!(short_app("libreoffice_impress"), "impress");
        let v = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10];
        assert_eq!(percentile(&v, 50.0), 5);
        assert_eq!(percentile(&v, 90.0), 9);
        assert_eq!(percentile(&v, 100.0), 10);
        assert_eq!(percentile(&v, 0.0), 1);
    }
}
