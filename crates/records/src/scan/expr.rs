//! Expression evaluation for the data-flow pass: what each expression depends on.

use rustc_hash::FxHashMap as HashMap;
use std::rc::Rc;

use super::assign::const_key;
use super::flow::Flow;
use super::py::{ast, start};
use super::taint::{wmax, Taint, Val};
use ast::{BoolOp, CmpOp, Expr, Number, Operator, UnaryOp};

/// `a.b.c` for a chain of names and attributes.
pub fn dotted(expr: &Expr) -> Option<String> {
    match expr {
        Expr::Name(n) => Some(n.id.as_str().to_string()),
        Expr::Attribute(a) => dotted(&a.value).map(|v| format!("{v}.{}", a.attr.as_str())),
        _ => None,
    }
}

fn number(n: &Number) -> Option<f64> {
    match n {
        Number::Int(i) => i.as_u64().map(|v| v as f64),
        Number::Float(f) => Some(*f),
        Number::Complex { .. } => None,
    }
}

impl Flow<'_> {
    /// Evaluate an expression abstractly.
    pub(super) fn eval(&mut self, expr: &Expr) -> Val {
        match expr {
            Expr::BooleanLiteral(b) => Val {
                taint: Taint {
                    bool_true: b.value.then(|| start(b)),
                    ..Taint::default()
                },
                num: Some(if b.value { 1.0 } else { 0.0 }),
                text: None,
                flaglike: !b.value,
            },
            Expr::NoneLiteral(_) => Val {
                flaglike: true,
                ..Val::default()
            },
            Expr::NumberLiteral(n) => {
                let num = number(&n.value);
                Val {
                    taint: Taint {
                        truthy: num.filter(|v| *v != 0.0).map(|_| start(n)),
                        ..Taint::default()
                    },
                    num,
                    ..Val::default()
                }
            }
            Expr::StringLiteral(s) => {
                let text = s.value.to_str();
                Val {
                    taint: Taint {
                        truthy: (!text.is_empty()).then(|| start(s)),
                        ..Taint::default()
                    },
                    text: Some(Rc::from(text)),
                    ..Val::default()
                }
            }
            Expr::BytesLiteral(_) | Expr::EllipsisLiteral(_) => Val::default(),
            Expr::FString(f) => {
                let mut out = Val::default();
                for element in f.value.elements() {
                    if let ast::InterpolatedStringElement::Interpolation(i) = element {
                        let v = self.eval(&i.expression);
                        out.taint.join(&v.taint);
                    }
                }
                out
            }
            Expr::TString(_) | Expr::IpyEscapeCommand(_) => Val::env(),
            Expr::Lambda(l) => {
                // The value of a lambda is what calling it returns (parameters are unknown).
                self.scopes.push(HashMap::default());
                let v = self.eval(&l.body);
                self.scopes.pop();
                v
            }
            Expr::Name(n) => self.load_name(n.id.as_str()),
            Expr::Attribute(a) => {
                if self.attr_vars {
                    let key = self.lines.text(super::py::span(a));
                    if let Some(v) = self.lookup(key) {
                        return v.clone();
                    }
                }
                let mut v = self.eval(&a.value);
                v.num = None;
                v.text = None;
                v
            }
            Expr::Subscript(s) => self.subscript(s),
            Expr::Call(c) => self.call(c),
            Expr::Named(n) => {
                let v = self.eval(&n.value);
                self.assign(&n.target, v.clone(), start(n));
                v
            }
            Expr::BinOp(b) => {
                let l = self.eval(&b.left);
                let mut r = self.eval(&b.right);
                let judge_w = super::judge::binop_weight(b.op, &l, &r);
                if matches!(b.op, Operator::Div | Operator::FloorDiv | Operator::Mod) {
                    // A default denominator set in a handler (`except: total = 1`) is no success.
                    r.taint.err_success = None;
                }
                let num = match (l.num, r.num) {
                    (Some(x), Some(y)) => match b.op {
                        Operator::Add => Some(x + y),
                        Operator::Sub => Some(x - y),
                        Operator::Mult => Some(x * y),
                        Operator::Div if y != 0.0 => Some(x / y),
                        _ => None,
                    },
                    _ => None,
                };
                let text = match (b.op, &l.text, &r.text) {
                    (Operator::Add, Some(x), Some(y)) => Some(Rc::from(format!("{x}{y}"))),
                    (Operator::Div, Some(x), Some(y)) => Some(Rc::from(format!("{x}/{y}"))),
                    _ => None,
                };
                let mut taint = l.taint.joined(&r.taint);
                taint.judge_w = judge_w;
                Val {
                    taint,
                    num,
                    text,
                    flaglike: false,
                }
            }
            Expr::UnaryOp(u) => {
                let v = self.eval(&u.operand);
                match u.op {
                    UnaryOp::Not => Val {
                        taint: v.taint.negated(),
                        num: v.num.map(|n| if n == 0.0 { 1.0 } else { 0.0 }),
                        text: None,
                        flaglike: true,
                    },
                    UnaryOp::USub => Val {
                        num: v.num.map(|n| -n),
                        ..v
                    },
                    _ => v,
                }
            }
            Expr::BoolOp(b) => {
                let mut out = Val {
                    flaglike: true,
                    ..Val::default()
                };
                let mut nums = Vec::new();
                for value in &b.values {
                    let v = self.eval(value);
                    out.taint.join(&v.taint);
                    out.flaglike &= v.flaglike || v.taint.bool_true.is_some();
                    nums.push(v.num);
                }
                if nums.iter().all(Option::is_some) {
                    let truth = nums.iter().map(|n| n.is_some_and(|v| v != 0.0));
                    let all = match b.op {
                        BoolOp::And => truth.clone().all(|t| t),
                        BoolOp::Or => truth.clone().any(|t| t),
                    };
                    out.num = Some(if all { 1.0 } else { 0.0 });
                }
                out
            }
            Expr::Compare(c) => self.compare(c),
            Expr::If(i) => {
                let test = self.eval(&i.test);
                let mut body = self.eval(&i.body);
                let mut orelse = self.eval(&i.orelse);
                if test.taint.inspects() {
                    body.taint.clear_markers();
                    orelse.taint.clear_markers();
                }
                // `0.7 if llm_ok else 0.0`: the judge decides as much as the larger branch.
                let mut judge_w = wmax(body.taint.judge_w, orelse.taint.judge_w);
                if test.taint.judge.is_some() {
                    for n in [body.num, orelse.num] {
                        judge_w = wmax(judge_w, n.map_or(f64::NAN, f64::abs));
                    }
                }
                let mut taint = test.taint.joined(&body.taint).joined(&orelse.taint);
                taint.judge_w = judge_w;
                Val {
                    taint,
                    num: if body.num == orelse.num {
                        body.num
                    } else {
                        None
                    },
                    text: None,
                    flaglike: body.flaglike && orelse.flaglike,
                }
            }
            Expr::Dict(d) => {
                let mut out = Val::default();
                for item in &d.items {
                    if let Some(k) = &item.key {
                        out.taint.join(&self.eval(k).taint.unmarked());
                    }
                    out.taint.join(&self.eval(&item.value).taint);
                }
                out.taint.truthy = None;
                out
            }
            Expr::List(l) => self.join_all(&l.elts),
            Expr::Tuple(t) => self.join_all(&t.elts),
            Expr::Set(s) => self.join_all(&s.elts),
            Expr::ListComp(c) => self.comprehension(&c.generators, &[&c.elt]),
            Expr::SetComp(c) => self.comprehension(&c.generators, &[&c.elt]),
            Expr::Generator(c) => self.comprehension(&c.generators, &[&c.elt]),
            Expr::DictComp(c) => match &c.key {
                Some(k) => self.comprehension(&c.generators, &[k, &c.value]),
                None => self.comprehension(&c.generators, &[&c.value]),
            },
            Expr::Await(a) => self.eval(&a.value),
            Expr::Yield(_) | Expr::YieldFrom(_) => Val::env(),
            Expr::Starred(s) => self.eval(&s.value),
            Expr::Slice(s) => {
                let mut out = Val::default();
                for part in [&s.lower, &s.upper, &s.step].into_iter().flatten() {
                    out.taint.join(&self.eval(part).taint.unmarked());
                }
                out
            }
        }
    }

    /// A display (`[a, b]`, `(a, b)`): joins its elements. Truthy literals inside a container
    /// are data (names, weights), not flags, so only `True` markers survive.
    fn join_all(&mut self, elts: &[Expr]) -> Val {
        let mut out = Val::default();
        for e in elts {
            out.taint.join(&self.eval(e).taint);
        }
        out.taint.truthy = None;
        out
    }

    /// A name read: its binding, joined with its constant-key items if it is a container.
    fn load_name(&mut self, name: &str) -> Val {
        let base = self.lookup(name).cloned();
        if !self.containers.contains(name) {
            return base.unwrap_or_else(Val::env);
        }
        let prefix = format!("{name}[");
        let mut out = base.unwrap_or_default();
        out.num = None;
        out.text = None;
        let mut found = false;
        for scope in &self.scopes {
            for (k, v) in scope {
                if k.starts_with(&prefix) {
                    out.taint.join(&v.taint);
                    found = true;
                }
            }
        }
        if !found && self.lookup(name).is_none() {
            return Val::env();
        }
        out
    }

    fn subscript(&mut self, s: &ast::ExprSubscript) -> Val {
        if let Expr::Name(n) = s.value.as_ref() {
            if self.containers.contains(n.id.as_str()) {
                if let Some(key) = const_key(&s.slice) {
                    if let Some(v) = self.lookup(&format!("{}[{key}]", n.id.as_str())) {
                        return v.clone();
                    }
                }
            }
        }
        let mut v = self.eval(&s.value);
        let key = self.eval(&s.slice);
        v.taint.join(&key.taint.unmarked());
        v.num = None;
        v.text = None;
        v.flaglike = false;
        v
    }

    fn compare(&mut self, c: &ast::ExprCompare) -> Val {
        let mut out = self.eval(&c.left);
        out.num = None;
        out.text = None;
        for (op, right) in c.ops.iter().zip(c.comparators.iter()) {
            let mut r = self.eval(right).taint;
            if matches!(op, CmpOp::NotIn) {
                r = r.negated();
            }
            out.taint.join(&r);
        }
        if out.taint.inspects() {
            out.taint.clear_markers();
        } else {
            out.taint.truthy = None;
        }
        out.flaglike = true;
        out
    }

    fn comprehension(&mut self, gens: &[ast::Comprehension], elts: &[&Expr]) -> Val {
        self.scopes.push(HashMap::default());
        let mut out = Val::default();
        for g in gens {
            let iter = self.eval(&g.iter);
            out.taint.join(&iter.taint);
            self.assign(&g.target, iter, start(g));
            for cond in &g.ifs {
                out.taint.join(&self.eval(cond).taint);
            }
        }
        for e in elts {
            out.taint.join(&self.eval(e).taint);
        }
        self.scopes.pop();
        out
    }
}
