//! Error paths for the data-flow pass: which blocks run because something failed.
//!
//! An error path is an `except` handler for a failure (bare, `Exception`, `OSError`,
//! `ValueError`, a library's error type — not `FileNotFoundError`/`KeyError`/`IndexError`,
//! which are how a script tests that something is *absent*), a `finally` block (it runs on the
//! failure path too), and an error branch: an `if` on a value the handler set (`error = str(e)`
//! then `if error:`; `data = None` then `if data is None:`) or on a failed request or process
//! (`resp.status_code != 200`, `not resp.ok`, `proc.returncode != 0`). Constant success stored
//! there carries a marker (`Taint::err_success`) through the data flow, and awards made there
//! are recorded with their [`ErrPath`]; `rules/errpath.rs` judges them.

use super::expr::dotted;
use super::flow::Flow;
use super::py::ast;
use super::taint::Val;
use ast::{CmpOp, Expr, UnaryOp};

/// Which kind of error path.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ErrKind {
    /// An `except` handler for a failure.
    Handler,
    /// A `finally` block.
    Finally,
    /// An `if` branch taken when something failed.
    Branch,
}

/// An error path an award or store is on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ErrPath {
    /// What kind.
    pub kind: ErrKind,
    /// Byte offset of the `except`/`finally`/`if` that opens it.
    pub at: usize,
    /// Function nesting depth it belongs to (a nested `def` is not on it).
    pub depth: usize,
}

impl ErrPath {
    /// How the path is named in messages.
    pub fn describe(&self) -> &'static str {
        match self.kind {
            ErrKind::Handler => "except handler",
            ErrKind::Finally => "finally block",
            ErrKind::Branch => "error branch",
        }
    }
}

/// Exception types a handler catches to test that something is absent, not that it failed.
const ABSENCE_ERRORS: &[&str] = &[
    "FileNotFoundError",
    "KeyError",
    "IndexError",
    "LookupError",
    "StopIteration",
    "NotADirectoryError",
    "NoSuchElementException",
];

/// True when the handler catches a failure (bare `except:`, `Exception`, any type other than
/// the absence tests above; a tuple counts if any member is a failure).
pub(super) fn catches_failure(h: &ast::ExceptHandlerExceptHandler) -> bool {
    fn failure(e: &Expr) -> bool {
        match e {
            Expr::Tuple(t) => t.elts.iter().any(failure),
            other => dotted(other).is_none_or(|n| {
                let last = n.rsplit('.').next().unwrap_or(&n);
                !ABSENCE_ERRORS.contains(&last)
            }),
        }
    }
    h.type_.as_deref().is_none_or(failure)
}

impl Flow<'_> {
    /// The error path the current statement is on, within the current function.
    pub(super) fn error_path(&self) -> Option<ErrPath> {
        self.err_ctx
            .last()
            .copied()
            .filter(|p| p.depth == self.fn_base.len())
    }

    /// Walk `body` as an error path of `kind` opened at `at`.
    pub(super) fn error_block(&mut self, kind: ErrKind, at: usize, body: &[ast::Stmt]) {
        let depth = self.fn_base.len();
        self.err_ctx.push(ErrPath { kind, at, depth });
        self.block(body);
        self.err_ctx.pop();
    }

    /// On an error path, a stored constant success carries the error-success marker (at the
    /// storing statement), and a name the handler sets is remembered as truthy (`error =
    /// str(e)`, `failed = True`) or falsy (`data = None`) for error branches testing it later.
    pub(super) fn mark_error_store(&mut self, name: &str, val: &mut Val, offset: usize) {
        let Some(path) = self.error_path() else {
            return;
        };
        let constant = !val.taint.inspects();
        let positive = val.num.is_some_and(|n| n > 0.0);
        // A flag (`ok = True`) or a score (`reward = 1.0`); not a count or a default
        // denominator (`total = 1`).
        // Under a condition already carrying such a value (`if ok:` after `except: ok = True`)
        // the root cause is upstream.
        if constant
            && positive
            && (val.taint.bool_true.is_some() || self.is_score_target(name))
            && self.gate_pc().err_success.is_none()
        {
            val.taint.err_success = Some(offset);
        }
        // A value computed in the handler (a fallback read) says nothing; a constant does.
        if path.kind == ErrKind::Handler && constant && !name.contains(['[', '.']) {
            let truthy = positive || val.text.as_deref().is_some_and(|t| !t.is_empty());
            let set = if truthy {
                &mut self.err_truthy
            } else {
                &mut self.err_falsy
            };
            set.insert(name.to_string());
        }
    }

    /// After `return x` on an error path or of a name a handler set falsy: the function hands
    /// back a failure value (`load_state()` returning `None`), so names assigned its result are
    /// tested like names the handler set.
    pub(super) fn note_failure_return(&mut self, expr: Option<&Expr>) {
        let failure = match expr {
            None | Some(Expr::NoneLiteral(_)) => self.error_path().is_some(),
            Some(Expr::Name(n)) => self.err_falsy.contains(n.id.as_str()),
            Some(_) => false,
        };
        if let (true, Some(f)) = (failure, self.fn_names.last()) {
            self.err_falsy_fns.insert(f.clone());
        }
    }

    /// `state = load_state()` where `load_state` returns a failure value: `state` is tested
    /// like a name the handler set to `None`. `error = str(exc)` in a handler: `error` holds
    /// the failure.
    pub(super) fn note_failure_assign(&mut self, target: &Expr, value: &Expr) {
        let Expr::Name(t) = target else {
            return;
        };
        let from_fn = matches!(value, Expr::Call(c)
            if dotted(&c.func).is_some_and(|f| self.err_falsy_fns.contains(&f)));
        if from_fn {
            self.err_falsy.insert(t.id.as_str().to_string());
        } else if self
            .handler_exc
            .as_deref()
            .is_some_and(|e| mentions(value, e))
        {
            self.err_truthy.insert(t.id.as_str().to_string());
        }
    }

    /// True when an `if` test selects the failure side: a value the handler set, a failed
    /// request or process.
    pub(super) fn is_error_test(&self, test: &Expr) -> bool {
        match test {
            Expr::Name(n) => self.err_truthy.contains(n.id.as_str()),
            Expr::UnaryOp(u) if u.op == UnaryOp::Not => match u.operand.as_ref() {
                Expr::Name(n) => self.err_falsy.contains(n.id.as_str()),
                Expr::Attribute(a) => a.attr.as_str() == "ok",
                _ => false,
            },
            Expr::BoolOp(b) if b.op == ast::BoolOp::Or => {
                b.values.iter().any(|v| self.is_error_test(v))
            }
            Expr::Compare(c) if c.ops.len() == 1 => {
                let (op, right) = (c.ops[0], &c.comparators[0]);
                let none = matches!(right, Expr::NoneLiteral(_));
                match c.left.as_ref() {
                    Expr::Name(n) if none => match op {
                        CmpOp::Is | CmpOp::Eq => self.err_falsy.contains(n.id.as_str()),
                        CmpOp::IsNot | CmpOp::NotEq => self.err_truthy.contains(n.id.as_str()),
                        _ => false,
                    },
                    Expr::Attribute(a) => status_failure(a.attr.as_str(), op, right),
                    _ => false,
                }
            }
            _ => false,
        }
    }
}

/// `e`, `str(e)`, `repr(e)`, `f"... {e}"`, `e.args`: an expression of the exception `exc`.
fn mentions(expr: &Expr, exc: &str) -> bool {
    match expr {
        Expr::Name(n) => n.id.as_str() == exc,
        Expr::Attribute(a) => mentions(&a.value, exc),
        Expr::Call(c) => c.arguments.args.first().is_some_and(|a| mentions(a, exc)),
        Expr::FString(f) => f.value.elements().any(|e| {
            matches!(e, ast::InterpolatedStringElement::Interpolation(i) if mentions(&i.expression, exc))
        }),
        _ => false,
    }
}

/// `status_code != 200`, `status >= 400`, `returncode != 0`.
fn status_failure(attr: &str, op: CmpOp, right: &Expr) -> bool {
    let Expr::NumberLiteral(n) = right else {
        return false;
    };
    let Some(code) = (match &n.value {
        ast::Number::Int(i) => i.as_u64(),
        _ => None,
    }) else {
        return false;
    };
    match attr {
        "status_code" | "status" | "code" => match op {
            CmpOp::NotEq => code == 200,
            CmpOp::GtE => code >= 400,
            CmpOp::Gt => code >= 399,
            _ => false,
        },
        "returncode" => op == CmpOp::NotEq && code == 0,
        _ => false,
    }
}

/// Words in a function name that make it a check whose return value is a score.
const CHECK_WORDS: &[&str] = &[
    "verify", "check", "score", "reward", "grade", "evaluate", "assess", "validate",
];

impl Flow<'_> {
    /// For a `return` of `expr`: `(bool_return, success_return)` — whether the value is a flag
    /// (`return True`, `return ok`), and whether a positive constant there is a success score
    /// (a float, a score-named variable, or a function named like a check).
    pub(super) fn return_info(&self, expr: Option<&Expr>, val: &Val) -> (bool, bool) {
        let Some(expr) = expr else {
            return (false, false);
        };
        let boolean = matches!(expr, Expr::BooleanLiteral(_))
            || val.flaglike
            || val.taint.bool_true.is_some();
        let float =
            matches!(expr, Expr::NumberLiteral(n) if matches!(n.value, ast::Number::Float(_)));
        let score_name =
            matches!(expr, Expr::Name(n) if super::flow::looks_like_score(n.id.as_str()));
        let check_fn = self.fn_names.last().is_some_and(|f| {
            let f = f.to_ascii_lowercase();
            CHECK_WORDS.iter().any(|w| f.contains(w))
        });
        (boolean, float || score_name || check_fn)
    }
}
