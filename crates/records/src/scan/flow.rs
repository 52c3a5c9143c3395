//! The data-flow pass: walks statements in order, tracks an abstract [`Val`] per name (constants
//! vs values computed from environment reads), the control dependence of every statement, and
//! records every place score is awarded ([`Award`]). Rules then judge the awards.
//!
//! Scoping is simple on purpose: one map per function plus the module map; stores under a
//! condition or loop are weak (joined with the old value); an `if` whose body exits (`return`,
//! `sys.exit`, `raise`, `continue`) guards the rest of its block.

use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};

use super::errpath::{catches_failure, ErrKind, ErrPath};
use super::facts::{Award, AwardKind, Facts};
use super::py::{ast, start, Lines};
use super::taint::{Taint, Val};
use ast::Stmt;

/// Why a condition is on the control stack.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum PcKind {
    /// An `if`/`elif`/`else`/`match`/`except` branch.
    Branch,
    /// A loop body (iterable or `while` test, markers stripped).
    Loop,
    /// The rest of a block after an early exit or an `assert`.
    Guard,
    /// An `except` handler: stores there depend on the environment (whether it raised), but
    /// an award there inspects nothing.
    Handler,
}

/// The walker state.
pub struct Flow<'s> {
    pub(super) lines: &'s Lines<'s>,
    pub(super) scopes: Vec<HashMap<String, Val>>,
    pub(super) containers: HashSet<String>,
    pub(super) pc: Vec<(PcKind, Taint)>,
    pub(super) fn_base: Vec<usize>,
    pub(super) funcs: HashMap<String, Val>,
    pub(super) score_names: HashSet<String>,
    pub(super) facts: Facts,
    pub(super) returns: Vec<Vec<Val>>,
    pub(super) record: bool,
    /// Import aliases: local name -> qualified name (`present` -> `os.path.exists`).
    pub(super) aliases: HashMap<String, String>,
    /// Number of environment-reading calls evaluated so far.
    pub(super) env_reads: usize,
    /// Some attribute (`self.ok`, `cfg.flag`) has been bound as a variable.
    pub(super) attr_vars: bool,
    /// Names declared `global` in each enclosing function.
    pub(super) global_names: Vec<HashSet<String>>,
    /// Names of the enclosing functions.
    pub(super) fn_names: Vec<String>,
    /// The error paths (handlers, finally blocks, error branches) being walked.
    pub(super) err_ctx: Vec<ErrPath>,
    /// Names a failure handler set to a truthy value (`error = str(e)`).
    pub(super) err_truthy: HashSet<String>,
    /// Names a failure handler set to a falsy constant (`data = None`).
    pub(super) err_falsy: HashSet<String>,
    /// Functions that return a failure value (`None` from a handler).
    pub(super) err_falsy_fns: HashSet<String>,
    /// The exception name (`except E as exc`) of the failure handler being walked.
    pub(super) handler_exc: Option<String>,
    /// Names bound to a path naming a Generator artifact, as far as it is known
    /// (`GT = os.path.join(os.path.dirname(__file__), "gt", "x.json")`).
    pub(super) artifact_names: HashMap<String, String>,
}

/// Run the pass over a module. A first, non-recording round summarises functions only when
/// some function calls one defined after it; the recording round follows.
pub fn analyze(suite: &[Stmt], lines: &Lines) -> Facts {
    let pre = super::prepass::run(suite);
    let mut flow = Flow {
        lines,
        scopes: vec![HashMap::default()],
        containers: HashSet::default(),
        pc: Vec::new(),
        fn_base: vec![0],
        funcs: HashMap::default(),
        score_names: pre.score_names,
        facts: Facts::default(),
        returns: Vec::new(),
        record: false,
        aliases: HashMap::default(),
        env_reads: 0,
        attr_vars: false,
        global_names: Vec::new(),
        fn_names: Vec::new(),
        err_ctx: Vec::new(),
        err_truthy: HashSet::default(),
        err_falsy: HashSet::default(),
        err_falsy_fns: HashSet::default(),
        handler_exc: None,
        artifact_names: HashMap::default(),
    };
    if pre.needs_summaries {
        flow.block(suite);
        flow.scopes = vec![HashMap::default()];
        flow.containers.clear();
        flow.pc.clear();
    }
    flow.record = true;
    flow.block(suite);
    flow.facts
}

/// Make a stored value control-dependent on `ctrl`: markers drop under a real inspection; a
/// truthy-constant condition makes the value as constant as that flag; under a condition
/// taken from an LLM judge the value is the judge's to the extent of its own size (`ok = True`
/// is wholly the judge's, `bonus = 0.3` is 0.3 of it), not the condition's weight.
pub(super) fn join_ctrl(val: &mut Val, ctrl: &Taint) {
    if ctrl.inspects() {
        val.taint.clear_markers();
    }
    let (w, err) = (val.taint.judge_w, val.taint.err_success);
    val.taint.join(ctrl);
    // `if failed: score = 0.0` stores no success, whatever the condition.
    if val.num.is_some_and(|n| n <= 0.0) {
        val.taint.err_success = err;
    }
    val.taint.judge_w = if ctrl.judge.is_some() && w == 0.0 {
        val.num.map_or(f64::NAN, f64::abs)
    } else {
        w
    };
    val.taint.bool_true = val.taint.bool_true.or(ctrl.truthy);
}

/// Score-like variable names: `score`, `total_reward`, `points_earned`, `credit`. Not
/// ALL-CAPS constants (`POINTS`, `MAX_SCORE` are weight tables and bounds) and not bare `total`
/// (usually a count); those become score names only when printed as the reward or returned as
/// an accumulator.
pub(super) fn looks_like_score(name: &str) -> bool {
    if name.chars().all(|c| !c.is_ascii_lowercase()) {
        return false;
    }
    let n = name.to_ascii_lowercase();
    let scorey = ["score", "reward", "points", "earned", "credit", "grade"]
        .iter()
        .any(|w| n.contains(w));
    let excluded = ["max", "possible", "weight", "threshold", "expected", "min_"]
        .iter()
        .any(|w| n.contains(w));
    scorey && !excluded
}

impl<'s> Flow<'s> {
    pub(super) fn lookup(&self, name: &str) -> Option<&Val> {
        self.scopes.iter().rev().find_map(|scope| scope.get(name))
    }

    /// Join of the conditions on the stack (all kinds).
    pub(super) fn gate_pc(&self) -> Taint {
        let mut t = Taint::default();
        for (kind, c) in &self.pc {
            if *kind != PcKind::Handler {
                t.join(c);
            }
        }
        t
    }

    /// Join of `if`/loop conditions inside the current function (what makes a store weak).
    pub(super) fn local_pc(&self) -> Option<Taint> {
        let base = self.fn_base.last().copied().unwrap_or(0);
        let mut out: Option<Taint> = None;
        for (kind, c) in self.pc.iter().skip(base) {
            match kind {
                PcKind::Guard => {}
                PcKind::Handler => out.get_or_insert_with(Taint::default).join(&Taint::env()),
                _ => out.get_or_insert_with(Taint::default).join(c),
            }
        }
        out
    }

    pub(super) fn is_score_target(&self, name: &str) -> bool {
        self.score_names.contains(name) || looks_like_score(name)
    }

    /// Record an award (second pass only).
    pub(super) fn award(&mut self, kind: AwardKind, offset: usize, val: &Val) {
        self.award_return(kind, offset, val, (false, false));
    }

    /// Record an award; `ret` is `(bool_return, success_return)` for a `return`.
    pub(super) fn award_return(
        &mut self,
        kind: AwardKind,
        offset: usize,
        val: &Val,
        ret: (bool, bool),
    ) {
        if !self.record {
            return;
        }
        let cond = self.gate_pc();
        let local_cond = self.local_pc().unwrap_or_default();
        let error_path = self.error_path();
        self.facts.awards.push(Award {
            kind,
            offset,
            cond,
            local_cond,
            value: val.taint.clone(),
            num: val.num,
            error_path,
            bool_return: ret.0,
            success_return: ret.1,
        });
    }

    /// Bind `name` to `val`, weakly when under a condition or loop of this function.
    pub(super) fn store_name(&mut self, name: &str, mut val: Val, offset: usize) {
        self.mark_error_store(name, &mut val, offset);
        // `global x` inside a function: the store goes to the module scope, and whether the
        // function runs at all is unknown, so it is a weak update there.
        let last = self.scopes.len().saturating_sub(1);
        let mut global = last > 0 && self.global_names.last().is_some_and(|g| g.contains(name));
        let mut scope_idx = if global { 0 } else { last };
        // An item of a container bound in an enclosing scope (`results["x"] = …` inside a
        // helper) mutates that container, no `global` needed.
        if let Some((base, _)) = name.split_once('[') {
            if last > 0 && !self.scopes[last].contains_key(base) {
                if let Some(idx) = (0..last).rev().find(|&i| self.scopes[i].contains_key(base)) {
                    scope_idx = idx;
                    global = true;
                }
            }
        }
        let ctrl = match self.local_pc() {
            None if global => Some(Taint::default()),
            other => other,
        };
        let old = self
            .scopes
            .get(scope_idx)
            .and_then(|s| s.get(name))
            .cloned();
        if let Some(old) = &old {
            if val.taint.inspects() {
                // `ok = ok and check`: the old constant has now been evaluated.
                if val.taint.bool_true == old.taint.bool_true {
                    val.taint.bool_true = None;
                }
                if val.taint.truthy == old.taint.truthy {
                    val.taint.truthy = None;
                }
                if val.taint.placeholder == old.taint.placeholder {
                    val.taint.placeholder = None;
                }
                // `ok = ok and check` after `except: ok = True`: evaluated since.
                if val.flaglike && val.taint.err_success == old.taint.err_success {
                    val.taint.err_success = None;
                }
            }
        }
        if let Some(ctrl) = &ctrl {
            join_ctrl(&mut val, ctrl);
        }
        if val.flaglike && !val.taint.inspects() && val.taint.bool_true.is_none() {
            val.taint.truthy = None;
            val.taint.placeholder = val.taint.placeholder.or(Some(offset));
        }
        if let (Some(_), Some(old)) = (&ctrl, old) {
            let mut merged = old.taint.joined(&val.taint);
            if merged.inspects() {
                merged.clear_markers();
            }
            val = Val {
                taint: merged,
                num: if old.num == val.num { val.num } else { None },
                text: if old.text == val.text { val.text } else { None },
                flaglike: old.flaglike && val.flaglike,
            };
        }
        if let Some(scope) = self.scopes.get_mut(scope_idx) {
            scope.insert(name.to_string(), val);
        }
    }

    /// Walk a block; early-exit guards apply to the rest of it.
    pub(super) fn block(&mut self, stmts: &[Stmt]) {
        let depth = self.pc.len();
        for stmt in stmts {
            if let Some(guard) = self.stmt(stmt) {
                self.pc.push((PcKind::Guard, guard));
            }
        }
        self.pc.truncate(depth);
    }

    pub(super) fn branch(&mut self, kind: PcKind, cond: Taint, body: &[Stmt]) {
        self.pc.push((kind, cond));
        self.block(body);
        self.pc.pop();
    }

    /// One statement; returns a guard for the rest of the block, if it creates one.
    pub(super) fn stmt(&mut self, stmt: &Stmt) -> Option<Taint> {
        match stmt {
            Stmt::FunctionDef(def) => self.function(def),
            Stmt::ClassDef(class) => self.block(&class.body),
            Stmt::Return(ret) => {
                let val = match &ret.value {
                    Some(v) => self.eval(v),
                    None => Val::default(),
                };
                self.note_failure_return(ret.value.as_deref());
                // A function named like a parameter (`max_score()`, `weight_for()`) returning a
                // constant is configuration, not a success value.
                let config_like = self.fn_names.last().is_some_and(|n| {
                    let n = n.to_ascii_lowercase();
                    ["weight", "max", "threshold", "tol", "limit", "default"]
                        .iter()
                        .any(|w| n.contains(w))
                });
                if !self.returns.is_empty() && !config_like {
                    let info = self.return_info(ret.value.as_deref(), &val);
                    self.award_return(AwardKind::Return, start(ret), &val, info);
                }
                let cond = self.gate_pc().unmarked();
                if let Some(rets) = self.returns.last_mut() {
                    // Callers see a flag the function asserted earlier (`ok = True; return ok`),
                    // not the literal of `return True` (rule 3 reports that at the return).
                    let at = start(ret);
                    let mut v = val;
                    v.taint.bool_true = v.taint.bool_true.filter(|&m| m < at);
                    v.taint.placeholder = v.taint.placeholder.filter(|&m| m < at);
                    v.taint.truthy = None;
                    v.taint.join(&cond);
                    rets.push(v);
                }
            }
            Stmt::Assign(a) => {
                for target in &a.targets {
                    self.note_failure_assign(target, &a.value);
                    self.note_path_name(target, &a.value);
                    self.score_assign(target, &a.value, start(a));
                    self.assign_expr(target, &a.value, start(a));
                }
            }
            Stmt::AnnAssign(a) => {
                if let Some(value) = &a.value {
                    self.score_assign(&a.target, value, start(a));
                    self.assign_expr(&a.target, value, start(a));
                }
            }
            Stmt::AugAssign(a) => self.aug_assign(a),
            Stmt::For(f) => {
                let iter = self.eval(&f.iter);
                self.assign(&f.target, iter.clone(), start(f));
                self.branch(PcKind::Loop, iter.taint.unmarked(), &f.body);
                self.block(&f.orelse);
            }
            Stmt::While(w) => {
                let test = self.eval(&w.test);
                self.branch(PcKind::Loop, test.taint.unmarked(), &w.body);
                self.block(&w.orelse);
            }
            Stmt::If(i) => return self.if_stmt(i),
            Stmt::With(w) => {
                for item in &w.items {
                    let val = self.eval(&item.context_expr);
                    if let Some(var) = &item.optional_vars {
                        self.assign(var, val, start(item));
                    }
                }
                self.block(&w.body);
            }
            Stmt::Match(m) => {
                let subject = self.eval(&m.subject).taint;
                for case in &m.cases {
                    let mut cond = subject.clone();
                    if let Some(g) = &case.guard {
                        cond.join(&self.eval(g).taint);
                    }
                    self.branch(PcKind::Branch, cond, &case.body);
                }
            }
            Stmt::Try(t) => {
                let read = self.try_body(&t.body);
                for handler in &t.handlers {
                    let ast::ExceptHandler::ExceptHandler(h) = handler;
                    if let Some(name) = &h.name {
                        self.store_name(name.as_str(), Val::env(), start(h));
                    }
                    // Reaching a handler says nothing about the state being right: an award
                    // there inspects nothing.
                    self.pc.push((PcKind::Handler, Taint::default()));
                    if catches_failure(h) {
                        let exc = h.name.as_ref().map(|n| n.as_str().to_string());
                        let outer = std::mem::replace(&mut self.handler_exc, exc);
                        self.error_block(ErrKind::Handler, start(h), &h.body);
                        self.handler_exc = outer;
                    } else {
                        self.block(&h.body);
                    }
                    self.pc.pop();
                }
                // `else` runs only when the body (and its reads) succeeded.
                if read && !t.orelse.is_empty() {
                    self.branch(PcKind::Guard, Taint::env(), &t.orelse);
                } else {
                    self.block(&t.orelse);
                }
                if let Some(first) = t.finalbody.first() {
                    self.error_block(ErrKind::Finally, start(first), &t.finalbody);
                }
            }
            Stmt::Assert(a) => return Some(self.eval(&a.test).taint.unmarked()),
            Stmt::Global(g) => {
                if let Some(set) = self.global_names.last_mut() {
                    set.extend(g.names.iter().map(|n| n.as_str().to_string()));
                }
            }
            Stmt::Import(i) => {
                for a in &i.names {
                    self.artifact_import(a.name.as_str(), start(a));
                    if let Some(local) = &a.asname {
                        self.aliases
                            .insert(local.as_str().to_string(), a.name.as_str().to_string());
                    }
                }
            }
            Stmt::ImportFrom(i) => {
                let module = i.module.as_ref().map_or("", |m| m.as_str());
                for a in &i.names {
                    let local = a.asname.as_ref().unwrap_or(&a.name).as_str();
                    let qualified = format!("{module}.{}", a.name.as_str());
                    self.artifact_import(&qualified, start(a));
                    self.aliases.insert(local.to_string(), qualified);
                }
            }
            Stmt::Expr(e) => {
                self.eval(&e.value);
            }
            Stmt::Delete(d) => {
                for t in &d.targets {
                    self.eval(t);
                }
            }
            _ => {}
        }
        None
    }
}
