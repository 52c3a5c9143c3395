//! The layout tree: every interactive element a spec yields, with its view, route, region,
//! role, accessible name and what it is bound to — the Web agent's oracle (`layout.json`).
//! Per-record elements (a row's link or button, a record page's forms) carry `{id}` in their
//! element id and `{key}` in their route; the crawler instantiates them with a seed record.

use serde::Serialize;

use super::effects::input_field;
use super::model::{label, Model};
use super::spec::{Action, ActionOn, FieldType, View, ViewKind};

/// What an element is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ElementKind {
    /// A link (navigation): must change nothing.
    Link,
    /// A submit button of an action's form: must change exactly the action's declared changes.
    Action,
    /// An input of an action's form.
    Input,
}

/// One interactive element.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Element {
    /// The element id (`{id}` = the record's id for per-record elements).
    pub id: String,
    /// The view it is on.
    pub view: String,
    /// The route of that view (`{key}`: a record view's key segment as the spec writes it).
    pub route: String,
    /// `main` or `aside`; `sidebar` for navigation.
    pub region: String,
    /// Its accessibility role.
    pub role: String,
    /// Its accessible name.
    pub label: String,
    /// What it is.
    pub kind: ElementKind,
    /// The action it submits / belongs to.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub action: Option<String>,
    /// The view a link opens.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub opens: Option<String>,
    /// The declared state changes of its action.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub changes: Vec<String>,
    /// Whether it exists once per record (a row's link or button, a record page's form).
    pub per_record: bool,
}

/// The whole tree of an app (what `layout.json` holds).
#[derive(Debug, Clone, Serialize)]
pub struct Layout {
    /// The app.
    pub app: String,
    /// The views: name, kind, route, entity.
    pub views: Vec<ViewEntry>,
    /// Every interactive element.
    pub elements: Vec<Element>,
}

/// One view of the tree.
#[derive(Debug, Clone, Serialize)]
pub struct ViewEntry {
    /// Its name.
    pub name: String,
    /// Its kind.
    pub kind: ViewKind,
    /// Its route.
    pub route: String,
    /// Its entity.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub entity: Option<String>,
}

/// The layout tree of `model`.
pub fn layout(model: &Model) -> Layout {
    let mut elements = Vec::new();
    for v in model.views().filter(|v| v.nav.is_some()) {
        elements.push(Element {
            id: format!("nav-{}", v.name),
            view: "*".into(),
            route: "*".into(),
            region: "sidebar".into(),
            role: "link".into(),
            label: v.nav.clone().unwrap_or_default(),
            kind: ElementKind::Link,
            action: None,
            opens: Some(v.name.clone()),
            changes: vec![],
            per_record: false,
        });
    }
    for v in model.views() {
        let region = v.region.clone().unwrap_or_else(|| "main".into());
        if let Some(open) = v.open.as_deref().filter(|_| !v.kind.is_record()) {
            elements.push(Element {
                id: format!("{}-open-{{id}}", v.name),
                view: v.name.clone(),
                route: v.route.clone(),
                region: region.clone(),
                role: "link".into(),
                label: "{title}".into(),
                kind: ElementKind::Link,
                action: None,
                opens: Some(open.into()),
                changes: vec![],
                per_record: true,
            });
        }
        for a in v.actions.iter().filter_map(|n| model.action(n)) {
            elements.extend(action_elements(model, v, a, &region));
        }
    }
    Layout {
        app: model.name().into(),
        views: model
            .views()
            .map(|v| ViewEntry {
                name: v.name.clone(),
                kind: v.kind,
                route: v.route.clone(),
                entity: v.entity.clone(),
            })
            .collect(),
        elements,
    }
}

/// Whether `a` on `v` is drawn once per row (a button in each row of a collection view).
pub fn is_row_action(v: &View, a: &Action) -> bool {
    a.on == ActionOn::Record && !v.kind.is_record()
}

fn action_elements(model: &Model, v: &View, a: &Action, region: &str) -> Vec<Element> {
    let row = is_row_action(v, a);
    let per_record = a.on == ActionOn::Record;
    let form = if row {
        format!("{}-{}-{{id}}", v.name, a.name)
    } else {
        format!("{}-{}", v.name, a.name)
    };
    let mut out = Vec::new();
    let ent = model.entity(&a.entity);
    for input in a.inputs.iter().filter(|_| a.widget.is_none()) {
        let Some(ent) = ent else { continue };
        let f = input_field(ent, input);
        let role = match FieldType::parse(&f.ty) {
            Some(FieldType::Enum | FieldType::Ref) => "radiogroup",
            Some(FieldType::Bool) => "checkbox",
            Some(FieldType::Refs) => "group",
            Some(FieldType::Int | FieldType::Number) => "spinbutton",
            _ => "textbox",
        };
        out.push(Element {
            id: format!("{form}-{}", input.key()),
            view: v.name.clone(),
            route: v.route.clone(),
            region: region.into(),
            role: role.into(),
            label: label(&f),
            kind: ElementKind::Input,
            action: Some(a.name.clone()),
            opens: None,
            changes: vec![],
            per_record,
        });
    }
    out.push(Element {
        id: format!("{form}-submit"),
        view: v.name.clone(),
        route: v.route.clone(),
        region: region.into(),
        role: "button".into(),
        label: a.label.clone(),
        kind: ElementKind::Action,
        action: Some(a.name.clone()),
        opens: a.go.clone(),
        changes: a.changes.clone(),
        per_record,
    });
    out
}
