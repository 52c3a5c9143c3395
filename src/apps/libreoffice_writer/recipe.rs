//! Writer recipes: one per taxonomy leaf (one per template). Each draws one of the pack's shipped
//! tasks of that template (documents, targets and ground truth already checked by the loop) and
//! re-frames it, so generated tasks stay verifiable; [`from_shipped`] is shared with Impress.

use serde_json::Value;

use crate::engine::taskgen::recipes::{Ctx, Draft, Recipe};

/// Draws a shipped task of `template` from `tasks_text` (a pack's `tasks.json`) for `app`.
pub(crate) fn from_shipped(
    ctx: &mut Ctx<'_>,
    tasks_text: &str,
    app: &'static str,
    template: &str,
) -> Option<Draft> {
    let doc: Value = serde_json::from_str(tasks_text).ok()?;
    let pool: Vec<&Value> = doc
        .get("tasks")?
        .as_array()?
        .iter()
        .filter(|t| t.get("template").and_then(Value::as_str) == Some(template))
        .collect();
    let v = ctx.idx(pool.len());
    let task = pool.get(v)?;
    let text = |key: &str| {
        task.get(key)
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_string()
    };
    let mut draft = ctx.draft(
        v,
        text("task_instruction"),
        text("context"),
        template,
        task.get("slots")?.clone(),
        vec![app],
    );
    draft.difficulty = text("difficulty");
    Some(draft)
}

/// One recipe function per template: `(recipe name, template)`.
macro_rules! shipped_recipes {
    ($($fn_name:ident => $template:literal),* $(,)?) => {
        $(fn $fn_name(ctx: &mut Ctx<'_>) -> Option<Draft> {
            from_shipped(ctx, TASKS, "libreoffice_writer", $template)
        })*
        /// The recipes `taxonomy.toml` names.
        pub const RECIPES: &[(&str, Recipe)] = &[$((concat!("writer_", $template), $fn_name)),*];
    };
}

const TASKS: &str = include_str!("tasks.json");

shipped_recipes! {
    char_format => "char_format",
    para_format => "para_format",
    apply_style => "apply_style",
    find_replace => "find_replace",
    table_fill => "table_fill",
    insert_table => "insert_table",
    header_footer => "header_footer",
    page_setup => "page_setup",
    insert_paragraph => "insert_paragraph",
    delete_paragraph => "delete_paragraph",
    make_list => "make_list",
    page_break => "page_break",
}
