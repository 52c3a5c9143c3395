//! A cheap syntactic pre-pass before the data-flow pass: which names are score names (printed
//! as the reward, or accumulated with `+=` and returned from a function), and whether some
//! function calls a function defined after it — only then does the data-flow pass need a first
//! round to summarise functions before the recording round.

use rustc_hash::FxHashSet as HashSet;

use super::expr::dotted;
use super::printed::collect_parts;
use super::py::ast;
use ast::visitor::{walk_expr, walk_stmt, Visitor};
use ast::{Expr, Operator, Stmt};

/// What the pre-pass learned.
#[derive(Debug, Default)]
pub struct Prepass {
    /// Names interpolated into a `REWARD:` print, and returned accumulators.
    pub score_names: HashSet<String>,
    /// Some function calls a function defined later (or itself).
    pub needs_summaries: bool,
}

#[derive(Default)]
struct Collect {
    defs: Vec<String>,
    current: Vec<usize>,
    calls: Vec<(usize, String)>,
    added: HashSet<String>,
    returned: HashSet<String>,
    printed: HashSet<String>,
}

impl<'a> Visitor<'a> for Collect {
    fn visit_stmt(&mut self, stmt: &'a Stmt) {
        match stmt {
            Stmt::FunctionDef(def) => {
                self.defs.push(def.name.as_str().to_string());
                self.current.push(self.defs.len() - 1);
                walk_stmt(self, stmt);
                self.current.pop();
                return;
            }
            Stmt::AugAssign(a) if a.op == Operator::Add => {
                if let Expr::Name(n) = a.target.as_ref() {
                    self.added.insert(n.id.as_str().to_string());
                }
            }
            Stmt::Return(r) => {
                if let Some(Expr::Name(n)) = r.value.as_deref() {
                    self.returned.insert(n.id.as_str().to_string());
                }
            }
            _ => {}
        }
        walk_stmt(self, stmt);
    }

    fn visit_expr(&mut self, expr: &'a Expr) {
        if let Expr::Call(c) = expr {
            match dotted(&c.func).as_deref() {
                Some("print" | "sys.stdout.write") => {
                    let mut text = String::new();
                    let mut parts = Vec::new();
                    for arg in c.arguments.args.iter() {
                        collect_parts(arg, &mut text, &mut parts);
                    }
                    if text.contains("REWARD") {
                        for p in parts {
                            if let Expr::Name(n) = p {
                                self.printed.insert(n.id.as_str().to_string());
                            }
                        }
                    }
                }
                Some(name) => {
                    if let Some(&caller) = self.current.last() {
                        self.calls.push((caller, name.to_string()));
                    }
                }
                None => {}
            }
        }
        walk_expr(self, expr);
    }
}

/// Run the pre-pass over a module.
pub fn run(suite: &[Stmt]) -> Prepass {
    let mut c = Collect::default();
    for stmt in suite {
        c.visit_stmt(stmt);
    }
    let needs_summaries = c.calls.iter().any(|(caller, callee)| {
        c.defs
            .iter()
            .enumerate()
            .any(|(i, d)| i >= *caller && d == callee)
    });
    let mut score_names = c.printed;
    score_names.extend(c.added.intersection(&c.returned).cloned());
    Prepass {
        score_names,
        needs_summaries,
    }
}
