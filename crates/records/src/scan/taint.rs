//! The abstract values of the data-flow pass.
//!
//! A [`Taint`] says what a value was computed from: real environment reads (`env`), existence
//! checks (`exists`, or `absent` when negated), which path was checked (`exist_key`), and —
//! the interesting part for C5 — *markers* pointing at the constant that made it: a literal
//! `True` (`bool_true`), another truthy literal (`truthy`), or a constant flag assignment that
//! was never evaluated (`placeholder`). Markers are dropped as soon as a value becomes
//! control-dependent on a real inspection (`found = True` inside `if row == expected:`).

use std::rc::Rc;

/// What a value depends on; see the module doc.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Taint {
    /// Derived from a real environment read (file content, HTTP, parameters, unknown names).
    pub env: bool,
    /// Derived from a positive existence check (`os.path.exists`, `Path.is_file`, `listdir`).
    pub exists: bool,
    /// Derived from a negated existence check (`not os.path.exists(src)`).
    pub absent: bool,
    /// The first path (resolved constant text or source text) whose existence was checked,
    /// for messages.
    pub exist_key: Option<Rc<str>>,
    /// Byte offset of a literal `True` this value still carries.
    pub bool_true: Option<usize>,
    /// Byte offset of a truthy non-bool literal (`1`, `"yes"`) this value still carries.
    pub truthy: Option<usize>,
    /// Byte offset of a constant flag assignment (falsy or derived) never evaluated since.
    pub placeholder: Option<usize>,
    /// Byte offset of the LLM-judge call this value was computed from (see `judge.rs`).
    pub judge: Option<usize>,
    /// Largest share of the value the judge's output can make up, judge outputs being in
    /// [0, 1] (`0.4 * llm` is 0.4); 0 when no judge is involved, NaN when the coefficient is
    /// not statically known.
    pub judge_w: f64,
    /// Byte offset of a constant success value (`1.0`, `True`) stored on an error path (an
    /// `except` handler, a `finally`, an error branch) that this value still carries.
    pub err_success: Option<usize>,
}

/// Join of two judge weights: the larger, NaN (unknown) winning.
pub fn wmax(a: f64, b: f64) -> f64 {
    if a.is_nan() || b.is_nan() {
        f64::NAN
    } else {
        a.max(b)
    }
}

impl Taint {
    /// A value read from the environment.
    pub fn env() -> Self {
        Taint {
            env: true,
            ..Taint::default()
        }
    }

    /// True when the value depends on anything observed in the environment.
    pub fn inspects(&self) -> bool {
        self.env || self.exists || self.absent || self.judge.is_some()
    }

    /// True when the value carries any constant-flag marker.
    pub fn has_marker(&self) -> bool {
        self.bool_true.is_some() || self.truthy.is_some() || self.placeholder.is_some()
    }

    /// Combine with another operand of the same expression (markers are kept).
    pub fn join(&mut self, other: &Taint) {
        self.env |= other.env;
        self.exists |= other.exists;
        self.absent |= other.absent;
        if self.exist_key.is_none() {
            self.exist_key.clone_from(&other.exist_key);
        }
        self.bool_true = self.bool_true.or(other.bool_true);
        self.truthy = self.truthy.or(other.truthy);
        self.placeholder = self.placeholder.or(other.placeholder);
        self.judge = self.judge.or(other.judge);
        self.judge_w = wmax(self.judge_w, other.judge_w);
        self.err_success = self.err_success.or(other.err_success);
    }

    /// Join returning a new value.
    pub fn joined(mut self, other: &Taint) -> Taint {
        self.join(other);
        self
    }

    /// Record a path whose existence was checked (the first one is kept).
    pub fn add_exist_key(&mut self, key: Rc<str>) {
        if self.exist_key.is_none() {
            self.exist_key = Some(key);
        }
    }

    /// Remove every constant marker (the value is now the result of an evaluation).
    pub fn clear_markers(&mut self) {
        self.bool_true = None;
        self.truthy = None;
        self.placeholder = None;
    }

    /// Without markers.
    pub fn unmarked(mut self) -> Taint {
        self.clear_markers();
        self
    }

    /// Logical negation: presence becomes absence and vice versa.
    pub fn negated(mut self) -> Taint {
        std::mem::swap(&mut self.exists, &mut self.absent);
        self.bool_true = None;
        self.truthy = None;
        // `not failed`: the side where the error did not happen.
        self.err_success = None;
        self
    }
}

/// An abstract value: taint plus what is statically known about it.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Val {
    /// Dependencies and markers.
    pub taint: Taint,
    /// Known numeric value (booleans count as 0/1).
    pub num: Option<f64>,
    /// Known string value.
    pub text: Option<Rc<str>>,
    /// The value looks like a verification flag (bool, None, comparison, negation).
    pub flaglike: bool,
}

impl Val {
    /// An environment-derived value.
    pub fn env() -> Self {
        Val {
            taint: Taint::env(),
            ..Val::default()
        }
    }

    /// A value with the given taint and nothing else known.
    pub fn of(taint: Taint) -> Self {
        Val {
            taint,
            ..Val::default()
        }
    }
}
