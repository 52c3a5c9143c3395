//! Rules 5 and 7: `subprocess` and `dynamic-code`.
//!
//! A flow-insensitive alias resolver maps every name and expression to a qualified name:
//! `import subprocess as sp`, `from os import system as s`, `x = os`, `__import__("os")`,
//! `importlib.import_module("sub" + "process")`, `getattr(os, "system")`, `sys.modules["pty"]`,
//! `vars(os)["popen"]`. Anything resolving to a process-launching API is a finding; a module
//! name built at run time is treated as one. `exec`/`eval`/`compile` of a non-constant string is
//! dynamic code; of a constant string, the string itself is parsed and scanned for process use.

use rustc_hash::FxHashMap as HashMap;

use super::super::py::{self, ast, start};
use super::super::report::RuleId;
use super::Hit;
use ast::visitor::{walk_expr, walk_stmt, Visitor};
use ast::{Expr, Operator, Stmt};

/// Longest constant string passed to `exec`/`eval` that is parsed and scanned itself.
const MAX_EXEC_SOURCE: usize = 2_000;

/// Marker for a module or attribute name only known at run time.
const DYNAMIC: &str = "<dynamic>";

/// `os.__dict__.system` -> `os.system`; `builtins.__builtins__.eval` -> `builtins.eval`.
fn normalize(q: String) -> String {
    q.replace(".__dict__", "").replace(".__builtins__", "")
}

/// Whether a qualified name launches processes.
fn launches(q: &str) -> bool {
    let mut parts = q.split('.');
    let top = parts.next().unwrap_or("");
    let second = parts.next().unwrap_or("");
    match top {
        "subprocess" | "pty" | "pexpect" | "sh" | "plumbum" | "commands" | "popen2"
        | "multiprocessing" | "_posixsubprocess" | "ctypes" | "webbrowser" | DYNAMIC => true,
        "os" | "posix" | "nt" => {
            matches!(
                second,
                "system" | "popen" | "fork" | "forkpty" | "startfile" | DYNAMIC
            ) || second.starts_with("exec")
                || second.starts_with("spawn")
                || second.starts_with("posix_spawn")
                || second.starts_with("popen")
        }
        "asyncio" => second.starts_with("create_subprocess"),
        "platform" => second == "popen",
        _ => false,
    }
}

fn runs_code(q: &str) -> bool {
    matches!(
        q,
        "builtins.exec"
            | "builtins.eval"
            | "builtins.compile"
            | "runpy.run_path"
            | "runpy.run_module"
    )
}

#[derive(Default)]
struct Resolver {
    names: HashMap<String, String>,
    strings: HashMap<String, String>,
    star_os: bool,
}

impl Resolver {
    fn const_str(&self, e: &Expr) -> Option<String> {
        match e {
            Expr::StringLiteral(s) => Some(s.value.to_str().to_string()),
            Expr::Name(n) => self.strings.get(n.id.as_str()).cloned(),
            Expr::BinOp(b) if b.op == Operator::Add => {
                Some(self.const_str(&b.left)? + &self.const_str(&b.right)?)
            }
            Expr::FString(f) => {
                let mut out = String::new();
                for el in f.value.elements() {
                    match el {
                        ast::InterpolatedStringElement::Literal(l) => out.push_str(&l.value),
                        ast::InterpolatedStringElement::Interpolation(_) => return None,
                    }
                }
                Some(out)
            }
            Expr::Call(c) => match c.func.as_ref() {
                Expr::Attribute(a) if a.attr.as_str() == "join" => {
                    let sep = self.const_str(&a.value)?;
                    let items = match c.arguments.args.first()? {
                        Expr::List(l) => &l.elts,
                        Expr::Tuple(t) => &t.elts,
                        _ => return None,
                    };
                    let parts: Option<Vec<String>> =
                        items.iter().map(|i| self.const_str(i)).collect();
                    Some(parts?.join(&sep))
                }
                _ => None,
            },
            _ => None,
        }
    }

    /// Cheap pre-check: can `e` resolve to anything? Only chains rooted at an import alias, a
    /// tracked assignment or one of the reflective builtins can.
    fn may_resolve(&self, e: &Expr) -> bool {
        let mut cur = e;
        loop {
            cur = match cur {
                Expr::Attribute(a) => &a.value,
                Expr::Call(c) => &c.func,
                Expr::Subscript(s) => &s.value,
                Expr::Name(n) => {
                    let id = n.id.as_str();
                    return self.names.contains_key(id)
                        || matches!(
                            id,
                            "__builtins__"
                                | "builtins"
                                | "__import__"
                                | "exec"
                                | "eval"
                                | "compile"
                                | "getattr"
                                | "vars"
                                | "globals"
                                | "locals"
                        )
                        || self.star_os;
                }
                _ => return false,
            };
        }
    }

    fn resolve(&self, e: &Expr) -> Option<String> {
        if !self.may_resolve(e) {
            return None;
        }
        match e {
            Expr::Name(n) => {
                let id = n.id.as_str();
                if let Some(q) = self.names.get(id) {
                    return Some(q.clone());
                }
                match id {
                    "__builtins__" | "builtins" => Some("builtins".into()),
                    "__import__" | "exec" | "eval" | "compile" | "getattr" | "vars" | "globals"
                    | "locals" => Some(format!("builtins.{id}")),
                    _ if self.star_os && launches(&format!("os.{id}")) => Some(format!("os.{id}")),
                    _ => None,
                }
            }
            Expr::Attribute(a) => Some(normalize(format!(
                "{}.{}",
                self.resolve(&a.value)?,
                a.attr.as_str()
            ))),
            Expr::Call(c) => {
                let callee = self.resolve(&c.func)?;
                let args = &c.arguments.args;
                match callee.as_str() {
                    "builtins.__import__" | "importlib.import_module" | "importlib.__import__" => {
                        Some(
                            args.first()
                                .and_then(|a| self.const_str(a))
                                .unwrap_or(DYNAMIC.into()),
                        )
                    }
                    "builtins.getattr" => {
                        let base = self.resolve(args.first()?)?;
                        let attr = args.get(1).and_then(|a| self.const_str(a));
                        Some(format!("{base}.{}", attr.as_deref().unwrap_or(DYNAMIC)))
                    }
                    "builtins.vars" => self.resolve(args.first()?),
                    "builtins.globals" | "builtins.locals" => Some("builtins".into()),
                    _ => None,
                }
            }
            Expr::Subscript(s) => {
                let base = self.resolve(&s.value)?;
                let key = self.const_str(&s.slice).unwrap_or(DYNAMIC.into());
                match base.as_str() {
                    "sys.modules" => Some(key),
                    b => Some(normalize(format!("{b}.{key}"))),
                }
            }
            _ => None,
        }
    }
}

/// Pre-pass: import aliases, `x = <resolvable>` and `x = "constant string"`.
struct Collect<'r>(&'r mut Resolver);

impl<'a> Visitor<'a> for Collect<'_> {
    fn visit_stmt(&mut self, stmt: &'a Stmt) {
        match stmt {
            Stmt::Import(i) => {
                for a in &i.names {
                    let full = a.name.as_str();
                    let local = a
                        .asname
                        .as_ref()
                        .map_or(full.split('.').next().unwrap_or(full), |n| n.as_str());
                    let q = if a.asname.is_some() { full } else { local };
                    self.0.names.insert(local.to_string(), q.to_string());
                }
            }
            Stmt::ImportFrom(i) => {
                let module = i.module.as_ref().map_or("", |m| m.as_str());
                for a in &i.names {
                    if a.name.as_str() == "*" {
                        self.0.star_os |= module == "os";
                        continue;
                    }
                    let local = a.asname.as_ref().unwrap_or(&a.name).as_str();
                    self.0
                        .names
                        .insert(local.to_string(), format!("{module}.{}", a.name.as_str()));
                }
            }
            Stmt::Assign(a) => {
                if let [Expr::Name(n)] = a.targets.as_slice() {
                    if let Some(q) = self.0.resolve(&a.value) {
                        self.0.names.insert(n.id.as_str().to_string(), q);
                    } else if let Some(s) = self.0.const_str(&a.value) {
                        self.0.strings.insert(n.id.as_str().to_string(), s);
                    }
                }
            }
            _ => {}
        }
        walk_stmt(self, stmt);
    }
}

struct Detect<'r> {
    resolver: &'r Resolver,
    hits: Vec<Hit>,
}

impl Detect<'_> {
    fn process_hit(&mut self, offset: usize, what: &str) {
        self.hits.push(Hit {
            rule: RuleId::Subprocess,
            offset,
            reason: format!(
                "`{what}` can run external processes, which are non-reproducible and easy to \
                 spoof; read the state directly in Python (files, the /go state API) instead"
            ),
        });
    }
}

impl<'a> Visitor<'a> for Detect<'_> {
    fn visit_stmt(&mut self, stmt: &'a Stmt) {
        match stmt {
            Stmt::Import(i) => {
                for a in &i.names {
                    if launches(a.name.as_str()) {
                        self.process_hit(start(a), a.name.as_str());
                    }
                }
            }
            Stmt::ImportFrom(i) => {
                let module = i.module.as_ref().map_or("", |m| m.as_str());
                for a in &i.names {
                    let q = format!("{module}.{}", a.name.as_str());
                    if launches(module) || (a.name.as_str() != "*" && launches(&q)) {
                        self.process_hit(start(a), &q);
                    }
                }
            }
            _ => {}
        }
        walk_stmt(self, stmt);
    }

    fn visit_expr(&mut self, expr: &'a Expr) {
        if let Expr::Call(c) = expr {
            let callee = self.resolver.resolve(&c.func);
            if callee.as_deref().is_some_and(runs_code) {
                let first = c.arguments.args.first();
                // A short constant string is parsed and scanned; a long one is treated as
                // opaque (its nesting could exceed the stack of this pass).
                let code = first
                    .and_then(|a| self.resolver.const_str(a))
                    .filter(|c| c.len() <= MAX_EXEC_SOURCE);
                match code {
                    Some(code) => {
                        if let Ok(inner) = py::parse(&code) {
                            let mut sub = Vec::new();
                            check(&inner.suite, &mut sub);
                            if let Some(h) = sub.into_iter().next() {
                                self.hits.push(Hit {
                                    offset: start(c),
                                    ..h
                                });
                            }
                        }
                    }
                    None => {
                        self.hits.push(Hit {
                            rule: RuleId::DynamicCode,
                            offset: start(c),
                            reason: format!(
                            "`{}` runs code built at run time, which no reviewer or scanner can \
                             check; write the verification as plain Python",
                            callee.as_deref().unwrap_or("exec").trim_start_matches("builtins.")
                        ),
                        })
                    }
                }
            }
        }
        if matches!(
            expr,
            Expr::Name(_) | Expr::Attribute(_) | Expr::Call(_) | Expr::Subscript(_)
        ) {
            if let Some(q) = self.resolver.resolve(expr) {
                if launches(&q) {
                    self.process_hit(start(expr), &q);
                }
            }
        }
        walk_expr(self, expr);
    }
}

/// Rules 5 and 7 over a module.
pub(super) fn check(suite: &[Stmt], hits: &mut Vec<Hit>) {
    let mut resolver = Resolver::default();
    let mut collect = Collect(&mut resolver);
    for s in suite {
        collect.visit_stmt(s);
    }
    let mut detect = Detect {
        resolver: &resolver,
        hits: Vec::new(),
    };
    for s in suite {
        detect.visit_stmt(s);
    }
    hits.extend(detect.hits);
}
