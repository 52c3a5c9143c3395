//! `envgen check`: the Web agent as code. Every interactive element of the layout tree is driven
//! in a real Chromium through the screen (clicks and typing only) and judged against the spec:
//! the element is reachable from the start page; a link changes nothing; an action changes
//! exactly what it declares, on the record the page shows, and nothing else; two sessions never
//! see each other's changes; reset restores the seed. Each discrepancy names the element and
//! the view.

use std::sync::Arc;
use std::time::{Duration, Instant};

use serde::Serialize;
use serde_json::Value;

use super::diff::{diff, Change};
use super::layout::{layout, ElementKind};
use super::model::{scalar_text, Model};
use super::render::{view_records, SpecUi};
use super::spec::{Action, ActionOn, Effect, FieldType, Op, View};
use crate::env::session::Action as StateAction;
use crate::env::{App, EnvError, ServerConfig, SessionStore};
use crate::rollout::plan_steps::{css, submit, wait};
use crate::rollout::ui_exec::Executor;
use crate::rollout::ui_plan::{PlanStep, TargetResolver};
use crate::rollout::RolloutError;
use crate::screen::ScreenConfig;
use crate::ui::{Today, UiOptions, WebScreen, WebScreenError};

/// One disagreement between the app and its spec.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Discrepancy {
    /// The element id (instantiated: `task-star_task-submit`), or `session` / `reset`.
    pub element: String,
    /// The view it is on.
    pub view: String,
    /// What was wrong.
    pub what: String,
    /// The declared changes.
    pub declared: Vec<String>,
    /// The observed changes.
    pub observed: Vec<String>,
}

impl std::fmt::Display for Discrepancy {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} on view {}: {}", self.element, self.view, self.what)?;
        if !self.declared.is_empty() || !self.observed.is_empty() {
            write!(
                f,
                " (declared [{}], observed [{}])",
                self.declared.join(", "),
                self.observed.join(", ")
            )?;
        }
        Ok(())
    }
}

/// What a check found.
#[derive(Debug, Clone, Serialize)]
pub struct Report {
    /// The app.
    pub app: String,
    /// Elements of the layout tree driven.
    pub elements: usize,
    /// Every discrepancy (none: the app agrees with its spec).
    pub discrepancies: Vec<Discrepancy>,
    /// Wall time of the crawl (display and browser start-up included).
    pub took_ms: u64,
}

/// Infrastructure failures of a check (never a discrepancy).
#[derive(Debug, thiserror::Error)]
pub enum CheckError {
    /// The state store.
    #[error("the state store: {0}")]
    Env(#[from] EnvError),
    /// The screen or the browser.
    #[error(transparent)]
    Screen(Box<WebScreenError>),
    /// Driving the browser.
    #[error("driving the browser: {0}")]
    Drive(#[from] RolloutError),
    /// A temporary directory.
    #[error("a temporary directory: {0}")]
    Io(#[from] std::io::Error),
}

const A: &str = "crawl-a";
const B: &str = "crawl-b";

impl From<WebScreenError> for CheckError {
    fn from(e: WebScreenError) -> Self {
        CheckError::Screen(Box::new(e))
    }
}

/// The fixed "today" of a check.
pub fn today() -> Today {
    Today(
        chrono::DateTime::parse_from_rfc3339("2026-03-05T10:00:00Z")
            .map(|t| t.to_utc())
            .unwrap_or_default(),
    )
}

/// Crawls `ui`'s app (its state-API app `app`) on `screen`.
pub fn check(
    app: Arc<App>,
    ui: &'static SpecUi,
    screen: &ScreenConfig,
) -> Result<Report, CheckError> {
    check_with_shots(app, ui, screen, None)
}

/// [`check`], also writing a screenshot of every view it lands on to `shots/<view>.png`.
pub fn check_with_shots(
    app: Arc<App>,
    ui: &'static SpecUi,
    screen: &ScreenConfig,
    shots: Option<&std::path::Path>,
) -> Result<Report, CheckError> {
    let t0 = Instant::now();
    crate::ui::register_ui(ui);
    let dir = tempfile::tempdir()?;
    let cfg = ServerConfig {
        port: Some(0),
        state_dir: dir.path().to_path_buf(),
        fsync: false,
        ..ServerConfig::default()
    };
    let seed = (*app.seed).clone();
    let store = Arc::new(SessionStore::open(app, &cfg)?);
    store.ensure(B)?;
    let mut web = WebScreen::start(screen, store.clone(), A, UiOptions { today: today() })?;
    let mut c = Crawl {
        model: ui.model(),
        store: &store,
        seed: &seed,
        found: Vec::new(),
        elements: 0,
        shots: shots.map(|d| (d.to_path_buf(), Vec::new())),
    };
    c.run(&mut web)?;
    c.sessions()?;
    let report = Report {
        app: ui.model().name().into(),
        elements: c.elements,
        discrepancies: c.found,
        took_ms: t0.elapsed().as_millis() as u64,
    };
    Ok(report)
}

struct Crawl<'a> {
    /// Where view screenshots go, and the views already shot.
    shots: Option<(std::path::PathBuf, Vec<String>)>,
    model: &'a Model,
    store: &'a SessionStore,
    seed: &'a Value,
    found: Vec<Discrepancy>,
    elements: usize,
}

impl Crawl<'_> {
    /// A screenshot of the page now shown as `view`, once per view (when asked for).
    fn shoot(&mut self, web: &mut WebScreen, view: &str) -> Result<(), CheckError> {
        let Some((dir, done)) = &mut self.shots else {
            return Ok(());
        };
        if view == "*" || done.iter().any(|v| v == view) {
            return Ok(());
        }
        let shot = web
            .screen
            .screenshot()
            .map_err(|e| CheckError::from(WebScreenError::from(e)))?;
        std::fs::create_dir_all(&*dir)?;
        std::fs::write(dir.join(format!("{view}.png")), shot.png)?;
        done.push(view.to_string());
        Ok(())
    }

    fn state(&self, sid: &str) -> Result<Value, CheckError> {
        Ok(self.store.snapshot(sid)?.current.value()?)
    }

    fn flag(
        &mut self,
        element: &str,
        view: &str,
        what: String,
        declared: &[String],
        observed: &[Change],
    ) {
        self.found.push(Discrepancy {
            element: element.into(),
            view: view.into(),
            what,
            declared: declared.to_vec(),
            observed: observed.iter().map(ToString::to_string).collect(),
        });
    }

    /// Session A back at the seed; a reset that does not restore it is a discrepancy.
    fn reset(&mut self) -> Result<(), CheckError> {
        self.store.apply(A, StateAction::Reset, None)?;
        if self.state(A)? != *self.seed {
            self.flag(
                "reset",
                "-",
                "reset did not restore the seed".into(),
                &[],
                &diff(self.model, self.seed, &self.state(A)?),
            );
        }
        Ok(())
    }

    fn run(&mut self, web: &mut WebScreen) -> Result<(), CheckError> {
        let tree = layout(self.model);
        for el in &tree.elements {
            if el.kind == ElementKind::Input {
                continue;
            }
            self.elements += 1;
            self.reset()?;
            // Rows are picked from `map` entities read as lists (docs' documents had none).
            let state = super::shape::as_lists(&self.model.spec, &self.state(A)?);
            let target = if el.view == "*" {
                None
            } else {
                self.model.view(&el.view)
            };
            let record = match target {
                Some(v) => self.sample(v, &state, el.per_record),
                None => None,
            };
            let id = el.id.replace(
                "{id}",
                &record
                    .as_ref()
                    .map(|r| scalar_text(&r["id"]))
                    .unwrap_or_default(),
            );
            let mut plan = vec![
                submit(css("#nav-".to_string() + &self.first_nav())),
                wait("nav.sidebar".into()),
            ];
            if let Some(v) = target {
                match self.reach(v, record.as_ref()) {
                    Some(steps) => plan.extend(steps),
                    None => {
                        self.flag(
                            &id,
                            &el.view,
                            "unreachable: no link leads to this view".into(),
                            &[],
                            &[],
                        );
                        continue;
                    }
                }
            }
            let (screen, resolver) = web.parts();
            if let Some(miss) = Executor::new(screen, resolver, false).run(&plan)?.miss {
                self.flag(&id, &el.view, format!("unreachable: {miss}"), &[], &[]);
                continue;
            }
            self.shoot(web, &el.view)?;
            let pre = self.state(A)?;
            match (
                el.kind,
                el.action.as_deref().and_then(|a| self.model.action(a)),
            ) {
                (ElementKind::Action, Some(act)) => {
                    self.action(web, &id, target, act, record.as_ref(), &pre)?
                }
                _ => self.link(
                    web,
                    &id,
                    &el.view,
                    el.opens.as_deref(),
                    record.as_ref(),
                    &pre,
                )?,
            }
        }
        self.reset()
    }

    fn first_nav(&self) -> String {
        self.model
            .views()
            .find(|v| v.nav.is_some())
            .map(|v| v.name.clone())
            .unwrap_or_default()
    }

    /// The record an element of view `v` is checked on: the first row the view shows (a
    /// collection view) or the first record of its entity that some list opens (a record view).
    fn sample(&self, v: &View, state: &Value, per_record: bool) -> Option<Value> {
        if !per_record && !v.kind.is_record() {
            return None;
        }
        if !v.kind.is_record() {
            return view_records(self.model, state, v)
                .first()
                .map(|r| (*r).clone());
        }
        let opener = self.opener(v)?;
        view_records(self.model, state, opener)
            .first()
            .map(|r| (*r).clone())
    }

    fn opener(&self, v: &View) -> Option<&View> {
        self.model
            .views()
            .find(|o| o.nav.is_some() && o.open.as_deref() == Some(v.name.as_str()))
    }

    /// From any page to view `v` (showing `record`), as a person would: the sidebar, a row link.
    fn reach(&self, v: &View, record: Option<&Value>) -> Option<Vec<PlanStep>> {
        if v.nav.is_some() {
            return Some(vec![
                submit(css(format!("#nav-{}", v.name))),
                wait(landed(v, None)),
            ]);
        }
        let opener = self.opener(v)?;
        let mut p = self.reach(opener, None)?;
        let r = record?;
        p.push(submit(css(format!(
            "#{}-open-{}",
            opener.name,
            scalar_text(&r["id"])
        ))));
        p.push(wait(landed(v, Some(r))));
        Some(p)
    }

    fn link(
        &mut self,
        web: &mut WebScreen,
        id: &str,
        view: &str,
        opens: Option<&str>,
        record: Option<&Value>,
        pre: &Value,
    ) -> Result<(), CheckError> {
        let opened = opens.and_then(|o| self.model.view(o));
        let landing = opened.map(|v| Model::url(v, record));
        let mut plan = vec![submit(css(format!("#{id}")))];
        if let Some(v) = opened {
            plan.push(wait(landed(v, record)));
        }
        let (screen, resolver) = web.parts();
        if let Some(miss) = Executor::new(screen, resolver, false).run(&plan)?.miss {
            self.flag(
                id,
                view,
                format!(
                    "the link does not lead to {}: {miss}",
                    landing.unwrap_or_default()
                ),
                &[],
                &[],
            );
        }
        if let Some(o) = opens {
            self.shoot(web, o)?;
        }
        let changed = diff(self.model, pre, &self.state(A)?);
        if !changed.is_empty() {
            self.flag(
                id,
                view,
                "a link changed the state (a no-op must leave an empty diff)".into(),
                &[],
                &changed,
            );
        }
        Ok(())
    }

    fn action(
        &mut self,
        web: &mut WebScreen,
        id: &str,
        view: Option<&View>,
        act: &Action,
        record: Option<&Value>,
        pre: &Value,
    ) -> Result<(), CheckError> {
        let Some(view) = view else { return Ok(()) };
        let form = id.trim_end_matches("-submit");
        let mut plan = if act.widget.is_some() {
            vec![]
        } else {
            let listed = super::shape::as_lists(&self.model.spec, pre);
            fill_steps(self.model, act, form, record, &listed)
        };
        plan.push(submit(css(format!("#{id}"))));
        plan.push(wait(format!(".flash[data-op=\"{}\"]", act.name)));
        let (screen, resolver) = web.parts();
        let miss = Executor::new(screen, resolver, false).run(&plan)?.miss;
        let refused = web
            .resolver
            .present(&css(format!(".flash.error[data-op=\"{}\"]", act.name)))?;
        let observed = diff(self.model, pre, &self.state(A)?);
        let rid = record
            .filter(|_| act.on == ActionOn::Record)
            .map(|r| scalar_text(&r["id"]));
        let what = match (miss, refused) {
            (Some(miss), _) => Some(format!("the form could not be used: {miss}")),
            (None, true) => Some(format!(
                "the action was refused (error banner {:?}) with valid input",
                banner(web, &act.name)
            )),
            (None, false) => judge(act, rid.as_deref(), &observed),
        };
        if let Some(what) = what {
            self.flag(id, &view.name, what, &act.changes, &observed);
        }
        Ok(())
    }

    /// Session B, untouched, still holds the seed; A, changed, differs from B.
    fn sessions(&mut self) -> Result<(), CheckError> {
        if self.state(B)? != *self.seed {
            let d = diff(self.model, self.seed, &self.state(B)?);
            self.flag(
                "session",
                "-",
                "a second session saw the crawl's changes".into(),
                &[],
                &d,
            );
        }
        Ok(())
    }
}

/// The selector that holds once view `v` (showing `record`) is the page shown: its URL and the
/// view the renderer drew there (a URL another view captures, or "Nothing here", does not count).
pub fn landed(v: &View, record: Option<&Value>) -> String {
    format!(
        "body[data-path=\"{}\"] .app[data-view=\"{}\"]",
        Model::url(v, record),
        v.name
    )
}

/// Whether `observed` is exactly what `act` declares on record `rid`; `Some(why)` when not.
pub fn judge(act: &Action, rid: Option<&str>, observed: &[Change]) -> Option<String> {
    let allowed = |c: &Change| {
        act.changes.contains(&c.decl)
            && (rid.is_none() || c.record.as_deref() == rid || c.decl.ends_with('+'))
    };
    if let Some(c) = observed.iter().find(|c| !allowed(c)) {
        return Some(format!(
            "changed {c}, which it does not declare{}",
            rid.map(|r| format!(" on the record shown ({r})"))
                .unwrap_or_default()
        ));
    }
    let must: Vec<&Effect> = act.effects.iter().filter(|e| must_change(e)).collect();
    for e in must {
        let want = match e.op {
            Op::Create => format!("{}+", act.entity),
            Op::Remove => format!("{}-", act.entity),
            _ => format!("{}.{}", act.entity, e.field.as_deref().unwrap_or_default()),
        };
        if !observed.iter().any(|c| c.decl == want) {
            return Some(format!(
                "did not change {want}{}",
                rid.map(|r| format!(" of {r}")).unwrap_or_default()
            ));
        }
    }
    let added = observed.iter().filter(|c| c.decl.ends_with('+')).count();
    if added > 1 {
        return Some(format!("added {added} records; a create adds one"));
    }
    None
}

/// Whether an effect, with the crawler's inputs (always a new value), must show in the diff.
fn must_change(e: &Effect) -> bool {
    match e.op {
        Op::Toggle | Op::Create | Op::Remove | Op::Increment | Op::Append => true,
        Op::Set => e
            .value
            .as_ref()
            .and_then(|v| v.as_str())
            .is_some_and(|s| s.starts_with('@') && !s.starts_with("@@")),
        Op::RemoveItem => false,
    }
}

/// The text of action `op`'s error banner on the page shown (empty when it cannot be read).
fn banner(web: &mut WebScreen, op: &str) -> String {
    let expr = format!(
        "(document.querySelector('.flash.error[data-op=\"{op}\"]') || {{}}).textContent || ''"
    );
    web.resolver
        .cdp()
        .call(
            "Runtime.evaluate",
            serde_json::json!({"expression": expr, "returnByValue": true}),
        )
        .ok()
        .and_then(|r| r["result"]["value"].as_str().map(|s| s.trim().to_string()))
        .unwrap_or_default()
}

/// Steps giving every input of `act`'s form on `form` a value different from what it holds.
fn fill_steps(
    model: &Model,
    act: &Action,
    form: &str,
    record: Option<&Value>,
    state: &Value,
) -> Vec<PlanStep> {
    let Some(ent) = model.entity(&act.entity) else {
        return vec![];
    };
    let singleton = state
        .get(&ent.name)
        .filter(|_| act.on == ActionOn::Singleton);
    let record = record.or(singleton);
    let mut out = Vec::new();
    for input in &act.inputs {
        let f = super::effects::input_field(ent, input);
        let cur = input
            .field
            .as_deref()
            .and_then(|n| record.map(|r| r[n].clone()))
            .unwrap_or(Value::Null);
        let v = fresh(state, &f, &cur);
        out.push(super::planner::input_step(ent, form, input, &v));
    }
    out
}

/// A valid value of `f` that differs from `cur`.
fn fresh(state: &Value, f: &super::spec::Field, cur: &Value) -> Value {
    let ty = FieldType::parse(&f.ty).unwrap_or(FieldType::String);
    let first_other = |options: Vec<Value>| {
        options
            .into_iter()
            .find(|o| o != cur)
            .unwrap_or(Value::Null)
    };
    match ty {
        FieldType::Enum => first_other(f.values.iter().map(|v| Value::String(v.clone())).collect()),
        FieldType::Ref => first_other(
            f.entity
                .as_deref()
                .map(|t| {
                    Model::records(state, t)
                        .iter()
                        .map(|r| r["id"].clone())
                        .collect()
                })
                .unwrap_or_default(),
        ),
        FieldType::Refs => {
            let held = cur.as_array().cloned().unwrap_or_default();
            let mut v = held.clone();
            let targets = f.entity.as_deref().map(|t| Model::records(state, t));
            if let Some(r) = targets
                .unwrap_or_default()
                .iter()
                .find(|r| !held.contains(&r["id"]))
            {
                v.push(r["id"].clone());
            }
            Value::Array(v)
        }
        FieldType::Bool => Value::Bool(!cur.as_bool().unwrap_or(false)),
        FieldType::Int => Value::from(cur.as_i64().unwrap_or(0) + 1),
        FieldType::Number => Value::from(cur.as_f64().unwrap_or(0.0) + 1.0),
        FieldType::Date => Value::String(
            if cur.as_str() == Some("2026-04-01") {
                "2026-04-02"
            } else {
                "2026-04-01"
            }
            .into(),
        ),
        FieldType::Datetime => Value::String("2026-04-01T09:00:00Z".into()),
        FieldType::Email => Value::String("crawler@example.test".into()),
        FieldType::Tags => Value::Array(vec![Value::String("crawled".into())]),
        _ => Value::String(format!("Crawled {}", scalar_text(cur)).trim().to_string()),
    }
}

/// How long a check may take per element before the crawl is considered stuck (documentation).
pub const PER_ELEMENT: Duration = Duration::from_secs(30);
