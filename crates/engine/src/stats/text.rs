//! Instruction text analysis for Appendix F: word counts, the first imperative verb, app mentions.

/// Words before the real verb that are skipped ("Please", "Could you", "I want to"...).
const FILLERS: &[&str] = &[
    "you", "to", "please", "kindly", "can", "could", "will", "help", "me", "us", "now", "first",
    "then", "also", "just", "go", "ahead", "and", "hey", "hi", "ok", "okay", "so", "let's",
    "quickly", "simply", "must", "should", "try", "want", "would", "like", "need",
];

/// A person speaking: skipped only when a wish follows ("I want to", "we need to", "I'd like
/// to"); otherwise the clause is a statement ("I deleted…", "We received…"), not an order.
const SPEAKERS: &[&str] = &["i", "we", "i'd", "we'd", "i'm", "we're"];

/// What may follow a speaker for the instruction still to be an order.
const WISHES: &[&str] = &[
    "want", "would", "need", "like", "wish", "must", "should", "have",
];

/// Words that cannot be an imperative verb; an instruction starting with them has no verb found
/// before them (we stop rather than guess): determiners and pronouns starting a subject ("The
/// reviews passed…", "Someone warned me…"), question words, negations.
const STOPPERS: &[&str] = &[
    "my", "our", "your", "this", "that", "these", "those", "there", "here", "it", "is", "are",
    "the", "a", "an", "someone", "somebody", "everyone", "nobody", "which", "what", "who", "whom",
    "whose", "where", "when", "why", "how", "no", "not", "all", "every", "each",
];

/// Prepositions opening a phrase before the order ("In the settings file, set…", "From the
/// report, make…"): the verb is looked for after the phrase's comma.
const PREPOSITIONS: &[&str] = &[
    "in", "on", "from", "for", "with", "after", "before", "at", "by", "using", "within", "inside",
    "under", "into", "during", "once", "if", "when",
];

/// Verbs of a subject ("Tara Walsh is on leave", "LeatherCo has been acquired", "Daniel asked"):
/// the word before them is a name, not an order.
const SUBJECT_VERBS: &[&str] = &[
    "is", "are", "was", "were", "has", "have", "had", "asked", "moved", "wants", "needs", "just",
    "said", "says", "told", "sent", "will", "can",
];

/// Number of whitespace-separated words.
pub fn word_count(s: &str) -> usize {
    s.split_whitespace().count()
}

fn normalise(word: &str) -> String {
    word.trim_matches(|c: char| !c.is_alphanumeric() && c != '\'')
        .to_lowercase()
}

/// True for a word written like a name: title case ("Farid", not "WEB-105" or "PDF") that is
/// not the sentence's first word, or any word with a capital inside ("LeatherCo").
fn looks_like_name(raw: &str, at_start: bool) -> bool {
    let w = raw.trim_matches(|c: char| !c.is_alphanumeric());
    let mut chars = w.chars();
    let first_upper = chars.next().is_some_and(char::is_uppercase);
    let rest: String = chars.collect();
    let title = first_upper && rest.chars().any(char::is_lowercase);
    title && (!at_start || rest.chars().any(char::is_uppercase))
}

/// The first imperative verb of an instruction, skipping filler clauses: in
/// "Please open report.xlsx" and "I want to open report.xlsx" it is `open`; in "In the settings
/// file, set …" it is `set`. Looks only at the first sentence; `None` when it is not an order
/// ("My report is…", "Tara Walsh is on leave…", "We received 40 pairs…", "Which categories…?").
pub fn first_verb(instruction: &str) -> Option<String> {
    let first_sentence = instruction
        .split(['.', '!', '?', '\n', ':', ';'])
        .find(|s| !s.trim().is_empty())?;
    let words: Vec<&str> = first_sentence.split_whitespace().take(24).collect();
    let mut i = 0;
    let mut at_start = true;
    while i < words.len().min(16) {
        let raw = words[i];
        let w = normalise(raw);
        let next = words.get(i + 1).map(|n| normalise(n)).unwrap_or_default();
        if w.is_empty() {
            i += 1;
            continue;
        }
        if PREPOSITIONS.contains(&w.as_str()) && at_start {
            // Skip the opening phrase up to its comma; no comma: no order found.
            let comma = words[i..].iter().position(|x| x.ends_with(','))?;
            i += comma + 1;
            continue;
        }
        if SPEAKERS.contains(&w.as_str()) {
            if !WISHES.contains(&next.as_str()) && !w.ends_with("'d") {
                return None;
            }
            i += 1;
            at_start = false;
            continue;
        }
        if FILLERS.contains(&w.as_str()) {
            i += 1;
            at_start = false;
            continue;
        }
        if STOPPERS.contains(&w.as_str())
            || !w.chars().all(|c| c.is_ascii_alphabetic())
            || looks_like_name(raw, at_start)
            || SUBJECT_VERBS.contains(&next.as_str())
            || words.get(i + 1).is_some_and(|n| looks_like_name(n, false)) && at_start && {
                // "Tara Walsh …": two capitalised words open the sentence.
                raw.chars().next().is_some_and(char::is_uppercase) && !is_common_verb(&w)
            }
        {
            return None;
        }
        return Some(w);
    }
    None
}

/// Verbs often followed by a name ("Email Kavya…", "Invite Maya…", "Make Yusuf…").
fn is_common_verb(w: &str) -> bool {
    const V: &[&str] = &[
        "email", "invite", "make", "tell", "ask", "message", "remind", "assign", "give", "send",
        "reply", "answer", "add", "move", "mark", "set", "rename", "create", "open", "post",
        "pull", "star", "tag", "label", "flag", "merge", "put", "publish", "refund", "close",
        "archive", "delete", "update", "change", "find", "show", "notify", "pay", "thank", "let",
        "forward", "call", "schedule", "book", "cancel", "approve", "reject", "transfer",
    ];
    V.contains(&w)
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
    ("pdf", &[".pdf", "pdf"]), // not the app: an Appendix F category
    (
        "terminal",
        &["terminal", "bash", "shell command", "command line"],
    ),
    ("vscode", &["vs code", "vscode", "visual studio code"]),
    (
        "files", // not the app: an Appendix F category
        &["file manager", "nautilus", "files app", "folder"],
    ),
    ("gimp", &["gimp"]),                // not the app: an Appendix F category
    ("thunderbird", &["thunderbird"]),  // not the app: an Appendix F category
    ("chrome", &["chrome", "browser"]), // not the app: an Appendix F category
];

/// Maps a stored app label to its short name (`libreoffice_calc` -> `calc`).
pub fn short_app(label: &str) -> String {
    let l = label.to_lowercase();
    let l = l.strip_prefix("libreoffice_").unwrap_or(&l);
    match l {
        "vs_code" | "code" | "visual_studio_code" => "vscode".into(),
        "os" | "shell" | "bash" => "terminal".into(),
        "nautilus" | "file_manager" => "files".into(), // not the app: a category
        "google_chrome" | "browser" => "chrome".into(), // not the app: a category
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
        // Names, prepositions, statements and questions are not verbs (#33).
        for (text, verb) in [
            ("Tara Walsh is on leave: reassign her issues", None),
            ("LeatherCo has been acquired by Nordic Living", None),
            ("Daniel Garcia asked to stop receiving emails", None),
            ("From the 2025 sales report, make a CSV", Some("make")),
            (
                "In the analytics project's settings file, set debug",
                Some("set"),
            ),
            ("We received 40 more pairs; update the stock", None),
            ("I deleted Maya's email by mistake", None),
            ("The reviews on WEB-124 passed: mark both as Done", None),
            ("Which budget categories spent more?", None),
            ("Email Kavya Okafor to confirm our call", Some("email")),
            ("Make Yusuf Kim the lead", Some("make")),
            ("Estimate WEB-105 at 5 story points", Some("estimate")),
            ("I'd like to archive the lunch emails", Some("archive")),
        ] {
            assert_eq!(first_verb(text).as_deref(), verb, "{text}");
        }
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
