//! Assignments: binding targets (names, tuples, container items) and recognising score awards
//! (`score += x`, `score = score + x`, `scores["k"] = x`, `score = a + b`).

use super::facts::AwardKind;
use super::flow::Flow;
use super::judge::contribution;
use super::py::{ast, start};
use super::taint::Val;
use ast::{Expr, Operator};

/// Flatten `a + b + c` into its additive terms.
fn terms(expr: &Expr) -> Vec<&Expr> {
    match expr {
        Expr::BinOp(b) if b.op == Operator::Add => {
            let mut out = terms(&b.left);
            out.extend(terms(&b.right));
            out
        }
        _ => vec![expr],
    }
}

/// Elements of a tuple or list display.
fn seq(expr: &Expr) -> Option<&[Expr]> {
    match expr {
        Expr::Tuple(t) => Some(&t.elts),
        Expr::List(l) => Some(&l.elts),
        _ => None,
    }
}

/// Constant subscript key text (`"title"`, `3`).
pub(super) fn const_key(expr: &Expr) -> Option<String> {
    match expr {
        Expr::StringLiteral(s) => Some(s.value.to_str().to_string()),
        Expr::NumberLiteral(n) => Some(format!("{:?}", n.value)),
        _ => None,
    }
}

impl Flow<'_> {
    /// The score-bearing name a target writes to, if any.
    fn score_target<'e>(&self, target: &'e Expr) -> Option<(&'e str, bool)> {
        match target {
            Expr::Name(n) if self.is_score_target(n.id.as_str()) => Some((n.id.as_str(), false)),
            Expr::Subscript(s) => match s.value.as_ref() {
                Expr::Name(n) if self.is_score_target(n.id.as_str()) => Some((n.id.as_str(), true)),
                _ => None,
            },
            Expr::Attribute(a) if self.is_score_target(a.attr.as_str()) => {
                Some((a.attr.as_str(), false))
            }
            _ => None,
        }
    }

    /// Record awards made by `target = value`.
    pub(super) fn score_assign(&mut self, target: &Expr, value: &Expr, offset: usize) {
        let Some((name, item)) = self.score_target(target) else {
            return;
        };
        let parts = terms(value);
        let self_ref = parts
            .iter()
            .position(|t| matches!(t, Expr::Name(n) if n.id.as_str() == name));
        let kind = if item || self_ref.is_some() {
            AwardKind::Increment
        } else {
            AwardKind::Set
        };
        for (i, term) in parts.iter().enumerate() {
            if Some(i) == self_ref {
                continue;
            }
            let val = self.eval(term);
            self.award(kind, offset, &val);
        }
    }

    /// `target op= value`.
    pub(super) fn aug_assign(&mut self, a: &ast::StmtAugAssign) {
        let val = self.eval(&a.value);
        if a.op == Operator::Add && self.score_target(&a.target).is_some() {
            for term in terms(&a.value) {
                let v = self.eval(term);
                self.award(AwardKind::Increment, start(a), &v);
            }
        }
        let old = self.eval(&a.target);
        let num = match (a.op, old.num, val.num) {
            (Operator::Add, Some(x), Some(y)) => Some(x + y),
            (Operator::Sub, Some(x), Some(y)) => Some(x - y),
            (Operator::Mult, Some(x), Some(y)) => Some(x * y),
            _ => None,
        };
        let mut taint = old.taint.clone().joined(&val.taint);
        if matches!(a.op, Operator::Add | Operator::Sub) {
            let cond = self.gate_pc();
            taint.judge_w = old.taint.judge_w + contribution(&val.taint, val.num, &cond);
        }
        let combined = Val {
            taint,
            num,
            text: None,
            flaglike: old.flaglike && val.flaglike,
        };
        self.assign(&a.target, combined, start(a));
    }

    /// Bind a target to a value.
    pub(super) fn assign(&mut self, target: &Expr, val: Val, offset: usize) {
        match target {
            Expr::Name(n) => self.store_name(n.id.as_str(), val, offset),
            Expr::Tuple(t) => self.assign_seq(&t.elts, val, offset),
            Expr::List(l) => self.assign_seq(&l.elts, val, offset),
            Expr::Starred(s) => self.assign(&s.value, val, offset),
            Expr::Subscript(s) => {
                let Expr::Name(n) = s.value.as_ref() else {
                    self.eval(&s.value);
                    return;
                };
                let container = n.id.as_str();
                self.containers.insert(container.to_string());
                match const_key(&s.slice) {
                    Some(key) => self.store_name(&format!("{container}[{key}]"), val, offset),
                    None => {
                        let key = self.eval(&s.slice).taint.unmarked();
                        let mut v = val;
                        v.taint.join(&key);
                        self.store_item(container, v);
                    }
                }
            }
            Expr::Attribute(_) => {
                self.attr_vars = true;
                let key = self.lines.text(super::py::span(target)).to_string();
                self.store_name(&key, val, offset);
            }
            _ => {}
        }
    }

    /// `target = value`, pairing elements of `a, b = x, y`.
    pub(super) fn assign_expr(&mut self, target: &Expr, value: &Expr, offset: usize) {
        if let (Some(ts), Some(vs)) = (seq(target), seq(value)) {
            if ts.len() == vs.len() {
                for (t, v) in ts.iter().zip(vs) {
                    self.assign_expr(t, v, offset);
                }
                return;
            }
        }
        let val = self.eval(value);
        self.assign(target, val, offset);
    }

    /// Every element gets the whole value.
    fn assign_seq(&mut self, targets: &[Expr], val: Val, offset: usize) {
        for target in targets {
            self.assign(target, val.clone(), offset);
        }
    }

    /// Add a value into a container without a constant key (weak update of the whole).
    pub(super) fn store_item(&mut self, container: &str, val: Val) {
        // The container may be bound in an enclosing scope (a module-level list filled by a
        // helper function).
        let idx = (0..self.scopes.len())
            .rev()
            .find(|&i| self.scopes[i].contains_key(container))
            .unwrap_or(self.scopes.len().saturating_sub(1));
        let mut merged = self
            .scopes
            .get(idx)
            .and_then(|s| s.get(container))
            .cloned()
            .unwrap_or_default();
        let mut v = val;
        if let Some(ctrl) = self.local_pc() {
            super::flow::join_ctrl(&mut v, &ctrl);
        }
        merged.taint.join(&v.taint);
        merged.num = None;
        merged.flaglike = false;
        if let Some(scope) = self.scopes.get_mut(idx) {
            scope.insert(container.to_string(), merged);
        }
    }
}
