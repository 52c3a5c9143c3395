//! The C5 forbidden-pattern scanner for reward scripts (paper §A.3.3, issue 4).
//!
//! [`scan_source`] parses a reward script with a real Python parser (see [`py`] for why ruff's),
//! runs a small data-flow pass over it ([`flow`]: which names hold constants, which are computed
//! from environment reads, which reach the score) and judges every place score is awarded with
//! the fixed rules of [`RuleId`]. The harness runs it — the agreement loop and the TUI call the
//! same function — so the reward-writing agent cannot skip or weaken it.
//!
//! The rules, in one line each (docs/scan.md has examples and the JSON shape):
//! - `bool-flag-constant`: a flag holding a constant `True` (or truthy constant) gates or adds score;
//! - `placeholder-flag`: a flag left at a constant (never evaluated) conditions score;
//! - `hardcoded-success`: constant success returned/printed/added on a path that inspects nothing;
//! - `bare-existence-score`: score awarded on existence alone, with no content check of the path;
//! - `subprocess`: any way of running external processes, through any alias or dynamic import;
//! - `comment-only-check`: an award justified only by a comment asserting a check;
//! - `dynamic-code`: `exec`/`eval`/`compile` of strings built at run time;
//! - `error-path-success`: an except handler, finally block or error branch awards success;
//! - `generator-artifact`: the script reads golden/setup scripts, their outputs or hidden
//!   copies of the expected state;
//! - `judge-delegation`: the score comes wholly, or above `judge_max_weight`, from an LLM judge;
//! - `syntax-error`: the script does not parse.

mod artifacts;
mod assign;
mod calls;
mod config;
mod control;
pub mod corpus;
mod errpath;
mod expr;
mod facts;
mod flow;
mod judge;
mod prepass;
mod printed;
mod py;
mod report;
mod rules;
mod taint;

use std::path::{Path, PathBuf};

use tuplewright_base::text::sizes::{self, excerpt, TextError};

pub use config::{ScanConfig, DEFAULT_JUDGE_MAX_WEIGHT};
pub use report::{Finding, RuleId, ScanReport};

/// Failure to scan a file at all (distinct from a finding).
#[derive(Debug, thiserror::Error)]
pub enum ScanError {
    /// The file could not be read.
    #[error("cannot read {path}: {source}")]
    Read {
        /// The path that failed.
        path: PathBuf,
        /// The I/O error.
        source: std::io::Error,
    },
    /// The file is over the script size limit, or not UTF-8 text (with where).
    #[error("{path}: {source}")]
    Text {
        /// The offending path.
        path: PathBuf,
        /// What is wrong with its content.
        source: TextError,
    },
}

/// Most characters of a source line a finding echoes (a 50 MB one-line file echoes this much).
const ECHO_CHARS: usize = 240;

/// The source line a finding shows: line `line` of `lines`, cut to [`ECHO_CHARS`].
fn echo(lines: &py::Lines, line: usize) -> String {
    excerpt(lines.line(line), ECHO_CHARS)
}

/// Stack for a deeply nested script: the analysis, the AST visitors and dropping the AST all
/// recurse per nesting level, and a hostile script can nest thousands of levels.
const DEEP_STACK: usize = 256 * 1024 * 1024;

/// Scripts whose AST may nest deeper than this are analysed on a [`DEEP_STACK`] thread; the
/// common case runs inline (spawning a thread per file would cost a third of the scan time).
const INLINE_DEPTH: usize = 300;

/// Scan one reward script given as text with the default [`ScanConfig`]. `path_label` is
/// copied into every finding.
pub fn scan_source(path_label: &str, source: &str) -> ScanReport {
    scan_source_with(path_label, source, &ScanConfig::default())
}

/// Scan one reward script given as text under `config` (its rule limits; which findings fail
/// C5 is [`ScanConfig::fails_c5`]'s decision).
pub fn scan_source_with(path_label: &str, source: &str, config: &ScanConfig) -> ScanReport {
    let lines = py::Lines::new(source);
    let parsed = py::parse(source).and_then(|module| match module.complexity_error() {
        Some(err) => {
            on_deep_stack(move || drop(module));
            Err(err)
        }
        None => Ok(module),
    });
    let module = match parsed {
        Ok(module) => module,
        Err(err) => {
            let (line, column) = lines.position(err.offset);
            return ScanReport {
                file: path_label.to_string(),
                parsed: false,
                findings: vec![Finding {
                    rule: RuleId::SyntaxError,
                    file: path_label.to_string(),
                    line,
                    column,
                    source_line: echo(&lines, line),
                    reason: format!(
                        "the script does not parse ({}), so nothing it checks can be verified; \
                         fix the syntax",
                        err.message
                    ),
                }],
            };
        }
    };
    if module.depth_bound <= INLINE_DEPTH {
        return analyse(path_label, &lines, module.suite, config);
    }
    match on_deep_stack(|| analyse(path_label, &lines, module.suite, config)) {
        Some(report) => report,
        None => ScanReport {
            file: path_label.to_string(),
            parsed: false,
            findings: vec![Finding {
                rule: RuleId::SyntaxError,
                file: path_label.to_string(),
                line: 1,
                column: 1,
                source_line: echo(&lines, 1),
                reason: "the scanner could not analyse this script (too deeply nested); \
                         simplify it"
                    .to_string(),
            }],
        },
    }
}

/// Run `f` on a scoped thread with a [`DEEP_STACK`] stack; `None` if the thread could not be
/// spawned or panicked.
fn on_deep_stack<T: Send>(f: impl FnOnce() -> T + Send) -> Option<T> {
    std::thread::scope(|scope| {
        std::thread::Builder::new()
            .name("tuplewright-scan".into())
            .stack_size(DEEP_STACK)
            .spawn_scoped(scope, f)
            .ok()
            .and_then(|handle| handle.join().ok())
    })
}

/// Run the data-flow pass and the rules over a parsed module (consumes and drops the AST).
fn analyse(
    path_label: &str,
    lines: &py::Lines,
    suite: py::Suite,
    config: &ScanConfig,
) -> ScanReport {
    let facts = flow::analyze(&suite, lines);
    let mut findings: Vec<Finding> = rules::run(&suite, &facts, lines, config)
        .into_iter()
        .map(|hit| {
            let (line, column) = lines.position(hit.offset);
            Finding {
                rule: hit.rule,
                file: path_label.to_string(),
                line,
                column,
                source_line: echo(lines, line),
                reason: hit.reason,
            }
        })
        .collect();
    findings.sort_by_key(|f| (f.line, f.rule, f.column));
    findings.dedup_by(|a, b| a.line == b.line && a.rule == b.rule);
    ScanReport {
        file: path_label.to_string(),
        parsed: true,
        findings,
    }
}

/// Read and scan one file. A file over the script size limit ([`sizes::SCRIPT`], from its
/// metadata) is refused before it is read.
pub fn scan_file(path: &Path) -> Result<ScanReport, ScanError> {
    let source = read_script(path)?;
    Ok(scan_source(&path.display().to_string(), &source))
}

/// The text of the script at `path`, within the script size limit.
pub fn read_script(path: &Path) -> Result<String, ScanError> {
    let read_err = |source| ScanError::Read {
        path: path.to_path_buf(),
        source,
    };
    let text_err = |source| ScanError::Text {
        path: path.to_path_buf(),
        source,
    };
    let file = std::fs::File::open(path).map_err(read_err)?;
    let meta = file.metadata().map_err(read_err)?;
    if meta.is_dir() {
        let e = std::io::Error::new(std::io::ErrorKind::IsADirectory, "is a directory");
        return Err(read_err(e));
    }
    sizes::check(meta.len(), sizes::SCRIPT).map_err(text_err)?;
    sizes::read_text(file, sizes::SCRIPT).map_err(|e| match e {
        TextError::Io(source) => read_err(source),
        e => text_err(e),
    })
}
