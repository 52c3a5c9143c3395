//! What the data-flow pass records for the rules: every place score is awarded and every
//! place a success value leaves the script.

use super::errpath::ErrPath;
use super::taint::Taint;

/// How a score-bearing value is produced.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AwardKind {
    /// `score += x`, `score = score + x`, `scores["k"] = x`: one additive term.
    Increment,
    /// `score = x` (a reset, a clamp, a weighted sum).
    Set,
    /// `print("REWARD: ...")` / `sys.stdout.write("REWARD: ...")`.
    Print,
    /// `return x` inside a function.
    Return,
}

/// One place where score (or a success value) is produced.
#[derive(Debug, Clone)]
pub struct Award {
    /// What kind of award this is.
    pub kind: AwardKind,
    /// Byte offset of the statement/expression to report.
    pub offset: usize,
    /// Control dependence: every enclosing condition, loop and early-exit guard.
    pub cond: Taint,
    /// The same, restricted to `if`/loop conditions inside the current function (no guards).
    pub local_cond: Taint,
    /// The awarded value itself.
    pub value: Taint,
    /// The awarded value when statically known.
    pub num: Option<f64>,
    /// The error path (except handler, finally, error branch) the award is made on, if any.
    pub error_path: Option<ErrPath>,
    /// For a `return`: the value is a bare `True`/`False`-like flag, not a score.
    pub bool_return: bool,
    /// For a `return`: the returned value is a float or the function is named like a check
    /// (`verify`, `check_*`, `score`), so a positive constant there is a success value.
    pub success_return: bool,
}

impl Award {
    /// Everything the award depends on (conditions and value).
    pub fn gate(&self) -> Taint {
        self.cond.clone().joined(&self.value)
    }

    /// The constant-flag markers that make this award suspicious, as judged by rules 1 and 2:
    /// markers in its conditions, plus `True`/placeholder markers in the awarded value when the
    /// conditions inspect nothing.
    pub fn flag_markers(&self) -> Taint {
        let mut m = Taint {
            bool_true: self.cond.bool_true,
            truthy: self.cond.truthy,
            placeholder: self.cond.placeholder,
            ..Taint::default()
        };
        if !self.cond.inspects() {
            // A returned flag assigned earlier (`ok = True ... return ok`) is a flag; a literal
            // in the return itself (`return True`) is hard-coded success (rule 3).
            let counts = |at: usize| self.kind != AwardKind::Return || at < self.offset;
            m.bool_true = m
                .bool_true
                .or(self.value.bool_true.filter(|&at| counts(at)));
            m.placeholder = m
                .placeholder
                .or(self.value.placeholder.filter(|&at| counts(at)));
        }
        m
    }

    /// Awards a strictly positive amount, or an unknown one.
    pub fn positive(&self) -> bool {
        self.num.is_none_or(|n| n > 0.0)
    }
}

/// A read of one of the Generator's artifacts (`golden_patch.py`, a hidden expected state).
#[derive(Debug, Clone)]
pub struct ArtifactRead {
    /// Byte offset of the argument (or import) naming the artifact.
    pub offset: usize,
    /// The call or statement that reads it (`open`, `json.load`, `import`).
    pub via: String,
    /// The path or module as written or resolved.
    pub path: String,
    /// What kind of artifact it is, for the message.
    pub what: &'static str,
}

/// All awards of one script, in source order.
#[derive(Debug, Default)]
pub struct Facts {
    /// The awards.
    pub awards: Vec<Award>,
    /// Reads of the Generator's artifacts, in source order.
    pub artifacts: Vec<ArtifactRead>,
}
