//! Impress recipes: one per taxonomy leaf (one per template), drawing the pack's shipped tasks
//! of that template (see [`crate::apps::office::from_shipped`]).

use crate::apps::office::from_shipped;
use crate::taskgen::recipes::{Ctx, Draft, Recipe};

const TASKS: &str = include_str!("tasks.json");

/// One recipe function per template.
macro_rules! shipped_recipes {
    ($($fn_name:ident => $template:literal),* $(,)?) => {
        $(fn $fn_name(ctx: &mut Ctx<'_>) -> Option<Draft> {
            from_shipped(ctx, TASKS, "libreoffice_impress", $template)
        })*
        /// The recipes `taxonomy.toml` names.
        pub const RECIPES: &[(&str, Recipe)] = &[$((concat!("impress_", $template), $fn_name)),*];
    };
}

shipped_recipes! {
    add_shape => "add_shape",
    add_slide => "add_slide",
    background => "background",
    delete_slide => "delete_slide",
    edit_title => "edit_title",
    export_pdf => "export_pdf",
    find_replace => "find_replace",
    move_slide => "move_slide",
    speaker_notes => "speaker_notes",
    title_format => "title_format",
    transition => "transition",
}
