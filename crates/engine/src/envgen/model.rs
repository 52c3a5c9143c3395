//! A checked spec ready to serve: lookups by name, route matching, record titles and keys.

use serde_json::Value;
use toml::Spanned;

use super::spec::{Action, Entity, Field, FieldType, Spec, View};

/// A parsed, checked spec with its lookups (what the renderer, the planner and the crawler share).
#[derive(Debug, Clone)]
pub struct Model {
    /// The spec.
    pub spec: Spec,
}

impl Model {
    /// Wraps a spec that [`super::parse`] accepted.
    pub fn new(spec: Spec) -> Model {
        Model { spec }
    }

    /// The app's public name.
    pub fn name(&self) -> &str {
        &self.spec.app.name
    }

    /// The entity named `name`.
    pub fn entity(&self, name: &str) -> Option<&Entity> {
        self.spec
            .entities
            .iter()
            .map(Spanned::get_ref)
            .find(|e| e.name == name)
    }

    /// Every view, in spec order.
    pub fn views(&self) -> impl Iterator<Item = &View> {
        self.spec.views.iter().map(Spanned::get_ref)
    }

    /// Every action, in spec order.
    pub fn actions(&self) -> impl Iterator<Item = &Action> {
        self.spec.actions.iter().map(Spanned::get_ref)
    }

    /// The view named `name`.
    pub fn view(&self, name: &str) -> Option<&View> {
        self.views().find(|v| v.name == name)
    }

    /// The action named `name`.
    pub fn action(&self, name: &str) -> Option<&Action> {
        self.actions().find(|a| a.name == name)
    }

    /// The start page's route.
    pub fn home(&self) -> String {
        self.spec
            .app
            .home
            .clone()
            .or_else(|| {
                self.views()
                    .find(|v| v.nav.is_some() && !v.kind.is_record())
                    .map(|v| v.route.clone())
            })
            .unwrap_or_else(|| "/".into())
    }

    /// The view serving `path`, with the record key of a record view. A route whose literal
    /// segments match wins over a `{field}` one whatever the views' order, as in any router:
    /// `/time-off/new` is the form, not the request whose id is `new` (hr's sidebar link led to
    /// "Nothing here" while `/time-off/{id}` came first).
    pub fn route(&self, path: &str) -> Option<(&View, Option<String>)> {
        let path = if path == "/" {
            self.home()
        } else {
            path.to_string()
        };
        let got: Vec<&str> = path.trim_matches('/').split('/').collect();
        self.views()
            .filter_map(|v| route_match(&v.route, &got).map(|(params, key)| (params, v, key)))
            .min_by_key(|(params, _, _)| *params)
            .map(|(_, v, key)| (v, key))
    }

    /// The key field of a record view's route (`{key}` → `key`).
    pub fn route_field(view: &View) -> Option<&str> {
        view.route
            .split('/')
            .find(|s| s.starts_with('{') && s.ends_with('}'))
            .map(|s| &s[1..s.len() - 1])
    }

    /// The URL of `view` for `record` (a record view) or of the view itself.
    pub fn url(view: &View, record: Option<&Value>) -> String {
        match (Model::route_field(view), record) {
            (Some(f), Some(r)) => view
                .route
                .replace(&format!("{{{f}}}"), &encode(&scalar_text(&r[f]))),
            _ => view.route.clone(),
        }
    }

    /// The records of list entity `name` in `state`.
    pub fn records<'s>(state: &'s Value, name: &str) -> &'s [Value] {
        state
            .get(name)
            .and_then(Value::as_array)
            .map(Vec::as_slice)
            .unwrap_or_default()
    }

    /// The record of `entity` whose `field` is `key`.
    pub fn find<'s>(state: &'s Value, entity: &str, field: &str, key: &str) -> Option<&'s Value> {
        Model::records(state, entity)
            .iter()
            .find(|r| scalar_text(&r[field]) == key)
    }

    /// The field a record is titled by.
    pub fn title_field(e: &Entity) -> &str {
        e.title.as_deref().unwrap_or_else(|| {
            e.fields
                .iter()
                .map(Spanned::get_ref)
                .find(|f| {
                    matches!(
                        FieldType::parse(&f.ty),
                        Some(FieldType::String | FieldType::Text)
                    )
                })
                .map(|f| f.name.as_str())
                .unwrap_or("id")
        })
    }

    /// The field tasks name a record by.
    pub fn key_field(e: &Entity) -> &str {
        e.key.as_deref().unwrap_or("id")
    }

    /// A record's title for people.
    pub fn title_of(e: &Entity, record: &Value) -> String {
        scalar_text(&record[Model::title_field(e)])
    }

    /// The field `name` of entity `e`.
    pub fn field<'e>(e: &'e Entity, name: &str) -> Option<&'e Field> {
        e.fields
            .iter()
            .map(Spanned::get_ref)
            .find(|f| f.name == name)
    }

    /// How a value of field `f` reads to people (a ref as its target's title).
    pub fn display(&self, state: &Value, f: &Field, v: &Value) -> String {
        let ty = FieldType::parse(&f.ty).unwrap_or(FieldType::String);
        let target = f.entity.as_deref().and_then(|t| self.entity(t));
        match (ty, target) {
            (FieldType::Ref, Some(t)) => self.ref_title(state, t, v),
            (FieldType::Refs, Some(t)) => list(v)
                .iter()
                .map(|x| self.ref_title(state, t, x))
                .collect::<Vec<_>>()
                .join(", "),
            (FieldType::Tags, _) => list(v)
                .iter()
                .map(scalar_text)
                .collect::<Vec<_>>()
                .join(", "),
            (FieldType::Records, _) => format!("{} items", list(v).len()),
            (FieldType::Bool, _) => {
                if v.as_bool() == Some(true) {
                    "Yes".into()
                } else {
                    "No".into()
                }
            }
            _ => scalar_text(v),
        }
    }

    fn ref_title(&self, state: &Value, target: &Entity, id: &Value) -> String {
        match Model::find(state, &target.name, "id", &scalar_text(id)) {
            Some(r) => Model::title_of(target, r),
            None => scalar_text(id),
        }
    }

    /// The signed-in user's id (`[app] user`), if the spec names one.
    pub fn user<'s>(&self, state: &'s Value) -> Option<&'s Value> {
        let key = self.spec.app.user.as_deref()?;
        state.get(key)
    }

    /// Whether entity `e` holds records (a `list`, or a `map` seen as one).
    pub fn is_list(e: &Entity) -> bool {
        e.kind.is_collection()
    }
}

/// A field's label for people.
pub fn label(f: &Field) -> String {
    f.label.clone().unwrap_or_else(|| humanise(&f.name))
}

/// `dueDate` / `due_date` → `Due date`.
pub fn humanise(name: &str) -> String {
    let mut out = String::new();
    for (i, c) in name.chars().enumerate() {
        if c == '_' || c == '-' {
            out.push(' ');
        } else if c.is_ascii_uppercase() && i > 0 {
            out.push(' ');
            out.push(c.to_ascii_lowercase());
        } else if i == 0 {
            out.push(c.to_ascii_uppercase());
        } else {
            out.push(c);
        }
    }
    out
}

/// A JSON scalar as text (`""` for null).
pub fn scalar_text(v: &Value) -> String {
    match v {
        Value::Null => String::new(),
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// A JSON array's items (empty for anything else).
pub fn list(v: &Value) -> &[Value] {
    v.as_array().map(Vec::as_slice).unwrap_or_default()
}

/// Percent-encodes what a path segment cannot hold.
pub fn encode(s: &str) -> String {
    let mut out = String::new();
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() || b"-_.~".contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// Decodes `%XX` escapes of a path segment.
pub fn decode(s: &str) -> String {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = bytes
            .get(i + 1..i + 3)
            .and_then(|h| std::str::from_utf8(h).ok())
            .and_then(|h| u8::from_str_radix(h, 16).ok());
        match (bytes[i], hex) {
            (b'%', Some(b)) => {
                out.push(b);
                i += 3;
            }
            (b, _) => {
                out.push(b);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// Whether `route` serves the path segments `got`: the number of `{field}` segments it used
/// and the key the last one captured.
fn route_match(route: &str, got: &[&str]) -> Option<(usize, Option<String>)> {
    let want: Vec<&str> = route.trim_matches('/').split('/').collect();
    if want.len() != got.len() {
        return None;
    }
    let (mut params, mut key) = (0, None);
    for (w, g) in want.iter().zip(got) {
        if w.starts_with('{') && w.ends_with('}') {
            params += 1;
            key = Some(decode(g));
        } else if w != g {
            return None;
        }
    }
    Some((params, key))
}
