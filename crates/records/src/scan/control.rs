//! Control flow for the data-flow pass: `if`/`elif`/`else` (with early-exit guards), `try`
//! bodies, function definitions (summaries) and the block-exit test.

use rustc_hash::FxHashMap as HashMap;

use super::errpath::ErrKind;
use super::flow::{Flow, PcKind};
use super::py::ast;
use super::taint::{Taint, Val};
use ast::{Expr, Stmt};

impl Flow<'_> {
    /// A `try` body: once a statement has read the environment, the rest runs only if that read
    /// succeeded (a parse, a sheet lookup), which counts as an inspection. Returns whether the
    /// body read the environment (then its `else` runs only after a successful read).
    pub(super) fn try_body(&mut self, stmts: &[Stmt]) -> bool {
        let depth = self.pc.len();
        let mut guarded = false;
        for stmt in stmts {
            let reads = self.env_reads;
            if let Some(guard) = self.stmt(stmt) {
                self.pc.push((PcKind::Guard, guard));
            }
            if !guarded && self.env_reads > reads {
                guarded = true;
                self.pc.push((PcKind::Guard, Taint::env()));
            }
        }
        self.pc.truncate(depth);
        guarded
    }

    pub(super) fn if_stmt(&mut self, i: &ast::StmtIf) -> Option<Taint> {
        let test = self.eval(&i.test).taint;
        if self.is_error_test(&i.test) {
            self.pc.push((PcKind::Branch, test.clone()));
            self.error_block(ErrKind::Branch, super::py::start(i), &i.body);
            self.pc.pop();
        } else {
            self.branch(PcKind::Branch, test.clone(), &i.body);
        }
        let mut prior = test.clone().negated();
        let mut has_else = false;
        let mut else_exits = false;
        for clause in &i.elif_else_clauses {
            let mut cond = prior.clone();
            match &clause.test {
                Some(t) => {
                    let tv = self.eval(t).taint;
                    cond.join(&tv);
                    prior.join(&tv.negated());
                }
                None => {
                    has_else = true;
                    else_exits = exits(&clause.body);
                }
            }
            self.branch(PcKind::Branch, cond, &clause.body);
        }
        if exits(&i.body) && !has_else && i.elif_else_clauses.is_empty() {
            Some(test.negated().unmarked())
        } else if else_exits && i.elif_else_clauses.len() == 1 {
            Some(test.unmarked())
        } else {
            None
        }
    }

    pub(super) fn function(&mut self, def: &ast::StmtFunctionDef) {
        self.scopes.push(HashMap::default());
        self.fn_base.push(self.pc.len());
        self.returns.push(Vec::new());
        self.global_names.push(Default::default());
        self.fn_names.push(def.name.as_str().to_string());
        self.block(&def.body);
        self.fn_names.pop();
        self.global_names.pop();
        let rets = self.returns.pop().unwrap_or_default();
        self.fn_base.pop();
        self.scopes.pop();
        let mut summary = Val::default();
        let mut nums = rets.iter().map(|r| r.num);
        let first = nums.next().flatten();
        for r in &rets {
            summary.taint.join(&r.taint);
        }
        if summary.taint.inspects() {
            summary.taint.clear_markers();
        }
        summary.num = if nums.all(|n| n == first) {
            first
        } else {
            None
        };
        if rets.is_empty() {
            summary.taint.env = true;
        }
        self.funcs.insert(def.name.as_str().to_string(), summary);
    }
}

/// True when a block always leaves: `return`, `raise`, `continue`, `break`, `sys.exit()`.
pub(super) fn exits(body: &[Stmt]) -> bool {
    match body.last() {
        Some(Stmt::Return(_) | Stmt::Raise(_) | Stmt::Continue(_) | Stmt::Break(_)) => true,
        Some(Stmt::Expr(e)) => match e.value.as_ref() {
            Expr::Call(c) => matches!(
                super::expr::dotted(&c.func).as_deref(),
                Some("sys.exit" | "exit" | "quit" | "os._exit")
            ),
            _ => false,
        },
        Some(Stmt::If(i)) => {
            exits(&i.body)
                && i.elif_else_clauses.iter().any(|c| c.test.is_none())
                && i.elif_else_clauses.iter().all(|c| exits(&c.body))
        }
        _ => false,
    }
}
