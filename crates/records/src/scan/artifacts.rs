//! Reads of the Generator's artifacts for the data-flow pass.
//!
//! A reward must judge the environment's state, not the scripts that built the task or what
//! they left behind: `golden_patch.py`, `initial_setup.py`, their outputs (`golden_output.txt`,
//! `setup_output.json`) and stored copies of the expected state (`golden_state.json`,
//! `expected_state.json`, anything under a `hidden/`, `gt/`, `ground_truth/` or `golden/`
//! directory outside the user's home). Every call that opens, stats, lists, parses, copies,
//! imports or runs a path (`open`, `Path`, `os.path.exists`, `glob`, `json.load`,
//! `pd.read_csv`, `runpy.run_path`, `subprocess.run(["cat", …])`, `sys.path.insert`, …) has its
//! path arguments resolved as far as the data flow knows them (constants, f-strings,
//! `os.path.join`, `Path / "x"`); a path naming an artifact is recorded as an
//! [`ArtifactRead`]. Imports of such modules count too. Mentions in prints, comments, string
//! comparisons and listings filtered by name are not reads.

use super::expr::dotted;
use super::facts::ArtifactRead;
use super::flow::Flow;
use super::py::{ast, start};
use ast::{Expr, Operator};

/// File-name stems (prefixes) of the Generator's scripts, their outputs and expected states.
const ARTIFACT_STEMS: &[(&str, &str)] = &[
    ("golden_patch", "the golden patch script or its output"),
    ("initial_setup", "the setup script or its output"),
    ("setup_output", "the setup script's output"),
    ("golden_", "a golden (expected) artifact"),
    ("expected_state", "a stored copy of the expected state"),
    ("gold_state", "a stored copy of the expected state"),
    ("ground_truth", "a stored copy of the expected state"),
    ("groundtruth", "a stored copy of the expected state"),
];

/// Directories holding hidden copies of the expected state (outside the user's home).
const HIDDEN_DIRS: &[&str] = &[
    "hidden",
    "gt",
    "ground_truth",
    "groundtruth",
    "golden",
    "gold",
];

/// Stems that name an expected-state file when they stand alone with a data extension
/// (`gt.json`, `golden.pkl`), outside the user's home.
const BARE_STEMS: &[&str] = &["golden", "gold", "gt"];

/// Extensions of data or script files.
const DATA_EXTS: &[&str] = &[
    "json", "pkl", "pickle", "yaml", "yml", "npy", "txt", "csv", "py",
];

/// Calls that build a path from their receiver and arguments.
const PATH_BUILDERS: &[&str] = &[
    "join",
    "Path",
    "PurePath",
    "joinpath",
    "expanduser",
    "abspath",
    "realpath",
    "str",
    "fspath",
    "resolve",
    "format",
];

/// Placeholder for a part of a path the data flow does not know.
const UNKNOWN: char = '\u{1}';

/// What artifact a path names, if any.
pub(super) fn classify(path: &str) -> Option<&'static str> {
    let lower = path.to_ascii_lowercase();
    let home = lower.starts_with('~') || lower.contains("/home/") || lower.starts_with("home/");
    let comps: Vec<&str> = lower
        .split(|c: char| {
            matches!(
                c,
                '/' | '\\' | ' ' | '\t' | '"' | '\'' | '=' | ';' | '|' | '&' | '<' | '>' | UNKNOWN
            )
        })
        .filter(|c| !c.is_empty())
        .collect();
    for comp in comps {
        let bare = comp.trim_start_matches('.');
        let (stem, ext) = bare.split_once('.').unwrap_or((bare, ""));
        if let Some((_, what)) = ARTIFACT_STEMS
            .iter()
            .find(|(s, _)| stem.starts_with(s) && (!s.ends_with('_') || !home))
        {
            return Some(what);
        }
        if home {
            continue;
        }
        if ext.is_empty() && HIDDEN_DIRS.contains(&stem) {
            return Some("a hidden copy of the expected state");
        }
        if BARE_STEMS.contains(&stem) && DATA_EXTS.contains(&ext) {
            return Some("a stored copy of the expected state");
        }
    }
    None
}

/// `"HOME"` (the user's home directory variable).
fn is_home_var(e: &Expr) -> bool {
    matches!(e, Expr::StringLiteral(s) if matches!(s.value.to_str(), "HOME" | "USERPROFILE"))
}

/// True when a callee (qualified, last segment checked) reads, stats, lists, parses, copies,
/// imports or runs a path.
pub(super) fn reads_paths(name: &str) -> bool {
    let last = name.rsplit('.').next().unwrap_or(name);
    matches!(
        last,
        "open"
            | "Path"
            | "PurePath"
            | "PosixPath"
            | "exists"
            | "isfile"
            | "isdir"
            | "lexists"
            | "islink"
            | "getsize"
            | "getmtime"
            | "getctime"
            | "stat"
            | "lstat"
            | "listdir"
            | "scandir"
            | "walk"
            | "glob"
            | "iglob"
            | "rglob"
            | "read_text"
            | "read_bytes"
            | "joinpath"
            | "load_workbook"
            | "read_csv"
            | "read_json"
            | "read_excel"
            | "read_table"
            | "read_parquet"
            | "read_pickle"
            | "read_xml"
            | "loadtxt"
            | "genfromtxt"
            | "fromfile"
            | "Document"
            | "Presentation"
            | "copy"
            | "copy2"
            | "copyfile"
            | "copytree"
            | "move"
            | "cmp"
            | "getlines"
            | "run_path"
            | "run_module"
            | "import_module"
            | "__import__"
            | "spec_from_file_location"
            | "parse"
            | "iterparse"
            | "run"
            | "call"
            | "check_call"
            | "check_output"
            | "Popen"
            | "system"
            | "popen"
            | "getoutput"
            | "getstatusoutput"
            | "imread"
            | "open_workbook"
            | "load"
    ) || matches!(name, "sys.path.insert" | "sys.path.append")
}

impl Flow<'_> {
    /// The path-like texts an argument denotes: known constants, literal parts of f-strings
    /// and concatenations, joined path parts, one per element of a list (`["cat", p]`).
    pub(super) fn texts(&self, expr: &Expr, out: &mut Vec<String>) {
        match expr {
            Expr::List(l) => l.elts.iter().for_each(|e| self.texts(e, out)),
            Expr::Tuple(t) => t.elts.iter().for_each(|e| self.texts(e, out)),
            _ => {
                let mut text = String::new();
                self.path_text(expr, &mut text);
                if text.chars().any(|c| c != UNKNOWN) {
                    out.push(text);
                }
            }
        }
    }

    /// One path-like text: what is known of it, [`UNKNOWN`] for the rest.
    fn path_text(&self, expr: &Expr, out: &mut String) {
        match expr {
            Expr::StringLiteral(s) => out.push_str(s.value.to_str()),
            Expr::FString(f) => {
                for element in f.value.elements() {
                    match element {
                        ast::InterpolatedStringElement::Literal(l) => out.push_str(&l.value),
                        ast::InterpolatedStringElement::Interpolation(i) => {
                            self.path_text(&i.expression, out);
                        }
                    }
                }
            }
            Expr::Name(n) => match self.lookup(n.id.as_str()).and_then(|v| v.text.clone()) {
                Some(t) => out.push_str(&t),
                None => match self.artifact_names.get(n.id.as_str()) {
                    Some(t) => out.push_str(t),
                    None => out.push(UNKNOWN),
                },
            },
            Expr::BinOp(b) if matches!(b.op, Operator::Add | Operator::Div | Operator::Mod) => {
                self.path_text(&b.left, out);
                if b.op == Operator::Div {
                    out.push('/');
                }
                self.path_text(&b.right, out);
            }
            Expr::Subscript(s) if dotted(&s.value).is_some_and(|n| n.ends_with("environ")) => {
                out.push(if is_home_var(&s.slice) { '~' } else { UNKNOWN });
            }
            Expr::Call(c) => {
                let name = dotted(&c.func).unwrap_or_default();
                let last = name.rsplit('.').next().unwrap_or("");
                match last {
                    "home" if c.arguments.args.is_empty() => out.push('~'),
                    "getenv" if c.arguments.args.first().is_some_and(is_home_var) => {
                        out.push('~');
                    }
                    _ if PATH_BUILDERS.contains(&last) && last != "format" => {
                        let method = matches!(last, "joinpath" | "resolve");
                        if let (true, Expr::Attribute(a)) = (method, c.func.as_ref()) {
                            self.path_text(&a.value, out);
                        }
                        for (i, arg) in c.arguments.args.iter().enumerate() {
                            if i > 0 || method {
                                out.push('/');
                            }
                            self.path_text(arg, out);
                        }
                    }
                    "format" => match c.func.as_ref() {
                        Expr::Attribute(a) => self.path_text(&a.value, out),
                        _ => out.push(UNKNOWN),
                    },
                    _ => out.push(UNKNOWN),
                }
            }
            _ => out.push(UNKNOWN),
        }
    }

    /// `NAME = <path expression>`: remember the name when the path names an artifact even
    /// though parts of it are unknown (the directory of `__file__`, an environment variable).
    pub(super) fn note_path_name(&mut self, target: &Expr, value: &Expr) {
        let Expr::Name(n) = target else {
            return;
        };
        let pathy = match value {
            Expr::FString(_) => true,
            Expr::BinOp(b) => matches!(b.op, Operator::Add | Operator::Div),
            Expr::Call(c) => dotted(&c.func).is_some_and(|f| {
                let last = f.rsplit('.').next().unwrap_or("");
                PATH_BUILDERS.contains(&last)
            }),
            _ => false,
        };
        let name = n.id.as_str();
        if !pathy {
            if !self.artifact_names.is_empty() {
                self.artifact_names.remove(name);
            }
            return;
        }
        let mut text = String::new();
        self.path_text(value, &mut text);
        if classify(&text).is_some() {
            self.artifact_names.insert(name.to_string(), text);
        } else if !self.artifact_names.is_empty() {
            self.artifact_names.remove(name);
        }
    }

    /// Record every path argument of a reading call that names an artifact.
    pub(super) fn artifact_call(&mut self, c: &ast::ExprCall, name: &str) {
        if !self.record || !reads_paths(name) {
            return;
        }
        let mut args: Vec<&Expr> = c.arguments.args.iter().collect();
        args.extend(c.arguments.keywords.iter().map(|k| &k.value));
        if let Expr::Attribute(a) = c.func.as_ref() {
            // `GT_DIR.glob("*")`, `(Path(root) / "gt" / "x.json").read_text()`.
            args.push(&a.value);
        }
        for arg in args {
            let mut texts = Vec::new();
            self.texts(arg, &mut texts);
            if let Some((what, path)) = texts.iter().find_map(|t| classify(t).map(|w| (w, t))) {
                self.facts.artifacts.push(ArtifactRead {
                    offset: start(arg),
                    via: name.to_string(),
                    path: path.replace(UNKNOWN, "…"),
                    what,
                });
                return;
            }
        }
    }

    /// `import golden_patch`, `from gt.state import EXPECTED`.
    pub(super) fn artifact_import(&mut self, module: &str, offset: usize) {
        if !self.record {
            return;
        }
        if let Some(what) = classify(&module.replace('.', "/")) {
            self.facts.artifacts.push(ArtifactRead {
                offset,
                via: "import".to_string(),
                path: module.to_string(),
                what,
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::classify;

    #[test]
    fn artifact_paths_are_classified_and_user_paths_are_not() {
        for path in [
            "/tmp/golden_patch.py",
            "golden_state.json",
            "/opt/task/initial_setup.log",
            "/srv/x/setup_output.json",
            "/tmp/task/gt/expected.csv",
            "\u{1}/gt/state.json",
            "/var/lib/task/.hidden/prices.json",
            "/root/ground_truth/summary.txt",
            "/tmp/golden_output.txt",
            "/tmp/gt.json",
            "cat /tmp/golden/out.txt",
            "gt/expected_state",
            "/home/user/initial_setup.py",
        ] {
            assert!(classify(path).is_some(), "{path}");
        }
        for path in [
            "/home/user/hidden/secret.txt",
            "~/gt/notes.txt",
            "/home/user/Pictures/golden_retriever.png",
            "/home/user/data/gold_prices.csv",
            "/home/user/tidy/setup.py",
            "/tmp/task_web_sid",
            "/tmp/reward_judge.py",
            "/tmp/golden_retriever_notes",
            "hidden.txt",
            "gt",
        ] {
            let expect_flag = path == "/tmp/golden_retriever_notes" || path == "gt";
            assert_eq!(classify(path).is_some(), expect_flag, "{path}");
        }
    }
}
