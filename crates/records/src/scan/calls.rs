//! Calls in the data-flow pass: existence checks, pure builtins, user functions, container
//! mutation and environment reads (REWARD prints are in `printed.rs`).

use std::rc::Rc;

use super::expr::dotted;
use super::flow::Flow;
use super::judge::{is_judge_call, judge_output};
use super::py::{ast, start};
use super::taint::{Taint, Val};
use ast::Expr;

/// Functions whose truth only says a path exists (or a directory lists a name). `isdir`,
/// `islink` and `os.access(p, X_OK|W_OK)` are not here: being a directory, a link or executable
/// is the property a "create the folder" / "make it executable" task asks for; `os.access` with
/// `F_OK`/`R_OK` is an existence check.
const EXISTS_FUNCS: &[&str] = &[
    "os.path.exists",
    "os.path.isfile",
    "os.path.lexists",
    "os.listdir",
    "os.scandir",
    "glob.glob",
    "glob.iglob",
    "path.exists",
    "path.isfile",
    "exists",
    "isfile",
    "listdir",
    "glob",
];

/// Methods whose truth only says a path exists.
const EXISTS_METHODS: &[&str] = &["exists", "is_file", "glob", "rglob", "iterdir"];

/// Builtins and path helpers that compute from their arguments only.
const PURE: &[&str] = &[
    "len",
    "bool",
    "int",
    "float",
    "str",
    "abs",
    "round",
    "min",
    "max",
    "sum",
    "all",
    "any",
    "list",
    "tuple",
    "set",
    "dict",
    "sorted",
    "reversed",
    "enumerate",
    "zip",
    "range",
    "repr",
    "isinstance",
    "Path",
    "PurePath",
    "pathlib.Path",
    "os.path.join",
    "os.path.expanduser",
    "os.path.basename",
    "os.path.dirname",
    "os.path.abspath",
    "math.isclose",
    "math.floor",
    "math.ceil",
    "math.fabs",
];

/// Container methods that hand back stored items (their markers survive).
const ACCESSORS: &[&str] = &[
    "get",
    "items",
    "values",
    "keys",
    "copy",
    "pop",
    "setdefault",
];

/// Methods computing from receiver and arguments only (strings, containers, numbers).
const PURE_METHODS: &[&str] = &[
    "lower",
    "upper",
    "strip",
    "lstrip",
    "rstrip",
    "split",
    "rsplit",
    "splitlines",
    "join",
    "replace",
    "startswith",
    "endswith",
    "format",
    "title",
    "casefold",
    "count",
    "index",
    "find",
    "rfind",
    "partition",
    "rpartition",
    "isdigit",
    "isnumeric",
    "isalpha",
    "zfill",
    "center",
    "ljust",
    "rjust",
    "encode",
    "decode",
    "is_integer",
];

/// Container methods that store their arguments into the receiver.
const MUTATORS: &[&str] = &["append", "extend", "add", "update", "insert", "setdefault"];

impl Flow<'_> {
    /// The path an existence check is about: its constant text, else its source text.
    fn key_of(&self, arg: &Expr, val: &Val) -> Rc<str> {
        match &val.text {
            Some(t) => t.clone(),
            None => Rc::from(self.lines.text(super::py::span(arg))),
        }
    }

    /// Expand an import alias at the head of a dotted name.
    fn qualify(&self, name: String) -> String {
        let (head, rest) = name.split_once('.').unwrap_or((name.as_str(), ""));
        match self.aliases.get(head) {
            Some(q) if rest.is_empty() => q.clone(),
            Some(q) => format!("{q}.{rest}"),
            None => name,
        }
    }

    pub(super) fn call(&mut self, c: &ast::ExprCall) -> Val {
        let name = dotted(&c.func).map(|n| self.qualify(n));
        let mut args: Vec<(Val, &Expr)> = Vec::new();
        for a in c.arguments.args.iter() {
            args.push((self.eval(a), a));
        }
        for k in c.arguments.keywords.iter() {
            // Keyword arguments are options (`reverse=True`, `data_only=True`), not data.
            let mut v = self.eval(&k.value);
            v.taint.clear_markers();
            args.push((v, &k.value));
        }
        if matches!(name.as_deref(), Some("print" | "sys.stdout.write")) {
            self.reward_print(c);
            return Val::default();
        }
        match (name.as_deref(), c.func.as_ref()) {
            (Some(n), _) => self.artifact_call(c, n),
            (None, Expr::Attribute(a)) => self.artifact_call(c, a.attr.as_str()),
            _ => {}
        }
        let local = name.as_deref().is_some_and(|n| {
            self.funcs.contains_key(n) || self.funcs.contains_key(n.rsplit('.').next().unwrap_or(n))
        });
        let http_texts = || {
            let mut texts = Vec::new();
            for a in c.arguments.args.iter().take(2) {
                self.texts(a, &mut texts);
            }
            texts.iter_mut().for_each(|t| t.make_ascii_lowercase());
            texts
        };
        if is_judge_call(c, name.as_deref(), local, &http_texts) {
            return judge_output(start(c));
        }
        if let Some(n) = name.as_deref() {
            if let Some(summary) = self.funcs.get(n) {
                let mut v = summary.clone();
                if v.taint.exists && !v.taint.env {
                    if let Some((a, e)) = args.first() {
                        v.taint.add_exist_key(self.key_of(e, a));
                    }
                }
                return v;
            }
            let access_exists = n == "os.access"
                && c.arguments
                    .args
                    .get(1)
                    .and_then(dotted)
                    .as_deref()
                    .is_some_and(|m| matches!(m, "os.F_OK" | "os.R_OK" | "F_OK" | "R_OK"));
            if (EXISTS_FUNCS.contains(&n) || access_exists) && self.lookup(n).is_none() {
                let mut t = Taint {
                    exists: true,
                    ..Taint::default()
                };
                if let Some((a, e)) = args.first() {
                    t.join(&a.taint.clone().unmarked());
                    t.add_exist_key(self.key_of(e, a));
                }
                // A path computed from the state is still only checked for existence.
                t.env = false;
                return Val::of(t);
            }
            if PURE.contains(&n) && self.lookup(n).is_none() {
                return pure(n, &args);
            }
            if let (Expr::Name(_), Some(v)) = (c.func.as_ref(), self.lookup(n)) {
                return v.clone();
            }
        }
        if let Expr::Attribute(attr) = c.func.as_ref() {
            let method = attr.attr.as_str();
            let recv = self.eval(&attr.value);
            if EXISTS_METHODS.contains(&method) {
                let mut t = recv.taint.clone().unmarked();
                t.exists = true;
                t.env = false;
                t.add_exist_key(self.key_of(&attr.value, &recv));
                return Val::of(t);
            }
            if MUTATORS.contains(&method) {
                if let Expr::Name(n) = attr.value.as_ref() {
                    let mut v = Val::default();
                    for (a, _) in &args {
                        v.taint.join(&a.taint);
                    }
                    self.store_item(n.id.as_str(), v);
                }
            }
            // `json.loads(reply)`, `re.findall(p, reply)` on a judge's reply: still the judge's.
            let module = matches!(attr.value.as_ref(), Expr::Name(m) if self.lookup(m.id.as_str()).is_none());
            if module
                && args.iter().any(|(a, _)| a.taint.judge.is_some())
                && !args.iter().any(|(a, _)| a.taint.env)
            {
                self.env_reads += 1;
                let mut t = Taint::default();
                for (a, _) in &args {
                    t.join(&a.taint.clone().unmarked());
                }
                return Val::of(t);
            }
            let mut t = recv.taint.clone();
            if !ACCESSORS.contains(&method) {
                t.clear_markers();
                if !PURE_METHODS.contains(&method) && !MUTATORS.contains(&method) {
                    // Anything else on an object (read_text, json, find_all) reads the world —
                    // except parsing a judge's reply (`resp.json()`), which is still the judge.
                    t.env |= recv.taint.judge.is_none() || recv.taint.env;
                    self.env_reads += 1;
                }
            }
            for (a, _) in &args {
                t.join(&a.taint.clone().unmarked());
            }
            return Val::of(t);
        }
        self.env_reads += 1;
        let mut t = Taint::env();
        // `json.loads(reply)`, `re.search(p, reply)`: parsing a judge's output is the judge's.
        let parses_judge = args.iter().any(|(a, _)| a.taint.judge.is_some())
            && !args.iter().any(|(a, _)| a.taint.env);
        for (a, e) in &args {
            t.join(&a.taint.clone().unmarked());
            // An unknown callee may fill a container it is given (`exec(code, ns)`).
            // Scalars (numbers, flags) are passed by value and stay as they are.
            if let Expr::Name(n) = e {
                let container = self
                    .lookup(n.id.as_str())
                    .is_some_and(|v| v.num.is_none() && !v.flaglike && v.taint.bool_true.is_none());
                if container {
                    self.store_item(n.id.as_str(), Val::env());
                }
            }
        }
        if parses_judge {
            t.env = false;
        }
        Val::of(t)
    }
}

/// A float literal of at least 1.0 (`1.0`, `1.5`).
fn float_at_least_one(expr: &Expr) -> bool {
    matches!(expr, Expr::NumberLiteral(n) if matches!(n.value, ast::Number::Float(f) if f >= 1.0))
}

/// A pure call: depends on its arguments only.
fn pure(name: &str, args: &[(Val, &Expr)]) -> Val {
    let mut out = Val::default();
    for (a, _) in args {
        out.taint.join(&a.taint);
    }
    let first = args.first().map(|(a, _)| a);
    let nums: Vec<Option<f64>> = args.iter().map(|(a, _)| a.num).collect();
    match name {
        "float" | "int" | "abs" | "round" | "math.floor" | "math.ceil" | "math.fabs" => {
            out.num = first.and_then(|a| a.num);
        }
        // `max(score, 1.0)` is 1.0 whatever the score: the environment no longer matters.
        // (Only a float literal: `max(1, len(rows))` is the usual safe denominator.)
        "max" if args.iter().any(|(_, e)| float_at_least_one(e)) => {
            out = Val::default();
            out.num = nums.iter().flatten().copied().reduce(f64::max);
        }
        "min" | "max" if args.len() > 1 && nums.iter().all(Option::is_some) => {
            let it = nums.iter().flatten().copied();
            out.num = if name == "min" {
                it.reduce(f64::min)
            } else {
                it.reduce(f64::max)
            };
        }
        "bool" | "all" | "any" | "isinstance" | "math.isclose" => {
            out.flaglike = true;
            out.taint.truthy = None;
        }
        "str" => out.text = first.and_then(|a| a.text.clone()),
        "Path" | "PurePath" | "pathlib.Path" | "os.path.join" | "os.path.expanduser" => {
            let texts: Option<Vec<&str>> = args.iter().map(|(a, _)| a.text.as_deref()).collect();
            out.text = texts.map(|t| Rc::from(t.join("/")));
        }
        "len" => out.taint.clear_markers(),
        _ => {}
    }
    if name != "bool" && name != "all" && name != "any" {
        out.taint.truthy = None;
    }
    out
}
