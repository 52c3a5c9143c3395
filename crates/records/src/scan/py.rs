//! The one place that touches the Python parser crates.
//!
//! Every other scan file imports AST types through [`ast`] and parses through [`parse`], so a
//! parser upgrade or swap is a change to this file only.
//!
//! Why `ruff_python_parser` (pinned `=0.0.10`): it is a hand-written recursive-descent parser for
//! the full CPython 3.x grammar (match, walrus, PEP 695/701 f-strings), is used daily on millions
//! of files by ruff, produces a typed AST with byte ranges, and reports precise syntax errors.
//! The alternatives were weaker here: `rustpython-parser` is unmaintained and rejects 3.12 syntax;
//! `tree-sitter-python` yields an untyped CST with no syntax-error messages. The ruff crates are
//! 0.0.x with no stability promise (newer releases also need a newer Rust), hence the exact pin
//! and this wrapper.

pub use ruff_python_ast as ast;
use ruff_text_size::{Ranged, TextRange};

/// Top-level statements.
pub type Suite = ast::Suite;

/// A syntax error with its byte offset.
#[derive(Debug, Clone)]
pub struct SyntaxErr {
    pub message: String,
    pub offset: usize,
}

/// Most tokens one logical line may hold. The analysis and the AST visitors recurse once per
/// nesting level; a statement with more tokens than this could nest deeper than the scan stack
/// allows (`1 + 1 + … + 1`), so it is refused instead of crashing the harness.
const MAX_TOKENS_PER_STATEMENT: usize = 20_000;

/// A parsed module with a bound on how deeply its AST can nest.
pub struct Module {
    /// The top-level statements.
    pub suite: Suite,
    /// Upper bound on AST nesting: deepest indentation plus the most tokens in one statement.
    pub depth_bound: usize,
    /// Offset of the first statement over [`MAX_TOKENS_PER_STATEMENT`] tokens.
    too_complex: Option<usize>,
}

/// Parse `source` as a Python module.
pub fn parse(source: &str) -> Result<Module, SyntaxErr> {
    use ast::token::TokenKind;
    let parsed = ruff_python_parser::parse_module(source).map_err(|err| SyntaxErr {
        message: err.error.to_string(),
        offset: usize::from(err.location.start()),
    })?;
    let (mut count, mut most, mut indent, mut deepest) = (0usize, 0usize, 0usize, 0usize);
    let mut line_start = 0usize;
    let mut too_complex = None;
    for token in parsed.tokens().iter() {
        if count == 0 {
            line_start = usize::from(token.range().start());
        }
        count += 1;
        match token.kind() {
            TokenKind::Newline => count = 0,
            TokenKind::Indent => {
                indent += 1;
                deepest = deepest.max(indent);
            }
            TokenKind::Dedent => indent = indent.saturating_sub(1),
            _ => {}
        }
        most = most.max(count);
        if count > MAX_TOKENS_PER_STATEMENT && too_complex.is_none() {
            too_complex = Some(line_start);
        }
    }
    Ok(Module {
        suite: parsed.into_suite(),
        depth_bound: deepest + most,
        too_complex,
    })
}

impl Module {
    /// The error to report when the module is too complex to analyse.
    pub fn complexity_error(&self) -> Option<SyntaxErr> {
        self.too_complex.map(|offset| SyntaxErr {
            message: format!(
                "a statement has more than {MAX_TOKENS_PER_STATEMENT} tokens; too complex to \
                 analyse"
            ),
            offset,
        })
    }
}

/// Start byte offset of any node.
pub fn start<T: Ranged>(node: &T) -> usize {
    usize::from(node.range().start())
}

/// Byte range of any node as `start..end`.
pub fn span<T: Ranged>(node: &T) -> std::ops::Range<usize> {
    let r: TextRange = node.range();
    usize::from(r.start())..usize::from(r.end())
}

/// Maps byte offsets to 1-based (line, column) and gives back source lines.
pub struct Lines<'s> {
    source: &'s str,
    starts: Vec<usize>,
}

impl<'s> Lines<'s> {
    pub fn new(source: &'s str) -> Self {
        let mut starts = Vec::with_capacity(source.len() / 32 + 1);
        starts.push(0);
        starts.extend(
            source
                .bytes()
                .enumerate()
                .filter(|&(_, b)| b == b'\n')
                .map(|(i, _)| i + 1),
        );
        Lines { source, starts }
    }

    /// 1-based line and column (in characters) of a byte offset.
    pub fn position(&self, offset: usize) -> (usize, usize) {
        let offset = offset.min(self.source.len());
        let idx = self
            .starts
            .partition_point(|&s| s <= offset)
            .saturating_sub(1);
        let line_start = self.starts[idx];
        let col = self
            .source
            .get(line_start..offset)
            .map_or(0, |s| s.chars().count());
        (idx + 1, col + 1)
    }

    /// Text of a 1-based line, without its newline.
    pub fn line(&self, line: usize) -> &'s str {
        let Some(&start) = self.starts.get(line.wrapping_sub(1)) else {
            return "";
        };
        let end = self.starts.get(line).map_or(self.source.len(), |&e| e);
        self.source
            .get(start..end)
            .unwrap_or("")
            .trim_end_matches(['\n', '\r'])
    }

    /// Source text of a byte range.
    pub fn text(&self, range: std::ops::Range<usize>) -> &'s str {
        self.source.get(range).unwrap_or("")
    }
}
