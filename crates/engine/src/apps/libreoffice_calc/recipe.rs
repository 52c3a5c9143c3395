//! libreoffice_calc recipes: spreadsheet tasks on a workbook the setup writes with openpyxl and
//! opens in Calc (the same slot shapes as the shipped tasks of `generate_tasks.py`).

use serde_json::{json, Map, Value};

use crate::taskgen::recipes::{Ctx, Draft, Recipe};

/// Sheets the recipes write: (file stem, sheet name, header, row labels).
const BOOKS: [(&str, &str, [&str; 4], [&str; 5]); 4] = [
    ("sales", "Sales", ["Region", "Q1", "Q2", "Q3"], ["North", "South", "East", "West", "Central"]),
    ("budget", "Budget", ["Category", "Jan", "Feb", "Mar"], ["Rent", "Payroll", "Travel", "Software", "Supplies"]),
    ("grades", "Grades", ["Student", "Quiz", "Midterm", "Final"], ["Ada", "Ben", "Chen", "Dana", "Eli"]),
    ("inventory", "Stock", ["Item", "StoreA", "StoreB", "StoreC"], ["Pens", "Paper", "Toner", "Folders", "Tape"]),
];
const COLS: [&str; 4] = ["A", "B", "C", "D"];

/// The workbook of a draft: (file, sheet, rows with the header first).
fn book(serial: u64) -> (String, &'static str, Vec<Vec<Value>>) {
    let (stem, sheet, header, labels) = BOOKS[serial as usize % BOOKS.len()];
    let mut rows = vec![header.iter().map(|h| json!(h)).collect::<Vec<_>>()];
    for (r, label) in labels.iter().enumerate() {
        let base = 10 + (serial * 17 + r as u64 * 29) % 90;
        rows.push(vec![json!(label), json!(base), json!(base + 7 + r as u64 * 3), json!((base * 2 + serial) % 97 + 3)]);
    }
    (format!("Documents/{stem}-{}.xlsx", serial % 1000), sheet, rows)
}

fn refs(col_from: usize, col_to: usize, row_from: u64, row_to: u64) -> Vec<String> {
    (col_from..=col_to)
        .flat_map(|c| (row_from..=row_to).map(move |r| format!("{}{r}", COLS[c])))
        .collect()
}

/// The template-specific slots and instruction of a draft on `file`/`sheet`/`rows`.
fn task(ctx: &mut Ctx<'_>, template: &str, file: &str, sheet: &str, rows: &[Vec<Value>]) -> (Map<String, Value>, String) {
    let n = ctx.serial;
    let pick = |k: usize| (n as usize) % k;
    let mut s = Map::new();
    let core = match template {
        "fill_cells" => {
            let mut cells = Map::new();
            cells.insert("E1".into(), json!(["Q4", "Apr", "Bonus", "Extra"][pick(4)]));
            for r in 0..(1 + pick(3)) {
                cells.insert(format!("E{}", r + 2), json!(100 + (n * 37 + r as u64 * 13) % 400));
            }
            let core = format!("In {file}, fill column E with {} and save.", Value::Object(cells.clone()));
            s.insert("cells".into(), Value::Object(cells));
            core
        }
        "formula_total" => {
            let c = COLS[1 + pick(3)];
            let k = 1 + pick(3);
            let total: i64 = rows[1..].iter().filter_map(|r| r[k].as_i64()).sum();
            let c = if COLS[k] == c { c } else { COLS[k] };
            s.insert("formulas".into(), json!({format!("{c}7"): format!("=SUM({c}2:{c}6)")}));
            s.insert("values".into(), json!({format!("{c}7"): total}));
            format!("In {file}, put the total of column {c} in {c}7 with a SUM formula, then save.")
        }
        "style_range" => {
            let style = ["bold", "italic", "underline"][pick(3)];
            s.insert("range".into(), json!("A2:A6"));
            s.insert("cells".into(), json!(refs(0, 0, 2, 6)));
            s.insert("style".into(), json!(style));
            format!("Make the labels A2:A6 of {sheet} in {file} {style}, then save.")
        }
        "number_format" => {
            let kind = ["percent", "decimal", "currency"][pick(3)];
            s.insert("range".into(), json!("B2:B6"));
            s.insert("cells".into(), json!(refs(1, 1, 2, 6)));
            s.insert("kind".into(), json!(kind));
            format!("Format B2:B6 in {file} as {kind}, then save.")
        }
        "named_range" => {
            let name = ["FirstColumn", "Labels", "Figures"][pick(3)];
            s.insert("name".into(), json!(name));
            s.insert("range".into(), json!("B2:B6"));
            format!("Define the named range {name} for {sheet}!B2:B6 in {file}, then save.")
        }
        "sort_column" => {
            let mut data: Vec<Vec<Value>> = rows[1..].to_vec();
            data.sort_by_key(|r| std::cmp::Reverse(r[1].as_i64().unwrap_or(0)));
            s.insert("column".into(), json!("B"));
            s.insert("order".into(), json!("descending"));
            s.insert("expected".into(), json!(data));
            format!("Sort the rows of {sheet} in {file} by column B, largest first, keeping the header; save.")
        }
        "rename_sheet" => {
            let new = ["Summary", "Archive", "Final"][pick(3)];
            s.insert("new_name".into(), json!(new));
            format!("Rename the sheet {sheet} of {file} to {new} and save.")
        }
        "freeze_row" => {
            let (cell, what) = [("A2", "the header row"), ("B1", "the first column")][pick(2)];
            s.insert("freeze".into(), json!(cell));
            format!("Freeze {what} of {sheet} in {file}, then save.")
        }
        _ => format!("Protect the {sheet} sheet of {file} (no password) and save."),
    };
    let _ = ctx.idx(1);
    (s, core)
}

fn draft(ctx: &mut Ctx<'_>, template: &str) -> Option<Draft> {
    let (file, sheet, rows) = book(ctx.serial);
    let (mut slots, core) = task(ctx, template, &file, sheet, &rows);
    slots.insert("file".into(), json!(file));
    slots.insert("sheet".into(), json!(sheet));
    slots.insert("rows".into(), json!(rows));
    let context = format!(
        "The setup writes /home/user/{file} (sheet {sheet}, A1:D6) and opens it in Calc. Ground truth: the slots {}.",
        Value::Object(slots.clone())
    );
    Some(ctx.draft(0, core, context, template, Value::Object(slots), vec!["libreoffice_calc"]))
}

macro_rules! recipes {
    ($($name:ident => $template:literal),* $(,)?) => {
        $(fn $name(ctx: &mut Ctx<'_>) -> Option<Draft> { draft(ctx, $template) })*
        /// The pack's recipes by taxonomy `recipe` name.
        pub const RECIPES: &[(&str, Recipe)] = &[$((concat!("calc_", $template), $name)),*];
    };
}

recipes! {
    fill => "fill_cells",
    formula => "formula_total",
    style => "style_range",
    number => "number_format",
    named => "named_range",
    sort => "sort_column",
    rename => "rename_sheet",
    freeze => "freeze_row",
    protect => "protect_sheet",
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::agents::scripted::templates::{lookup, required_slots};
    use rand::SeedableRng;

    #[test]
    fn every_recipe_drafts_every_slot_its_template_needs() {
        let seeds = crate::taskgen::seeds::Seeds::builtin().unwrap();
        let apps = vec!["libreoffice_calc".to_string()];
        for (name, recipe) in RECIPES {
            for serial in 0..6 {
                let mut rng = rand::rngs::StdRng::seed_from_u64(serial);
                let mut ctx = Ctx {
                    rng: &mut rng,
                    seeds: &seeds,
                    difficulty: "easy",
                    category: "work",
                    serial,
                };
                let d = recipe(&mut ctx).unwrap();
                let tpl = lookup(&d.template, &apps, None).unwrap();
                for slot in required_slots(&tpl) {
                    assert!(d.slots.get(&slot).is_some(), "{name}: slot {slot} missing");
                }
                // The planner can plan what the recipe drafts.
                super::super::planner::calc_plan(&d.template, &d.slots).unwrap();
            }
        }
    }
}
