//! The app-spec language (`app.spec.toml`): the data model of one spec. The grammar, every
//! construct and the state shape a spec yields are documented in `docs/envgen.md`; parsing and
//! the checks that refuse a bad spec are in [`super::parse`].

use serde::{Deserialize, Serialize};
use toml::Spanned;

/// One app spec: identity, theme, entities, views, actions.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Spec {
    /// Identity and registry facts.
    pub app: AppInfo,
    /// Theme tokens (CSS custom properties of the generic renderer).
    #[serde(default)]
    pub theme: Theme,
    /// The data model: one top-level state key per entity.
    pub entities: Vec<Spanned<Entity>>,
    /// The pages, in navigation order.
    pub views: Vec<Spanned<View>>,
    /// What the user can do, each with its declared state effects.
    #[serde(default)]
    pub actions: Vec<Spanned<Action>>,
    /// Plans of app-specific task templates (`add_comment`): which action realises them.
    #[serde(default)]
    pub plans: Vec<Spanned<PlanRule>>,
}

/// `[app]`: the app's identity.
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct AppInfo {
    /// Generic public name (`issue-tracker`): lowercase letters, digits and dashes.
    pub name: String,
    /// Human title.
    pub title: String,
    /// The paper's Table 3 category (`project management`, `communication`, …).
    pub category: String,
    /// One-paragraph description (what agents are told).
    pub description: String,
    /// The kind of product the layout and workflows are modelled on (never its copy).
    #[serde(default)]
    pub reference: String,
    /// Other names scripts and bundles use for the app.
    #[serde(default)]
    pub aliases: Vec<String>,
    /// The conventional port scripts use.
    #[serde(default)]
    pub port: Option<u16>,
    /// The route of the start page (default: the first view with `nav`).
    #[serde(default)]
    pub home: Option<String>,
    /// The seed file beside the spec (default `seed.json`).
    #[serde(default = "default_seed")]
    pub seed: String,
    /// Id of the signed-in user: a state key of kind `value` whose value `$user` yields.
    #[serde(default)]
    pub user: Option<String>,
    /// Volatile key-path globs masked before diffing.
    #[serde(default)]
    pub volatile: Vec<String>,
    /// Whether `envgen compile` derives `tasks.json` (default); `false` keeps a curated one
    /// (a re-expressed app shipping the hand-written app's tasks).
    #[serde(default = "yes")]
    pub derive_tasks: bool,
}

fn default_seed() -> String {
    "seed.json".into()
}

fn yes() -> bool {
    true
}

/// `[theme]`: tokens the renderer turns into CSS custom properties.
#[derive(Debug, Clone, Default, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Theme {
    /// Accent colour (buttons, current navigation item).
    pub accent: Option<String>,
    /// Page background.
    pub background: Option<String>,
    /// Panels and cards.
    pub surface: Option<String>,
    /// Body text.
    pub text: Option<String>,
    /// Secondary text.
    pub muted: Option<String>,
    /// Sidebar background.
    pub sidebar: Option<String>,
    /// Sidebar text (default: `text`).
    pub sidebar_text: Option<String>,
    /// Font stack.
    pub font: Option<String>,
    /// Corner radius.
    pub radius: Option<String>,
    /// `comfortable` (default) or `compact`.
    pub density: Option<String>,
}

/// What one top-level state key holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum EntityKind {
    /// An array of records (`issues`).
    #[default]
    List,
    /// One object (`settings`).
    Record,
    /// One scalar (`currentUser`).
    Value,
    /// Records keyed by their id: a JSON object whose values are records and whose keys equal
    /// the records' `id` (the Hub google_docs `documents` shape). Otherwise like `list`.
    Map,
}

impl EntityKind {
    /// Whether the entity holds many records (`list` or `map`).
    pub fn is_collection(self) -> bool {
        matches!(self, EntityKind::List | EntityKind::Map)
    }
}

/// `[[entities]]`: one top-level state key.
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Entity {
    /// The state key (`issues`).
    pub name: String,
    /// Singular label for people (`Issue`).
    #[serde(default)]
    pub label: Option<String>,
    /// `list` (default), `record` or `value`.
    #[serde(default)]
    pub kind: EntityKind,
    /// Fields of a `list` or `record` entity, in display order.
    #[serde(default)]
    pub fields: Vec<Spanned<Field>>,
    /// Type of a `value` entity (a field type name).
    #[serde(default, rename = "type")]
    pub value_type: Option<String>,
    /// The entity a `value` of type `ref` names.
    #[serde(default)]
    pub entity: Option<String>,
    /// The field a task names a record by (default `id`).
    #[serde(default)]
    pub key: Option<String>,
    /// The field shown as a record's title (default: the first string field).
    #[serde(default)]
    pub title: Option<String>,
    /// Prefix of generated ids (default: the entity's first letter).
    #[serde(default)]
    pub id_prefix: Option<String>,
    /// Notes for SKILL.md and the manifest.
    #[serde(default)]
    pub notes: Option<String>,
}

/// One field of a record.
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Field {
    /// The JSON key.
    pub name: String,
    /// The type name: see [`FieldType`].
    #[serde(rename = "type")]
    pub ty: String,
    /// Label in forms and tables (default: the name, humanised).
    #[serde(default)]
    pub label: Option<String>,
    /// `enum`: the allowed values.
    #[serde(default)]
    pub values: Vec<String>,
    /// `ref`/`refs`: the entity whose `id` it holds.
    #[serde(default)]
    pub entity: Option<String>,
    /// `records`: the nested records' fields.
    #[serde(default)]
    pub fields: Vec<Spanned<Field>>,
    /// Whether `null` (or absence) is allowed.
    #[serde(default)]
    pub optional: bool,
    /// The value a created record gets when no input sets it (a literal or `$now`, `$today`,
    /// `$user`).
    #[serde(default)]
    pub default: Option<toml::Value>,
}

/// The field types the language knows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FieldType {
    /// A record id (string), generated on create.
    Id,
    /// One line of text.
    String,
    /// Multi-line text.
    Text,
    /// An e-mail address.
    Email,
    /// An integer.
    Int,
    /// A number.
    Number,
    /// `true` / `false`.
    Bool,
    /// `YYYY-MM-DD`.
    Date,
    /// RFC 3339 date-time.
    Datetime,
    /// One of `values`.
    Enum,
    /// The `id` of a record of `entity`.
    Ref,
    /// A list of ids of records of `entity`.
    Refs,
    /// A list of strings.
    Tags,
    /// A list of nested records with `fields`.
    Records,
    /// One nested object with `fields` (`linkSharing: {enabled, permission}`); set whole.
    Object,
    /// Any JSON value (a map such as `transitions{from: [to…]}`): shown, never edited.
    Json,
}

impl FieldType {
    /// Every type name, as written in a spec.
    pub const NAMES: &'static [&'static str] = &[
        "id", "string", "text", "email", "int", "number", "bool", "date", "datetime", "enum",
        "ref", "refs", "tags", "records", "object", "json",
    ];

    /// The type named `name`, if the language has it.
    pub fn parse(name: &str) -> Option<FieldType> {
        use FieldType::*;
        Some(match name {
            "id" => Id,
            "string" => String,
            "text" => Text,
            "email" => Email,
            "int" => Int,
            "number" => Number,
            "bool" => Bool,
            "date" => Date,
            "datetime" => Datetime,
            "enum" => Enum,
            "ref" => Ref,
            "refs" => Refs,
            "tags" => Tags,
            "records" => Records,
            "object" => Object,
            "json" => Json,
            _ => return None,
        })
    }

    /// Whether the value is a JSON list.
    pub fn is_list(self) -> bool {
        matches!(self, FieldType::Refs | FieldType::Tags | FieldType::Records)
    }
}

/// The kinds of view the renderer draws.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ViewKind {
    /// Records as a vertical list of cards.
    List,
    /// Records as table rows with `columns`.
    Table,
    /// Records in columns by the enum field `group_by`.
    Board,
    /// One record: its `fields` and record actions.
    Detail,
    /// A page holding one collection action's form (create).
    Form,
    /// Records placed on a month grid by `date_field`.
    Calendar,
    /// A message list with unread state (`unread_field`).
    Inbox,
    /// One record and its nested `thread_field` records, with a reply action.
    Thread,
    /// One record's long text `body_field` in an editor.
    Document,
    /// Counts (`metrics`) over entities.
    Dashboard,
    /// A `record` entity's fields as a settings form.
    Settings,
}

impl ViewKind {
    /// Whether a route of this view names one record (`/issue/{key}`).
    pub fn is_record(self) -> bool {
        matches!(
            self,
            ViewKind::Detail | ViewKind::Thread | ViewKind::Document
        )
    }
}

/// A `field = value` condition (view filters, dashboard metrics).
#[derive(Debug, Clone, Deserialize, Serialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Condition {
    /// The field.
    pub field: String,
    /// The value it must equal (`$user` = the signed-in user).
    pub value: toml::Value,
}

/// One dashboard number.
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Metric {
    /// Its label.
    pub label: String,
    /// The `list` entity counted.
    pub entity: String,
    /// Only records matching this.
    #[serde(default, rename = "where")]
    pub condition: Option<Condition>,
}

/// `[[views]]`: one page (or a family of pages, one per record).
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct View {
    /// Stable id (`issue_list`).
    pub name: String,
    /// What it draws.
    pub kind: ViewKind,
    /// The entity it shows (a `record` entity for `settings`; none for `dashboard`).
    #[serde(default)]
    pub entity: Option<String>,
    /// Its route; a record view has one `{field}` segment naming the key field (`/issue/{key}`).
    pub route: String,
    /// Page heading.
    pub title: String,
    /// Label of its sidebar link (absent: not in the sidebar).
    #[serde(default)]
    pub nav: Option<String>,
    /// Table columns / list and card lines / detail fields (default: every field).
    #[serde(default)]
    pub fields: Vec<String>,
    /// The record view a row's title opens.
    #[serde(default)]
    pub open: Option<String>,
    /// Actions offered on the page (collection actions; record actions on record views).
    #[serde(default)]
    pub actions: Vec<String>,
    /// Only records matching this.
    #[serde(default)]
    pub filter: Option<Condition>,
    /// Sort field (`-field` = descending).
    #[serde(default)]
    pub sort: Option<String>,
    /// `board`: the enum field whose values are the columns.
    #[serde(default)]
    pub group_by: Option<String>,
    /// `calendar`: the date or datetime field.
    #[serde(default)]
    pub date_field: Option<String>,
    /// `calendar`: the month shown (`YYYY-MM`, default the environment's today).
    #[serde(default)]
    pub month: Option<String>,
    /// `inbox`: the bool field that is true once a message is read.
    #[serde(default)]
    pub unread_field: Option<String>,
    /// `thread`: the `records` field holding the messages.
    #[serde(default)]
    pub thread_field: Option<String>,
    /// `document`: the `text` field edited.
    #[serde(default)]
    pub body_field: Option<String>,
    /// `dashboard`: the numbers shown.
    #[serde(default)]
    pub metrics: Vec<Metric>,
    /// Layout region (`main`, default; `aside`).
    #[serde(default)]
    pub region: Option<String>,
}

/// What an action is bound to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ActionOn {
    /// One record of a `list` entity (its form carries the record id).
    #[default]
    Record,
    /// The collection (creates a record).
    Collection,
    /// A `record` entity (settings).
    Singleton,
}

/// One form input of an action.
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Input {
    /// The form field name effects read as `@name` (default: `field`).
    #[serde(default)]
    pub name: Option<String>,
    /// The entity field it edits (its type, label and choices come from there).
    #[serde(default)]
    pub field: Option<String>,
    /// The type when no `field` (a free input, e.g. a comment body).
    #[serde(default, rename = "type")]
    pub ty: Option<String>,
    /// Label (default: the field's).
    #[serde(default)]
    pub label: Option<String>,
    /// Whether it may be left blank.
    #[serde(default)]
    pub optional: bool,
}

impl Input {
    /// The form field name.
    pub fn key(&self) -> &str {
        self.name
            .as_deref()
            .or(self.field.as_deref())
            .unwrap_or_default()
    }
}

/// The declarative state operations an action performs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Op {
    /// `field` := `value`.
    Set,
    /// `field` := not `field` (bool).
    Toggle,
    /// `field` += `by` (int/number; default 1).
    Increment,
    /// Appends `value` (tags/refs) or `record` (records) to the list `field`.
    Append,
    /// Removes `value` from the list `field`.
    RemoveItem,
    /// Appends a new record built from the inputs and field defaults to the collection.
    Create,
    /// Removes the bound record from its collection.
    Remove,
}

/// One state effect. Values: a literal; `@input` (a form input); `$now`, `$today`, `$user`.
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Effect {
    /// The operation.
    pub op: Op,
    /// The field it changes (not for `create` / `remove`).
    #[serde(default)]
    pub field: Option<String>,
    /// The value (`set`, `append`, `remove_item`).
    #[serde(default)]
    pub value: Option<toml::Value>,
    /// `append` to a `records` field: the nested record (field → value).
    #[serde(default)]
    pub record: Option<toml::Table>,
    /// `increment`: the step.
    #[serde(default)]
    pub by: Option<f64>,
}

/// `[[actions]]`: one thing a user can do, with its declared effects.
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Action {
    /// Stable id (`update_details`): the form posts to `/op/<name>`.
    pub name: String,
    /// The submit button's label (its accessible name).
    pub label: String,
    /// The entity it changes.
    pub entity: String,
    /// `record` (default), `collection` (create) or `singleton`.
    #[serde(default)]
    pub on: ActionOn,
    /// The form inputs.
    #[serde(default)]
    pub inputs: Vec<Input>,
    /// What it does to the state, in order.
    pub effects: Vec<Effect>,
    /// The declared observable changes (`entity.field`, `entity+` = a record added,
    /// `entity-` = a record removed): must equal what `effects` write.
    pub changes: Vec<String>,
    /// The banner after success (`{field}` = the record's field).
    #[serde(default)]
    pub success: Option<String>,
    /// The view shown after success (default: back where the form was).
    #[serde(default)]
    pub go: Option<String>,
    /// The custom-widget escape hatch: raw HTML drawn in the form instead of the generated
    /// inputs (`{id}` = the bound record's id). Its fields are posted as they are; `envgen
    /// check` still crawls it and compares its diff with `changes`.
    #[serde(default)]
    pub widget: Option<String>,
}

/// `[[plans]]`: how the generic ui-oracle planner realises an app-specific task template
/// (`add_comment`): open the record a slot names, fill the action's inputs from slots, submit.
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct PlanRule {
    /// The task template (`template` of the task) this rule plans.
    pub template: String,
    /// The record action that realises it.
    pub action: String,
    /// The slot naming the record (by the record view's route field, e.g. an issue key).
    pub record: String,
    /// Action input → the slot whose value it is filled with.
    #[serde(default)]
    pub inputs: std::collections::BTreeMap<String, String>,
}
