//! Writer recipes: one per taxonomy leaf (one per template). Each draws one of the pack's shipped
//! tasks of that template (documents, targets and ground truth already checked by the loop) and
//! re-frames it, so generated tasks stay verifiable; [`from_shipped`] lives in [`crate::apps::office`].

use crate::apps::office::from_shipped;
use crate::taskgen::recipes::{Ctx, Draft, Recipe};

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
